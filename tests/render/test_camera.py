"""Camera geometry against ground truth: the homography, the projection and the rays agree."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tracker.render import Camera, intrinsics, project, true_homography
from tracker.render.camera import camera_pose, pixel_rays

SIZE = (320, 180)

CAMERAS = [
    Camera(height=1500, focal=200),
    Camera(height=1200, tilt=40, azimuth=130, roll=7, focal=260, target=(40.0, -25.0)),
    Camera(height=900, tilt=45, azimuth=300, roll=-10, focal=150, target=(-100.0, 80.0)),
]


def _surface_grid() -> np.ndarray:
    g = np.linspace(-380, 380, 9)
    xx, yy = np.meshgrid(g, g)
    return np.column_stack([xx.ravel(), yy.ravel(), np.zeros(xx.size)])


@pytest.mark.parametrize("cam", CAMERAS)
def test_homography_maps_projected_points_back_without_distortion(cam: Camera) -> None:
    pts = _surface_grid()
    px = project(cam, SIZE, pts)
    H = true_homography(cam, SIZE)
    back = cv2.perspectiveTransform(px.reshape(-1, 1, 2), H).reshape(-1, 2)
    assert np.abs(back - pts[:, :2]).max() < 0.05


@pytest.mark.parametrize("k1,k2", [(-0.25, 0.03), (0.08, -0.02)])
def test_project_with_distortion_agrees_with_homography_after_undistortion(k1: float,
                                                                           k2: float) -> None:
    cam = Camera(height=1100, tilt=35, azimuth=200, roll=4, focal=220, k1=k1, k2=k2)
    pts = _surface_grid()
    px = project(cam, SIZE, pts)
    K, dist = intrinsics(cam, SIZE)
    und = cv2.undistortPoints(px.reshape(-1, 1, 2), K, dist, P=K,
                              criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-12))
    back = cv2.perspectiveTransform(und, true_homography(cam, SIZE)).reshape(-1, 2)
    assert np.abs(back - pts[:, :2]).max() < 0.05
    # and OpenCV's own projection gives the same raw pixels
    Rm, C = camera_pose(cam)
    cv_px, _ = cv2.projectPoints(pts, cv2.Rodrigues(Rm)[0], -Rm @ C, K, dist)
    assert np.abs(cv_px.reshape(-1, 2) - px).max() < 1e-6


def test_azimuth_zero_puts_south_at_the_bottom_and_east_on_the_right() -> None:
    cam = Camera(height=1500, tilt=20, focal=200)
    s, n, e, w = project(cam, SIZE, np.array([[0, -300, 0], [0, 300, 0], [300, 0, 0],
                                              [-300, 0, 0]], float))
    assert s[1] > n[1] + 50 and e[0] > w[0] + 50
    # azimuth counts counter-clockwise: at 90 the camera is east and east is at the bottom
    cam = Camera(height=1500, tilt=20, azimuth=90, focal=200)
    s, n, e, w = project(cam, SIZE, np.array([[0, -300, 0], [0, 300, 0], [300, 0, 0],
                                              [-300, 0, 0]], float))
    assert e[1] > w[1] + 50 and n[0] > s[0] + 50  # facing west: north is on the right


def test_target_is_at_the_image_centre() -> None:
    cam = Camera(height=1000, tilt=30, azimuth=45, roll=12, focal=250, target=(55.0, -70.0),
                 k1=-0.2)
    c = project(cam, SIZE, np.array([[55.0, -70.0, 0.0]]))[0]
    assert np.allclose(c, [(SIZE[0] - 1) / 2, (SIZE[1] - 1) / 2], atol=1e-6)


def test_pixel_rays_pass_through_the_projected_points() -> None:
    cam = Camera(height=1100, tilt=40, azimuth=250, roll=3, focal=220, k1=-0.2, k2=0.02)
    rays, C = pixel_rays(cam, SIZE)
    # a pixel centre, its ray, and where that ray meets the surface projects back to the pixel
    for v, u in ((10, 20), (90, 160), (170, 300)):
        d = rays[v, u]
        t = -C[2] / d[2]
        p = C + t * d
        px = project(cam, SIZE, p[None, :])[0]
        assert np.allclose(px, [u, v], atol=1e-3)
