"""Camera geometry the detector needs: where the camera stands, and the board-to-view maps.

A disc is a short cylinder. The calibration's homography maps the playing surface (z = 0) only, so
the disc's top face, ``thickness`` mm above the surface, appears pushed *away* from the camera's
foot point when it is carried to the board frame through that homography. For a point at height
``h`` above board point ``P`` and a camera centre ``C`` (board frame, ``C_z`` above the surface)::

    seen(P, h) = P + (P - C_xy) * h / (C_z - h)

so the top face projects onto z = 0 as a circle of radius ``r * k`` (``k = C_z / (C_z - h)``)
centred at ``P + s`` (``s = (P - C_xy) * h / (C_z - h)``). The silhouette in the board frame is the
convex hull of the bottom circle and that top circle. The line call is made at the bottom circle,
so the refinement maps edge points on the far side (the top rim) back onto the bottom circle.

``C`` comes from decomposing the homography with intrinsics: the calibration's camera matrix when it
has one, else a pinhole with the principal point at the image centre and the focal length solved
from the two rotation constraints (orthogonal, equal-norm first two columns). Near top-down the
focal length is unobservable (only focal / height is); we then assume the camera stands
``ASSUMED_HEIGHT_MM`` above the board, a typical tripod or overhead mount. The correction scales
with 1 / height, so a camera at 0.9 or 1.8 m instead costs up to about 0.4 mm at the board's edge.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from tracker.calibration.datatypes import Calibration

ASSUMED_HEIGHT_MM = 1300.0
# Points projected at a time into a view's remap tables (``BoardView.maps``; the same per point).
MAP_POINTS = 1 << 14


@dataclass(frozen=True)
class CameraPose:
    """Camera centre in the board frame (mm; z is the height above the playing surface)."""

    centre: np.ndarray  # (3,)
    focal_px: float
    focal_solved: bool  # False when the focal length was assumed, not solved

    def top_shift(self, xy: np.ndarray, height: float) -> tuple[np.ndarray, np.ndarray]:
        """For board points ``xy`` (N, 2): the apparent shift ``s`` (N, 2) of a point ``height`` mm
        above each, and the scale ``k`` (N,) of a horizontal circle at that height."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        cz = float(self.centre[2])
        if cz <= height + 1.0:
            return np.zeros_like(xy), np.ones(len(xy))
        f = height / (cz - height)
        s = (xy - self.centre[:2]) * f
        return s, np.full(len(xy), cz / (cz - height))


def _board_to_image(calib: Calibration) -> np.ndarray:
    G: np.ndarray = np.linalg.inv(np.asarray(calib.homography, dtype=float))
    return G / np.linalg.norm(G[:, :2])


def camera_pose(calib: Calibration) -> CameraPose:
    """Decompose the calibration's homography into the camera centre (see module docstring)."""
    G = _board_to_image(calib)
    w, h = calib.image_size
    solved = False
    if calib.camera_matrix is not None:
        K = np.asarray(calib.camera_matrix, dtype=float)
        solved = True
    else:
        cx, cy = w / 2.0, h / 2.0
        g1, g2 = G[:, 0], G[:, 1]
        a1 = np.array([g1[0] - cx * g1[2], g1[1] - cy * g1[2]])
        a2 = np.array([g2[0] - cx * g2[2], g2[1] - cy * g2[2]])
        c1, c2 = g1[2], g2[2]
        # Constraints (a_i.a_j) / f^2 + c_i c_j = 0 for orthogonality and equal norms.
        A = np.array([a1 @ a2, a1 @ a1 - a2 @ a2])
        B = np.array([c1 * c2, c1 * c1 - c2 * c2])
        f_guess = 0.8 * max(w, h)
        f = f_guess
        denom = float(A @ B)
        if abs(denom) > 1e-18:
            inv_f2 = -float(B @ B) / denom
            if inv_f2 > 0:
                f_try = 1.0 / np.sqrt(inv_f2)
                # Trust the solution only when the tilt makes it observable and it is plausible.
                tilt_signal = float(np.hypot(c1, c2) * f_guess / max(np.linalg.norm(a1), 1e-12))
                if 0.25 * max(w, h) < f_try < 5.0 * max(w, h) and tilt_signal > 0.05:
                    f, solved = float(f_try), True
        K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
        if not solved:
            # Height is proportional to the focal length here: rescale to the assumed height.
            h_guess = _pose(G, K)[2]
            if h_guess > 1e-6:
                f *= ASSUMED_HEIGHT_MM / h_guess
                K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    centre = _pose(G, K)
    return CameraPose(centre=centre, focal_px=float(K[0, 0]), focal_solved=solved)


def _pose(G: np.ndarray, K: np.ndarray) -> np.ndarray:
    """Camera centre (board frame) from the board-to-image homography and intrinsics."""
    Kinv = np.linalg.inv(K)
    m1, m2, m3 = (Kinv @ G[:, i] for i in range(3))
    lam = 2.0 / (np.linalg.norm(m1) + np.linalg.norm(m2))
    r1, r2, t = m1 * lam, m2 * lam, m3 * lam
    if t[2] < 0:
        r1, r2, t = -r1, -r2, -t
    r3 = np.cross(r1, r2)
    R = np.stack([r1, r2, r3], axis=1)
    # Nearest rotation (the two columns are only approximately orthonormal).
    U, _, Vt = np.linalg.svd(R)
    R = U @ Vt
    centre = -R.T @ t
    if centre[2] < 0:  # mirrored solution: the camera is above the board by construction
        centre = centre * np.array([1.0, 1.0, -1.0])
    return np.asarray(centre, dtype=float)


