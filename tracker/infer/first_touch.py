"""When a mover struck a resting disc, from the gaps between them along its path, and whether a
run was aimed at a disc (split from :mod:`tracker.infer.contacts`)."""

from __future__ import annotations

import numpy as np

# mm: a mover whose gap to the disc was under this at the window's start was beside it already
# (a row-mate within the detections' scatter of touching it): its push is timed as before
BESIDE_MM = 3.0


def first_touch(ts: np.ndarray, d: np.ndarray) -> float:
    """When a mover's path, at times ``ts`` with gaps ``d`` (mm beyond touching; below 0: overlapping)
    to a resting disc's place, first touched it: where ``d`` first reaches 0 (interpolated between
    the two times bracketing it), else its closest approach (no overlap: a near miss read as a
    hit; or beside it from the start, within ``BESIDE_MM``: a row-mate pressed against it, whose
    push is timed as before, not where the detections' scatter first closed the gap, ahead of
    the blow that set the row moving). The struck disc leaves its place, so the mover may run on through it; its deepest
    point there comes after the blow, and taken as the blow's time it may fall after the
    mover's bounce off a rim just beyond (korona_2p_game at 89.2 s: south's striker struck s4,
    then the north rim 0.1 s later; the blow was timed 0.14 s late, after the rim, and the shot
    read as an unannounced indirect one, a foul)."""
    hit = np.nonzero(d <= 0.0)[0]
    if not len(hit) or d[0] <= BESIDE_MM:
        return float(ts[int(np.argmin(d))])
    f = int(hit[0])
    return float(ts[f - 1] + (ts[f] - ts[f - 1]) * d[f - 1] / (d[f - 1] - d[f]))


def aimed_at(start: np.ndarray, meet: np.ndarray, q: np.ndarray, reach: float) -> bool:
    """Whether the straight course from ``start`` through ``meet`` (where a run met a rim) was
    aimed at a disc resting at ``q``: it lies ahead on that course and the course passes within
    ``reach`` (the two radii: it would strike it) of it. A shot aimed so that touched the rim on
    its way was played at the disc, not off the rim: a bank shot's course runs at the rim, away
    from the disc the rim sends it to."""
    a = np.asarray(start, float)
    step = np.asarray(meet, float) - a
    n = float(np.hypot(*step))
    if n <= 1e-9:
        return False
    u = step / n
    rel = np.asarray(q, float) - a
    along = float(rel @ u)
    return along > 0.0 and abs(float(rel[0] * u[1] - rel[1] * u[0])) <= reach
