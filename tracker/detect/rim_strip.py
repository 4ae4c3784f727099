"""The strip of board along a korona rim, as ``rim.py`` reads it: per position along one rim,
how far the strip differs from the bare strip's profile over a disc's depth, over the band beyond
it and next to the rim, with the light along the rim taken off, and what known discs off the row
line explain (``strip_scores``); and which way the discs' shadows fall along a rim, told by the
rims across it (``shadow_lean``). The figures' reasons: ``rim.py``'s docstring."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import Detections
from tracker.detect.lab_weights import WEIGHTS32 as W

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

STEP = 1.0  # mm between samples along the rim and across it
DEEP = (3.2, 4.4)  # of r: the band beyond a disc and its shadow; differing there over a run: not a row of discs
DEPTH = 2.0  # of r: the strip a disc against the rim covers
NEAR = 0.6  # of r: the strip next to the rim, which a disc against the rim covers
MASK_MARGIN = 1.0  # of r: a known disc off the row explains the strip this far around it (its shadow)
LIGHT = 2.0  # of r: the light along the rim is smoothed over this length (a disc's width)
RIM_SHADE = 1.0  # of r: the rim's shadow on the board is read this near the rim (``shadow_lean``)
LEAN_SHADE = 15.0  # 8-bit L: two opposite rims' shadows differing by this tell the light's side


def strip_scores(det: DiscDetector, lab: np.ndarray, axis: int, sign: float, along: np.ndarray,
                 depth: np.ndarray, r: float, found: Detections
                 ) -> tuple[np.ndarray, ...] | None:
    """Per position along one rim: how far the strip differs from the bare strip's profile over
    a disc's depth (``score``), over the band beyond it (``deep``) and next to the rim
    (``near``: a disc against the rim covers it, one a little further in only shades the
    strip); None when the rim is not in the view. What known discs off the row line explain is left out (``_explained``)."""
    board = det.board
    assert isinstance(board, KoronaBoard)
    half = float(board.half)
    A, D = np.meshgrid(along, depth)  # (len(depth), len(along))
    perp = sign * (half - D)
    x, y = (A, perp) if axis == 0 else (perp, A)
    xy = np.stack([x.ravel(), y.ravel()], 1)
    # The picture of a disc there: half-way up its side (the top face's apparent shift).
    s, _ = det.pose.top_shift(xy, 0.5 * det.thickness)
    uv = det.view.to_px(xy + s).astype(np.float32)
    h, w = lab.shape[:2]
    inside = (uv[:, 0] >= 0) & (uv[:, 0] <= w - 1) & (uv[:, 1] >= 0) & (uv[:, 1] <= h - 1)
    if inside.mean() < 0.9:
        return None
    mu = uv[:, 0].reshape(D.shape)
    mv = uv[:, 1].reshape(D.shape)
    strip = cv2.remap(lab, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    profile = np.median(strip, axis=1, keepdims=True)  # the bare strip, per depth
    off = strip - profile
    diff = np.linalg.norm(off * W, axis=2)  # (depth, along)
    use = ~_explained(A, D, found, axis, sign, half, r)
    disc = (depth < DEPTH * r)[:, None] & use
    band = ((depth >= DEEP[0] * r) & (depth < DEEP[1] * r))[:, None] & use
    bare = float(np.median(diff))
    deep = np.where(band.any(0), (diff * band).sum(0) / np.maximum(band.sum(0), 1), bare)
    # The light along the rim: how the bare board beyond a disc's depth differs from the
    # profile at the same place along the rim (a gradient of light or colour along the rim
    # shifts every depth alike). Taken off the strip, what is left at a disc's depth is the
    # disc's own difference from the board beside it across the strip, not the light's.
    local = _light(off, band, r)
    ldiff = np.linalg.norm((off - local[None]) * W, axis=2)
    score = np.where(disc.any(0), (diff * disc).sum(0) / np.maximum(disc.sum(0), 1), bare)
    lit = np.where(disc.any(0), (ldiff * disc).sum(0) / np.maximum(disc.sum(0), 1), bare)
    rim = (depth < NEAR * r)[:, None] & use
    near = np.where(rim.any(0), (diff * rim).sum(0) / np.maximum(rim.sum(0), 1), bare)
    tone = np.where(disc.any(0), (strip[..., 0] * disc).sum(0) / np.maximum(disc.sum(0), 1), 0.0)
    # The rim's own shadow on the board: the bare strip's lightness next to the rim less beyond
    # a disc and its shadow (``shadow_lean``).
    shade = float(profile[depth < RIM_SHADE * r, 0, 0].mean() - profile[(depth >= DEEP[0] * r), 0, 0].mean())
    return score, deep, near, lit, tone, np.array([shade])


def shadow_lean(strips: dict[tuple[int, float], tuple[np.ndarray, ...] | None], axis: int) -> float:
    """Which way along the rims of ``axis`` (0: the north and south rims, along x; 1: east and
    west, along y) the discs' shadows fall: -1 towards the low end, +1 towards the high end, 0
    when it cannot be told. A rim casts its shadow on the board on the side of the light (the
    lamp beyond it), and the rim opposite is lit: of the two rims across the row's direction
    (for a row along x, the east and west rims), the one whose strip is the darker next to it
    (by at least ``LEAN_SHADE``) is towards the light, and a disc's shadow falls the other way."""
    hi, lo = strips[(1 - axis, 1.0)], strips[(1 - axis, -1.0)]
    if hi is None or lo is None:
        return 0.0
    d = float(hi[5][0] - lo[5][0])  # < 0: the high rim is in shadow, the light beyond it
    return float(np.sign(d)) if abs(d) >= LEAN_SHADE else 0.0


