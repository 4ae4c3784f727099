"""The coarse search's ring filter (``candidates.py``): a fixed-radius, four-quadrant ring of
kernels and their spectra for views of one shape, the ring's shape for a disc whose top face is
seen far from its foot (``silhouette_shift``), and the detector's ring per kind of disc
(``kind_rings``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np
import scipy.fft as sfft

if TYPE_CHECKING:
    from tracker.detect.geometry import BoardView, CameraPose

# The ring filter's inverse transforms by OpenCV's DFT (``RingFilter._apply``, even sizes): one
# thread, 0.81 -> 0.52 ms at 480x480 against scipy's, the same responses to float32 rounding
# (k4h_9506 review 61.9 -> 56.3 ms a frame). Off: the rounding moves some fits (crokinole_2p_round
# at 480x270: an end 0.18 mm, positions p99 0.46 mm; events and scores the same everywhere).
OPENCV_INVERSE = False
N_SECTORS = 4
# A disc whose top face is seen this far (of its radius) or more from its foot at the board's
# centre is sought with a ring shaped as its silhouette (``silhouette_shift``): a broadcast
# camera 17-21 degrees up shows a disc's top 26-33 mm from its foot (-S85EVHM_OY, 8v218JvUohQ),
# its silhouette a stadium twice as long as wide, and a ring round the foot widened by half the
# shift found neither (its weakest quarter 0.13-0.25 coherent, the floor 0.30), though an edge fit
# from their middles finds both (coverage 0.88-0.96). The round ring stays below: every rendered
# camera (the hard preset's tilt up to 48 degrees: at most 0.67 of a crokinole disc's radius,
# 1.08 of a korona disc's; the dev matches' cameras at most 0.83), and KP-z5X5Sbq4 (1.45) is
# above it with the same two black 15s found.
SILHOUETTE_SHIFT = 1.25


@dataclass
class RingFilter:
    """Kernel spectra of one ring radius for views of one shape."""

    shape: tuple[int, int]
    fft_shape: tuple[int, int]
    half: int
    cos_k: list[np.ndarray]  # per sector: spectra of w cos(2 theta), w sin(2 theta), w
    sin_k: list[np.ndarray]
    mag_k: list[np.ndarray]

    @staticmethod
    def build(shape: tuple[int, int], radius_px: float, width_px: float = 1.5,
              outer_extra_px: float = 0.0, shift_px: tuple[float, float] = (0.0, 0.0)) -> RingFilter:
        R, kernels = _ring_kernels(float(radius_px), float(width_px), float(outer_extra_px),
                                   (float(shift_px[0]), float(shift_px[1])))
        fft_shape = (sfft.next_fast_len(shape[0] + 2 * R, real=True),
                     sfft.next_fast_len(shape[1] + 2 * R, real=True))
        # Correlation = convolution with the flipped kernel. (``rfft2`` with zero padding, made
        # as it does it, rows then columns, but transforming only the kernel's own rows: the same
        # numbers at half the cost.)
        stack = np.stack(kernels)
        rows = sfft.rfft(stack, n=fft_shape[1], axis=2, workers=1)
        padded = np.zeros((len(kernels), fft_shape[0], rows.shape[2]), rows.dtype)
        padded[:, : stack.shape[1]] = rows
        spectra = list(sfft.fft(padded, axis=1, workers=1, overwrite_x=True))  # (in place: half the peak)
        n = N_SECTORS
        return RingFilter(shape, fft_shape, R, spectra[0:3 * n:3], spectra[1:3 * n:3], spectra[2:3 * n:3])

    @property
    def nbytes(self) -> int:
        return sum(k.nbytes for k in self.cos_k + self.sin_k + self.mag_k)

    def _apply(self, spectrum: np.ndarray) -> np.ndarray:
        N0, N1 = self.fft_shape
        if OPENCV_INVERSE and N0 % 2 == 0 and N1 % 2 == 0:
            full = cv2.idft(_packed(spectrum, N0, N1), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
        else:
            full = sfft.irfft2(spectrum, s=self.fft_shape, workers=1)
        h, w = self.shape
        return full[self.half : self.half + h, self.half : self.half + w]


def _packed(spectrum: np.ndarray, N0: int, N1: int) -> np.ndarray:
    """A real transform's half spectrum (``rfft2``: N0 x (N1/2 + 1) complex, both sizes even) in
    OpenCV's packed (CCS) layout, for ``cv2.idft``: the middle columns as (re, im) pairs; the
    first and last (real along the rows' transform) packed down the column."""
    out = np.empty((N0, N1), np.float32)
    out[:, 1 : N1 - 1] = spectrum[:, 1 : N1 // 2].view(np.float32)
    for col, j in ((0, 0), (N1 - 1, N1 // 2)):
        y = spectrum[:, j]
        out[0, col] = y[0].real
        out[1 : N0 - 1 : 2, col] = y[1 : N0 // 2].real
        out[2 : N0 - 1 : 2, col] = y[1 : N0 // 2].imag
        out[N0 - 1, col] = y[N0 // 2].real
    return out


def silhouette_shift(view: BoardView, shift_mm: np.ndarray, radius: float) -> tuple[float, float]:
    """The top-face shift ``shift_mm`` (board mm, ``CameraPose.top_shift``) in ``view`` pixels
    when it is at least ``SILHOUETTE_SHIFT`` disc radii, else none: the ring filter's
    ``shift_px``."""
    sx, sy = (float(v) for v in shift_mm)
    if np.hypot(sx, sy) < SILHOUETTE_SHIFT * radius:
        return (0.0, 0.0)
    return (sx / view.mm_per_px, -sy / view.mm_per_px)  # (the view's v runs south)


def ring_half(radius_px: float, width_px: float = 1.5, outer_extra_px: float = 0.0,
              shift_px: tuple[float, float] = (0.0, 0.0)) -> int:
    """Half size (px) of a ring filter's kernel."""
    return int(np.ceil(radius_px + outer_extra_px + 0.5 * float(np.hypot(*shift_px)) + 2 * width_px)) + 1


@lru_cache(maxsize=16)
def _ring_kernels(radius_px: float, width_px: float, outer_extra_px: float,
                  shift_px: tuple[float, float] = (0.0, 0.0)) -> tuple[int, list[np.ndarray]]:
    """The ring's half-size ``R`` and its flipped float32 kernels per sector: w cos(2 theta),
    w sin(2 theta), w (the same for every view shape: ``RingFilter.build`` of a new crop size
    only transforms them).

    ``shift_px``: the outline is the silhouette of a disc whose top face is seen that far from
    its foot (``silhouette_shift``), the points ``radius_px`` from the segment between the two
    centres, centred on its middle: theta is the outline's normal there (the radial direction
    when there is no shift), and the sectors are turned to the shift (the far cap, the near cap,
    the two sides)."""
    R = ring_half(radius_px, width_px, outer_extra_px, shift_px)
    yy, xx = np.mgrid[-R : R + 1, -R : R + 1].astype(np.float64)
    half = 0.5 * np.asarray(shift_px, float)
    span = float(half @ half)
    t = np.clip((xx * half[0] + yy * half[1]) / span, -1.0, 1.0) if span > 0 else np.zeros_like(xx)
    dx, dy = xx - t * half[0], yy - t * half[1]  # from the nearest point of the segment
    rho = np.hypot(dx, dy)
    lo, hi = radius_px - 0.5 * width_px, radius_px + outer_extra_px + 0.5 * width_px
    w = np.clip(np.minimum(rho - lo + 1.0, hi + 1.0 - rho), 0.0, 1.0)
    theta = np.arctan2(dy, dx)
    turn = float(np.arctan2(half[1], half[0])) if span > 0 else 0.0
    total = w.sum()
    out: list[np.ndarray] = []
    for k in range(N_SECTORS):
        centre = turn + k * 2 * np.pi / N_SECTORS  # sectors centred on the axes (or the shift's)
        d = np.angle(np.exp(1j * (theta - centre)))
        ws = np.where(np.abs(d) <= np.pi / N_SECTORS, w, 0.0) * (N_SECTORS / total)
        for kernel in (ws * np.cos(2 * theta), ws * np.sin(2 * theta), ws):
            out.append(np.ascontiguousarray(kernel[::-1, ::-1].astype(np.float32)))
    return R, out


# A kind's ring in view pixels: its radius, how far it is widened outward, and its silhouette
# shift (``RingFilter.build``'s ``radius_px``, ``outer_extra_px``, ``shift_px``).
RingPx = tuple[float, float, tuple[float, float]]


def kind_rings(view: BoardView, pose: CameraPose, thickness: float, half: float,
               kinds: list[tuple[int, float]]) -> tuple[dict[int, RingPx], dict[int, RingFilter]]:
    """Per kind of disc (``kinds``: (kind, radius mm)) its ring in ``view`` pixels and the ring
    filter of the whole view. The ring is widened outward by the largest apparent top-face shift
    over the board (within ``half`` mm of its centre, a disc ``thickness`` mm thick); or, seen
    as obliquely as ``SILHOUETTE_SHIFT`` says, shaped as the silhouette at the board's centre and
    widened by how far the shift elsewhere differs."""
    corners = np.array([[0.0, 0.0], [half, half], [-half, half], [half, -half], [-half, -half]])
    s, k = pose.top_shift(corners, thickness)
    rings: dict[int, RingPx] = {}
    filters: dict[int, RingFilter] = {}
    for kind, r in kinds:
        shift = silhouette_shift(view, s[0], r)
        if shift == (0.0, 0.0):
            extra = 0.5 * float(np.linalg.norm(s, axis=1).max()) + (float(k.max()) - 1.0) * r
        else:
            extra = 0.5 * float(np.linalg.norm(s - s[0], axis=1).max()) + (float(k.max()) - 1.0) * r
        rings[kind] = (r / view.mm_per_px, extra / view.mm_per_px, shift)
        filters[kind] = RingFilter.build((view.height, view.width), r / view.mm_per_px, 1.5,
                                         extra / view.mm_per_px, shift)
    return rings, filters
