"""Plane geometry shared by the calibration methods: homographies, orientation, residuals.

Conventions: ``H`` (as stored in :class:`Calibration`) maps image pixels to board mm. Internally
the fitters often hold ``G = inv(H)``, board mm -> image pixels, because projecting model points
into the image is what they do most.

Orientation: a camera looks *down* on the board, so the board frame seen in the image is never
mirrored: with image y pointing down, the linear part of ``H`` has a negative determinant (image
right = east and image down = south for a plain top-down view). :func:`orient` enforces that and
picks which of the symmetric rotations puts ``south`` where the user asked.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

SIDES = ("bottom", "top", "left", "right")


def apply_h(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """(N, 2) points through a 3x3 homography."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = p @ H[:, :2].T + H[:, 2]
    return q[:, :2] / q[:, 2:3]


def rotation_h(angle_rad: float) -> np.ndarray:
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def normalize_h(H: np.ndarray) -> np.ndarray:
    H = np.asarray(H, dtype=np.float64)
    return H / H[2, 2] if abs(H[2, 2]) > 1e-12 else H / np.linalg.norm(H)


def local_det(H: np.ndarray, pt: tuple[float, float]) -> float:
    """Determinant of the Jacobian of ``H`` at an image point (sign = handedness)."""
    eps = 1.0
    p = np.array([pt, (pt[0] + eps, pt[1]), (pt[0], pt[1] + eps)])
    q = apply_h(H, p)
    a = q[1] - q[0]
    b = q[2] - q[0]
    return float(a[0] * b[1] - a[1] * b[0])


def unmirror(H: np.ndarray, image_size: tuple[int, int]) -> np.ndarray:
    """Flip the board y axis if ``H`` (image -> board) sees the board mirrored."""
    c = (image_size[0] / 2.0, image_size[1] / 2.0)
    if local_det(H, c) > 0:
        return np.diag([1.0, -1.0, 1.0]) @ H
    return H


SEAT_TIE = 0.05  # see orient: seats this close to equally near the side are a tie


def orient(H: np.ndarray, image_size: tuple[int, int], south: str | None,
           symmetry_deg: float = 90.0, to_raw: Callable[[np.ndarray], np.ndarray] | None = None
           ) -> np.ndarray:
    """Rotate the board frame by a multiple of ``symmetry_deg`` so that the south seat lies
    toward the ``south`` side of the image (default bottom). ``to_raw`` maps undistorted pixels
    (what ``H`` sees) to raw ones: "toward the bottom" is judged in the picture as the user sees
    it, which matters when the south seat sits nearly diagonal and a strong lens bends it.

    A seat's nearness is how far its shooting position (300 mm out) lies from the board centre
    toward the side, in px. Tie-break (SPEC names the seat nearest the side and says nothing
    of a tie): when the two nearest seats are within ``SEAT_TIE`` of each other, as a fraction
    of their mean distance from the centre in the picture (a board seen within about 2 degrees
    of its diagonal), the seat named south is the one *clockwise on the screen* of the side
    among them: the bottom-left one for ``bottom``, top-right for ``top``, top-left for
    ``left``, bottom-right for ``right``. A view on the diagonal (2X1Wzg85dT4: the two seats
    equally near the bottom to 0.1 px) then keeps its south when the fit moves a little,
    instead of flipping between the two."""
    side = south or "bottom"
    if side not in SIDES:
        raise ValueError(f"south must be one of {', '.join(SIDES)}, not {side!r}")
    toward = {"bottom": (0.0, 1.0), "top": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}[side]
    n = int(round(360.0 / symmetry_deg))
    cands: list[tuple[float, float, float, np.ndarray]] = []  # (nearness, length, angle, H)
    for k in range(n):
        Hk = rotation_h(math.radians(k * symmetry_deg)) @ H
        pts = apply_h(np.linalg.inv(Hk), np.array([[0.0, -300.0], [0.0, 0.0]]))
        if to_raw is not None:
            pts = to_raw(pts)
        d = pts[0] - pts[1]
        score = float(d[0] * toward[0] + d[1] * toward[1])
        # the seat's direction from the side's, clockwise on the screen positive (image y down)
        cw = math.atan2(toward[0] * d[1] - toward[1] * d[0], score)
        cands.append((score, float(np.hypot(*d)), cw, Hk))
    cands.sort(key=lambda c: -c[0])
    best = cands[0]
    if n > 1:
        second = cands[1]
        if best[0] - second[0] < SEAT_TIE * 0.5 * (best[1] + second[1]):
            best = max(best, second, key=lambda c: c[2])
    return normalize_h(best[3])


def point_residuals_mm(H: np.ndarray, pts_px: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
    """Distance in mm between each image point mapped to the board and its true position."""
    return np.linalg.norm(apply_h(H, pts_px) - np.asarray(pts_mm, dtype=np.float64), axis=1)


def reprojection_error_mm(H_est: np.ndarray, H_true: np.ndarray, radius_mm: float,
                          n: int = 41) -> tuple[float, float]:
    """Mean and worst distance in mm, over a grid on the disc of ``radius_mm``, between where
    the true and the estimated homography put the same image pixel."""
    xs = np.linspace(-radius_mm, radius_mm, n)
    X, Y = np.meshgrid(xs, xs)
    keep = radius_mm**2 >= X**2 + Y**2
    pts_mm = np.stack([X[keep], Y[keep]], axis=1)
    px = apply_h(np.linalg.inv(H_true), pts_mm)
    err = np.linalg.norm(apply_h(H_est, px) - pts_mm, axis=1)
    return float(err.mean()), float(err.max())


class Lens:
    """One-coefficient radial distortion about the image centre: ``n_d = n_u (1 + k1 |n_u|^2)``
    with ``n = (p - c) / s``, ``s`` half the long side. It is OpenCV's model with focal ``s``
    and principal point at the centre, so :meth:`camera` gives the matching (K, dist)."""

    def __init__(self, size: tuple[int, int], k1: float = 0.0) -> None:
        w, h = size
        self.c = np.array([(w - 1) / 2.0, (h - 1) / 2.0])
        self.s = max(w, h) / 2.0
        self.k1 = k1

    def camera(self) -> tuple[np.ndarray, np.ndarray]:
        K = np.array([[self.s, 0, self.c[0]], [0, self.s, self.c[1]], [0, 0, 1.0]])
        return K, np.array([self.k1, 0.0, 0.0, 0.0, 0.0])
