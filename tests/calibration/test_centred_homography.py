"""One ellipse and the image of its circle's centre fix the view up to a rotation."""

from __future__ import annotations

import math

import numpy as np

from tracker.calibration.features import centred_homography
from tracker.calibration.geometry import apply_h
from tracker.calibration.synthetic import camera_homography


def test_ellipse_and_centre_give_the_view_up_to_rotation() -> None:
    G = camera_homography((1280, 720), 60, 20, distance_mm=1800, focal_px=1000)  # mm -> px
    R = 400.0
    Gu = G @ np.diag([R, R, 1.0])  # unit circle -> image
    Gi = np.linalg.inv(Gu)
    C = Gi.T @ np.diag([1.0, 1.0, -1.0]) @ Gi  # the rim's image as a conic
    c = Gu @ np.array([0.0, 0.0, 1.0])
    H = centred_homography(C, c / c[2])
    assert H is not None
    # H maps the unit circle onto the same ellipse with the same centre: the plane's points
    # match G's up to one rotation about the centre, and a mirror: H keeps the image's
    # handedness (y down, as ``ellipse_affine``), G maps the board's y up
    a = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    u = np.stack([np.cos(a), np.sin(a)], axis=1)
    pts = np.concatenate([0.3 * u, 0.7 * u, u])
    got = apply_h(np.linalg.inv(Gu) @ H, pts)  # unit-plane points of H -> those of G
    # a rotation: radii kept, all turned by one angle
    assert np.allclose(np.linalg.norm(got, axis=1), np.linalg.norm(pts, axis=1), atol=1e-6)
    turn = np.arctan2(got[:, 1], got[:, 0]) - np.arctan2(-pts[:, 1], pts[:, 0])
    spread = (turn - turn[0] + math.pi) % (2 * math.pi) - math.pi
    assert np.abs(spread).max() < 1e-6
