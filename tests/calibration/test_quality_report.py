"""The quality report's residuals for the hole, the playing-surface edge and the pegs' rotation
(issue #4: "residual in mm of every fitted feature"), and the measurements' sampling.

Each residual must be small on a right fit and grow with the error it is there to show: the
board's true homography, then the same turned by 3 degrees or moved by 4 mm."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration import calibrate_image
from tracker.calibration.crokinole_figures import measure_board
from tracker.calibration.crokinole_measure import _polar, rectified, rectified_grey_polar
from tracker.calibration.crokinole_seed import REF_MM
from tracker.calibration.geometry import rotation_h

from .conftest import crokinole_view

RADII = {"shooting": 304.8, "ten": 203.2, "fifteen": 101.6}


@pytest.fixture(scope="module")
def view() -> tuple[np.ndarray, np.ndarray]:
    return crokinole_view(20.0, 10.0, size=(800, 600))


def test_reference_scale_is_the_boards_shooting_line() -> None:
    assert CrokinoleBoard().shooting_line_radius == REF_MM


def test_right_fit_has_small_residuals_for_every_feature(view: tuple[np.ndarray, np.ndarray]) -> None:
    img, _H = view
    cal = calibrate_image(img, "crokinole")
    r = cal.residuals_mm
    for k in ("shooting_line", "ten_line", "fifteen_line", "quadrant_lines", "hole", "surface_edge",
              "pegs", "peg_rotation"):
        assert k in r, k
    assert r["hole"] < 1.0
    assert r["surface_edge"] < 1.0
    assert r["peg_rotation"] < 1.0


def test_turned_fit_shows_in_peg_rotation(view: tuple[np.ndarray, np.ndarray]) -> None:
    """A fit turned 3 degrees puts the pegs 5.3 mm (3 degrees at the 101.6 mm peg circle) off
    where they are seen: the peg rotation residual says so, the hole does not move."""
    img, H = view
    G = np.linalg.inv(H)
    _b, ok = measure_board(img, G, RADII, CrokinoleBoard())
    _b, bad = measure_board(img, G @ rotation_h(math.radians(3.0)), RADII, CrokinoleBoard())
    assert ok["peg_rotation"] < 1.0
    assert bad["peg_rotation"] == pytest.approx(math.radians(3.0) * 101.6, abs=1.0)
    assert bad["hole"] < 1.0


def test_moved_fit_shows_in_hole_and_edge(view: tuple[np.ndarray, np.ndarray]) -> None:
    """A fit moved 4 mm sideways: the hole's and the surface edge's radii then swing by 4 mm
    around the board (an RMS of about 4/sqrt(2) = 2.8 mm)."""
    img, H = view
    G = np.linalg.inv(H) @ np.array([[1.0, 0, 4.0], [0, 1.0, 0], [0, 0, 1.0]])
    _b, out = measure_board(img, G, RADII, CrokinoleBoard())
    assert out["hole"] == pytest.approx(2.8, abs=0.8)
    assert out["surface_edge"] == pytest.approx(2.8, abs=0.8)


def test_rectified_samples_match_the_rectified_image(view: tuple[np.ndarray, np.ndarray]) -> None:
    """``line_or_edge`` reads only the rectified pixels it needs: the same values as sampling
    the whole warped top-down image (its thresholds were set on that)."""
    import cv2

    img, H = view
    G = np.linalg.inv(H)
    rr = np.linspace(290.0, 345.0, 111)
    a = np.linspace(0, 2 * math.pi, 200, endpoint=False)
    top, M = rectified(img, G, 346.0, 0.5)
    full = _polar(cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32), M, rr, a)
    part = rectified_grey_polar(img, G, 346.0, 0.5, rr, a)
    assert np.abs(part - full).max() < 1.0
    assert np.abs(part - full).mean() < 0.1
