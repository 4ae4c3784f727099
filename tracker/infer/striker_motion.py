"""Korona: a striker's motion as the segmenter reads it while an episode settles.

* ``flight_unseen_pending``: a striker flicked and blurred out of the detector's frames is on its
  way, not gone: the episode waits for it to be found again.
* ``jitters``: a striker at rest measured a few mm apart from frame to frame is no motion.
* ``taken_up``: a striker seen once off its place and never again was taken up by a hand.
* ``back_home``: a disc-kind track, taken for a striker seen as a disc, that rests again where it
  rested did not run.
* ``left_by_another``: a striker that lies where another seat's shot left it is not shot from there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.boards.korona import ON_LINE_MM
from tracker.detect.datatypes import STRIKER
from tracker.infer.start_places import at_start_place
from tracker.track.datatypes import Track
from tracker.track.merge import DONOR_WINDOW
from tracker.track.tracker import TrackerConfig

if TYPE_CHECKING:
    from tracker.infer.segmenter import ShotSegmenter

# mm from its rest place that counts as a disc moving (the tracker's own)
MOVE_MM = TrackerConfig.move_mm
# seconds of sightings within half its radius of its rest place that make a striker the tracker
# calls moving one at rest, measured apart (``jitters``)
JITTER_S = 0.2


def flight_unseen_pending(seg: ShotSegmenter, tracks: Sequence[Track], t: float) -> bool:
    """Korona: is a striker that waited where shots start unseen since its last sighting
    left its place (the flick's first frame: more than ``MOVE_MM`` off it, within a radius),
    for less than the tracker's ``DONOR_WINDOW``? It is on its way, blurred out of the detector's frames, and is found again in flight
    (the tracker joins it to its track); closed now, the episode read the shot from the rest
    states and the striker's run, found a moment later, made a second shot (k4h_9984 at
    12.1 s: west's striker, seen 10 mm off its place and unseen for 0.33 s, found again
    in the middle of the board; logged twice)."""
    if not isinstance(seg.board, KoronaBoard):
        return False
    for tr in tracks:
        # (one that rested before the episode, as a shot disc does (``judge``), and was not seen
        # moving in it: not a striker first found as the episode began, a hand's (k4h_9506 at
        # 27.0 s), nor the shot's own, stopped and covered now and then (k4h_9506 at 5.0 s))
        if tr.kind != STRIKER or tr.id not in seg._before or not (tr.state == "rest" and tr.occluded) \
                or tr.born >= seg._t0 - 1e-6 or tr.id in seg._moved:
            continue
        if not (seg._t0 - 0.25 <= tr.last_seen and t - tr.last_seen < DONOR_WINDOW):
            continue
        last = tr.last_sighting()
        rest = seg._before[tr.id]
        if last is not None and MOVE_MM < float(np.hypot(last.x - rest[0], last.y - rest[1])) <= tr.radius \
                and at_start_place(seg.board, rest, tr, on_line=ON_LINE_MM):
            return True
    return False


def jitters(board: CrokinoleBoard | KoronaBoard, tr: Track, t: float) -> bool:
    """Korona: is ``tr``, called moving, a striker at rest whose sightings only scatter about
    the place it rested at (all within half its radius over the last ``JITTER_S``)? The
    detector measures a striker by a rim row or under a hand's shadow up to 6 mm apart from
    frame to frame; the tracker's ``move_mm`` (2.5 mm on two frames) calls it moving, and the
    episode never settled (k4h_9942 at 32.3 s: west's striker, at rest by the east rim
    after its shot, "moved" on and off for 2.5 s; the shot closed at 34.9 s, when the hands
    had already put w3, knocked off, back in the centre, and its pocket and off were lost)."""
    if not isinstance(board, KoronaBoard) or tr.kind != STRIKER or tr.rest_xy is None:
        return False
    seen = [(s.x, s.y) for s in tr.path if s.measured and s.t >= t - JITTER_S]
    if len(seen) < 2:
        return False
    return bool(np.hypot(*(np.array(seen) - np.array(tr.rest_xy)).T).max() <= 0.5 * tr.radius)


# Korona: a striker whose run is one sighting off its place is no shot when it is now covered
# where that sighting put it (``taken_up``). False: off (judged a shot as before).
TAKEN_UP = True


def taken_up(board: CrokinoleBoard | KoronaBoard, tr: Track, start: tuple[float, float], t0: float,
             tracks: Sequence[Track] = ()) -> bool:
    """Korona: was ``tr``, a striker that rested at ``start`` and moved in the episode that began
    at ``t0``, taken up by a hand rather than flicked? Its whole run is one sighting off its place
    (more than ``MOVE_MM`` off it), and the tracker, losing it there, holds it covered where that
    sighting was: a flicked striker (a striker is large and light, found in most frames of its
    run) is seen on its way or where it stops; one lifted off the board by the hand that grips it
    is seen once, dragged a few cm, and never again (k2e_10005 at 11.6 s: north's striker, taken
    up by the hand of the player not shooting, seen once 47 mm from its place, was logged as a
    shot that touched nothing). Not when a striker first found since the episode began is seen on
    the board: the flicked one, run blurred out of the detector's frames and found where it
    stopped (k4h_9912 at 13.1 s: north's striker, never found on its way, rests 510 mm on, a new
    track). Only meaningful for a striker that struck nothing."""
    if not TAKEN_UP or not isinstance(board, KoronaBoard) or tr.kind != STRIKER:
        return False
    if not (tr.state == "rest" and tr.occluded):
        return False
    if any(o is not tr and o.kind == STRIKER and o.alive and not o.occluded and o.born >= t0 - 1e-6 for o in tracks):
        return False
    away = [s for s in tr.path if s.measured and s.t >= t0 - 1e-6
            and float(np.hypot(s.x - start[0], s.y - start[1])) > MOVE_MM]
    if len(away) != 1:
        return False
    last = tr.last_sighting()
    return last is away[0] and float(np.hypot(tr.xy[0] - last.x, tr.xy[1] - last.y)) <= MOVE_MM


# Korona: a disc-kind track, let in as the shot disc because it rested where a striker waits (a
# striker seen as a disc), is not when it rests again where it rested (``back_home``). False: off.
DISC_BACK_HOME = True


def back_home(tr: Track, rested: tuple[float, float]) -> bool:
    """Korona: is ``tr``, which rested at ``rested`` before an episode and moved in it, last seen
    (at rest, or jittering there) within half its radius of that place? A shot striker runs on until it strikes something
    and is not brought back to its very place; a disc's track that followed a hand-carried
    striker's finds for a few frames (they pass within its gate) and then its own again does."""
    last = tr.last_sighting()
    if tr.state not in ("rest", "moving") or last is None:
        return False
    return float(np.hypot(last.x - rested[0], last.y - rested[1])) <= 0.5 * tr.radius


