"""Korona calibration against clutter, textured surfaces and large photos.

Ground truth: synthetic views with a known homography (``synthetic.py``), and one real webcam
frame of a carrom board whose playing-area edges were read off the picture by eye (skipped when
``../shared/real`` is absent; never copied into the repository).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.calibration.conftest import REAL as REAL_ROOT
from tracker.boards import KoronaBoard
from tracker.calibration import calibrate_image
from tracker.calibration.geometry import apply_h, reprojection_error_mm
from tracker.calibration.korona import _verify
from tracker.calibration.korona_fit import KoronaFit
from tracker.calibration.korona_seed import _side_quad
from tracker.calibration.lens import LensModel
from tracker.calibration.synthetic import camera_homography, draw_korona_topdown, synthetic_view
from tracker.errors import CalibrationError

BOARD = KoronaBoard()
REAL = REAL_ROOT / "carrom"


def _view(tilt: float, azimuth: float, size: tuple[int, int] = (640, 480), focal: float = 600.0
          ) -> tuple[np.ndarray, np.ndarray]:
    G = camera_homography(size, tilt, azimuth, distance_mm=2000, focal_px=focal * size[0] / 640)
    top, M = draw_korona_topdown(BOARD, 1.0)
    return synthetic_view(top, M, G, size, noise=2.0), G


def test_side_quad_sees_through_clutter_at_a_corner() -> None:
    """A bright square with a sheet touching one corner: the hull runs around the sheet, the
    four longest straight runs of the outline are still the square's sides."""
    img = np.zeros((400, 500), np.uint8)
    square = np.array([[120, 60], [400, 90], [380, 350], [100, 330]])
    cv2.fillPoly(img, [square.astype(np.int32)], 255)
    cv2.fillPoly(img, [np.array([[60, 300], [140, 300], [140, 390], [60, 390]], np.int32)], 255)
    contours, _ = cv2.findContours(img, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    c = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(c)
    q = _side_quad(c, cv2.contourArea(hull))
    assert q is not None
    # every true corner has a found corner within 3 px (the sheet's corner is not one)
    d = np.linalg.norm(q[:, None, :] - square[None, :, :], axis=2)
    assert d.min(axis=0).max() < 3.0, q
    # while the hull's four-corner outline is pulled onto the sheet
    approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    assert np.linalg.norm(approx[:, None, :] - square[None], axis=2).min(axis=0).max() > 20


@pytest.mark.parametrize("tilt,azimuth", [(0, 0), (40, -20)])
def test_sheet_over_a_rim_corner_does_not_stop_the_fit(tilt: float, azimuth: float) -> None:
    img, G = _view(tilt, azimuth)
    o = BOARD.outer_size / 2
    sheet = np.array([[-o - 120, -o + 60], [-o + 25, -o + 60], [-o + 25, -o - 150], [-o - 120, -o - 150]])
    cv2.fillPoly(img, [apply_h(G, sheet).astype(np.int32)], (235, 235, 235))
    calib = calibrate_image(img, "korona")
    mean, worst = reprojection_error_mm(calib.homography, np.linalg.inv(G), BOARD.half)
    assert mean < 0.8 and worst < 1.5, (mean, worst)


def test_large_photo_is_fitted_shrunk_and_mapped_back() -> None:
    """A 2100x2800 photo is fitted at 1600 px; the homography must hold at full size."""
    img, G = _view(10, 30, size=(2100, 2800), focal=500.0)
    calib = calibrate_image(img, "korona")
    assert calib.image_size == (2100, 2800)
    mean, worst = reprojection_error_mm(calib.homography, np.linalg.inv(G), BOARD.half)
    assert mean < 0.8 and worst < 1.5, (mean, worst)


def _fit(line_dist: float) -> KoronaFit:
    return KoronaFit(G=np.eye(3), lens=LensModel((640, 480)), line_dist=line_dist, circle_radius=80.0)


def test_verify_needs_three_sides_where_the_fit_puts_the_lines() -> None:
    want = BOARD.half - 320.0  # 105 mm in from the rims
    nan = float("nan")
    _verify(_fit(320.0), {"south": want + 1, "north": want - 2, "east": want + 3.5, "west": nan}, BOARD)
    # two sides and the centre circle (faint lines on a glaring board)
    _verify(_fit(320.0), {"south": want, "north": nan, "east": want, "west": nan, "circle": 81.0}, BOARD)
    with pytest.raises(CalibrationError, match="not confirmed"):
        # a textured board: lines seen, but elsewhere on two sides
        _verify(_fit(320.0), {"south": want + 1, "north": 162.0, "east": 74.0, "west": want}, BOARD)
    with pytest.raises(CalibrationError, match="not confirmed"):
        _verify(_fit(320.0), {"south": want, "north": want, "east": nan, "west": nan}, BOARD)
    with pytest.raises(CalibrationError, match="centre circle"):
        # every line agrees but the circle seen is another one
        _verify(_fit(320.0), {"south": want, "north": want, "east": want, "west": want, "circle": 66.0}, BOARD)


@pytest.mark.skipif(not (REAL / "cap1.jpg").exists(), reason="real carrom frame not available")
def test_real_carrom_webcam_frame() -> None:
    """640x480 webcam frame of a carrom board, its top rim cut by the frame, read as korona
    (default profile: the 850 mm square is the playing area). Edges read off the pixel rows:
    the surface meets the dark left rim at x 93; on the right and at the bottom a lit wall
    face runs from where the surface ends (x 557.5, y 449.5) to the rim top (x 565, y 462).
    The fitted edge must lie on that face (within 5 px of the surface's end, 3 px of the top).
    (The carrom base lines are not where the korona profile puts them: the fit takes its
    scale from the rims, and sees the tops of the lit walls.)"""
    img = cv2.imread(str(REAL / "cap1.jpg"))
    assert img is not None
    calib = calibrate_image(img, "korona")
    h = BOARD.half
    left = calib.to_image(np.array([[-h, 0.0], [-h, -h / 2]]))[:, 0]
    right = calib.to_image(np.array([[h, 0.0], [h, -h / 2]]))[:, 0]
    bottom = calib.to_image(np.array([[0.0, -h], [h / 2, -h]]))[:, 1]
    assert np.all(np.abs(left - 93) < 5), left
    assert np.all((right > 552.5) & (right < 569)), right
    assert np.all((bottom > 444.5) & (bottom < 466)), bottom
    # the striking lines are the carrom base lines' outer (thick) lines, 63 px in from the edge
    b = calib.board
    assert isinstance(b, KoronaBoard)
    assert b.striking_line_offset == pytest.approx(63 * 2 * h / (557.5 - 93), abs=8.0)
