"""Where the occlusion-aware cluster pass (``clusters.py``) tries a fit beyond the ring filter's
candidates: around a rejected candidate next to an occluder (``reseed``), at the 20-hole's edge
(``hole_seeds``), and touching every disc accepted so far (``around``: a row followed disc by
disc)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.lab_weights import WEIGHTS32

if TYPE_CHECKING:
    from tracker.detect.clusters import ClusterPass
    from tracker.detect.refine import Fit

N_AROUND = 12  # seeds around an accepted disc (30 degrees apart: at most 15 degrees off)
SAME_AS_DISC = 14.0  # weighted 8-bit Lab: a seed's colour like the accepted disc's
UNLIKE_BOARD = 16.0  # ... or this far from the board's
HOLE_SEEDS = (0.6, 0.8, 1.0)  # of the hole's radius: where a disc over the 20-hole's edge is sought


def free_all(cp: ClusterPass, xy: np.ndarray) -> np.ndarray:
    """Which of the places ``xy`` (N, 2) lie clear of every disc the pass has taken."""
    if not cp.taken:
        return np.ones(len(xy), bool)
    P = np.array([p for p, _ in cp.taken])
    R = np.minimum(np.array([r for _, r in cp.taken]), cp.radius)
    d = np.hypot(xy[:, None, 0] - P[None, :, 0], xy[:, None, 1] - P[None, :, 1])
    return np.asarray((d >= 1.6 * R[None]).all(axis=1))


def reseed(cp: ClusterPass, c: np.ndarray) -> list[np.ndarray]:
    """Seeds for a rejected candidate ``c`` next to an occluder (none when it is not)."""
    occ = cp.occluders(c, 0.0)
    if len(occ) == 0:
        return []
    d = np.hypot(*(occ[:, :2] - c).T) - occ[:, 2]
    j = int(np.argmin(d))
    if d[j] > 0.8 * cp.radius:
        return []
    o, ro = occ[j, :2], float(occ[j, 2])
    gap = float(np.hypot(*(c - o)))
    u = (c - o) / gap if gap > 1e-6 else np.array([1.0, 0.0])
    seeds = [c, o + u * (gap + 0.35 * cp.radius), o + u * (ro + cp.radius + 0.5)]
    out: list[np.ndarray] = []
    for s in seeds:
        if cp.fits_board(s) and cp.free(s) and all(np.hypot(*(s - q)) > 2.0 for q in out):
            out.append(s)
    return out


def hole_seeds(cp: ClusterPass, c: np.ndarray, first: Fit) -> list[np.ndarray]:
    """Seeds for a rejected candidate ``c`` at the 20-hole (none elsewhere). A dark disc
    resting over the hole's edge merges with the dark hole: the coarse peak and the first
    fit are pulled onto the hole (a larger circle, an outline open over it), and the fit
    may see too little outline to be retried (``RETRY_COVERAGE``). Seeds on the line from the
    hole's centre through where the fit went (or the candidate), at the places such a disc
    can rest, are fitted with the hole masked."""
    b = cp.det.board
    if not isinstance(b, CrokinoleBoard):
        return []
    if float(np.hypot(*c)) > b.hole_radius + cp.radius:
        return []
    out: list[np.ndarray] = []
    for p in (first.centre, c):
        n = float(np.hypot(*p))
        if n < 2.0:
            continue
        u = p / n
        for f in HOLE_SEEDS:
            s = u * f * b.hole_radius
            if cp.fits_board(s) and cp.free(s) and all(np.hypot(*(s - q)) > 3.0 for q in out):
                out.append(s)
    return out


def around(cp: ClusterPass, p: np.ndarray, pr: float, color: np.ndarray | None) -> list[np.ndarray]:
    """Seeds touching the accepted disc at ``p`` that look like a disc in the coarse view."""
    a = np.linspace(0, 2 * np.pi, N_AROUND, endpoint=False)
    dist = pr + cp.radius + 0.5
    out: list[np.ndarray] = []
    w = WEIGHTS32
    seeds = p + dist * np.stack([np.cos(a), np.sin(a)], 1)
    for s in seeds[free_all(cp, seeds)]:
        if not cp.fits_board(s):
            continue
        lab = cp.lab_at(s)
        if lab is None:
            continue
        like_disc = color is not None and float(np.linalg.norm((lab - color) * w)) < SAME_AS_DISC
        unlike_board = float(np.linalg.norm((lab - cp.board_lab) * w)) > UNLIKE_BOARD
        if like_disc or unlike_board:
            out.append(s)
    return out
