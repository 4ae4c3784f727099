"""Tentative tracks confirmed: functions of the :class:`tracker.track.Tracker` (``tk``) run once a
tentative track has been seen ``confirm_hits`` times (:func:`promote`).

A confirmed track may turn out to be a disc already known (:func:`confirm`): two discs of one blow
first taken for one track, a disc knocked away unseen and found in the ditch, a disc knocked a short
way or flicked out of its rest gate (:mod:`tracker.track.merge`), a striker first seen as a disc
(:func:`striker_seen_as_disc`), a disc nudged from its place (:func:`nudged_disc`), or the empty
20-hole just uncovered (``lifecycle.HOLE_UNCOVERED_S``); otherwise it is a new disc (:func:`label`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.boards.korona import ON_LINE_MM
from tracker.detect.datatypes import DISC, IN_HOLE, STRIKER
from tracker.track import donor_course, donor_push, lost_mover
from tracker.track.datatypes import Sample, Track
from tracker.track.hidden_blows import split_blow
from tracker.track.hole_course import passed_over
from tracker.track.lifecycle import HOLE_UNCOVERED_S
from tracker.track.merge import (
    blow_split,
    ditch_donor,
    donor_of,
    join_in_ditch,
    left_its_place,
    mover_robbed,
    nudged_from,
    unlike_blurred,
    unseen_since,
    way_out_blocked,
)

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker

# Korona: a resting donor whose way out a touching disc lay across (``merge.way_out_blocked``)
# gives way to a disc knocked away unseen (a ghost), if one may be the donor. Off by default:
# refusing such donors outright lost k4h_9506's first shot's pocket to a north disc (every south
# donor refused, a north disc across the board was left); this narrower form is measured on
# replays only; see the commit log.
WAY_OUT = False
BLOW_UNSEEN_S = 0.2  # korona: how long a row disc may go unseen during a blow and still be nudged (s)


def promote(tk: Tracker, t: float, dt: float) -> None:
    """Confirm the tentative tracks seen often enough; forget those not seen again soon."""
    keep: list[Track] = []
    ready = [tr for tr in tk._tentative if tr.hits >= tk.cfg.confirm_hits]
    # born-moving tracks claim their donors first: their line back is the better evidence
    # (and two discs of one blow taken for one track first of all: ``blow_split``)
    crok = isinstance(tk.board, CrokinoleBoard)
    ready.sort(key=lambda tr: (not (crok and blow_split(tk.tracks, tr, dt) is not None), not born_moving(tk, tr)))
    tk._consumed = set()
    for tr in ready:
        if id(tr) not in tk._consumed:
            confirm(tk, tr, t, dt)
    for tr in tk._tentative:
        if tr.hits < tk.cfg.confirm_hits and t - tr.born <= 2.5 * dt and id(tr) not in tk._consumed:
            keep.append(tr)
    tk._tentative = keep


def born_moving(tk: Tracker, tr: Track) -> bool:
    first, last = tr.path[0], tr.path[-1]
    moved = float(np.hypot(last.x - first.x, last.y - first.y))
    return moved > 2 * tk.cfg.move_mm or tr.first_streak > tr.radius / 2


def confirm(tk: Tracker, tr: Track, t: float, dt: float) -> None:
    """A confirmed tentative track: a disc knocked a short way (it joins that disc), a disc
    flicked out of its rest gate (it joins the disc it came from), or a new disc."""
    first, last = tr.path[0], tr.path[-1]
    if tr.state == "hole" and t - tk._hole_uncovered < HOLE_UNCOVERED_S:
        return  # the empty hole a disc just uncovered, not a disc in it
    lying = overlapped_rest(tk, tr)
    if lying is not None:  # the resting disc's own stray sightings, not a second disc
        label(tk, tr, lying.id)
        return
    split = blow_split(tk.tracks, tr, dt) if isinstance(tk.board, CrokinoleBoard) else None
    if split is not None:
        split_blow(tk, tr, *split, t)
        return
    ditched = ditch_donor(tk.tracks, tr, tk._ghosts, tk.cfg.v_max) \
        if tr.state == "off" and isinstance(tk.board, CrokinoleBoard) else None
    if ditched is not None:  # a disc knocked away unseen, found in the ditch
        join_in_ditch(ditched, tr, t, tk._ghosts)
        label(tk, tr, ditched.id)
        return
    if lost_mover.ON and isinstance(tk.board, CrokinoleBoard) and not born_moving(tk, tr) and tr.state == "rest":
        ahead = lost_mover.mover_ahead(tk.tracks, tr)
        if ahead is not None:  # a disc lost in flight, found stopping further on its line
            take_back(tk, ahead, tr, t)
            return
    if not born_moving(tk, tr) and tr.state == "rest":
        nudged = nudged_disc(tk, tr, first, dt)
        if nudged is not None:  # a disc knocked a short way within one frame
            nudged.rest_xy = nudged.position()
            # "moving" until its positions settle again, so the shot sees it moved
            nudged.xy, nudged.anchor_n, nudged.v = tr.xy.copy(), 0, np.zeros(2)
            nudged.state, nudged.occluded, nudged.last_seen = "moving", False, t
            nudged.hits += tr.hits
            nudged.path.extend(tr.path)
            label(tk, tr, nudged.id)
            return
    if born_moving(tk, tr) and tr.state in ("rest", "moving"):
        v = np.array([last.x - first.x, last.y - first.y]) / max(last.t - first.t, 1e-3)
        crok = isinstance(tk.board, CrokinoleBoard)
        course = korona_course(tk, tr, v, t, donor_push.ON) if isinstance(tk.board, KoronaBoard) else None
        donor = donor_of(tk.tracks, tr, v, first, tk.cfg.v_max, may_rest=knock_or_flick(tk, tr) if crok else None,
                         unlike=tk.cfg.colour_gate, struck=crok, course=course)
        if donor is None and not crok and donor_push.ON and donor_push.FALLBACK:
            # none could have been pushed that way: the nearest all the same (a blow unseen)
            donor = donor_of(tk.tracks, tr, v, first, tk.cfg.v_max, unlike=tk.cfg.colour_gate,
                             course=korona_course(tk, tr, v, t, False))
        donor = donor or striker_seen_as_disc(tk, tr, v, first)
        if WAY_OUT and not crok and donor is not None and donor.state == "rest" and way_out_blocked(tk.tracks, donor, tr):
            # a disc knocked away unseen the blow's forecast lost, rather than one that could not go that way
            ghost = donor_of([d for d in tk.tracks if d.id in tk._ghosts], tr, v, first, tk.cfg.v_max)
            donor = ghost or donor
        over = passed_over(tk.board, tk.tracks, tr, tk.cfg.v_max) \
            if donor is None and tk.cfg.hole_passed and isinstance(tk.board, CrokinoleBoard) else None
        if over is not None:  # a disc called into the 20-hole, found sliding on beyond it
            over.state, over.v, over.xy = "moving", v, tr.xy.copy()
            over.last_seen, over.hits = t, over.hits + tr.hits
            over.where_votes = dict(tr.where_votes)
            over.path.extend(tr.path)
            label(tk, tr, over.id)
            return
        robbed = mover_robbed(tk.tracks, tr, t, dt, tk.cfg.v_max) if donor is None and crok else None
        if robbed is not None:
            take_back(tk, robbed, tr, t)
            return
        if crossed_hole(tk, tr, donor):
            tk._hole_uncovered = t
            return
        if donor is not None:
            donor.rest_xy = donor.position()
            donor.state, donor.v, donor.xy = "moving", v, tr.xy.copy()
            donor.anchor_n, donor.occluded, donor.displaced_frames = 0, False, 0
            donor.last_seen, donor.hits = t, donor.hits + tr.hits
            donor.path.extend(tr.path)
            for c, n in tr.cls_votes.items():
                donor.cls_votes[c] = donor.cls_votes.get(c, 0) + n
            label(tk, tr, donor.id)
            return
        tr.state, tr.v, tr.anchor_n = "moving", v, 0
        tr.rest_xy = (first.x, first.y)
    tr.id = tk._next_id
    tk._next_id += 1
    tk.tracks.append(tr)
    label(tk, tr, tr.id)


def korona_course(tk: Tracker, tr: Track, v: np.ndarray, t: float,
                  push: bool) -> Callable[[Track, float], bool] | None:
    """Korona: the gate a donor of ``tr`` (born moving at ``v``) must pass in ``merge.donor_of``:
    a rim disc that could have got there (``donor_course``), and with ``push`` a resting disc
    that could have been pushed that way (``donor_push``); None when neither applies."""
    board = tk.board
    if not isinstance(board, KoronaBoard) or not (donor_course.ON or push):
        return None

    def course(d: Track, gap: float) -> bool:
        if donor_course.ON and not donor_course.may_be_donor(board, tr, v, tk.cfg.decel, d, gap, tracks=tk.tracks):
            return False
        return not push or donor_push.pushed_that_way(tk.tracks, d, tr, t, tk._tentative, board.half)

    return course


def crossed_hole(tk: Tracker, tr: Track, donor: Track | None) -> bool:
    """Crokinole: whether the track born moving ``tr`` is a disc seen crossing the 20-hole (its
    first find on the surface over the hole's edge) followed by the hole itself (its latest find
    in the hole, back the way the disc came, or any way when no disc may be it): the detector's
    picture of the empty hole is out of date once a disc has passed over it, and it reports the
    empty hole as a disc in it, as after a disc resting over its edge left
    (``lifecycle.HOLE_UNCOVERED_S``). A disc does not turn back over the hole with nothing there
    to bounce off, and one that drops in goes on the way it came. c2h_9956 at 7.4 s: n1, struck
    by s2, flew over the hole (seen once, 10 mm from its centre) on to a peg; the hole was found
    as a disc in it for 0.4 s, the two finds were taken for n1 turned back into the hole, and a
    false 20 was called. The caller drops the track and notes the hole uncovered."""
    b = tk.board
    if not isinstance(b, CrokinoleBoard) or next(iter(tr.where_votes), None) != IN_HOLE:
        return False
    first, last = tr.path[0], tr.path[-1]
    if not b.hole_radius ** 2 - tr.radius ** 2 <= first.x ** 2 + first.y ** 2 < (b.hole_radius + tr.radius) ** 2:
        return False
    if donor is None:
        return True
    p = donor.anchor if donor.state == "rest" and donor.anchor_n else donor.xy
    came = np.array([first.x - p[0], first.y - p[1]])
    went = np.array([last.x - first.x, last.y - first.y])
    return float(came @ went) < 0.0


def knock_or_flick(tk: Tracker, tr: Track) -> Callable[[Track], bool]:
    """Crokinole: which resting discs may be where the track born moving ``tr`` came from.

    A disc waiting on the shooting line always may (a flicked disc's first detection may fall
    beyond its rest gate). A disc resting elsewhere only if it left its place at the speed the
    new track shows (:func:`tracker.track.merge.left_its_place`): it does not start by itself,
    only when a shot strikes it, and then it flies off as fast as the shot came, while the shot
    disc is the one that stops beside its place. c4h_9903 at 11.2 s: e1, unseen from the east
    shooting line, hit w1 and stopped 18 mm from its place; the new track, slow, was taken for
    w1 knocked 18 mm in one frame, and w1, seen again flying into the west ditch, was a new
    disc. This held only while a disc on the line had vanished too; with none, every resting
    disc was a candidate: c4h_8803 at 21.5 s, north's n2, hidden by the arm of the east player
    bringing east's disc in from beside the board at 700 mm/s, took that disc 300 mm away (the
    only disc vanished); east's shot became n2's, and n2, seen again in place, a new disc.
    Nor one whose colour the new track's is unlike (:func:`tracker.track.merge.unlike_blurred`:
    a hand or arm found as discs)."""
    b = tk.board
    first = tr.path[0]
    assert isinstance(b, CrokinoleBoard)

    def on_line(d: Track) -> bool:
        q = d.settled_xy
        return b.waits_on_shooting_line(float(q[0]), float(q[1]), d.radius)

    return lambda d: on_line(d) or (left_its_place(tk.tracks, d, tr, first.t - unseen_since(tk.tracks, d, first.t),
                                                   tk.cfg.decel)
                                    and not unlike_blurred(d, tr))


def take_back(tk: Tracker, d: Track, tr: Track, t: float) -> None:
    """Moving disc ``d`` takes the detections the tentative track ``tr`` had since ``d`` was last
    seen (:func:`tracker.track.merge.mover_robbed`); the tentative's earlier ones, a false
    find, are dropped. ``d``'s coasting samples over that stretch give way to them."""
    mine = [sm for sm in tr.path if sm.t > d.last_seen + 1e-6]
    seen = d.last_sighting()
    assert seen is not None  # a moving disc seen at the new track's birth (mover_robbed)
    d.path = [sm for sm in d.path if sm.measured or sm.t < mine[0].t - 1e-6] + mine
    z = np.array([mine[-1].x, mine[-1].y])
    d.v = (z - np.array([seen.x, seen.y])) / max(mine[-1].t - seen.t, 1e-3)
    d.xy, d.last_seen, d.hits, d.occluded = z, t, d.hits + len(mine), False
    label(tk, tr, d.id)


