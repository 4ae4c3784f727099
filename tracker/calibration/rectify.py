"""The rectified view: a frame warped to a top-down image of the board, centre in the middle,
north up, at a chosen scale. Detection and display both work on it.

The rectified image is ``N x N`` pixels with ``N = ceil(2 * extent_mm / mm_per_px)``; pixel
``(u, v)`` (its centre) is board point ``x = (u + 0.5) * s - extent``, ``y = extent - (v + 0.5) *
s``. :func:`rectify_matrix` returns that map as a 3x3 matrix (rectified px -> board mm); its
inverse maps board mm to rectified px.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration


def default_extent(calib: Calibration) -> float:
    """Half the side of the rectified square in mm: the whole board with its rail."""
    b = calib.board
    if isinstance(b, CrokinoleBoard):
        return float(b.outer_radius)
    return float(b.outer_size / 2.0)


def rectify_matrix(calib: Calibration, mm_per_px: float = 1.0,
                   extent_mm: float | None = None) -> np.ndarray:
    """3x3 matrix: rectified pixel -> board mm (invert it for board mm -> rectified pixel)."""
    e = default_extent(calib) if extent_mm is None else float(extent_mm)
    s = float(mm_per_px)
    return np.array([[s, 0.0, 0.5 * s - e], [0.0, -s, e - 0.5 * s], [0.0, 0.0, 1.0]])


def rectified_size(calib: Calibration, mm_per_px: float = 1.0, extent_mm: float | None = None) -> int:
    e = default_extent(calib) if extent_mm is None else float(extent_mm)
    return int(math.ceil(2.0 * e / mm_per_px))


def rectify(frame: np.ndarray, calib: Calibration, mm_per_px: float = 1.0,
            extent_mm: float | None = None) -> np.ndarray:
    """Warp ``frame`` (raw camera pixels) to the top-down board image described above."""
    import cv2

    if mm_per_px <= 0:
        raise ValueError(f"mm_per_px must be positive, got {mm_per_px}")
    maps = rectify_maps(calib, mm_per_px, extent_mm)
    if maps is None:
        # rectified px -> board mm -> image px in one matrix
        n = rectified_size(calib, mm_per_px, extent_mm)
        W = np.linalg.inv(calib.homography) @ rectify_matrix(calib, mm_per_px, extent_mm)
        return cv2.warpPerspective(frame, W, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_CONSTANT)
    return cv2.remap(frame, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def rectify_maps(calib: Calibration, mm_per_px: float = 1.0,
                 extent_mm: float | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The image x and y (float32) of every rectified pixel, for ``cv2.remap``; None when the
    calibration has no lens distortion (one perspective warp does it). They depend only on the
    calibration, so a caller that warps many frames keeps them."""
    if calib.camera_matrix is None or calib.dist_coeffs is None:
        return None
    M = rectify_matrix(calib, mm_per_px, extent_mm)
    n = rectified_size(calib, mm_per_px, extent_mm)
    u, v = np.meshgrid(np.arange(n, dtype=np.float64), np.arange(n, dtype=np.float64))
    uv = np.stack([u.ravel(), v.ravel(), np.ones(n * n)], axis=1) @ M.T
    img = calib.to_image(uv[:, :2]).astype(np.float32).reshape(n, n, 2)
    return img[:, :, 0], img[:, :, 1]
