"""The per-ray edge search (``ray_edges.py``) reads its samples by flat index: the same numbers
as the plain two-axis indexing it replaced, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.detect.ray_edges import N_RAYS, edge_in_window, outline_coverage


def _plain(strength: np.ndarray, rho_mid: np.ndarray, rho_exp: np.ndarray, win: float, step: float,
           first: bool) -> tuple[np.ndarray, np.ndarray]:
    """The search as written before (two-axis fancy indexing)."""
    rows = np.arange(len(strength))
    lo = max(int(np.searchsorted(rho_mid, float(rho_exp.min()) - win)) - 1, 0)
    hi = min(int(np.searchsorted(rho_mid, float(rho_exp.max()) + win, side="right")) + 1, len(rho_mid))
    band = strength[:, lo:hi]
    mask = np.abs(rho_mid[None, lo:hi] - rho_exp[:, None]) <= win
    st = np.where(mask, band, -1.0)
    j = np.argmax(st, axis=1)
    if first:
        top = st[rows, j]
        ok = (st >= 0.5 * top[:, None]) & mask
        ok[:, 1:] &= st[:, 1:] >= st[:, :-1]
        ok[:, :-1] &= st[:, :-1] >= st[:, 1:]
        j = np.where(ok.any(axis=1), np.argmax(ok, axis=1), j)
    j = j + lo
    peak = strength[rows, j]
    jj = np.clip(j, 1, len(rho_mid) - 2)
    a_, b_, c_ = strength[rows, jj - 1], strength[rows, jj], strength[rows, jj + 1]
    den = a_ - 2 * b_ + c_
    off = np.where(den < 0, 0.5 * (a_ - c_) / np.where(den < 0, den, -1.0), 0.0)
    return rho_mid[jj] + np.clip(off, -1.0, 1.0) * step, peak


@pytest.mark.parametrize("first", [False, True])
def test_edge_in_window_matches_plain_indexing(first: bool) -> None:
    rng = np.random.default_rng(5)
    for samples, win in ((40, 6.0), (57, 1.5), (33, 1.0)):
        step = 0.45
        rho = 7.0 + step * np.arange(samples + 1)
        rho_mid = 0.5 * (rho[1:] + rho[:-1])
        strength = rng.gamma(2.0, 3.0, (N_RAYS, samples)).astype(np.float32)
        strength[:, samples // 2] += 40.0  # an edge part-way along every ray
        # windows round the edge, and some at the ends of the rays (clipped at their first or last sample)
        rho_exp = rho_mid[samples // 2] + rng.normal(0.0, 2.0, N_RAYS)
        rho_exp[:3] = rho_mid[0] - 0.5
        rho_exp[3:6] = rho_mid[-1] + 0.5
        got = edge_in_window(strength, rho_mid, rho_exp, win, step, first=first)
        want = _plain(strength, rho_mid, rho_exp, win, step, first)
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype and g.tobytes() == w.tobytes()


def test_outline_coverage_judges_visible_quarters() -> None:
    covered = np.zeros(N_RAYS, bool)
    covered[: N_RAYS // 2] = True  # the first half of the outline shows an edge
    hidden = np.zeros(N_RAYS, bool)
    assert outline_coverage(covered, hidden) == (0.5, 0.0)
    hidden[N_RAYS // 2:] = True  # the other half hidden by a neighbour: not judged
    assert outline_coverage(covered, hidden) == (1.0, 1.0)
    assert outline_coverage(covered, np.ones(N_RAYS, bool)) == (0.0, 0.0)
