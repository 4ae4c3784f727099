"""Camera pose from the homography, and the disc's apparent top-face shift."""

from __future__ import annotations

import numpy as np
import pytest

from tests.detect.drawing import camera
from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.geometry import BoardView, FastProjection, camera_pose


def _calib(size: tuple[int, int], tilt: float, height: float = 1400.0) -> tuple[Calibration, np.ndarray]:
    G, C = camera(size, height=height, tilt_deg=tilt)
    return Calibration(homography=np.linalg.inv(G), image_size=size, rms_mm=0.0, board=CrokinoleBoard()), C


@pytest.mark.parametrize("tilt", [25.0, 40.0, 55.0])
def test_oblique_camera_centre_is_recovered(tilt: float) -> None:
    calib, C = _calib((1280, 720), tilt)
    pose = camera_pose(calib)
    assert pose.focal_solved
    assert np.allclose(pose.centre, C, atol=1.0)


def test_top_down_camera_is_above_the_board() -> None:
    calib, C = _calib((800, 800), 0.0)
    pose = camera_pose(calib)
    # The focal length is unobservable straight down: the foot point is still right, the height
    # is a guess of the right order.
    assert np.allclose(pose.centre[:2], C[:2], atol=1.0)
    assert 0.5 * C[2] < pose.centre[2] < 2.0 * C[2]


def test_top_shift_points_away_from_the_camera() -> None:
    calib, C = _calib((1280, 720), 40.0)
    pose = camera_pose(calib)
    s, k = pose.top_shift(np.array([[0.0, 0.0], [0.0, 200.0]]), 9.5)
    # Camera to the south: the top face appears pushed north, more so farther from the camera.
    assert s[0, 1] > 0 and s[1, 1] > s[0, 1]
    expected = (np.array([0.0, 0.0]) - C[:2]) * 9.5 / (C[2] - 9.5)
    assert np.allclose(s[0], expected, atol=0.05)
    assert np.all(k > 1.0)


def test_board_view_round_trip() -> None:
    v = BoardView.around(400.0, 2.0)
    xy = np.array([[0.0, 0.0], [123.4, -250.0], [-399.0, 399.0]])
    assert np.allclose(v.to_mm(v.to_px(xy)), xy)
    assert np.allclose(v.to_px(np.array([[-400.0, 400.0]])), [[0.0, 0.0]])


@pytest.mark.parametrize("dist", [None, [0.12, -0.05, 0.0, 0.0, 0.0], [-0.28, 0.04, 0.001, -0.002, 0.01],
                                  [0.1, -0.02, 0.0005, 0.0003, 0.004, 0.05, -0.01, 0.002]])
def test_fast_projection_agrees_with_the_calibration(dist: list[float] | None) -> None:
    """The detector's numpy projection (radial, tangential and rational lens terms) gives the same
    pixels as ``Calibration.to_image`` (``cv2.projectPoints``) over the whole board."""
    calib, _ = _calib((1280, 720), 40.0)
    if dist is not None:
        calib.camera_matrix = np.array([[1100.0, 0.0, 645.0], [0.0, 1090.0, 355.0], [0.0, 0.0, 1.0]])
        calib.dist_coeffs = np.array(dist)
    fast = FastProjection.of(calib)
    assert isinstance(fast, FastProjection) and fast.board is calib.board
    pts = np.random.default_rng(3).uniform(-330.0, 330.0, (500, 2))
    assert np.abs(fast.to_image(pts) - calib.to_image(pts)).max() < 1e-6
    assert FastProjection.of(fast) is fast


def test_fast_projection_leaves_thin_prism_lenses_to_opencv() -> None:
    calib, _ = _calib((1280, 720), 40.0)
    calib.camera_matrix = np.array([[1100.0, 0.0, 640.0], [0.0, 1100.0, 360.0], [0.0, 0.0, 1.0]])
    calib.dist_coeffs = np.array([0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.001, 0.0, 0.0, 0.0])
    assert FastProjection.of(calib) is calib


def test_view_maps_made_in_bands_are_the_whole_views() -> None:
    """The remap tables are projected a band of rows at a time (``MAP_POINTS``, for the memory):
    the same tables as projected at once, with a lens too."""
    from tracker.detect import geometry

    calib, _ = _calib((1280, 720), 40.0)
    calib.camera_matrix = np.array([[1100.0, 0.0, 645.0], [0.0, 1090.0, 355.0], [0.0, 0.0, 1.0]])
    calib.dist_coeffs = np.array([-0.28, 0.04, 0.001, -0.002, 0.01])
    view = BoardView.around(335.0, 2.0)
    banded = view.maps(calib)
    old = geometry.MAP_POINTS
    try:
        geometry.MAP_POINTS = 1 << 30
        whole = view.maps(calib)
    finally:
        geometry.MAP_POINTS = old
    assert view.width * view.height > 2 * old
    assert all(np.array_equal(a, b) for a, b in zip(banded, whole, strict=True))
