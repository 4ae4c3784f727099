"""Korona: whether a disc's turn back between two frames was a bounce off the rim the frames
missed (``rim_reached``), and which rim (``rim_side``). Split from :mod:`tracker.infer.contacts`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

Path = np.ndarray  # (K, 3): t, x, y — measured samples only


def obstacles_at(paths: Mapping[int, Path], radius: Mapping[int, float], a: int, t: float) -> list[tuple[np.ndarray, float]]:
    """The discs other than ``a`` that moved during the shot (``paths``: measured samples), where
    they were at time ``t``, each with the distance at which ``a`` touches it. Only movers: a disc
    that stopped a run was struck, and a struck disc moves."""
    out: list[tuple[np.ndarray, float]] = []
    for other, pc in paths.items():
        if other == a or other not in radius or len(pc) < 2:
            continue
        out.append((np.array([np.interp(t, pc[:, 0], pc[:, 1]), np.interp(t, pc[:, 0], pc[:, 2])]), radius[a] + radius[other]))
    return out


def _blocked(start: np.ndarray, v: np.ndarray, span: float, obstacles: Sequence[tuple[np.ndarray, float]]) -> bool:
    """Whether the straight run from ``start`` at velocity ``v`` for ``span`` seconds closes in
    on a disc of ``obstacles`` (place, touching distance) to touching it: a disc in its way."""
    step = v * span
    n2 = float(step @ step)
    if n2 <= 1e-9:
        return False
    for q, reach in obstacles:
        rel = q - start
        s = float(rel @ step) / n2
        if s <= 0:
            continue  # behind the run
        s = min(s, 1.0)
        if float(np.hypot(*(rel - step * s))) < reach:
            return True
    return False


def rim_reached(p: Path, k: int, lim: float, tol: float,
                obstacles: Sequence[tuple[np.ndarray, float]] = ()) -> tuple[float, float, str] | None:
    """A rim bounce between samples k-1 and k+1 that the corner estimate misses: the velocity
    across one rim turned back, and the straight run on either side of sample k reaches that
    rim (``lim``: the centre's farthest reach) within the frame. The corner estimate assumes
    constant speed on both legs; a disc slowed by the bounce (restitution, friction) makes it
    fall short of the rim by more than the tolerance at 10 fps, and the bounce is then lost
    (an indirect shot read as direct). Returns (distance, time, ``rim:side``); the distance
    carries a 1 mm handicap so that a disc within contact distance is still preferred. A run that
    would pass through a disc of ``obstacles`` (place, touching distance) on its way to the rim
    does not reach it: that disc stopped it (k4h_9972 at 8.37 s: west's striker driven into a
    disc lying against the east rim, 1.3 mm short of touching it in the frame before the blow,
    was read as bouncing off the rim first, an unannounced indirect shot, a foul)."""
    dt0 = p[k, 0] - p[k - 1, 0]
    dt1 = p[k + 1, 0] - p[k, 0]
    v0 = (p[k, 1:] - p[k - 1, 1:]) / dt0
    v1 = (p[k + 1, 1:] - p[k, 1:]) / dt1
    best: tuple[float, float, str] | None = None
    for axis in (0, 1):
        for sign in (1.0, -1.0):
            if v0[axis] * sign <= 0 or v1[axis] * sign >= 0:
                continue  # not towards this rim and back
            side = np.zeros(2)
            side[axis] = sign
            # the bounce after sample k (forward run) or before it (the return run, backwards)
            fwd = float(p[k, 1 + axis] * sign + v0[axis] * sign * dt1)
            back = float(p[k, 1 + axis] * sign - v1[axis] * sign * dt0)
            gap = lim - p[k, 1 + axis] * sign  # to the rim from sample k
            t_fwd = min(max(gap / (v0[axis] * sign), 0.0), dt1)  # the forward run's time to it
            t_back = min(max(gap / (-v1[axis] * sign), 0.0), dt0)  # the return run's, backwards
            if fwd >= lim - tol and _blocked(p[k, 1:], v0, t_fwd, obstacles):
                fwd = -np.inf
            if back >= lim - tol and _blocked(p[k, 1:], -v1, t_back, obstacles):
                back = -np.inf
            reach = max(fwd, back)
            if reach < lim - tol:
                continue
            tt = float(p[k, 0] + t_fwd) if fwd >= back else float(p[k, 0] - t_back)
            d = max(lim - reach, 0.0) + 1.0
            if best is None or d < best[0]:
                best = (d, tt, rim_side(side * (lim + 1.0)))
    return best


def rim_side(c: np.ndarray) -> str:
    """``"rim:north"`` etc.: the straight rim nearest a bounce point (SPEC 4b; +y is north)."""
    x, y = float(c[0]), float(c[1])
    if abs(y) >= abs(x):
        return "rim:north" if y > 0 else "rim:south"
    return "rim:east" if x > 0 else "rim:west"


# mm/s: the least speed into a rim and back out of it, each over two legs, that ``rim_glance``
# takes for a bounce (the detections' scatter, ~0.5 mm, moves a two-leg velocity by ~10 mm/s
# at 30 fps); ``GLANCE_TOL``: mm short of touching the rim that the sample nearest it may lie
# (the fits of a disc against the rim's shadow fall a little short of it)
GLANCE_MM_S = 40.0
GLANCE_TOL = 5.0


def rim_glance(p: Path, k: int, lim: float, tol: float = GLANCE_TOL,
               min_speed: float = GLANCE_MM_S) -> tuple[float, float, str] | None:
    """A glancing bounce off a rim at sample ``k``: the disc's nearest approach to one rim
    (``lim``: the centre's farthest reach), within ``tol`` of it, with its velocity across that
    rim into it over the two legs before and out of it over the two legs after, each at
    ``min_speed`` at least. Only a blow turns a disc's motion across a rim back, and next to the
    rim with no disc struck, the rim gave it. A disc meeting a rim at a shallow angle keeps most
    of its speed and turns by less than the sharp-turn test of ``infer_contacts`` asks
    (k2e_9941 at 35.65 s: south's striker ran up the east rim at 480 mm/s, came in across it at
    150 mm/s and left at 75, then struck s5: an unannounced indirect shot, a foul, read as a
    direct one). Returns (distance, time, ``rim:side``) as :func:`rim_reached`, or None."""
    if k < 2 or k + 2 >= len(p):
        return None
    t = p[:, 0]
    if t[k] - t[k - 2] <= 0 or t[k + 2] - t[k] <= 0:
        return None
    best: tuple[float, float, str] | None = None
    for axis in (0, 1):
        for sign in (1.0, -1.0):
            s = p[k - 2:k + 3, 1 + axis] * sign
            if s[2] < lim - tol or s[2] < max(s[1], s[3]):
                continue  # not the nearest approach to this rim, or not near it
            u_in = (s[2] - s[0]) / (t[k] - t[k - 2])
            u_out = (s[4] - s[2]) / (t[k + 2] - t[k])
            if u_in < min_speed or u_out > -min_speed:
                continue
            side = np.zeros(2)
            side[axis] = sign
            d = max(lim - float(s[2]), 0.0) + 1.0
            if best is None or d < best[0]:
                best = (d, float(t[k]), rim_side(side * (lim + 1.0)))
    return best
