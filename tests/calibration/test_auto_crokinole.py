from __future__ import annotations

import numpy as np
import pytest

from tests.calibration.conftest import crokinole_view
from tracker.boards import CrokinoleBoard
from tracker.calibration import calibrate_image
from tracker.calibration.geometry import apply_h, reprojection_error_mm
from tracker.errors import CalibrationError


@pytest.mark.parametrize("tilt,azimuth", [(0, 0), (45, 0), (25, 30)])
def test_homography_matches_truth(tilt: float, azimuth: float) -> None:
    img, H_true = crokinole_view(tilt, azimuth)
    calib = calibrate_image(img, "crokinole")
    mean, worst = reprojection_error_mm(calib.homography, H_true, 330.2)
    assert mean < 0.8, (mean, worst)
    assert worst < 2.0, (mean, worst)
    assert calib.rms_mm < 1.0
    assert calib.image_size == (640, 480)
    for k in ("shooting_line", "ten_line", "fifteen_line"):
        assert calib.residuals_mm[k] < 1.0


def test_measures_non_default_rings() -> None:
    board = CrokinoleBoard(ten_line_radius=190.0, fifteen_line_radius=92.0, peg_circle_radius=92.0)
    img, H_true = crokinole_view(20, 0, board=board)
    calib = calibrate_image(img, "crokinole")
    b = calib.board
    assert isinstance(b, CrokinoleBoard)
    assert b.shooting_line_radius == 304.8  # the scale is fixed by the shooting line
    assert b.ten_line_radius == pytest.approx(190.0, abs=1.5)
    assert b.fifteen_line_radius == pytest.approx(92.0, abs=1.5)
    assert b.surface_radius == pytest.approx(330.2, abs=2.5)
    assert b.hole_radius == pytest.approx(17.5, abs=1.5)
    assert b.peg_circle_radius == pytest.approx(92.0, abs=2.0)


@pytest.mark.parametrize("side", ["bottom", "left"])
def test_south_goes_where_asked(side: str) -> None:
    img, _ = crokinole_view(10, 90)  # camera east of the board: the true east is at the bottom
    calib = calibrate_image(img, "crokinole", south=side)
    G = np.linalg.inv(calib.homography)
    south = apply_h(G, np.array([[0.0, -300.0]]))[0] - apply_h(G, np.array([[0.0, 0.0]]))[0]
    expect = {"bottom": (0, 1), "top": (0, -1), "left": (-1, 0), "right": (1, 0)}[side]
    assert float(np.dot(south / np.linalg.norm(south), expect)) > 0.9
    # north is a quarter turn counter-clockwise from east seen from above: never mirrored
    east = apply_h(G, np.array([[300.0, 0.0]]))[0] - apply_h(G, np.array([[0.0, 0.0]]))[0]
    assert south[0] * east[1] - south[1] * east[0] < 0  # image y down: east is clockwise of south


def test_default_south_matches_camera_at_south() -> None:
    img, H_true = crokinole_view(30, 0)
    calib = calibrate_image(img, "crokinole")
    mean, _ = reprojection_error_mm(calib.homography, H_true, 330.2)
    assert mean < 0.8  # not just up to a rotation: the seats are right too


def test_refuses_image_without_board() -> None:
    rng = np.random.default_rng(1)
    noise = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    with pytest.raises(CalibrationError, match="no board found"):
        calibrate_image(noise, "crokinole")


def test_refuses_single_circle() -> None:
    import cv2

    img = np.full((480, 640, 3), 200, np.uint8)
    cv2.circle(img, (320, 240), 180, (30, 30, 30), 2)
    with pytest.raises(CalibrationError, match="no board found"):
        calibrate_image(img, "crokinole")


def test_search_order_video_frame_tries_arcs_before_the_larger_search(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A 1280x720 frame: the search among joined arcs (at the working size) comes before the
    search at RETRY_SIZE, nearly a full-resolution one there and the costliest; a large photo
    keeps the larger search second (its thin lines vanish at the working size)."""
    import tracker.calibration.crokinole as cr

    order: list[tuple[int, bool]] = []

    def refuse(image, board, size, fit_lens, arcs=False, ctx=None):  # type: ignore[no-untyped-def]
        order.append((size, arcs))
        raise CalibrationError("no board found: test")

    monkeypatch.setattr(cr, "_calibrate_at", refuse)
    for shape, want in (((720, 1280, 3), [(cr.WORK_SIZE, False), (cr.WORK_SIZE, True), (cr.RETRY_SIZE, False)]),
                        ((2048, 1800, 3), [(cr.WORK_SIZE, False), (cr.RETRY_SIZE, False), (cr.WORK_SIZE, True)]),
                        ((480, 640, 3), [(cr.WORK_SIZE, False), (cr.WORK_SIZE, True)])):
        order.clear()
        with pytest.raises(CalibrationError):
            cr.calibrate_crokinole(np.zeros(shape, np.uint8))
        assert order == want, (shape, order)
