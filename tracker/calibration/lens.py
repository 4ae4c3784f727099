"""Radial lens distortion estimated from the board itself (no chessboard needed).

Model: OpenCV's two-coefficient radial model about the image centre ``c = ((w-1)/2, (h-1)/2)``
with the focal length taken as ``s`` = half the long side: ``n_d = n_u (1 + k1 r^2 + k2 r^4)``,
``n = (p - c) / s``. The true focal length is not needed: with the principal point fixed, a
radial model in units of ``s`` is the same family as one in units of the focal length (the
coefficients scale by powers of ``s / f``), and the homography absorbs the rest. So a fitted
``(k1, k2)`` turns into a ``(camera_matrix, dist_coeffs)`` pair that ``cv2.undistort``,
``cv2.undistortPoints`` and ``cv2.projectPoints`` use directly (see :class:`LensModel.camera`).

Why estimate it from the board: a homography cannot bend lines, so on a strong lens a pure
homography fit is right in the middle and off by millimetres at the rails. Concentric circles
(crokinole) and straight rims (korona) must stay circles and straight lines once the image is
undistorted; the fitters add ``k1``/``k2`` to their least squares and let the board say how
much the lens bends.
"""

from __future__ import annotations

import numpy as np


class LensModel:
    """Pixel <-> normalised coordinates and the radial model for one image size."""

    def __init__(self, size: tuple[int, int], k1: float = 0.0, k2: float = 0.0) -> None:
        w, h = size
        self.size = (int(w), int(h))
        self.c = np.array([(w - 1) / 2.0, (h - 1) / 2.0])
        self.s = max(w, h) / 2.0
        self.k1 = float(k1)
        self.k2 = float(k2)

    @property
    def is_identity(self) -> bool:
        return self.k1 == 0.0 and self.k2 == 0.0

    def normalise(self, px: np.ndarray) -> np.ndarray:
        return (np.asarray(px, dtype=np.float64) - self.c) / self.s

    def pixels(self, n: np.ndarray) -> np.ndarray:
        return np.asarray(n, dtype=np.float64) * self.s + self.c

    def norm_matrix(self) -> np.ndarray:
        """3x3 matrix pixels -> normalised coordinates (for homographies)."""
        return np.array([[1 / self.s, 0, -self.c[0] / self.s], [0, 1 / self.s, -self.c[1] / self.s], [0, 0, 1.0]])

    def distort_px(self, px_u: np.ndarray) -> np.ndarray:
        """Undistorted pixels -> raw (distorted) pixels."""
        if self.is_identity:
            return np.asarray(px_u, dtype=np.float64)
        return self.pixels(distort_n(self.normalise(px_u), self.k1, self.k2))

    def undistort_px(self, px_d: np.ndarray) -> np.ndarray:
        """Raw pixels -> undistorted pixels."""
        if self.is_identity:
            return np.asarray(px_d, dtype=np.float64)
        return self.pixels(undistort_n(self.normalise(px_d), self.k1, self.k2))

    def camera(self) -> tuple[np.ndarray, np.ndarray]:
        """(camera_matrix, dist_coeffs) in OpenCV's conventions."""
        K = np.array([[self.s, 0, self.c[0]], [0, self.s, self.c[1]], [0, 0, 1.0]])
        return K, np.array([self.k1, self.k2, 0.0, 0.0, 0.0])

    def undistort_image(self, image: np.ndarray) -> np.ndarray:
        """The image as an ideal pinhole with the same camera matrix would see it."""
        import cv2

        if self.is_identity:
            return image
        K, D = self.camera()
        return cv2.undistort(image, K, D, None, K)

    def max_shift_px(self) -> float:
        """Largest displacement the lens causes inside the image (at the corners), in px."""
        corner = self.normalise(np.array([[0.0, 0.0], [self.size[0] - 1.0, self.size[1] - 1.0]]))
        return float(np.max(np.linalg.norm(distort_n(corner, self.k1, self.k2) - corner, axis=1)) * self.s)


def solve_focal(G: np.ndarray, size: tuple[int, int]) -> float | None:
    """Focal length (px) of the pinhole that sees the board through ``G`` (board mm ->
    undistorted px), principal point at the image centre, square pixels; None when the view is
    too face-on for it to show (then only focal / height is known) or it is implausible."""
    w, h = size
    T = np.array([[1, 0, -(w - 1) / 2.0], [0, 1, -(h - 1) / 2.0], [0, 0, 1.0]])
    A = T @ G
    A = A / np.linalg.norm(A[:, :2])
    h1, h2 = A[:, 0], A[:, 1]
    # r1 . r2 = 0 and |r1| = |r2| each give f^2; take the better conditioned one (either
    # degenerates when the camera faces along a board axis)
    den1, den2 = h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2
    cands = []
    if abs(den1) > 1e-9:
        cands.append((abs(den1), -(h1[0] * h2[0] + h1[1] * h2[1]) / den1))
    if abs(den2) > 1e-9:
        cands.append((abs(den2), -(h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2) / den2))
    cands = [c for c in cands if c[1] > 0]
    if not cands:
        return None
    f = float(np.sqrt(max(cands)[1]))
    tilt_signal = float(np.hypot(h1[2], h2[2]) * f / max(float(np.linalg.norm(A[:2, :2])), 1e-12))
    if not 0.25 * max(w, h) < f < 5.0 * max(w, h) or tilt_signal < 0.05:
        return None
    return f


def camera_with_focal(lens: LensModel, focal: float) -> tuple[np.ndarray, np.ndarray]:
    """(camera_matrix, dist_coeffs) of the same lens with the focal length ``focal``: the
    coefficients rescale ((f/s)^2, (f/s)^4) so the undistorted pixels, and so the homography,
    stay the same. Downstream code that reads the camera matrix as the camera (disc-top
    parallax in detection) then gets a real focal length, not the convention ``s``."""
    q = (focal / lens.s) ** 2
    K = np.array([[focal, 0, lens.c[0]], [0, focal, lens.c[1]], [0, 0, 1.0]])
    return K, np.array([lens.k1 * q, lens.k2 * q * q, 0.0, 0.0, 0.0])


def distort_n(n: np.ndarray, k1: float, k2: float) -> np.ndarray:
    r2 = np.sum(n * n, axis=-1, keepdims=True)
    return n * (1.0 + k1 * r2 + k2 * r2 * r2)


def undistort_n(n: np.ndarray, k1: float, k2: float, iterations: int = 8) -> np.ndarray:
    """Inverse of :func:`distort_n` by Newton's method on the radius (vectorised)."""
    rd = np.sqrt(np.sum(n * n, axis=-1, keepdims=True))
    ru = rd.copy()
    for _ in range(iterations):
        r2 = ru * ru
        f = ru * (1.0 + k1 * r2 + k2 * r2 * r2) - rd
        fp = 1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2
        ru = ru - f / np.where(np.abs(fp) > 1e-6, fp, 1e-6)
    scale = np.where(rd > 1e-12, ru / np.maximum(rd, 1e-12), 1.0)
    return n * scale
