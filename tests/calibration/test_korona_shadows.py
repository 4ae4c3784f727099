"""Korona calibration where the rims' shadows lie on the surface (``korona_fit.rim_offset``).

A lamp on one corner of the board shadows the two walls nearest it inward onto the surface; a
camera high on the opposite corner sees the inner faces of just those two walls. Their edges are
then found 8-12 mm inside the wall's foot on both sides, the same way: read as "the board is
larger than its profile", the fit was rescaled from the rims and every place came out 3% too
far from the centre (k4h_10006: 7.2 mm median error at rest). The painted lines and circle keep
the profile's proportion, so the rims must not overrule it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.calibration import calibrate_image
from tracker.calibration.korona_fit import KoronaFit, paint_off_profile
from tracker.calibration.lens import LensModel
from tracker.render import Renderer, SceneFrame, project
from tracker.render.scene import Camera, Look

SIZE = (640, 360)


def _surface_error(lamp_azimuth: float, camera_azimuth: float) -> tuple[float, float, KoronaBoard]:
    """Mean and worst error (mm) over the playing surface of the calibration of one rendered
    frame (modulo the board's quarter turns: the seat naming is not what is measured), and the
    board it measured."""
    board = KoronaBoard()
    look = Look(surface="white", rail="dark", shadow_strength=0.6, light_azimuth=lamp_azimuth,
                light_elevation=47.0, glare=0.0, noise_sigma=3.0)
    cam = Camera(height=1727.0, tilt=44.8, azimuth=camera_azimuth, roll=4.4, focal=808.0,
                 k1=-0.025, k2=-0.033, target=(0.0, -78.0))
    img = Renderer(board, look, SIZE, 1).render([SceneFrame(t=0.0)], cam)
    xs = np.linspace(-0.95 * board.half, 0.95 * board.half, 9)
    X, Y = np.meshgrid(xs, xs)
    pts = np.stack([X.ravel(), Y.ravel(), np.zeros(X.size)], axis=1)
    calib = calibrate_image(img, "korona")
    est = calib.to_board(project(cam, SIZE, pts))
    errs = []
    for k in range(4):
        c, s = math.cos(k * math.pi / 2), math.sin(k * math.pi / 2)
        errs.append(np.linalg.norm(est @ np.array([[c, s], [-s, c]]) - pts[:, :2], axis=1))
    best = min(errs, key=lambda e: float(e.mean()))
    measured = calib.board
    assert isinstance(measured, KoronaBoard)
    return float(best.mean()), float(best.max()), measured


@pytest.mark.parametrize("lamp,camera", [(39.0, -15.4), (129.0, 74.6)])
def test_two_shadowed_walls_do_not_rescale_the_board(lamp: float, camera: float) -> None:
    """Lamp on the north-east (or, a quarter turn on, north-west) corner, camera high on the far
    side: the two walls seen are the two shadowed ones. The board is its profile's."""
    mean, worst, measured = _surface_error(lamp, camera)
    assert mean < 0.6 and worst < 1.5, (mean, worst)
    assert measured.striking_line_offset == pytest.approx(105.0, abs=1.0)
    assert measured.centre_circle_radius == pytest.approx(80.0, abs=1.0)


def _fit(line_dist: float, circle: float) -> KoronaFit:
    return KoronaFit(G=np.eye(3), lens=LensModel(SIZE), line_dist=line_dist, circle_radius=circle)


def test_paint_off_profile_is_a_proportion() -> None:
    board = KoronaBoard()  # lines 320 mm from the centre, circle 80 mm
    assert paint_off_profile(_fit(320.0, 80.0), board) == pytest.approx(0.0)
    # the same board at another size: still the profile's proportion
    assert paint_off_profile(_fit(320.0 * 1.03, 80.0 * 1.03), board) == pytest.approx(0.0, abs=1e-12)
    # a carrom board read as korona (lines at the prior, the circle takes the difference)
    assert paint_off_profile(_fit(320.0, 95.0), board) == pytest.approx(0.1875)
