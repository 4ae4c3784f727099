"""Rows of light discs on a light board found from the notches between them (``ladder.py``
through ``rim.py``): k4h_9306's white row on the cream board, which the strip's runs cut into
contacts a few millimetres long (no whole number of discs), was never found."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import Detections
from tracker.detect.detector import DiscDetector
from tracker.detect.rim import rim_discs
from tracker.detect.view_colours import lab_of

render = pytest.importorskip("tracker.render")

BOARD = KoronaBoard()
R = BOARD.disc_radius
LINE = -(BOARD.half - R)
ROW = tuple(-87.5 + 2 * R * k for k in range(8))


@functools.lru_cache(maxsize=2)
def _white_row(xs: tuple[float, ...]) -> tuple[np.ndarray, Calibration]:
    """White discs against the rim nearest an oblique camera (k4h_9306's view), on the white
    board, 640x360."""
    size = (640, 360)
    look = render.Look(surface="white", disc_colors=((235, 240, 242),), noise_sigma=1.0)
    cam = render.Camera(height=1281.0, tilt=39.0, azimuth=30.8, roll=7.4, focal=449.0, target=(70.0, -65.0))
    sprites = tuple(render.DiscSprite(id=f"d{i}", x=x, y=LINE, radius=R, thickness=BOARD.disc_thickness,
                                      side=0, kind="disc") for i, x in enumerate(xs))
    img = render.Renderer(BOARD, look, size, seed=3).render([render.SceneFrame(t=0.0, discs=sprites)], cam)
    K, dist = render.intrinsics(cam, size)
    calib = Calibration(homography=render.true_homography(cam, size), image_size=size, rms_mm=0.0,
                        board=BOARD, camera_matrix=K, dist_coeffs=dist)
    return img, calib


def _rim(xs: tuple[float, ...]) -> np.ndarray:
    img, calib = _white_row(xs)
    det = DiscDetector(calib, "korona")
    return rim_discs(det, lab_of(det.rectify(img)), Detections.empty()).xy


def test_a_row_of_white_discs_on_the_white_board_is_found() -> None:
    got = _rim(ROW)
    # placed at the peaks of the strip's score, not fitted: within half a disc's radius
    assert len(got) == len(ROW), got.round(1).tolist()
    for x in ROW:
        assert float(np.hypot(*(got - [x, LINE]).T).min()) < 0.5 * R, (x, got.round(1).tolist())


def test_the_bare_white_board_gives_no_row() -> None:
    assert len(_rim(())) == 0
