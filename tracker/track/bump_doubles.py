"""Crokinole: a resting disc's double, born through the old board fit while the camera moved
unnoticed (``Tracker.drop_bump_doubles``, on the first frame of a new fit).

Between a bump and the drift check that notices it (``pipeline.camera.check_drift``, at most
``Pipeline.drift_every`` seconds), every disc is measured through the stale fit, some mm off. A disc
the tracker holds at rest but does not see (lost at rest, or never seen: its place an estimate,
``Tracker.add_unseen``) may then be found by the detector (the view changed under it) at a place
too far from its own for its rest gate: a new track is born there, the disc's double. The new fit's
``rebase`` pairs tracks with the detections of its first frame only, and that frame may have none
of the disc; so the double stayed, the named track lay beside it unseen, and the next blow set the
double off under no name.

c4h_9945 at 14.5-14.9 s: east's grey e1, never found at rest under the board's highlight (kept at
(-32, -32) from its blow on n1, truly at (-31, -31)), was found through the stale fit at (-30, -16)
two frames before the bump was noticed; the new fit's first frame saw nothing. At 16.2 s south's
s2 struck e1 and the double took the run: e1's removal past the shooting line was missed, the
double was named w2, west's w2 shot was read as south's s3, and two discs were called lifted by hand.

A track in play born since the camera may have moved, every sighting of which lies within two
discs' overlap (two radii less ``merge.TOUCH_MM``) of the place of a disc resting there unseen
all that time, cannot be another disc (two discs do not overlap): it is dropped, and the resting
disc keeps its name and its place (measured before the bump, in board millimetres: still right).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.track.merge import TOUCH_MM

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker

ON = True  # off: the doubles stay (the behaviour before)


def bump_doubles(tk: Tracker, since: float) -> list[int]:
    """The ids of the tracks born at or after ``since`` that double a disc resting unseen since
    before ``since`` (see the module doc); crokinole only."""
    if not ON or not isinstance(tk.board, CrokinoleBoard):
        return []
    unseen = [tr for tr in tk.tracks if tr.state == "rest" and tr.born < since and tr.last_seen < since]
    if not unseen:
        return []
    out = []
    for tr in tk.tracks:
        if tr.state not in ("rest", "moving") or tr.born < since:
            continue
        seen = np.array([(s.x, s.y) for s in tr.path if s.measured], float).reshape(-1, 2)
        if not len(seen):
            continue
        for o in unseen:
            q = np.asarray(o.settled_xy, float)
            if float(np.hypot(*(seen - q).T).max()) < o.radius + tr.radius - TOUCH_MM:
                out.append(tr.id)
                break
    return out
