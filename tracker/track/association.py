"""Association of detections to tracks: pure functions on arrays, in board millimetres.

Why hypotheses and not one prediction per track: a constant-velocity prediction swaps identities
in the commonest crokinole event, a head-on hit. The shooter stops near the struck disc's old
place and the struck disc carries on along the shooter's line, exactly where the shooter was
predicted. So each track carries a few predicted points: where it goes if nothing happens, and
where it goes if it hits the resting disc in its path (an equal-mass collision with restitution
``e``: the normal part of the velocity passes to the struck disc). The cost of a pair is the
distance to the nearest hypothesis; the Hungarian method then picks the globally cheapest
pairing, which is the physically consistent one.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

BIG = 1e9


def first_contact(p: np.ndarray, v: np.ndarray, q: np.ndarray, reach: float, dt: float) -> float | None:
    """Time s in [0, dt] when a point moving p + v*s first comes within ``reach`` of q, or None."""
    d = p - q
    a = float(v @ v)
    if a < 1e-9:
        return None
    b = 2.0 * float(d @ v)
    c = float(d @ d) - reach * reach
    if c <= 0.0:
        return 0.0 if b < 0 else None  # already touching: only a contact if approaching
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    s = (-b - np.sqrt(disc)) / (2 * a)
    return float(s) if 0.0 <= s <= dt else None


def leaves_circle(p: np.ndarray, v: np.ndarray, radius: float) -> float | None:
    """Time s >= 0 at which a point moving p + v*s crosses the circle of ``radius`` about the
    board centre outward (the later root), or None when its line misses the circle or left it
    before s = 0."""
    a = float(v @ v)
    if a < 1e-12:
        return None
    b = 2.0 * float(p @ v)
    c = float(p @ p) - radius * radius
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    s = (-b + float(np.sqrt(disc))) / (2 * a)
    return s if s >= 0 else None


def collision_hypotheses(
    p: np.ndarray, v: np.ndarray, q: np.ndarray, reach: float, dt: float, e: float = 0.9
) -> tuple[np.ndarray, np.ndarray] | None:
    """Positions after ``dt`` of a mover (at p, velocity v) and a resting disc at q if they collide.

    Returns (mover position, struck position) or None when the mover's path misses q.
    """
    hit = collision(p, v, q, reach, dt, e)
    return None if hit is None else (hit[0], hit[2])


def collision(
    p: np.ndarray, v: np.ndarray, q: np.ndarray, reach: float, dt: float, e: float = 0.9
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """(mover position, mover velocity, struck position, struck velocity) after ``dt`` of a
    mover (at p, velocity v) that collides with a resting disc at q (equal masses, restitution
    ``e``), or None when its path misses q (see :func:`collision_hypotheses`)."""
    s = first_contact(p, v, q, reach, dt)
    if s is None:
        return None
    c = p + v * s
    n = q - c
    norm = float(np.hypot(n[0], n[1]))
    if norm < 1e-9:
        return None
    n = n / norm
    vn = float(v @ n) * n
    va = v - vn + 0.5 * (1 - e) * vn
    vb = 0.5 * (1 + e) * vn
    rem = dt - s
    return c + va * rem, va, q + vb * rem, vb


def bounce_hypothesis(
    p: np.ndarray, v: np.ndarray, pegs: np.ndarray, reach: float, half: float | None, dt: float, e: float = 0.9
) -> np.ndarray | None:
    """Position after ``dt`` of a mover that bounces off the first fixed obstacle in its path.

    Obstacles: pegs (centres, ``reach`` = disc + peg radius) and, when ``half`` is given, the four
    straight rims of a square board at +-half (the disc centre's limit). None when nothing is hit.
    """
    hit = bounce(p, v, pegs, reach, half, dt, e)
    return hit[0] if hit is not None else None


def bounce(
    p: np.ndarray, v: np.ndarray, pegs: np.ndarray, reach: float, half: float | None, dt: float, e: float = 0.9
) -> tuple[np.ndarray, np.ndarray] | None:
    """(position after ``dt``, velocity after the bounce) of a mover that bounces off the first
    fixed obstacle in its path (see :func:`bounce_hypothesis`), or None when nothing is hit."""
    best_s, normal = None, None
    for q in pegs:
        s = first_contact(p, v, q, reach, dt)
        if s is not None and (best_s is None or s < best_s):
            c = p + v * s
            n = c - q
            best_s, normal = s, n / max(float(np.hypot(n[0], n[1])), 1e-9)
    if half is not None:
        for axis in (0, 1):
            if abs(v[axis]) < 1e-9:
                continue
            wall = half if v[axis] > 0 else -half
            s = (wall - p[axis]) / v[axis]
            if 0 <= s <= dt and (best_s is None or s < best_s):
                n = np.zeros(2)
                n[axis] = -np.sign(v[axis])
                best_s, normal = float(s), n
    if best_s is None or normal is None:
        return None
    vn = float(v @ normal)
    v2 = v - (1 + e) * vn * normal
    return p + v * best_s + v2 * (dt - best_s), v2


def assign(cost: np.ndarray, gate: np.ndarray) -> list[tuple[int, int]]:
    """Hungarian assignment of rows (tracks) to columns (detections), keeping pairs within the gate.

    ``gate`` is per row (a track's gate radius in mm) or a full matrix.
    """
    if cost.size == 0:
        return []
    g = gate if gate.ndim == 2 else gate[:, None]
    masked = np.where(cost <= g, cost, BIG)
    rows, cols = linear_sum_assignment(masked)
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True) if masked[r, c] < BIG]


def hypothesis_cost(hyps: list[list[np.ndarray]], det_xy: np.ndarray,
                    penalty: list[list[float]] | None = None) -> np.ndarray:
    """(T, D) distance from each detection to the nearest predicted point of each track, each
    point's distance plus its ``penalty`` (mm) when given (a less likely hypothesis)."""
    cost = np.full((len(hyps), len(det_xy)), BIG)
    if not len(det_xy) or not hyps:
        return cost
    points = [np.asarray(pts).reshape(-1, 2) for pts in hyps]
    sizes = [len(P) for P in points]
    if min(sizes) > 0 and (penalty is None or all(len(p) == n for p, n in zip(penalty, sizes, strict=True))):
        # Every track's points at once, then the least per track (the same numbers as track by
        # track: this ran every frame for every track, korona's many discs at rest included).
        P = np.concatenate(points)
        d = np.hypot(det_xy[None, :, 0] - P[:, None, 0], det_xy[None, :, 1] - P[:, None, 1])
        if penalty is not None:
            d = d + np.concatenate([np.asarray(p, float).reshape(-1) for p in penalty]).reshape(-1, 1)
        cost[:] = np.minimum.reduceat(d, np.cumsum([0, *sizes[:-1]]), axis=0)
        return cost
    for i, pts in enumerate(hyps):
        P = np.asarray(pts).reshape(-1, 2)
        d = np.hypot(det_xy[None, :, 0] - P[:, None, 0], det_xy[None, :, 1] - P[:, None, 1])
        if penalty is not None:
            d = d + np.asarray(penalty[i], float).reshape(-1, 1)
        cost[i] = d.min(axis=0)
    return cost
