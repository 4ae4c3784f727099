"""Clipping 3D polygons to what the camera can see, before they are projected.

A polygon is clipped in the camera frame (x right, y down, z forward) against the half spaces
``n . p >= d`` of a view volume: the near plane ``z >= z_near`` and four side planes through the
camera centre that enclose the image with a wide margin. Sutherland-Hodgman, one plane after the
other. Without it a vertex behind the camera (a player's head or shoulder under or beside an
oblique camera) divides by a negative or tiny depth and lands on the far side of the picture,
and a vertex far outside the field lands beyond the lens model's one-to-one radius and folds
back: filled, either throws a wedge across the frame. Clipped, the visible part of the polygon
is kept exactly and the cut runs outside the image.
"""

from __future__ import annotations

import numpy as np

Z_NEAR_MM = 10.0  # the near plane: nothing closer to the lens than this is drawn


def clip_polygon(poly: np.ndarray, planes: np.ndarray) -> np.ndarray:
    """The part of the closed polygon ``poly`` (N, 3) inside every half space ``planes`` (K, 4),
    rows ``(nx, ny, nz, d)`` meaning ``n . p >= d``; (0, 3) when nothing is left."""
    out = np.asarray(poly, np.float64).reshape(-1, 3)
    for plane in planes:
        if len(out) == 0:
            break
        s = out @ plane[:3] - plane[3]
        inside = s >= 0.0
        if inside.all():
            continue
        if not inside.any():
            return np.zeros((0, 3))
        nxt = np.roll(out, -1, axis=0)
        s_nxt = np.roll(s, -1)
        pts: list[np.ndarray] = []
        for i in range(len(out)):
            if inside[i]:
                pts.append(out[i])
            if inside[i] != (s_nxt[i] >= 0.0):  # the edge to the next vertex crosses the plane
                t = s[i] / (s[i] - s_nxt[i])
                pts.append(out[i] + t * (nxt[i] - out[i]))
        out = np.array(pts) if len(pts) >= 3 else np.zeros((0, 3))
    return out


def box_planes(x_lo: float, x_hi: float, y_lo: float, y_hi: float,
               z_near: float = Z_NEAR_MM) -> np.ndarray:
    """Half spaces (5, 4) in the camera frame: the near plane ``z >= z_near`` and the four sides
    of the pyramid through the camera centre over the box ``x_lo <= x / z <= x_hi``,
    ``y_lo <= y / z <= y_hi`` (undistorted normalized image coordinates)."""
    return np.array([
        [0.0, 0.0, 1.0, z_near],
        [1.0, 0.0, -x_lo, 0.0],
        [-1.0, 0.0, x_hi, 0.0],
        [0.0, 1.0, -y_lo, 0.0],
        [0.0, -1.0, y_hi, 0.0],
    ])


def subdivide(xy: np.ndarray, step: float) -> np.ndarray:
    """The closed polygon ``xy`` (N, 2) with points added so no edge is longer than ``step``
    (so a lens's bending of a long straight edge is followed)."""
    nxt = np.roll(xy, -1, axis=0)
    n = np.maximum(1, np.ceil(np.linalg.norm(nxt - xy, axis=1) / step).astype(int))
    if int(n.max()) == 1:
        return xy
    parts = [xy[i] + (nxt[i] - xy[i]) * (np.arange(n[i])[:, None] / n[i]) for i in range(len(xy))]
    return np.concatenate(parts)
