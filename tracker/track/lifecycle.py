"""A track's life from frame to frame: functions of the :class:`tracker.track.Tracker` (``tk``)
that change tracks once the frame's (track, detection) pairs are chosen.

* :func:`observe`: a matched track takes its detection: colour, rest anchor, the debounced
  start of motion (displaced by ``move_mm`` on two frames running, or by a radius at once) and
  the debounced end of it (:func:`maybe_rest`), and the hole / pocket / ditch verdict.
* :func:`miss`: an unmatched track: a resting disc is covered (a hand) and, after ``lift_after``
  seconds, lifted; a disc in the hole unseen for ``hole_gone`` seconds was taken out; a moving
  disc coasts, and after ``lost_after`` seconds its fate is decided (:mod:`tracker.track.fate`).
  A resting disc in a mover's path that vanished as it was due to be hit was knocked away unseen.
* :func:`revive`, :func:`new_track`, :func:`promote`: an unmatched detection revives a lifted
  disc put back where it was (or where the rules said), or starts a tentative track; tentative
  tracks are confirmed after ``confirm_hits`` detections, and then may turn out to be a disc
  already known (knocked a short way, or flicked out of its rest gate: :mod:`tracker.track.merge`),
  or the empty 20-hole just uncovered (``HOLE_UNCOVERED_S``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track.association import BIG, bounce
from tracker.track.datatypes import Sample, Track
from tracker.track.fate import FLEETING_S, fleeting, off_unseen, resolve_lost, where_verdict
from tracker.track.hidden_blows import coast_into_disc, split_blow
from tracker.track.merge import (
    blow_split,
    ditch_donor,
    donor_of,
    join_in_ditch,
    left_its_place,
    mover_robbed,
    nudged_from,
)

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker

# Seconds after a disc lying over the 20-hole's edge left it during which a disc first seen in
# the hole is not believed: the detector then reports the uncovered empty hole as a disc in it
# (its empty-board picture there is out of date), and a disc that really drops in is almost
# always one seen moving there (slow enough to fall), not a new track (rendered match, seed
# 7301: three false 20s).
HOLE_UNCOVERED_S = 2.0


# ---------------------------------------------------------------------- matched tracks
def observe(tk: Tracker, tr: Track, dets: Detections, j: int, t: float) -> None:
    cfg = tk.cfg
    z = dets.xy[j].astype(float)
    prev_t, prev_xy = tr.last_seen, tr.xy.copy()
    tk._ghosts.discard(tr.id)
    tr.hits += 1
    tr.last_seen = t
    tr.occluded = False
    if float(np.hypot(*dets.streak[j])) < tr.radius:
        tr.vote_cls(int(dets.cls[j]))
        tr.color, tr.color_n = running_mean(tr.color, tr.color_n, dets.color[j])
        see_surround(tr, dets, j)
    if tr.state == "rest":
        ref = tr.settled_xy
        d = float(np.hypot(*(z - ref)))
        if d > cfg.move_mm:
            tr.displaced_frames += 1
            if d > tr.radius or tr.displaced_frames >= 2:
                uncover_hole(tk, tr, t)
                tr.rest_xy = (float(ref[0]), float(ref[1]))
                tr.state = "moving"
                tr.v = (z - ref) / max(t - prev_t, 1e-3)
                tr.anchor_n = 0
        else:
            tr.displaced_frames = 0
            n = min(tr.anchor_n, 200)
            tr.anchor = (tr.anchor * n + z) / (n + 1) if n else z.copy()
            tr.anchor_n = n + 1
    elif tr.state == "moving":
        tr.v = (z - prev_xy) / max(t - prev_t, 1e-3)
    tr.xy = z
    tr.path.append(Sample(t, float(z[0]), float(z[1]), True))
    if len(tr.path) > cfg.max_path:
        del tr.path[: len(tr.path) - cfg.max_path]
    if tr.state == "moving":
        maybe_rest(tk, tr, t)
    where_verdict(tk.board, tr, int(dets.where[j]))


def maybe_rest(tk: Tracker, tr: Track, t: float) -> None:
    """At rest when the last ``rest_time`` seconds (and at least 3 samples) of measured
    positions lie within ``rest_mm`` of their mean."""
    measured = [s for s in tr.path[-64:] if s.measured]
    recent = [s for s in measured if s.t >= t - tk.cfg.rest_time - 1e-6]
    if len(recent) < 3:
        recent = measured[-3:]
    if len(recent) < 3:
        return
    pts = np.array([(s.x, s.y) for s in recent])
    mean = pts.mean(axis=0)
    if float(np.hypot(*(pts - mean).T).max()) <= tk.cfg.rest_mm:
        tr.state = "rest"
        tr.v = np.zeros(2)
        tr.anchor = mean
        tr.anchor_n = len(pts)
        tr.displaced_frames = 0
        tr.rest_since = t


# ---------------------------------------------------------------------- unmatched tracks
def _against_rim(tk: Tracker, tr: Track) -> bool:
    """Korona: a disc resting against a rim (within a radius of touching it)."""
    b = tk.board
    return isinstance(b, KoronaBoard) and tr.kind == DISC \
        and max(abs(float(tr.xy[0])), abs(float(tr.xy[1]))) > b.half - 2 * tr.radius


def miss(tk: Tracker, tr: Track, t: float, dt: float) -> None:
    cfg = tk.cfg
    if tr in tk._tentative:
        return
    if tr.state == "rest" and tr.id in tk._struck and t - tr.last_seen <= 2.5 * dt:  # vanished just now
        knocked_unseen(tk, tr, t)
    elif tr.state == "rest":
        if not tr.occluded:
            uncover_hole(tk, tr, t)
        tr.occluded = True
        tr.displaced_frames = 0
        wait = 0.2 if tr.id in tk._leaving else cfg.lift_after
        if fleeting(tk.board, tr):
            wait = FLEETING_S
        if tr.id not in tk._leaving and _against_rim(tk, tr):
            wait = cfg.rim_lift_after
        if t - tr.last_seen > wait:
            tr.state = "lifted"
            tr.occluded = False
            if wait == FLEETING_S:
                tk._retired.add(tr.id)  # a false find: never revived by a disc put down there
    elif tr.state == "hole" and t - tr.last_seen > cfg.hole_gone:
        # a 20 is taken out of the hole by hand: gone for good (a later disc in the hole
        # is another disc, never this one revived)
        tr.state = "lifted"
        tk._retired.add(tr.id)
    elif tr.state == "moving":
        sp = tr.speed
        if sp > 0:
            tr.v = tr.v * max(sp - cfg.decel * dt, 0.0) / sp
        # crokinole: an unseen disc does not coast through a peg (c2h_8802 at 5.0 s: s1, missed
        # for a frame as it struck the peg, coasted on through it; its forecast then lay 45 mm
        # from where the bounce took it, and its next detections started a phantom disc)
        hit = bounce(tr.xy, tr.v, tk._pegs, tr.radius + tk._peg_r, None, dt, cfg.restitution) \
            if isinstance(tk.board, CrokinoleBoard) and len(tk._pegs) else None
        blow = coast_into_disc(tk, tr, t, dt)
        if blow is not None:
            tr.xy, tr.v = blow
        elif hit is not None:
            tr.xy, tr.v = hit
        else:
            tr.xy = tr.xy + tr.v * dt
        tr.path.append(Sample(t, float(tr.xy[0]), float(tr.xy[1]), False))
        if t - tr.last_seen > cfg.lost_after:
            resolve_lost(tk.board, tr, tk.cfg.decel)


def uncover_hole(tk: Tracker, tr: Track, t: float) -> None:
    """A resting disc that lay over the edge of the 20-hole moved or stopped being seen: note
    when (``tk._hole_uncovered``, see :func:`confirm`)."""
    b = tk.board
    if isinstance(b, CrokinoleBoard):
        q = tr.settled_xy
        if float(np.hypot(*q)) < b.hole_radius + tr.radius:
            tk._hole_uncovered = t


def knocked_unseen(tk: Tracker, tr: Track, t: float) -> None:
    """A resting disc in a mover's path vanished the frame it was due to be hit: it was
    knocked away too fast to be seen (a blurred frame, or straight over the rim or into a
    pocket at a low frame rate). It moves on, unseen, at the speed the collision gives it;
    if it is not seen again within ``lost_after`` its fate is decided from where it was
    heading (:func:`resolve_lost`: a pocket, off the board, or covered where it rested)."""
    at, v = tk._struck[tr.id]
    ref = tr.settled_xy
    tr.rest_xy = (float(ref[0]), float(ref[1]))
    tr.state, tr.v, tr.xy = "moving", np.asarray(v, float), np.asarray(at, float)
    tr.anchor_n, tr.occluded, tr.displaced_frames = 0, False, 0
    tr.path.append(Sample(t, float(at[0]), float(at[1]), False))
    tk._ghosts.add(tr.id)


# ---------------------------------------------------------------------- unmatched detections
def revive(tk: Tracker, dets: Detections, j: int, t: float) -> Track | None:
    """A lifted disc put back where it lay (or near where the rules said it goes) is that disc.
    So is a korona disc called off the board from its course alone (:func:`fate.off_unseen`)
    that is seen again where it rested within ``cfg.off_unseen_revive`` seconds: the blow pressed
    it into the rim and the detector had lost it (k4h_8806 at 3.6 s: three south row discs
    dropped by the detector as the striker hit the row, called off, found again in place by the
    full pass once the board settled)."""
    z = dets.xy[j]
    best, best_d = None, BIG
    for tr in tk.tracks:
        if tr.kind != int(dets.kind[j]) or tr.id in tk._retired:
            continue
        if (tr.state == "off" and isinstance(tk.board, KoronaBoard) and off_unseen(tr)
                and t - tr.last_seen <= tk.cfg.off_unseen_revive):
            target, reach = np.asarray(tr.rest_xy, float), tr.radius
        elif tr.state == "lifted":
            target = tk._expected.get(tr.id, tr.anchor)
            reach = 3 * tr.radius if tr.id in tk._expected else tr.radius
        else:
            continue
        d = float(np.hypot(*(z - target)))
        if d < reach and d < best_d:
            best, best_d = tr, d
    if best is None:
        return None
    tk._expected.pop(best.id, None)
    tk._ghosts.discard(best.id)
    best.state, best.pocket, best.v = "rest", None, np.zeros(2)
    best.xy, best.anchor, best.anchor_n = z.copy(), z.copy(), 1
    best.last_seen, best.occluded, best.displaced_frames = t, False, 0
    best.path.append(Sample(t, float(z[0]), float(z[1]), True))
    return best


def new_track(tk: Tracker, dets: Detections, j: int, t: float) -> Track:
    """A tentative track from detection ``j`` (no id until confirmed)."""
    z = dets.xy[j].astype(float)
    r = float(dets.radius[j]) if dets.radius[j] > 0 else default_radius(tk.board, int(dets.kind[j]))
    tr = Track(id=0, kind=int(dets.kind[j]), radius=r, xy=z.copy(), anchor=z.copy(), anchor_n=1,
               last_seen=t, born=t, path=[Sample(t, float(z[0]), float(z[1]), True)])
    tr.vote_cls(int(dets.cls[j]))
    tr.first_streak = float(np.hypot(*dets.streak[j]))
    tr.color, tr.color_n = dets.color[j].astype(float).copy(), 1
    if tr.first_streak < tr.radius:
        see_surround(tr, dets, j)
    where_verdict(tk.board, tr, int(dets.where[j]))
    return tr


def see_surround(tr: Track, dets: Detections, j: int) -> None:
    """Fold detection ``j``'s surround colour (when the detector measured one) into the track's."""
    c = dets.surround[j]
    if np.any(c):
        tr.surround, tr.surround_n = running_mean(tr.surround, tr.surround_n, c)


def running_mean(mean: np.ndarray, n: int, x: np.ndarray, cap: int = 50) -> tuple[np.ndarray, int]:
    """``mean`` of ``n`` samples with ``x`` folded in, the count capped at ``cap`` (so a change
    of light is followed: the last ``cap`` samples weigh most)."""
    n = min(n, cap)
    return (mean * n + x) / (n + 1), n + 1


def default_radius(board: CrokinoleBoard | KoronaBoard, kind: int) -> float:
    if isinstance(board, KoronaBoard) and kind == 1:
        return board.striker_radius
    return board.disc_radius


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
        donor = donor_of(tk.tracks, tr, v, first, tk.cfg.v_max, may_rest=knock_or_flick(tk, tr) if crok else None) \
            or striker_seen_as_disc(tk, tr, v, first)
        robbed = mover_robbed(tk.tracks, tr, t, dt, tk.cfg.v_max) if donor is None and crok else None
        if robbed is not None:
            take_back(tk, robbed, tr, t)
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
    only disc vanished); east's shot became n2's, and n2, seen again in place, a new disc."""
    b = tk.board
    first = tr.path[0]
    assert isinstance(b, CrokinoleBoard)

    def on_line(d: Track) -> bool:
        q = d.settled_xy
        return b.waits_on_shooting_line(float(q[0]), float(q[1]), d.radius)

    return lambda d: on_line(d) or left_its_place(tk.tracks, d, tr, first.t - d.last_seen, tk.cfg.decel)


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
    disc waiting where a striker waits (a rim zone, clear of the rim where the rows lie)."""
    b = tk.board
    if not isinstance(b, KoronaBoard) or tr.kind != STRIKER:
        return None
    d = donor_of(tk.tracks, tr, v, first, tk.cfg.v_max, kind=DISC)
    if d is None:
        return None
    q = d.settled_xy
    if not b.striker_waits(float(q[0]), float(q[1])):
        return None
    d.kind, d.radius = tr.kind, tr.radius
    return d


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
    a korona striker that knocks a row is often not seen at all at 10 fps."""
    d = nudged_from(tk.tracks, tr, first, dt)
    if d is None or not isinstance(tk.board, CrokinoleBoard):
        return d
    q = d.settled_xy
    for m in tk.tracks:
        if m is d or m.state != "moving":
            continue
        if float(np.hypot(*(m.xy - q))) <= 4 * (m.radius + d.radius) + m.speed * 2 * dt:
            return d
    return None