def striker_seen_as_disc(tk: Tracker, tr: Track, v: np.ndarray, first: Sample) -> Track | None:
    """Korona: the resting "disc" a striker first seen flying came from, when the detector saw
    the striker at rest as a disc (the ring of its top's groove, disc-sized: k2e_8805, 1280x720,
    the opening striker found as a 13.8 mm disc until it moved): it becomes the striker. Only a
    disc waiting where a striker waits (a rim zone, clear of the rim where the rows lie; up to
    ``ON_LINE_MM`` past the striking line, where a striker set on its line may be measured:
    k2e_9605 at 36.07 s, south's striker on its line at y = -320 mm, seen as a disc 0.02 mm
    inside it, was not taken up when flicked, and its shot was lost), and
    only while no striker is moving: one striker is flicked a shot, so a striker-sized ring
    flying from a resting disc while the shot's striker moves is a disc struck and blurred
    (korona_2p_game at 48.4 s: n4, struck by north's striker, seen as a 22.6 mm ring and taken
    for the striker of a disc that had rested in north's rim zone; it became a striker, and its
    next sightings, sharp, a new disc)."""
    b = tk.board
    if not isinstance(b, KoronaBoard) or tr.kind != STRIKER or striker_moving(tk):
        return None
    d = donor_of(tk.tracks, tr, v, first, tk.cfg.v_max, kind=DISC)
    if d is None:
        return None
    q = d.settled_xy
    if not b.striker_waits(float(q[0]), float(q[1]), ON_LINE_MM) or not flying_from(tk, tr, q):
        return None
    d.kind, d.radius = tr.kind, tr.radius
    return d


