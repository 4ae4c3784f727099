"""Sub-millimetre disc centres: edge points along rays in the original image, and a model fit.

Rays are cast in the board frame from the coarse centre; their sample points are carried to the
original image (``Calibration.to_image``, lens distortion included) and read with one ``cv2.remap``
call, so the edge search runs at the camera's full resolution without rectifying anything large.

The model is the silhouette of a cylinder seen from the camera, carried onto the playing surface:
the convex hull of the bottom circle ``(P, r)`` and the top circle ``(P + s, k r)`` (see
``tracker.detect.geometry``). We fit ``P`` and ``r`` by point-to-line ICP: each edge point is paired
with its closest point on the model's outline, and the outline's normal there turns the pairing
into one linear equation in ``(dP, dr)``. Points paired with the top rim move with ``k dr``, points
on the bottom circle with ``dr``. Outliers (a neighbour's edge, a line, a shadow) are dropped by a
robust threshold on the residuals. ``P`` is where the disc touches the board: what the rules need.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tracker.calibration.datatypes import Calibration
from tracker.detect.candidates import CHANNEL_WEIGHTS
from tracker.detect.geometry import CameraPose

N_RAYS = 48


@dataclass
class Fit:
    centre: np.ndarray  # (2,) mm, where the disc touches the board
    radius: float  # fitted bottom radius, mm
    coverage: float  # fraction of rays with a consistent edge, 0..1
    residual: float  # RMS of inlier residuals, mm
    contrast: float  # median edge strength (Lab units per mm)
    color: np.ndarray  # (3,) median Lab of the top face (OpenCV 8-bit Lab scale)
    edges: np.ndarray | None = None  # (N_RAYS, 2) edge points found, mm (for overlays, debugging)
    inliers: np.ndarray | None = None  # (N_RAYS,) bool


def _hull(P: np.ndarray, r: float, s: np.ndarray, k: float, n: int = 48) -> tuple[np.ndarray, np.ndarray]:
    """Outline polygon (M, 2) of the cylinder's silhouette and each vertex's circle (0 bottom,
    1 top)."""
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    ring = np.stack([np.cos(a), np.sin(a)], 1)
    pts = np.concatenate([P + r * ring, P + s + k * r * ring]).astype(np.float32)
    idx = cv2.convexHull(pts, returnPoints=False, clockwise=False).ravel()
    return pts[idx].astype(np.float64), (idx >= n).astype(np.float64)


def _closest_on_polygon(E: np.ndarray, poly: np.ndarray, tag: np.ndarray
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For points E (N, 2): closest points on the closed polygon, outward normals, and the
    circle tag interpolated along the segment (0 bottom .. 1 top)."""
    A = poly
    B = np.roll(poly, -1, axis=0)
    tA, tB = tag, np.roll(tag, -1)
    AB = B - A  # (M, 2)
    L2 = np.maximum((AB**2).sum(1), 1e-12)
    AE = E[:, None, :] - A[None, :, :]  # (N, M, 2)
    t = np.clip((AE * AB[None]).sum(2) / L2[None], 0.0, 1.0)
    Q = A[None] + t[..., None] * AB[None]
    d2 = ((E[:, None, :] - Q) ** 2).sum(2)
    j = np.argmin(d2, axis=1)
    rows = np.arange(len(E))
    q = Q[rows, j]
    seg = AB[j]
    normal = np.stack([seg[:, 1], -seg[:, 0]], 1)  # outward for a counter-clockwise polygon
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-12)
    centroid = poly.mean(0)
    flip = ((q - centroid) * normal).sum(1) < 0
    normal[flip] *= -1
    ttag = tA[j] * (1 - t[rows, j]) + tB[j] * t[rows, j]
    return q, normal, ttag