# Korona: a striker run from where another seat's shot left it, not moved since, is no shot of the
# seat whose zone that is (``left_by_another``). False: off (judged a shot as before).
LEFT_BY_ANOTHER = True


def left_by_another(seg: ShotSegmenter, tr: Track, start: tuple[float, float]) -> str | None:
    """Korona: the seat whose shot last sent ``tr``, the striker seen run from ``start``, when that
    is not the seat whose zone ``start`` lies in and ``tr`` has rested since where that shot left it
    (within ``MOVE_MM``: one set down by hand near there is another striker). Every seat shoots
    its own striker, and sets it in its zone before the shot; another seat's striker left lying
    there by its shot is taken off the board by a hand, which carries it away as fast as a flick,
    often hidden under the hand until it is well on its way (k4h_9996 at 14.9 s: west's striker, left at (319, 9) in east's
    zone by west's shot, carried off over the west rim at 2.2 m/s, unseen for 0.43 s and first
    found 500 mm on, was logged as an east shot; k4h_10212 at 16.5 s: north's, left in south's
    zone, carried to north's line, logged as a south shot). Only when that zone is a seat's in
    play: a run from a zone nobody plays from is no shot from there (the namer gives it to the
    seat whose turn it is), and the run may be another striker's joined to ``tr`` (k2e_10211 at
    31.5 s: north's shot, its striker found first after a rim bounce and joined to south's,
    left by south's shot in west's zone). None otherwise."""
    b = seg.board
    left = seg.left_by.get(tr.id)
    rest = seg._before.get(tr.id)
    if not LEFT_BY_ANOTHER or not isinstance(b, KoronaBoard) or tr.kind != STRIKER or left is None or rest is None:
        return None
    seat, at = left
    if seat is None:
        return None
    zone = b.rim_zone_of(*start) or b.seat_of(*start)
    if zone == seat or zone not in seg.seats or float(np.hypot(rest[0] - at[0], rest[1] - at[1])) > MOVE_MM:
        return None
    return seat


def shooting_seat(seg: ShotSegmenter, start: tuple[float, float]) -> str | None:
    """Korona: the seat a shot from ``start`` is logged for, as ``Namer.seat_of_start`` reads it:
    the seat whose zone it lies in, when in play, else the one whose turn it is; None when
    neither is known (or on a crokinole board)."""
    b = seg.board
    if not isinstance(b, KoronaBoard):
        return None
    zone = b.rim_zone_of(*start) or b.seat_of(*start)
    turn = seg.next_seat()
    return zone if zone in seg.seats else turn if turn in seg.seats else None