def overlapped_rest(tk: Tracker, tr: Track, overlap: float = 0.75) -> Track | None:
    """A resting disc every sighting of the tentative track ``tr`` lies deep inside (centres
    closer than ``overlap`` of the two radii's sum: two discs cannot lie so) while that disc was
    itself seen at rest after ``tr``'s first sighting: ``tr`` is that disc seen off its place
    now and then (a stray fit, a hand at its edge), not a second disc. k2e_9505 at 20.6 s: s1,
    at rest by the nw pocket, found 15 then 8 mm off on two frames between sightings in place,
    became a second disc there; it later took s1's and then the striker's detections, and the
    striker, left unseen at rest by the pocket, was called pocketed."""
    seen = np.array([(s.x, s.y) for s in tr.path if s.measured], float).reshape(-1, 2)
    if not len(seen):
        return None
    best, best_d = None, float("inf")
    for d in tk.tracks:
        if d.state != "rest" or d.last_seen <= tr.born or not d.anchor_n:
            continue
        far = float(np.hypot(*(seen - d.anchor).T).max())
        if far < overlap * (d.radius + tr.radius) and far < best_d:
            best, best_d = d, far
    return best


def flying_from(tk: Tracker, tr: Track, q: np.ndarray) -> bool:
    """Whether the new track ``tr`` moved away from ``q`` between its first sightings (not only
    blurred on its first), as a striker flicked from there does. A striker a hand sets down is
    blurred by the hand's motion and drops a few mm as it lands, wherever the hand came from
    (k4h_9306 at 15.9 s: north's striker, set on its line 11 mm from its first sighting, took
    over s5, resting 63 mm away in north's rim zone, as the striker "seen as a disc")."""
    first, last = tr.path[0], tr.path[-1]
    qx, qy = float(q[0]), float(q[1])
    return math.hypot(last.x - qx, last.y - qy) - math.hypot(first.x - qx, first.y - qy) > 2 * tk.cfg.move_mm


