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


# A later contact within this many mm of the mover's travel after its first is a simultaneous hit
# (a mover into the gap between two touching discs strikes both at once).
SIMULTANEOUS_MM = 2.0
# A struck disc passes the blow on to a disc it meets in the rest of the frame only when it heads
# into it (the cosine between its way and the line to that disc's centre at least this): a disc
# sent past a touching row-mate, not into it, leaves it where it lies.
INTO = 0.3
# ... or when it has touching row-mates (within this fraction of the touching distance) on both
# sides: hemmed in, it has no way out but through them (a disc struck head-on into the middle of
# a rim row passes the blow along the row both ways; one at the row's end escapes to its free
# side and leaves its row-mate where it lies).
TOUCH = 0.12


def reached(p: np.ndarray, v: np.ndarray, radius: float, qs: list[np.ndarray], radii: list[float], dt: float,
            e: float = 0.9) -> list[bool]:
    """Which of the resting discs at ``qs`` (of ``radii``) a mover at p, velocity v, of
    ``radius``, strikes within ``dt`` when it bounces off the first it meets: that one, any met
    at the same moment (within ``SIMULTANEOUS_MM`` of travel), any within its reach after the
    bounce in the rest of the frame (its speed then times the time left, whatever way: it may
    bounce again off a rim or a disc), and any a disc so struck heads into (``INTO``) or is
    hemmed in by (``TOUCH``): the blow run on through a row. One met later along the mover's
    straight line only is shielded (a striker head-on into the end disc of a row against the
    rim stops on it, and the disc, sent into the rim, escapes to its free side and never
    reaches its row-mate, however near the straight line's end lies to it)."""
    s = [first_contact(p, v, q, radius + r, dt) for q, r in zip(qs, radii, strict=True)]
    met = {k: sk for k, sk in enumerate(s) if sk is not None}
    out = [False] * len(qs)
    if not met:
        return out
    k0 = min(met, key=lambda k: met[k])
    s0 = met[k0]
    hit = collision(p, v, qs[k0], radius + radii[k0], dt, e)
    speed = float(np.hypot(v[0], v[1]))
    struck: list[tuple[int, np.ndarray, float]] = []  # (disc, its velocity, time left)
    for k, sk in met.items():
        if k == k0 or speed * (sk - s0) <= SIMULTANEOUS_MM:
            out[k] = True
        elif hit is not None:  # within its reach after the bounce off the first, by any way (rims)
            gap = float(np.hypot(*(qs[k] - p - v * s0))) - radius - radii[k]
            out[k] = gap <= float(np.hypot(*hit[1])) * (dt - s0)
        if out[k] and (h := collision(p, v, qs[k], radius + radii[k], dt, e)) is not None:
            struck.append((k, h[3], dt - sk))
    while struck:  # the blow run on by the discs struck
        j, u, left = struck.pop()
        us = float(np.hypot(u[0], u[1]))
        mates = [k for k in range(len(qs)) if k != j
                 and float(np.hypot(*(qs[k] - qs[j]))) <= (1 + TOUCH) * (radii[j] + radii[k])]
        hemmed = any(float((qs[a] - qs[j]) @ (qs[b] - qs[j])) < 0 for a in mates for b in mates)
        for k in met:
            d = qs[k] - qs[j]
            dn = float(np.hypot(d[0], d[1]))
            if out[k] or us < 1e-9 or dn < 1e-9:
                continue
            if hemmed and k in mates:  # no way out between its row-mates: it pushes them
                out[k] = True
                struck.append((k, 0.5 * (1 + e) * max(float(u @ d) / dn, 0.0) * d / dn, left))
                continue
            if float(d @ u) < INTO * dn * us:
                continue
            sj = first_contact(qs[j], u, qs[k], radii[j] + radii[k], left)
            if sj is not None:
                out[k] = True
                struck.append((k, 0.5 * (1 + e) * float(u @ d) / dn * d / dn, left - sj))
    return out
