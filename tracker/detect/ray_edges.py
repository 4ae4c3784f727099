"""The per-ray steps of a disc fit (``refine.py``): where a ray crosses a circle, the edge a ray
shows within a window, and the share of the outline's rays that show one.

(Kept apart from ``Refiner.refine``, which calls them a few times on each of its iterations.)
"""

from __future__ import annotations

import numpy as np

N_RAYS = 48
RAYS = np.arange(N_RAYS)  # (every ray's index, made once)


def ray_to_circle(origin: np.ndarray, dirs: np.ndarray, c: np.ndarray, R: float | np.ndarray) -> np.ndarray:
    """Distance from ``origin`` along each direction to the far crossing of the circle (c, R)."""
    d = c - origin
    ud = dirs @ d
    return ud + np.sqrt(np.maximum(R * R - d @ d + ud * ud, 0.0))


def edge_in_window(strength: np.ndarray, rho_mid: np.ndarray, rho_exp: np.ndarray, win: float,
                    step: float, first: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Per ray: the strongest edge within ``win`` of ``rho_exp`` (sub-sample), and its strength.

    With ``first``, the innermost local maximum reaching half the window's strongest instead: a
    disc's own rim comes before the board line, neighbour or shadow just outside it.

    Only the band of samples that some ray's window reaches is looked at (the windows shrink
    over the iterations, so later calls read a fraction of the rays). (The samples are read by
    flat index: a fancy index on two axes costs several times as much for the same values.)"""
    n, m = strength.shape
    lo = max(int(np.searchsorted(rho_mid, float(rho_exp.min()) - win)) - 1, 0)
    hi = min(int(np.searchsorted(rho_mid, float(rho_exp.max()) + win, side="right")) + 1, m)
    band = strength[:, lo:hi]
    mask = np.abs(rho_mid[None, lo:hi] - rho_exp[:, None]) <= win
    st = np.where(mask, band, -1.0)
    j = st.argmax(axis=1)
    if first:
        top = st.ravel()[_row_starts(n, hi - lo) + j]
        ok = st >= 0.5 * top[:, None]
        ok &= mask
        ok[:, 1:] &= st[:, 1:] >= st[:, :-1]  # not below its left neighbour (the first has none)
        ok[:, :-1] &= st[:, :-1] >= st[:, 1:]  # nor its right one
        j = np.where(ok.any(axis=1), ok.argmax(axis=1), j)
    j = j + lo
    flat = strength.ravel()
    starts = _row_starts(n, m)
    peak = flat[starts + j]
    jj = np.minimum(np.maximum(j, 1), m - 2)  # (np.clip's own overhead: 4x the work)
    at = starts + jj
    a_, b_, c_ = flat[at - 1], flat[at], flat[at + 1]
    den = a_ - 2 * b_ + c_
    neg = den < 0
    off = np.where(neg, 0.5 * (a_ - c_) / np.where(neg, den, -1.0), 0.0)
    return rho_mid[jj] + np.minimum(np.maximum(off, -1.0), 1.0) * step, peak


_STARTS: dict[tuple[int, int], np.ndarray] = {}


def _row_starts(n: int, m: int) -> np.ndarray:
    """The flat index of each row's first element in a C-ordered (n, m) array (kept per shape)."""
    got = _STARTS.get((n, m))
    if got is None:
        got = _STARTS.setdefault((n, m), np.arange(n) * m)
        if len(_STARTS) > 4096:  # (shapes vary with the step and the reach: bounded all the same)
            _STARTS.clear()
    return got


def outline_coverage(covered: np.ndarray, hidden: np.ndarray) -> tuple[float, float]:
    """Share of the visible rays with an edge, overall and in the worst quarter of the outline
    (quarters mostly hidden are not judged; with every ray hidden, nothing is covered)."""
    vis = ~hidden
    if vis.sum() == 0:
        return 0.0, 0.0
    n_q = vis.reshape(4, -1).sum(axis=1)
    c_q = (covered & vis).reshape(4, -1).sum(axis=1)
    judged = n_q >= max(3, N_RAYS // 16)
    quarter = float((c_q[judged] / n_q[judged]).min()) if judged.any() else 0.0
    return float(covered[vis].mean()), quarter
