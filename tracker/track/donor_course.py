"""Korona: whether a disc that rested against a rim, unseen since, can be the disc a new track
first found moving came from (``merge.donor_of``'s ``course``).

The tracker joins a track born moving to the disc it came from: a disc that vanished lately
within reach of the first sighting at the top speed, nearest the new track's line run back
(``merge.donor_of``). That gate is wide on purpose (a missed first frame, a bounce off a rim
or another disc between the first sightings makes the line rough), and in korona it takes rim
discs for discs they cannot be. The detector drops a row against the rim the frame a striker
starts (the picture changes all along it), so a whole row has "vanished" as every shot's first
struck disc shows up in the field (k4h_9966 at 28.0 s: s6, struck from the centre circle towards
the nw pocket, first seen 230 mm out of the west rim heading north-west; e5, in the east row
against the west rim and unseen for that frame only, was taken for it, "pocketed" nw, and s6's
pocket was lost). Two things such a row disc cannot have done:

* leave its rim and be found well out in the field heading back into that rim: a disc knocked
  off a rim runs away from it (or along it) until it meets something else (:func:`into_own_rim`);
* get farther in the time it was unseen than the speed it is first seen at allows: friction only
  slows a disc, and a bounce off a rim costs it at most the rims' restitution (the simulator's
  0.6: ``BOUNCE_KEEPS``) (:func:`too_far`);
* start at all when nothing came to strike it: a disc at rest moves only when struck, by a mover
  from outside the group of discs touching it (its row: a blow on one passes along the row), and
  the detector dropping a row does not move it (:func:`unstruck`).

Pure functions on tracks and the board model.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC
from tracker.track.blows import segment_distance
from tracker.track.config import TrackerConfig
from tracker.track.datatypes import Track

# Whether the gate is on (``confirm.confirm`` passes it to ``merge.donor_of`` for korona). On
# (session 21, with ``turned_back.ON``: the one p95 that moved the wrong way is a refit timing, below):
# replayed reviews (--dets) of the 10 k4h and 10 k2e dev matches and the 5 korona fixtures, off
# -> on: k4h_9966 round 0/1 -> 1/1, pockets 33%/33% -> 67%/67% (s6's nw pocket found, e5's false
# one gone); k2e_9983 switches 25 -> 0 per 100 shots; korona_4p_part p95 2.75 -> 2.71 mm; all
# 25: rounds 13 -> 14, pockets 81%/95% -> 82%/97%, switches 6.6 -> 5.7. But k4h_9506 p95 2.60
# -> 2.68 mm: at 31.1 s e6 is no longer joined to a find 566 mm from its place (right), so it
# stays in its row, wobbles there 32.1-32.5 s, and the 31.2 s shot is judged 0.5 s later, where
# s5's refit at rest is 2.01 mm off instead of 1.44 (the only figure that moved the wrong way).
ON = True
# The least share of a disc's speed a bounce off a rim leaves it (the simulator's rims: 0.6).
BOUNCE_KEEPS = 0.6
# Radii of slack on the farthest run (the first sighting's error, a disc's width of contact).
SLACK_RADII = 2.0
# A first sighting this many radii or more out from the rim the candidate rested against, heading
# into that rim at more than this cosine of the rim's normal, did not leave that rim.
OUT_RADII = 8.0
INTO_COS = 0.3
# Whether a rim disc found farther than ``UNSTRUCK_NEAR_RADII`` from its place must have been
# within reach of a mover to be a donor (:func:`unstruck`). False: off (any rim disc vanished
# within reach at the top speed, as before). On with ``taken_up`` (session 22): k2e_10005 shots
# precision 89% -> 100%; the rest of the 22 korona dev replays and 5 fixtures: see the commit.
STRUCK_FIRST = True
# ... and a disc resting in the open too. Off: k2e_9983 at 27.3 s, n3 (in the open by the north
# rim) no longer took s7's run 800 mm away, but s7's new track then took s6's name from the
# row's shuffle (switches 0 -> 12.5 per 100 shots), and a camera bump's re-finds 20-50 mm off
# needed ``UNSTRUCK_NEAR_RADII``.
STRUCK_FIRST_OPEN = False
# Radii from its place within which a first sighting may be the disc unstruck: the camera moving
# (k2e_9983 at 20.6 s, a bump: discs re-found about 20 mm off their places, joined to their
# tracks as donors), a cue laid over a row (k4h_9912 at 12.4 s, a row disc's find 47 mm off) or a
# hand's nudge shifts a disc's find that far with nothing striking it.
UNSTRUCK_NEAR_RADII = 8.0
# mm of slack on two radii for discs that touch (a row; the detector's centres are a mm or two
# off: ``merge.TOUCH_MM``)
TOUCH_MM = 3.0
# Seconds before the candidate was last seen from which a mover's run counts (a blow lands as
# the detector drops the row: the striker's last frames before it)
BLOW_LEAD_S = 0.1


def rim_normal(board: KoronaBoard, xy: np.ndarray, radius: float) -> np.ndarray | None:
    """The outward normal of the rim a disc resting at ``xy`` lies against
    (``KoronaBoard.rim_against``), or None for a disc in the open."""
    rim = board.rim_against(float(xy[0]), float(xy[1]), radius)
    if rim is None:
        return None
    n = np.zeros(2)
    n[rim[0]] = rim[1]
    return n


def into_own_rim(board: KoronaBoard, d: Track, z: np.ndarray, v: np.ndarray) -> bool:
    """Whether ``d``, resting against a rim, would be first seen at ``z`` well out in the field
    (``OUT_RADII`` radii from that rim) heading into that rim (``INTO_COS``)."""
    place = np.asarray(d.settled_xy, float)
    n = rim_normal(board, place, d.radius)
    sp = float(np.hypot(*v))
    if n is None or sp < 1e-6:
        return False
    out = board.half - float(z @ n)  # how far the first sighting lies from that rim's inner face
    return out > OUT_RADII * d.radius and float(v @ n) > INTO_COS * sp


def too_far(d: Track, z: np.ndarray, v: np.ndarray, gap: float, decel: float) -> bool:
    """Whether resting ``d``, unseen for ``gap`` s, lies farther from the first sighting ``z`` than
    a disc first seen at speed ``|v|`` can have run in that time: at most ``|v| / BOUNCE_KEEPS``
    (a bounce may have slowed it) plus friction's toll, and ``SLACK_RADII`` radii."""
    reach = float(np.hypot(*(z - np.asarray(d.settled_xy, float))))
    sp = float(np.hypot(*v)) / BOUNCE_KEEPS
    return reach > sp * gap + 0.5 * decel * gap * gap + SLACK_RADII * d.radius


