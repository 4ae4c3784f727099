"""Close line calls against the line as measured beside the disc (tracker.detect.linecall)."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.detect.linecall import local_line_radius
from tracker.detect.photo import score_detections

MM_PER_PX = 0.25
X0, Y0 = -60.0, 235.0  # board point at the image's top-left corner
SIZE = 480
BOARD_BGR = (90, 150, 200)
DISC_BGR = (40, 40, 40)


def _calib(board: CrokinoleBoard) -> Calibration:
    H = np.array([[MM_PER_PX, 0, X0], [0, -MM_PER_PX, Y0], [0, 0, 1.0]])
    return Calibration(homography=H, image_size=(SIZE, SIZE), rms_mm=0.4, board=board)


def _px(x: float, y: float) -> tuple[int, int]:
    return int(round((x - X0) / MM_PER_PX * 16)), int(round((Y0 - y) / MM_PER_PX * 16))


def _image(line_radius: float | None, disc: tuple[float, float], line_width: float = 2.0) -> np.ndarray:
    """A patch of board around the 10 line (painted at ``line_radius``), with one dark disc."""
    img = np.full((SIZE, SIZE, 3), BOARD_BGR, np.uint8)
    if line_radius is not None:  # exact coverage of each pixel by the ring (no stroking rounding)
        v, u = np.mgrid[0:SIZE, 0:SIZE].astype(float)
        d = np.hypot(X0 + MM_PER_PX * u, Y0 - MM_PER_PX * v)
        alpha = np.clip((line_width / 2 - np.abs(d - line_radius)) / MM_PER_PX + 0.5, 0.0, 1.0)[..., None]
        img = (img * (1 - alpha) + np.array((30, 45, 60)) * alpha).astype(np.uint8)
    cv2.circle(img, _px(*disc), int(round(15.875 / MM_PER_PX * 16)), DISC_BGR, -1, cv2.LINE_AA, shift=4)
    return cv2.GaussianBlur(img, (0, 0), 1.0)


def _dets(xy: tuple[float, float]) -> Detections:
    return Detections(xy=np.array([xy]), color=np.array([(30.0, 0.0, 0.0)]), where=np.array([ON_SURFACE]),
                      surround=np.array([(60.0, 10.0, 30.0)]))


def test_finds_the_painted_line_off_the_fitted_circle() -> None:
    board = CrokinoleBoard()  # fitted 10 line at 203.2 mm; the painted one is at 202.6 mm
    disc = (0.0, 202.6 - 1.0 - 15.875 - 3.0)
    got = local_line_radius(_image(202.6, disc), _calib(board), board, np.array(disc), "10")
    assert got is not None and abs(got - 202.6) < 0.1


def test_touching_the_painted_line_is_the_lower_value() -> None:
    """The disc's edge is 0.4 mm inside the fitted circle's inner edge (a 10 by the circle), but
    the line beside it is painted 0.6 mm further in, so the disc overlaps it by 0.2 mm: a 5."""
    board = CrokinoleBoard()
    edge = board.ten_line_radius - board.line_width / 2 - 0.4
    disc = (0.0, edge - board.disc_radius)
    img = _image(202.6, disc)
    by_circle = score_detections(_calib(board), _dets(disc))
    beside = score_detections(_calib(board), _dets(disc), image=img)
    assert by_circle.discs[0].points == 10 and abs(by_circle.discs[0].gap - 0.4) < 1e-6
    assert beside.discs[0].points == 5
    assert abs(beside.discs[0].gap + 0.2) < 0.1
    assert beside.to_json()["close_calls"][0]["line_measured"] == "beside the disc"


def test_no_line_to_see_keeps_the_fitted_circle() -> None:
    board = CrokinoleBoard()
    disc = (0.0, 185.0)
    assert local_line_radius(_image(None, disc), _calib(board), board, np.array(disc), "10") is None
    res = score_detections(_calib(board), _dets(disc), image=_image(None, disc))
    assert res.discs[0].line_radius is None and res.discs[0].points == 10



def test_a_light_line_on_a_dark_board() -> None:
    """Lines are not always dark: a white line on a dark board is found the same way."""
    board = CrokinoleBoard()
    disc = (0.0, 203.9 - 1.0 - 15.875 - 3.0)
    img = 255 - _image(203.9, disc)  # dark board, light line, light disc
    got = local_line_radius(img, _calib(board), board, np.array(disc), "10")
    assert got is not None and abs(got - 203.9) < 0.1