def striker_moving(tk: Tracker) -> bool:
    """Whether a (confirmed) striker track is moving."""
    return any(o.kind == STRIKER and o.state == "moving" for o in tk.tracks)


def label(tk: Tracker, tent: Track, track_id: int) -> None:
    """The frame's detection that a tentative track took now belongs to ``track_id``."""
    j = tk._tent_det.get(id(tent))
    if j is not None:
        tk.det_track[j] = track_id


def nudged_disc(tk: Tracker, tr: Track, first: Sample, dt: float) -> Track | None:
    """A resting disc knocked a short way between frames, when a disc is moving that could
    have knocked it. With nothing moving, a disc that appears beside one hidden by a hand
    is a disc put down there (crokinole_2p_round, shot 17: s9 set down 42 mm from s1).
    Crokinole only: there a disc is put down on the shooting line before every shot, while
    a korona striker that knocks a row is often not seen at all at 10 fps.

    Korona, while a disc or striker moves (a blow in progress): the disc may have vanished up
    to ``BLOW_UNSEEN_S`` before, not only the frame before. The detector drops a row for
    several frames while a blow shifts it along the rim (k2e_9705 at 13.0-13.8 s: the south
    row unseen five frames; s5, pushed 30 mm east, was then taken for a new disc, and when
    its neighbours reappeared each took the name of the disc on its east). With nothing
    moving, no: a disc found beside one unseen a few frames is another disc (k2e_9805 at
    10.07 s: s4, seen anew beside s3, took s3's name)."""
    crok = isinstance(tk.board, CrokinoleBoard)
    blow = not crok and any(m.state == "moving" for m in tk.tracks)
    d = nudged_from(tk.tracks, tr, first, dt, unseen=BLOW_UNSEEN_S if blow else 0.0)
    if d is not None and isinstance(tk.board, KoronaBoard) and donor_push.ON and donor_push.NUDGES \
            and not donor_push.pushed_that_way(tk.tracks, d, tr, tk._t_now, tk._tentative, tk.board.half):
        return None  # (korona: knocked back towards the blow it cannot have been: ``donor_push``)
    if d is None or not crok:
        return d
    q = d.settled_xy
    for m in tk.tracks:
        if m is d or m.state != "moving":
            continue
        if float(np.hypot(*(m.xy - q))) <= 4 * (m.radius + d.radius) + m.speed * 2 * dt:
            return d
    return None