def touching_group(tracks: Sequence[Track], d: Track) -> list[Track]:
    """``d`` and the discs at rest that touch it, and those that touch them (a row against a
    rim, a cluster): a blow on one of them moves the others."""
    group = [d]
    rest = [o for o in tracks if o is not d and o.state == "rest"]
    k = 0
    while k < len(group):
        g = group[k]
        q = np.asarray(g.settled_xy, float)
        near = [o for o in rest if float(np.hypot(*(np.asarray(o.settled_xy, float) - q)))
                <= o.radius + g.radius + TOUCH_MM]
        group.extend(near)
        rest = [o for o in rest if o not in near]
        k += 1
    return group


def unstruck(tracks: Sequence[Track], d: Track, tr: Track) -> bool:
    """Whether no mover came within reach of ``d`` (resting, unseen since ``d.last_seen``) or of
    a disc touching it (:func:`touching_group`) between just before it was last seen and
    ``tr``'s first sighting: nothing struck it, so it did not start. A mover is another track
    (not ``tr``, not one of the group) whose path then (seen or forecast) steps more than the
    tracker's ``move_mm`` and passes within the two radii and one more of a disc of the group
    (``ends.reached``'s reach: at 10 fps a striker that struck a disc between frames is seen
    short of it, on its way back: korona_ru_part at 27.8 s, north's striker last seen 45 mm
    from n6's centre, a touch at 37.5). k2e_10005 at 11.5 s: a hand reaching for north's
    striker was found as a disc flying 550 mm from the south row, where s8, dropped by the
    detector a frame before, was taken for it; the striker it then "struck" made a shot nobody
    played."""
    group = touching_group(tracks, d)
    t0, t1 = d.last_seen - BLOW_LEAD_S, tr.path[0].t
    for o in tracks:
        if o is tr or any(o is g for g in group):
            continue
        run = [s for s in o.path if t0 - 1e-6 <= s.t <= t1 + 1e-6]
        for a, b in zip(run, run[1:], strict=False):
            pa, pb = np.array([a.x, a.y]), np.array([b.x, b.y])
            if float(np.hypot(*(pb - pa))) <= TrackerConfig.move_mm:
                continue
            for g in group:
                if segment_distance(np.asarray(g.settled_xy, float), pa, pb) <= o.radius + 2 * g.radius:
                    return False
    return True


def may_be_donor(board: KoronaBoard, tr: Track, v: np.ndarray, decel: float, d: Track, gap: float,
                 tracks: Sequence[Track] = ()) -> bool:
    """Whether disc ``d``, resting against a rim and vanished ``gap`` s before ``tr`` (a target
    disc, born moving at ``v``) was first seen, may be where ``tr`` came from (the module
    docstring; ``tracks``: all the tracker's, for :func:`unstruck`). Strikers, discs that were
    moving and discs resting in the open are not judged here (one in the open is not dropped
    with a row, and may have been slowed by a blow on its way: k2e_9505 at 22.7 s)."""
    if tr.kind != DISC or d.state != "rest" or not tr.path:
        return True
    on_rim = rim_normal(board, np.asarray(d.settled_xy, float), d.radius) is not None
    z = np.array([tr.path[0].x, tr.path[0].y], float)
    far = float(np.hypot(*(z - np.asarray(d.settled_xy, float)))) > UNSTRUCK_NEAR_RADII * d.radius
    if STRUCK_FIRST and far and (on_rim or STRUCK_FIRST_OPEN) and tracks and unstruck(tracks, d, tr):
        return False
    if not on_rim:
        return True
    return not (into_own_rim(board, d, z, v) or too_far(d, z, v, gap, decel))