class Refiner:
    """Refines coarse centres against one frame (image converted once per frame)."""

    def __init__(self, calib: Calibration, pose: CameraPose, thickness: float) -> None:
        self.calib = calib
        self.pose = pose
        self.thickness = thickness
        a = np.linspace(0, 2 * np.pi, N_RAYS, endpoint=False)
        self.dirs = np.stack([np.cos(a), np.sin(a)], 1)

    def _sample(self, image: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
        """Lab (float32, 8-bit scale) of the image at board points (..., 2)."""
        shape = pts_mm.shape[:-1]
        px = self.calib.to_image(pts_mm.reshape(-1, 2)).astype(np.float32)
        mx = np.ascontiguousarray(px[:, 0].reshape(1, -1))
        my = np.ascontiguousarray(px[:, 1].reshape(1, -1))
        bgr = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        lab = cv2.cvtColor(bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
        lab[..., 0] *= 255.0 / 100.0
        lab[..., 1:] += 128.0
        return lab.reshape(*shape, 3)

    def refine(self, image: np.ndarray, guess_mm: np.ndarray, radius: float,
               step_mm: float = 0.25) -> Fit:
        s, k_arr = self.pose.top_shift(guess_mm[None], self.thickness)
        s0, k = s[0], float(k_arr[0])
        sn = np.linalg.norm(s0)
        shat = s0 / sn if sn > 1e-9 else np.zeros(2)
        # The coarse peak sits near the silhouette's middle: step back to the bottom circle.
        P = np.asarray(guess_mm, float) - 0.5 * s0 - 0.5 * (k - 1) * radius * shat
        O = P + 0.5 * s0
        extra = sn + (k - 1) * radius
        rho = np.arange(0.5 * radius, 1.5 * radius + extra + 3.0, step_mm)
        pts = O[None, None, :] + rho[None, :, None] * self.dirs[:, None, :]
        lab = self._sample(image, pts)  # (R, M, 3)
        w = np.asarray(CHANNEL_WEIGHTS, np.float32)
        sm = cv2.GaussianBlur(lab, (0, 0), sigmaX=max(0.6 / step_mm, 1.0), sigmaY=0.01)
        d = np.abs(np.diff(sm, axis=1)) * w  # (R, M-1, 3)
        strength = d.sum(2) / step_mm
        rho_mid = 0.5 * (rho[1:] + rho[:-1])
        r = radius
        inl = np.zeros(N_RAYS, bool)
        resid_rms = 9.9
        E = np.zeros((N_RAYS, 2))
        peak = np.zeros(N_RAYS)
        for it, win in enumerate((3.5, 2.0, 1.2, 1.2)):
            s_it, k_it = self.pose.top_shift(P[None], self.thickness)
            s1, k1 = s_it[0], float(k_it[0])
            poly, tag = _hull(P, r, s1, k1)
            # Expected silhouette distance along each ray from O (ray-polygon distance by dense
            # sampling of the polygon: closest polygon point to the ray's expected radius).
            probe = O[None] + self.dirs * (r + 0.5 * (np.linalg.norm(s1) + (k1 - 1) * r))
            q, _, _ = _closest_on_polygon(probe, poly, tag)
            rho_exp = ((q - O[None]) * self.dirs).sum(1)
            mask = np.abs(rho_mid[None, :] - rho_exp[:, None]) <= win
            st = np.where(mask, strength, -1.0)
            j = np.argmax(st, axis=1)
            rows = np.arange(N_RAYS)
            peak = strength[rows, j]
            jj = np.clip(j, 1, len(rho_mid) - 2)
            a_, b_, c_ = strength[rows, jj - 1], strength[rows, jj], strength[rows, jj + 1]
            den = a_ - 2 * b_ + c_
            off = np.where(den < 0, 0.5 * (a_ - c_) / np.where(den < 0, den, -1.0), 0.0)
            rj = rho_mid[jj] + np.clip(off, -1, 1) * step_mm
            E = O[None] + rj[:, None] * self.dirs
            q, n, ttag = _closest_on_polygon(E, poly, tag)
            res = ((E - q) * n).sum(1)
            # A ray has an edge when its peak stands out from the ray's own texture.
            base = np.median(strength, axis=1) + 0.5
            good = (peak > 0.35 * np.median(peak)) & (peak > 3.0 * base)
            med = np.median(np.abs(res[good])) if good.any() else 1.0
            inl = good & (np.abs(res) <= max(3.0 * 1.4826 * med, 0.6 if it >= 2 else 1.5))
            if inl.sum() < 8:
                break
            coef = np.ones((N_RAYS,)) + ttag * (k1 - 1)
            A = np.concatenate([n, coef[:, None]], 1)[inl]
            wts = np.sqrt(np.clip(peak[inl], 1e-6, None))
            sol, *_ = np.linalg.lstsq(A * wts[:, None], res[inl] * wts, rcond=None)
            P = P + sol[:2]
            r = float(np.clip(r + sol[2], 0.7 * radius, 1.3 * radius))
            resid_rms = float(np.sqrt(np.mean((res[inl] - A @ sol) ** 2)))
        coverage = float(inl.mean())
        contrast = float(np.median(peak[inl])) if inl.any() else 0.0
        color = self._top_color(image, P, r)
        return Fit(centre=P, radius=r, coverage=coverage, residual=resid_rms, contrast=contrast, color=color,
                   edges=E, inliers=inl)

    def _top_color(self, image: np.ndarray, P: np.ndarray, r: float) -> np.ndarray:
        s, k = self.pose.top_shift(P[None], self.thickness)
        c = P + s[0]
        a = np.linspace(0, 2 * np.pi, 12, endpoint=False)
        ring = np.stack([np.cos(a), np.sin(a)], 1)
        pts = np.concatenate([c[None], c + 0.3 * r * ring, c + 0.6 * r * ring])
        lab = self._sample(image, pts[None])[0]
        return np.median(lab, axis=0)
