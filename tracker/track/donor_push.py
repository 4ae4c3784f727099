"""Korona: whether a resting disc, unseen since, can have been pushed the way a new track first
found moving goes (``merge.donor_of``'s ``course``, with ``donor_course.may_be_donor``).

A disc at rest starts only when struck, and a blow drives it away from what struck it: along the
line from the striking disc's centre through its own at their contact, never back towards the
blow. So a resting disc ``d`` at ``q`` is where a track born at ``z`` came from only if

* something could have struck it from behind, as seen from ``z``: a disc seen coming within
  touching distance of ``q`` (plus the slack of a frame's path, ``REACH``) from the side away
  from ``z``, while ``d`` was unseen or just before; or a disc resting against ``d`` on that side
  (a row passing a blow on: the detector drops a struck row, so its discs' pushes are unseen);
* and no disc touched ``d`` on ``z``'s side when it was last seen (``merge.way_out_blocked``):
  that one would have had to go first.

The same holds for a disc taken for one knocked a short way (``confirm.nudged_disc``, ``NUDGES``).
With ``FALLBACK`` the gate only ranks: when no candidate passes, the nearest is taken as before.

k4h_9984 at 34.87 s: the south striker drove s4 into s5 along the south rim; s5's first find,
going east, and s4's, 20 mm back west, made one tentative track "going west", and it was joined
to s6, resting 23 mm east of the first find with nothing east of it to push it west; s6's name
went to s4's way out of the row (a switch; mended without ``FALLBACK`` only). k2e_9705 at 13.13 s: s1, struck into the rim and out
west unseen, was found 95 mm west; s3, in the row 46 mm east of s1's place with s2 touching it
on the west, was taken for it.

Pure functions on tracks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.detect.datatypes import DISC
from tracker.track.blows import closest_on_segment
from tracker.track.datatypes import Track
from tracker.track.merge import TOUCH_MM, way_out_blocked

# Whether ``confirm.confirm`` applies the gate (korona resting donors). Off: it helps some matches
# and hurts others. Replays (--dets) of the 11 k2e and 11 k4h dev matches and the 5 korona
# fixtures, off -> on (with ``FALLBACK``, ``NUDGES`` and the rim rebound, the defaults): k2e_9705
# switches 25 -> 12.5 per 100 shots (s1 keeps its name at 13.13 s), korona_4p_part 10 -> 0,
# k4h_9924 pockets R/P 0/0 -> 100/100%, k4h_10006 shots P 62 -> 71%, k4h_9506 p95 2.68 -> 2.58 mm;
# but k4h_9984 switches 37.5 -> 50 (p95 3.23 -> 3.09 mm), korona_ru_part shots P 100 -> 92% (a
# phantom south shot at 56.5 s: a far find's donor changed) and median/p95 1.17/5.30 -> 1.26/6.09
# mm, k4h_9996 median 0.88 -> 0.95 mm, korona_4p_part p95 2.78 -> 2.79 mm. All 27: switches 4.8 ->
# 4.4, pockets 80%/99% -> 81%/100%, positions 0.64/5.14 -> 0.64/5.23 mm. Without the rim rebound
# (``REBOUND_RADII`` 0), korona_ru_part gains a switch instead (38.0 s: s3, struck into the south
# rim, came back past the striker) and all 27 stay at 4.8. Without ``FALLBACK`` (no rebound):
# k2e_9983 loses a pocket and gains a switch (a camera bump at 20.6 s shifts every disc while the
# bump's first frames read some as moving: the shifted discs' own donors are refused), k2e_9971
# 0.36/1.61 -> 0.45/1.95 mm, k4h_9984's 34.9 s switch is mended but not its count; all 27: 4.4.
ON = False
# Whether, when no donor passes the gate, the nearest one that passes the others is taken all the
# same (the gate then only ranks: a blow unseen may have pushed any).
FALLBACK = True
# Whether a disc taken for one knocked a short way (``confirm.nudged_disc``) must pass it too.
NUDGES = True
# Seconds before the donor was last seen from which a striker's sightings count (a blow a frame
# or two before the disc vanished: it was still seen, blurred, at its place).
BEFORE_S = 0.1
# Radii of slack on touching distance for a striker's path between two sightings (a frame's run
# of a fast disc passes the contact between the sightings; the detector's centres are off).
REACH = 1.5
# Radii from a rim within which a disc may have been driven into it and come back off it.
REBOUND_RADII = 3.0


def pushed_that_way(tracks: Sequence[Track], d: Track, tr: Track, t: float,
                    tentative: Sequence[Track] = (), half: float | None = None) -> bool:
    """Whether resting ``d`` may have been driven towards ``tr``'s first sighting (the module
    docstring), as of ``t``; the ``tentative`` tracks' sightings count as strikers' too. True for
    a disc not at rest, a striker (flicked by hand), a first sighting within a radius of its
    place (a nudge: no direction to speak of), or while no known disc moves (the striker of a
    blow unseen: nothing to tell the blow's side by). With the board's ``half``, a disc near a
    rim (``REBOUND_RADII``) leaving it may have been driven into it and come back off it."""
    if d.state != "rest" or d.kind != DISC or not tr.path:
        return True
    if not any(m.state == "moving" for m in tracks if m is not tr) and not any(_moved(m) for m in tentative if m is not tr):
        return True
    first = tr.path[0]
    q = np.asarray(d.settled_xy, float)
    out = np.array([first.x, first.y]) - q
    run = float(np.hypot(*out))
    if run <= d.radius:
        return True
    if way_out_blocked(tracks, d, tr):
        return False
    ways = _ways(q, out / run, d.radius, half)
    since = d.last_seen - BEFORE_S
    for m in [*tracks, *tentative]:
        if m is d or m is tr or m.state not in ("rest", "moving"):
            continue
        touch = m.radius + d.radius
        if m.state == "rest" and m.anchor_n:
            w = q - np.asarray(m.settled_xy, float)
            gap = float(np.hypot(*w))
            if gap <= touch + TOUCH_MM and any(float(w @ u) > 0 for u in ways):
                return True  # a row-mate behind it, passing a blow on
        pts = [np.array([s.x, s.y]) for s in m.path if s.measured and since <= s.t <= t + 1e-6]
        if m.state == "moving":
            pts.append(np.asarray(m.xy, float))
        if len(pts) == 1:
            pts.append(pts[0])
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            if m.state == "rest" and float(np.hypot(*(b - a))) <= TOUCH_MM:
                continue  # (still: it struck nothing)
            p = closest_on_segment(q, a, b)
            w = q - p
            if float(np.hypot(*w)) <= REACH * touch and any(float(w @ u) > 0 for u in ways):
                return True
    return False


def _ways(q: np.ndarray, u: np.ndarray, radius: float, half: float | None) -> list[np.ndarray]:
    """The headings a disc at ``q`` leaving along ``u`` may have been driven in: ``u``, and, for
    each rim within ``REBOUND_RADII`` radii of its edge that ``u`` leaves, ``u`` turned back
    into that rim (driven into it, it came back off it)."""
    out = [u]
    if half is None:
        return out
    for k in (0, 1):
        side = 1.0 if q[k] > 0 else -1.0
        if abs(float(q[k])) + radius >= half - REBOUND_RADII * radius and float(u[k]) * side < 0:
            v = u.copy()
            v[k] = -v[k]
            out.append(v)
    return out


def _moved(m: Track) -> bool:
    """Whether a tentative track's first and last sightings lie more than twice ``TOUCH_MM``
    apart (a disc or striker in motion, not a find's jitter)."""
    if not m.path:
        return False
    a, b = m.path[0], m.path[-1]
    return float(np.hypot(b.x - a.x, b.y - a.y)) > 2 * TOUCH_MM
