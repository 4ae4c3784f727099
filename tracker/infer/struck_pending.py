"""Crokinole: a disc a shot may have knocked away unseen is waited for before the shot is judged.

A disc at rest starts only when struck, and one the detector does not see where it rests is
found again, if at all, only somewhere along the blow's way: on its way (the tracker then joins
it to its old track) or at rest where it stopped (``identity.reconcile`` pairs the new track with
it). Closed before, the shot leaves it at its old place and its flight and fate out of the log.

* ``knocked_unseen_pending``: a disc seen at rest during the shot, unseen since a mover came by
  it, for less than the tracker's ``DONOR_WINDOW`` (c4h_9903 at 11.2 s: e1, unseen from the
  shooting line, struck w1, which was first seen again 0.5 s later on its way into the ditch,
  after the shot had been closed with w1 still on the board).
* ``lost_struck_pending``: a disc lost at rest since before the shot (no sighting to count from),
  whose place a mover of the shot reached, counted from that blow: for as long as a disc sent off
  at the mover's top speed slides (``TrackerConfig.decel``, at most ``MAX_SLIDE_S``) and the
  detector takes to find it at rest once the board has settled (``FOUND_S``); not once a new
  disc has turned up since the blow away from where shots start (the struck one, maybe: the
  judge and ``reconcile`` say). c4e_10104 at 24.7 s: north's light n2, on the light board, was
  never found at rest after its own shot (its place there the region model's); east's e2 struck
  it and it slid 190 mm off two pegs, unseen in flight, and was first found at rest 0.8 s after
  the blow: 0.5 s after the shot had been closed with n2 at its old place (15 points, not 10).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.infer.ends import peak_speed, reached
from tracker.infer.start_places import at_start_place
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Track
from tracker.track.merge import DONOR_WINDOW
from tracker.track.tracker import TrackerConfig

if TYPE_CHECKING:
    from tracker.infer.segmenter import ShotSegmenter

# On: a disc lost at rest since before the shot, struck by one of its movers, is waited for.
LOST_STRUCK = True
# Seconds a struck disc may slide at most (the tracker's friction stops a disc sent off at
# 1800 mm/s in that time; a faster blow sends it into the ditch, where it is found lying).
MAX_SLIDE_S = 1.2
# Seconds from a disc's stop to its first sighting at rest: the detector's full pass once the
# board has settled (``pipeline.SETTLE_S``, 0.3 s) and a frame or two more.
FOUND_S = 0.5
# Seconds before the episode's start its paths are read from (``judge``).
LEAD_S = 0.25


def knocked_unseen_pending(seg: ShotSegmenter, tracks: Sequence[Track], t: float) -> bool:
    """Crokinole: is a disc that rested before the shot unseen since a mover of the shot came
    by it, for less than the tracker's ``DONOR_WINDOW``? (module doc)"""
    if not isinstance(seg.board, CrokinoleBoard):
        return False
    movers = [o for o in tracks if o.id in seg._moved]
    since = seg._t0 - LEAD_S  # the episode's start, as its paths are read (``judge``)
    for tr in _unseen_at_rest(seg, tracks):
        if not (since <= tr.last_seen and t - tr.last_seen < DONOR_WINDOW):
            continue
        others = [o for o in movers if o.id != tr.id]
        if reached(others, seg._before[tr.id], tr.radius, since, tr.radius):
            return True
    return False


def lost_struck_pending(seg: ShotSegmenter, tracks: Sequence[Track], t: float) -> bool:
    """Crokinole: is a disc lost at rest since before the shot, that a mover of the shot struck,
    still to be found where the blow sent it? (module doc)"""
    if not LOST_STRUCK or not isinstance(seg.board, CrokinoleBoard):
        return False
    movers = [o for o in tracks if o.id in seg._moved]
    since = seg._t0 - LEAD_S
    decel = TrackerConfig.decel
    for tr in _unseen_at_rest(seg, tracks):
        if tr.last_seen >= since:
            continue
        blow = struck_at([o for o in movers if o.id != tr.id], seg._before[tr.id], tr.radius, since)
        if blow is None:
            continue
        hit, speed = blow
        if t - hit >= min(speed / decel, MAX_SLIDE_S) + FOUND_S:
            continue
        if turned_up(seg, tracks, hit, tr.kind) is not None:
            continue  # a disc turned up since the blow
        return True
    return False


def _unseen_at_rest(seg: ShotSegmenter, tracks: Sequence[Track]) -> list[Track]:
    """The discs that rested before the shot, have not moved in it, and are at rest unseen."""
    return [tr for tr in tracks if tr.id not in seg._moved and tr.id in seg._before
            and tr.state == "rest" and tr.occluded]


def turned_up(seg: ShotSegmenter, tracks: Sequence[Track], since: float, kind: int | None = None) -> float | None:
    """When the last disc (of ``kind``) first found since ``since`` among the episode's movers
    turned up, at rest and away from where shots start (a disc a hand sets down for the next
    shot is no disc the blow sent there); None if none did."""
    born = [o.born for o in tracks if o.id in seg._moved and o.born >= since - 1e-6 and o.state != "moving"
            and (kind is None or o.kind == kind) and not at_start_place(seg.board, o.position(), o)]
    return max(born, default=None)


def struck_at(movers: Sequence[Track], at: tuple[float, float], radius: float,
              since: float) -> tuple[float, float] | None:
    """(when, how fast): the first time one of ``movers`` came, along its path since ``since``
    (seen or forecast), within touch of a disc of ``radius`` resting at ``at`` (two radii and one
    more: the place of a disc the detector lost may be an estimate), and that mover's top speed
    (mm/s) since ``since``; None if none did."""
    q = np.asarray(at, float)
    best: tuple[float, float] | None = None
    for m in movers:
        run = [s for s in m.path if s.t >= since - 1e-6]
        reach = 2 * radius + m.radius
        for k, s in enumerate(run):
            a = np.array([run[k - 1].x, run[k - 1].y]) if k else np.array([s.x, s.y])
            if segment_distance(q, a, np.array([s.x, s.y])) > reach:
                continue
            if best is None or s.t < best[0]:
                seen = np.array([(p.t, p.x, p.y) for p in run if p.measured]).reshape(-1, 3)
                best = (s.t, peak_speed(seen))
            break
    return best
