"""Lens distortion estimated from the board itself, and the checks that refuse wrong fits.

Synthetic boards (``calibration.synthetic``) are bent by a known radial lens; the calibration
must find the lens and map raw pixels to board mm to well under a millimetre, where a plain
homography is off by several.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.calibration.conftest import crokinole_view
from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration import Calibration, calibrate_image
from tracker.calibration.crokinole_measure import line_or_edge
from tracker.calibration.geometry import apply_h
from tracker.calibration.korona_fit import camera_centre, visible_rims
from tracker.calibration.lens import LensModel
from tracker.calibration.synthetic import camera_homography, draw_korona_topdown, synthetic_view
from tracker.errors import CalibrationError

SIZE = (640, 480)


def _bend(img: np.ndarray, lens: LensModel) -> np.ndarray:
    """The picture a lens would take of the ideal (undistorted) ``img``."""
    import cv2

    h, w = img.shape[:2]
    X, Y = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    src = lens.undistort_px(np.stack([X.ravel(), Y.ravel()], axis=1)).reshape(h, w, 2)
    return cv2.remap(img, src[..., 0].astype(np.float32), src[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=(90, 90, 90))


def _disc(r: float, n: int = 15) -> np.ndarray:
    xs = np.linspace(-r, r, n)
    X, Y = np.meshgrid(xs, xs)
    keep = r * r >= X**2 + Y**2
    return np.stack([X[keep], Y[keep]], axis=1)


def test_lens_model_round_trip_matches_opencv() -> None:
    import cv2

    lens = LensModel(SIZE, -0.2, 0.03)
    p = np.array([[0.0, 0.0], [639.0, 479.0], [100.0, 300.0], [319.5, 239.5]])
    d = lens.distort_px(p)
    assert np.allclose(lens.undistort_px(d), p, atol=1e-6)
    K, D = lens.camera()
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
    ocv = cv2.undistortPoints(d.reshape(-1, 1, 2), K, D, None, None, K, crit).reshape(-1, 2)
    assert np.allclose(ocv, p, atol=0.01)
    # and the Calibration built on it maps raw pixels both ways
    calib = Calibration(homography=np.eye(3), image_size=SIZE, rms_mm=0.0, board=KoronaBoard(),
                        camera_matrix=K, dist_coeffs=D)
    assert np.allclose(calib.to_board(d), p, atol=0.01)
    assert np.allclose(calib.to_image(p), d, atol=0.01)
    # barrel: the corners move toward the centre
    assert np.linalg.norm(d[1] - lens.c) < np.linalg.norm(p[1] - lens.c) - 10


@pytest.mark.parametrize("tilt,azimuth,k1", [(30, 20, -0.18), (40, 200, -0.1)])
def test_crokinole_lens_is_estimated(tilt: float, azimuth: float, k1: float) -> None:
    img, H_true = crokinole_view(tilt, azimuth)
    G_true = np.linalg.inv(H_true)
    lens = LensModel(SIZE, k1)
    calib = calibrate_image(_bend(img, lens), "crokinole")
    assert calib.dist_coeffs is not None and calib.camera_matrix is not None
    # the camera matrix carries the real focal length (solved from the tilted view) and the
    # coefficients in its units: back in the units of the half image width they are k1
    f = calib.camera_matrix[0, 0]
    assert f == pytest.approx(0.7 * SIZE[0] * 1400 / 1000, rel=0.1)
    assert calib.dist_coeffs[0] * (lens.s / f) ** 2 == pytest.approx(k1, abs=0.04)
    # up to the board's quarter-turn symmetry (the rotation cue is tested elsewhere)
    pts = _disc(330.0)
    errs = []
    for k in range(4):
        c, s = np.cos(k * np.pi / 2), np.sin(k * np.pi / 2)
        R = np.array([[c, -s], [s, c]])
        raw = lens.distort_px(apply_h(G_true, pts))
        errs.append(np.linalg.norm(calib.to_board(raw) @ R.T - pts, axis=1))
    best = min(errs, key=lambda e: float(e.mean()))
    assert best.mean() < 0.6 and best.max() < 1.5, (best.mean(), best.max())


def test_korona_lens_is_estimated() -> None:
    board = KoronaBoard()
    G_true = camera_homography(SIZE, 25, 30, distance_mm=2000, focal_px=600)
    top, M = draw_korona_topdown(board, 1.0)
    lens = LensModel(SIZE, -0.15)
    img = _bend(synthetic_view(top, M, G_true, SIZE, noise=2.0), lens)
    calib = calibrate_image(img, "korona")
    assert calib.dist_coeffs is not None and calib.camera_matrix is not None
    f = calib.camera_matrix[0, 0]
    assert f == pytest.approx(600, rel=0.1)
    assert calib.dist_coeffs[0] * (lens.s / f) ** 2 == pytest.approx(-0.15, abs=0.04)
    xs = np.linspace(-board.half, board.half, 15)
    X, Y = np.meshgrid(xs, xs)
    pts = np.stack([X.ravel(), Y.ravel()], axis=1)
    raw = lens.distort_px(apply_h(G_true, pts))
    est = calib.to_board(raw)
    errs = []
    for k in range(4):
        c, s = np.cos(k * np.pi / 2), np.sin(k * np.pi / 2)
        errs.append(np.linalg.norm(est @ np.array([[c, -s], [s, c]]).T - pts, axis=1))
    best = min(errs, key=lambda e: float(e.mean()))
    assert best.mean() < 0.8 and best.max() < 2.0, (best.mean(), best.max())


def test_surface_edge_taken_for_shooting_line_is_refused() -> None:
    """The broadcast failure: a fit that put the shooting line on the surface's edge."""
    board = CrokinoleBoard()
    img, H_true = crokinole_view(0, 0, board=board)
    G = np.linalg.inv(H_true)
    assert line_or_edge(img, G) < 0.6  # the real line: no complaint
    f = board.surface_radius / board.shooting_line_radius
    with pytest.raises(CalibrationError, match="edge"):
        line_or_edge(img, G @ np.diag([f, f, 1.0]))


def test_camera_position_and_visible_rims() -> None:
    # camera 2000 mm away, tilted 45 degrees, standing south: it sees over the south rim
    G = camera_homography(SIZE, 45, 0, distance_mm=2000, focal_px=600)
    C = camera_centre(G, SIZE)
    assert C is not None
    s = 2000 * np.sqrt(0.5)
    assert pytest.approx(np.array([0.0, -s, s]), abs=5.0) == C
    assert visible_rims(G, SIZE, KoronaBoard().half) == ("north", "east", "west")
    # straight above the centre: every wall faces the camera
    assert visible_rims(camera_homography(SIZE, 0, 0), SIZE, KoronaBoard().half) == ("north", "east", "south", "west")
