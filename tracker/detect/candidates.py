"""Coarse disc candidates in a rectified view: a fixed-radius radial-flux filter.

In the rectified (top-down, known mm/px) view every disc has the same known radius, so we do not
need a general circle finder. For each pixel we sum, over a ring of the disc's radius, the
component of the image gradient along the ring's outward normal ("radial flux"). A disc darker or
lighter than its surroundings gives a large flux of one sign all round; straight or gently curved
board lines, wood grain and pegs give fluxes that cancel. Each Lab channel is filtered on its own
and the absolute fluxes are summed, so a disc that differs from the board only in hue (natural wood
on natural wood) still answers through the a/b channels.

The flux is normalised by the ring's total gradient magnitude ("coherence", 0..1). Coherence is
insensitive to contrast, which is what lets low-contrast wooden discs through, while an absolute
floor on the flux keeps flat noise out. Both filters are two ``filter2D`` calls per channel, done
in the frequency domain by OpenCV for kernels of this size: a few milliseconds at 2 mm/px.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Weights of the L, a and b channels (OpenCV 8-bit Lab scales a and b around 128).
CHANNEL_WEIGHTS = (1.0, 1.6, 1.6)


@dataclass(frozen=True)
class RingKernels:
    kx: np.ndarray
    ky: np.ndarray
    mag: np.ndarray


def ring_kernels(radius_px: float, width_px: float = 1.5, outer_extra_px: float = 0.0) -> RingKernels:
    """Kernels over a ring of ``radius_px`` (widened outward by ``outer_extra_px`` so an oblique
    disc's hull, a little larger than the disc, still lies on it)."""
    R = int(np.ceil(radius_px + outer_extra_px + 2 * width_px)) + 1
    yy, xx = np.mgrid[-R : R + 1, -R : R + 1].astype(np.float64)
    rho = np.hypot(xx, yy)
    lo, hi = radius_px - 0.5 * width_px, radius_px + outer_extra_px + 0.5 * width_px
    w = np.clip(np.minimum(rho - lo + 1.0, hi + 1.0 - rho), 0.0, 1.0)
    w /= max(w.sum(), 1e-9)
    with np.errstate(invalid="ignore", divide="ignore"):
        nx = np.where(rho > 0, xx / rho, 0.0)
        ny = np.where(rho > 0, yy / rho, 0.0)
    # filter2D correlates; the flux at p is sum_q g(p + q) . n(q) w(q): correlation is right.
    return RingKernels(kx=(w * nx).astype(np.float32), ky=(w * ny).astype(np.float32), mag=w.astype(np.float32))


@dataclass
class FluxMaps:
    flux: np.ndarray  # summed absolute radial flux (Lab units per px)
    coherence: np.ndarray  # flux / ring gradient magnitude, 0..1
    sign: np.ndarray  # sign of the L-channel flux: +1 disc darker than its surroundings


def flux_maps(lab: np.ndarray, kernels: RingKernels, mask: np.ndarray | None = None) -> FluxMaps:
    """Radial flux and coherence of a float32 Lab view (H, W, 3)."""
    blurred = cv2.GaussianBlur(lab, (0, 0), 1.0)
    total = np.zeros(lab.shape[:2], np.float32)
    magsum = np.zeros(lab.shape[:2], np.float32)
    sign = np.zeros(lab.shape[:2], np.float32)
    for c, wc in enumerate(CHANNEL_WEIGHTS):
        ch = np.ascontiguousarray(blurred[:, :, c])
        gx = cv2.Sobel(ch, cv2.CV_32F, 1, 0, ksize=3) * (wc / 8.0)
        gy = cv2.Sobel(ch, cv2.CV_32F, 0, 1, ksize=3) * (wc / 8.0)
        if mask is not None:
            gx *= mask
            gy *= mask
        f = cv2.filter2D(gx, -1, kernels.kx) + cv2.filter2D(gy, -1, kernels.ky)
        if c == 0:
            sign = np.sign(f)
        total += np.abs(f)
        magsum += cv2.filter2D(cv2.magnitude(gx, gy), -1, kernels.mag)
    coherence = total / np.maximum(magsum, 1e-3)
    return FluxMaps(flux=total, coherence=coherence, sign=sign)


def peaks(score: np.ndarray, min_distance_px: float, threshold: float,
          valid: np.ndarray | None = None) -> np.ndarray:
    """Local maxima of ``score`` above ``threshold``, at least ``min_distance_px`` apart (greedy,
    strongest first). Returns (N, 2) pixel coordinates (u, v), with sub-pixel parabola offsets."""
    k = max(3, int(2 * round(min_distance_px / 2) + 1))
    dil = cv2.dilate(score, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    cand = (score >= dil) & (score > threshold)
    if valid is not None:
        cand &= valid
    vs, us = np.nonzero(cand)
    if len(us) == 0:
        return np.zeros((0, 2))
    order = np.argsort(-score[vs, us])
    kept: list[tuple[float, float]] = []
    h, w = score.shape
    for i in order:
        u, v = int(us[i]), int(vs[i])
        if any((u - a) ** 2 + (v - b) ** 2 < min_distance_px**2 for a, b in kept):
            continue
        du = dv = 0.0
        if 0 < u < w - 1 and 0 < v < h - 1:
            l, c, r = score[v, u - 1], score[v, u], score[v, u + 1]
            den = l - 2 * c + r
            du = float(0.5 * (l - r) / den) if den < 0 else 0.0
            t, b = score[v - 1, u], score[v + 1, u]
            den = t - 2 * c + b
            dv = float(0.5 * (t - b) / den) if den < 0 else 0.0
        kept.append((u + float(np.clip(du, -0.5, 0.5)), v + float(np.clip(dv, -0.5, 0.5))))
    return np.array(kept, dtype=float).reshape(-1, 2)
