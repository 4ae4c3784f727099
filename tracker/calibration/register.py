"""Carry a fit of the board from one view to a slightly moved one by registering the two images.

After a camera bump the board is fitted on the frame the bump is noticed, and the camera may still
move a little after it (c2e_9601: 2-3 mm). The board is then fitted once more on the view at rest;
but a fresh fit is not always steadier than the first: the crokinole board's rotation is weakly
held (its pegs' residuals run 2-4 mm), and c2h_9956's fit at rest came out turned 2.5 degrees
(8.4 mm mean over the surface) while the bump's fit was within 0.14 mm of the truth. The board
does not change between the two views, only the camera: so the image motion between them,
found by aligning the two pictures over the board (OpenCV's ECC, a homography, coarse to fine),
carries the first fit onto the new view with the accuracy of that fit. ``camera.settle_refit``
compares the two and takes the fresh fit only when it agrees with the carried one.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker.boards import KoronaBoard
from tracker.calibration.datatypes import Calibration

# The least ECC correlation (over the board) for a registration to be trusted.
MIN_ECC = 0.8
# The registration runs on images of at most this many pixels along the long side.
REGISTER_LONG_SIDE = 640
# How far past the playing surface's edge the registration looks (mm): the edge itself is its
# strongest line.
EDGE_MARGIN_MM = 10.0


def _grey(img: np.ndarray, scale: float) -> np.ndarray:
    import cv2

    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    if scale != 1.0:
        g = cv2.resize(g, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return g.astype(np.float32)


def board_outline(calib: Calibration, n: int = 180) -> np.ndarray:
    """The outline, in board mm and in order round the board, of the playing surface grown by
    ``EDGE_MARGIN_MM`` so that its edge is inside (crokinole: a circle; korona: a square)."""
    b = calib.board
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    u = np.stack([np.cos(a), np.sin(a)], 1)
    if isinstance(b, KoronaBoard):
        return (b.half + EDGE_MARGIN_MM) * u / np.abs(u).max(axis=1, keepdims=True)
    return (b.surface_radius + EDGE_MARGIN_MM) * u


def register_view(calib: Calibration, before: np.ndarray, after: np.ndarray) -> Calibration | None:
    """``calib`` (fitted on ``before``) carried onto ``after``, a view of the same board from a
    camera moved a little; None where the two pictures do not align over the board."""
    import cv2

    h, w = after.shape[:2]
    if before.shape[:2] != (h, w):
        return None
    scale = min(1.0, REGISTER_LONG_SIDE / max(w, h))
    tmpl, moved = _grey(after, scale), _grey(before, scale)
    mask = np.zeros(tmpl.shape, np.uint8)
    outline = calib.to_image(board_outline(calib)) * scale
    cv2.fillPoly(mask, [np.round(outline).astype(np.int32)], 255)
    if mask.sum() == 0:
        return None
    warp = np.eye(3, dtype=np.float32)
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-6)
    try:
        # after(x) ~ before(warp(x)): warp takes a pixel of ``after`` to the same board point in ``before``
        cc, found = cv2.findTransformECC(tmpl, moved, warp, cv2.MOTION_HOMOGRAPHY, crit, mask, 5)
    except cv2.error:
        return None
    if not np.isfinite(cc) or cc < MIN_ECC:
        return None
    S = np.diag([scale, scale, 1.0])
    W = np.linalg.inv(S) @ np.asarray(found, np.float64) @ S  # full-size pixels of ``after`` -> ``before``
    # board points: where ``before`` shows them, then where ``after`` does (through W's inverse),
    # then undistorted as the fit's homography wants them
    b = calib.board
    ext = b.half if isinstance(b, KoronaBoard) else b.surface_radius
    xs = np.linspace(-ext, ext, 15)
    grid = np.array([(x, y) for x in xs for y in xs if isinstance(b, KoronaBoard) or x * x + y * y <= ext * ext])
    px_before = calib.to_image(grid).reshape(-1, 1, 2)
    px_after = cv2.perspectiveTransform(px_before, np.linalg.inv(W))
    if calib.camera_matrix is not None and calib.dist_coeffs is not None:
        crit2 = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
        px_after = cv2.undistortPoints(px_after, calib.camera_matrix, calib.dist_coeffs, None, None,
                                       calib.camera_matrix, crit2)
    H, _ = cv2.findHomography(px_after.reshape(-1, 2), grid, 0)
    if H is None:
        return None
    return replace(calib, homography=H / H[2, 2])