def _light(off: np.ndarray, band: np.ndarray, r: float) -> np.ndarray:
    """Per position along the rim (``off``: the strip less its profile, (depth, along, 3)), the
    median difference over the bare band beyond a disc's depth (``band``: its usable samples),
    smoothed along the rim over a few discs' length so a single thing in the band does not
    make it; zero where the band is hidden."""
    n_along = off.shape[1]
    out = np.zeros((n_along, off.shape[2]), np.float32)
    have = band.sum(0) > 0
    if have.any():
        out[have] = _column_medians(off, band)[have]
    k = int(LIGHT * r / STEP)
    if k > 1 and have.any():
        ker = np.ones(k, np.float32)
        cnt = np.convolve(have.astype(np.float32), ker, "same")
        for c in range(off.shape[2]):
            out[:, c] = np.convolve(out[:, c], ker, "same") / np.maximum(cnt, 1)
        out[cnt == 0] = 0
    return out


def _column_medians(off: np.ndarray, band: np.ndarray) -> np.ndarray:
    """Per column ``i`` of ``off`` (depth, along, C): ``np.median(off[band[:, i], i], axis=0)``,
    the same values (the middle one, or the mean of the middle two in float32), for every column
    at once from one sort (a median per column cost most of a korona full pass's rim rows);
    columns with no sample give an undefined value."""
    rows = band.any(1)
    b = band[rows]
    vals = np.where(b[:, :, None], off[rows], np.float32(np.inf)).transpose(1, 2, 0)  # (along, C, depth)
    s = np.sort(vals, axis=2)
    n = b.sum(0)
    lo = np.take_along_axis(s, ((n - 1) // 2)[:, None, None], 2)[..., 0]
    hi = np.take_along_axis(s, (n // 2)[:, None, None], 2)[..., 0]
    return np.asarray(np.where((n % 2 == 1)[:, None], hi, (lo + hi) / 2))


def _explained(A: np.ndarray, D: np.ndarray, found: Detections, axis: int, sign: float, half: float,
               r: float) -> np.ndarray:
    """The strip's samples (``A`` along the rim, ``D`` depth from it; mm) that known discs off
    the row line explain: a striker or a disc in front of the row, its body and a margin for
    its shadow. They are neither a disc of the row nor a reason to doubt the row beside them."""
    out = np.zeros(A.shape, bool)
    if not len(found):
        return out
    for (cx, cy), pr in zip(found.xy, found.radius, strict=True):
        a, dc = (cx, half - sign * cy) if axis == 0 else (cy, half - sign * cx)
        if dc < 1.6 * r or dc - pr > DEEP[1] * r:  # a disc of the row itself, or clear of the strip
            continue
        out |= np.hypot(A - a, D - dc) < pr + MASK_MARGIN * r
    return out