@dataclass(frozen=True)
class BoardView:
    """A rectified, top-down view of the board at ``mm_per_px``: pixel (u, v) of the view is board
    point ``(x0 + u * mm_per_px, y0 - v * mm_per_px)`` (north up, as seen from above)."""

    mm_per_px: float
    x0: float
    y0: float
    width: int
    height: int

    @staticmethod
    def around(half_extent_mm: float, mm_per_px: float) -> BoardView:
        n = int(np.ceil(2 * half_extent_mm / mm_per_px)) + 1
        return BoardView(mm_per_px, -half_extent_mm, half_extent_mm, n, n)

    def to_mm(self, uv: np.ndarray) -> np.ndarray:
        uv = np.asarray(uv, dtype=float).reshape(-1, 2)
        return np.stack([self.x0 + uv[:, 0] * self.mm_per_px, self.y0 - uv[:, 1] * self.mm_per_px], 1)

    def to_px(self, xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        return np.stack([(xy[:, 0] - self.x0) / self.mm_per_px, (self.y0 - xy[:, 1]) / self.mm_per_px], 1)

    def maps(self, calib: Calibration) -> tuple[np.ndarray, np.ndarray]:
        """Fixed-point remap tables (``cv2.remap``) from the image into this view; they include the
        lens distortion when the calibration has one."""
        import cv2

        mx = np.empty((self.height, self.width), np.float32)
        my = np.empty_like(mx)
        # A band of rows at a time: the projection of a whole 1280x720 camera's view at once
        # (lens distortion included) took 50 MB at its peak, the largest of a review's start.
        rows = max(1, MAP_POINTS // max(self.width, 1))
        for v0 in range(0, self.height, rows):
            v1 = min(v0 + rows, self.height)
            u, v = np.meshgrid(np.arange(self.width, dtype=float), np.arange(v0, v1, dtype=float))
            px = calib.to_image(self.to_mm(np.stack([u.ravel(), v.ravel()], 1))).astype(np.float32)
            mx[v0:v1] = px[:, 0].reshape(v1 - v0, self.width)
            my[v0:v1] = px[:, 1].reshape(v1 - v0, self.width)
        m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        return m1, m2


class FastProjection(Calibration):
    """The same calibration, with a faster ``to_image``: the homography's inverse computed once,
    and the lens distortion (OpenCV's radial, tangential and rational terms) evaluated in numpy
    rather than by ``cv2.projectPoints``, which cost 1-4 ms a call for the few thousand ray
    samples of one disc fit (a quarter of the detector's time at 1280x720). The result agrees with
    the parent's to 1e-12 px. Thin-prism and tilt terms (``dist_coeffs`` beyond the eighth) are
    left to the parent."""

    _inv: np.ndarray
    _dist: np.ndarray | None

    @staticmethod
    def of(calib: Calibration) -> Calibration:
        """A ``FastProjection`` of ``calib`` (``calib`` itself when it already is one, or when its
        lens model has terms this one does not evaluate)."""
        if isinstance(calib, FastProjection):
            return calib
        d = None if calib.dist_coeffs is None else np.asarray(calib.dist_coeffs, float).ravel()
        if d is not None and len(d) > 8 and np.any(d[8:] != 0.0):
            return calib
        fast = FastProjection(**{f.name: getattr(calib, f.name) for f in fields(calib)})
        fast._inv = np.linalg.inv(np.asarray(calib.homography, float))
        fast._dist = None
        if calib.camera_matrix is not None and d is not None:
            k = np.zeros(8)
            k[: min(len(d), 8)] = d[:8]
            fast._dist = k
        return fast

    def to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        p = np.asarray(pts_mm, dtype=np.float64).reshape(-1, 2)
        G = self._inv
        w = p @ G[2, :2] + G[2, 2]
        x = (p @ G[0, :2] + G[0, 2]) / w
        y = (p @ G[1, :2] + G[1, 2]) / w
        k = self._dist
        if k is None or self.camera_matrix is None:
            return np.stack([x, y], 1)
        K = np.asarray(self.camera_matrix, float)
        x = (x - K[0, 2]) / K[0, 0]
        y = (y - K[1, 2]) / K[1, 1]
        r2 = x * x + y * y
        radial = (1.0 + r2 * (k[0] + r2 * (k[1] + r2 * k[4]))) / (1.0 + r2 * (k[5] + r2 * (k[6] + r2 * k[7])))
        xd = x * radial + 2.0 * k[2] * x * y + k[3] * (r2 + 2.0 * x * x)
        yd = y * radial + k[2] * (r2 + 2.0 * y * y) + 2.0 * k[3] * x * y
        return np.stack([K[0, 0] * xd + K[0, 1] * yd + K[0, 2], K[1, 1] * yd + K[1, 2]], 1)
