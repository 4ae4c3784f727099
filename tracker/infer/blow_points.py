"""Where a mover's run struck a disc resting in its way: points on a track's path (its seen and
forecast samples), pure geometry for :mod:`tracker.infer.rim_gone`'s reading of blows on rim discs
lost in a shot (``rim_gone.SEEN_RUNS``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.infer.ends import path_since
from tracker.track.datatypes import Track


def first_contact(q: np.ndarray, a: np.ndarray, b: np.ndarray, contact: float) -> np.ndarray | None:
    """Where a mover running from ``a`` to ``b`` first comes within ``contact`` of ``q`` (it
    strikes a disc there along the line of their centres then), or None when it starts within it
    or never comes so near (``rim_gone.SEEN_RUNS``: a sighting bridged over a forecast is a straight run,
    and one along the rim through a disc's place passes nearest it just beside its centre)."""
    u = b - a
    n = float(np.hypot(*u))
    if n < 1e-9 or float(np.hypot(*(a - q))) <= contact:
        return None
    u = u / n
    s = float((q - a) @ u)
    h2 = contact * contact - (float(np.hypot(*(q - a))) ** 2 - s * s)
    if h2 < 0:
        return None
    s0 = s - float(np.sqrt(h2))
    return a + u * s0 if 0.0 <= s0 <= n else None


def ran_since(tr: Track, since: float) -> list[np.ndarray]:
    """``tr``'s path since ``since`` (``ends.path_since``) less the forecast samples a later
    sighting contradicted: a disc the tracker moved on a forecast while unseen and then saw again
    did not run the forecast's course but from its last sighting to the next. Kept, such a course
    "struck" discs it never came near (k2e_10005 at 8.4 s: n6, knocked away unseen along the south
    rim, forecast 140 mm west and into the field, was seen again in its place; the jump back from
    the forecast's end read as a blow along the rim on n5, which the striker had driven over the
    rim, and n5, "slid towards the se pocket" past its row, was never judged off the board). The
    forecast samples after the last sighting stand (a disc lost for good ran them as far as
    anyone knows)."""
    pts = path_since(tr, since)
    first = next((k for k, s in enumerate(tr.path) if s.t >= since), len(tr.path))
    samples = tr.path[max(first - 1, 0):]
    last = max((k for k, s in enumerate(samples) if s.measured), default=-1)
    return [p for k, (p, s) in enumerate(zip(pts, samples, strict=True)) if s.measured or k > last]


def blow_origin(q: np.ndarray, pts: Sequence[np.ndarray], k: int, contact: float, nearest: np.ndarray) -> np.ndarray:
    """Where the blow of a mover's step ``pts[k]`` -> ``pts[k + 1]`` on a disc resting at ``q``
    came from: a step that starts touching it (centres within ``contact``) pushes it along the
    line of centres from where the mover first touched it on its course (a row-mate pressed
    against it in the row pushes it along the row, however close the tracker's course for it
    then runs to its centre); any other from the step's ``nearest`` point to ``q``, as the
    blow of a mover running up at it. A row-mate coasted on a forecast along the rim through
    the disc's place passes nearest it just beside its centre, which read as a blow straight
    into the rim (k2e_9983 at 8.4 s: n1, pushed 84 mm along the south rim by its neighbour,
    was called off the board)."""
    if float(np.hypot(*(pts[k] - q))) > contact:
        return nearest
    first = k
    while first > 0 and float(np.hypot(*(pts[first - 1] - q))) <= contact:
        first -= 1
    return pts[first]
