"""A find that is a patch of board framed by a shadow, not a disc (``framed.py``; broadcast still
-2AxSj5mko0: a hand's shadow scored as a red 5). Drawn top-down, 1 px a mm: a disc's face differs
from the board the same way all round; the patch is darker than the lit board on one side and
lighter than the shadow on the other, and ``tracker photo`` leaves it out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.detect.detector import DetectorSettings, DiscDetector
from tracker.detect.framed import framed, outline_agreement
from tracker.detect.geometry import camera_pose
from tracker.detect.photo import PHOTO_BEVEL_MM, score_detections
from tracker.render.still import still_frame

BOARD = CrokinoleBoard()
WOOD = (150, 200, 225)  # BGR, light wood
RED = (60, 60, 180)


def _calib() -> Calibration:
    # 1 px = 1 mm, image 800x800 centred on the board, y up.
    H = np.array([[1.0, 0, -400.0], [0, -1.0, 400.0], [0, 0, 1.0]])
    return Calibration(homography=H, image_size=(800, 800), rms_mm=0.3, board=BOARD)


def _px(x: float, y: float) -> tuple[int, int]:
    return int(round(400 + x)), int(round(400 - y))


def _image() -> np.ndarray:
    """Board with a red disc at (120, -60); at (-150, 120) a hand's soft shadow: two fingers'
    shadows either side of a disc-sized gap in half shade, a board line beside it."""
    img = np.zeros((800, 800, 3), np.uint8)
    img[:] = WOOD
    cv2.circle(img, _px(120.0, -60.0), int(BOARD.disc_radius), RED, -1, cv2.LINE_AA)
    cv2.circle(img, _px(0.0, 0.0), int(np.hypot(-150.0 - 20.0, 120.0)), (40, 50, 60), 2, cv2.LINE_AA)
    shade = np.zeros((800, 800), np.float32)
    cv2.ellipse(shade, _px(-178.0, 128.0), (14, 45), -20.0, 0, 360, 1.0, -1)  # a finger's shadow
    cv2.ellipse(shade, _px(-150.0, 152.0), (45, 13), 10.0, 0, 360, 1.0, -1)  # another one's
    cv2.circle(shade, _px(-150.0, 120.0), int(BOARD.disc_radius), 0.5, -1)  # the half-shaded gap
    shade = cv2.GaussianBlur(shade, (0, 0), 3.0)
    return (img.astype(np.float32) * (1.0 - 0.45 * shade[..., None])).astype(np.uint8)


def _dets() -> Detections:
    xy = np.array([[120.0, -60.0], [-150.0, 120.0]])
    return Detections(xy=xy, color=np.array([[45.0, 50.0, 30.0], [70.0, 5.0, 22.0]]),
                      where=np.full(2, ON_SURFACE), surround=np.tile([80.0, 5.0, 25.0], (2, 1)))


def test_the_board_round_a_disc_differs_from_it_all_round_and_round_a_framed_patch_it_does_not() -> None:
    img, calib = _image(), _calib()
    pose = camera_pose(calib)
    xy = _dets().xy
    disc = outline_agreement(img, calib, pose, BOARD, xy[0], xy[1:])
    patch = outline_agreement(img, calib, pose, BOARD, xy[1], xy[:1])
    assert not framed(disc) and disc[0] >= 0.95 and framed(patch), (disc, patch)


def test_a_patch_framed_by_a_shadow_scores_nothing() -> None:
    result = score_detections(_calib(), _dets(), image=_image())
    assert [(round(d.x), round(d.y)) for d in result.discs] == [(120, -60)]
    assert any("(-150, 120)" in n for n in result.notes)


def _ten_and_a_pair(rng: np.random.Generator) -> list[tuple[float, float, int]]:
    """Ten discs apart on the surface, clear of the pegs, and one touching the first."""
    out: list[tuple[float, float, int]] = []
    while len(out) < 10:
        a, d = rng.uniform(0, 2 * np.pi), rng.uniform(25.0, 280.0)
        x, y = d * np.cos(a), d * np.sin(a)
        if all(np.hypot(x - p, y - q) > 2 * BOARD.disc_radius + 0.5 for p, q, _ in out) and \
                all(np.hypot(x - px, y - py) > BOARD.disc_radius + 4.0 for px, py in BOARD.peg_positions()):
            out.append((float(x), float(y), len(out) % 2))
    x, y, s = out[0]
    return [*out, (x + 2 * BOARD.disc_radius + 0.2, y, 1 - s)]


@pytest.mark.parametrize("seed", [106, 107])
def test_light_discs_with_their_own_cast_shadow_are_kept(seed: int) -> None:
    # Hard look: light discs on a light board, each casting a shadow to one side, agree with
    # the board round them as little as 0.56-0.69, but nothing round them is clearly lighter.
    img, calib = still_frame(BOARD, "hard", (1280, 720), seed, _ten_and_a_pair)
    dets = DiscDetector(calib, "crokinole", settings=DetectorSettings(bevel=PHOTO_BEVEL_MM, bevel_in_fit=True)).detect(img)
    result = score_detections(calib, dets, image=img)
    assert len(result.discs) == len(dets) and not result.notes, result.notes
