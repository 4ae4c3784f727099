"""A crokinole shot whose disc was seen only on the last stretch of its way, coming to rest in the
open (``judge``'s fallback, beside ``unseen.sank_unseen``, the same for a disc seen going down the
20-hole).

A dark disc on a dark board can be missed by the detector on the shooting line (the player's hand
over it, a lone find that never makes a track) and in flight, and found only as it slows to a stop:
the episode's only mover is then a track first seen already moving, with no rest place behind it,
and the motion was rejected ("no disc that rested before it"): the shot was lost, and its disc,
never named, scored nothing (c4h_9945 at 27.1 s: east's e2, found once on the east line 0.4 s
before the flick, then 30 mm from where it stopped, 14 mm from the centre; B 30 against 45).

No hand sets a crokinole disc down in the open (the hands put discs on the shooting line, take
discs out of the hole and off the board), and a disc struck there rested before: a new disc first
seen sliding in towards the centre that came to rest away from the shooting line, in an episode
where no disc that rested before moved, was shot, from where its course, run back, meets the
shooting line.

It must be seen at rest there (``seen_at_rest``): a track lost in flight is kept at rest where
its course ends (``fate.resolve_lost``) without a sighting, and a hand's false find is kept so
too: two finds of the fingers reaching for the 20 over the hole (c2e_10207 at 3.3 s, on two
frames running, 18 mm apart, never seen again) were kept at rest 35 mm from the centre and read
as south's shot; that phantom disc made north's three next shots fouls (no opponent disc hit),
and two 20s were lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.infer.datatypes import ShotRecord
from tracker.infer.start_places import at_start_place, may_start
from tracker.infer.unseen import back_to_line, from_line
from tracker.track.datatypes import Track
from tracker.track.tracker import TrackerConfig

if TYPE_CHECKING:
    from tracker.infer.segmenter import ShotSegmenter

# On: shots read from a disc first seen on its last stretch, at rest in the open (module doc).
ON = True
# mm its first sighting must lie from where it rests to give it a course (the detector's scatter
# at rest is well under this)
MIN_STEP_MM = 3.0
# sightings at its rest place (within the tracker's ``move_mm`` of it) that make a disc seen at
# rest: the tracker's own least count for rest (``lifecycle.maybe_rest``)
AT_REST_SIGHTINGS = 3


def landed_unseen(seg: ShotSegmenter, tracks: Sequence[Track], movers: Sequence[Track],
                  paths: dict[int, np.ndarray], t: float, frame: int) -> ShotRecord | None:
    """The shot read from a disc first seen sliding in that came to rest in the open (module
    doc), or None: off, not crokinole, or no such disc, or a disc that rested before moved (the
    caller asks only when none was a candidate for the shot disc)."""
    b = seg.board
    if not ON or not isinstance(b, CrokinoleBoard):
        return None
    if any(tr.id in seg._before and tr.born < seg._t0 - 1e-6 and tr.id in paths for tr in movers):
        return None  # a disc that rested before moved: the other readings' case
    fresh = [tr for tr in movers if tr.state == "rest" and tr.born >= seg._t0 - 1e-6
             and tr.id not in seg._shot_before and tr.id in paths and len(paths[tr.id]) >= 2
             and not at_start_place(b, tr.position(), tr) and not seg.unlike_a_disc(tr) and not tr.leaving
             and seen_at_rest(tr)]
    for tr in sorted(fresh, key=lambda tr: tr.born):
        p = paths[tr.id]
        # its course: from its first sighting to where it rests (the mean of many sightings; a
        # second sighting in flight, blurred, may lie a few mm aside: c4h_9945's, 2.4 mm, turned
        # the course 10 degrees and put the start 50 mm along the line)
        p0 = p[0, 1:].astype(float)
        step = np.asarray(tr.position(), float) - p0
        # first seen on the surface within the shooting line, sliding in towards the centre
        if float(np.hypot(*p0)) >= b.shooting_line_radius or float(np.hypot(*step)) < MIN_STEP_MM \
                or float(p0 @ step) >= 0:
            continue
        back = back_to_line(b, p0, step)
        if back is None or not may_start(b, back[0], tr):
            continue
        return from_line(seg, tracks, movers, paths, tr, *back, t, frame, "its disc's last stretch")
    return None


def seen_at_rest(tr: Track) -> bool:
    """Whether ``tr`` was found at the place it rests on ``AT_REST_SIGHTINGS`` frames: a place
    that is the tracker's estimate for a disc lost on its way (or a false find lost) is none."""
    return len(tr.seen_near(tr.position(), TrackerConfig.move_mm)) >= AT_REST_SIGHTINGS
