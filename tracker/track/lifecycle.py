"""A track's life from frame to frame: functions of the :class:`tracker.track.Tracker` (``tk``)
that change tracks once the frame's (track, detection) pairs are chosen.

* :func:`observe`: a matched track takes its detection: colour, rest anchor, the debounced
  start of motion (displaced by ``move_mm`` on two frames running, or by a radius at once) and
  the debounced end of it (:func:`maybe_rest`), and the hole / pocket / ditch verdict.
* :func:`miss`: an unmatched track: a resting disc is covered (a hand) and, after ``lift_after``
  seconds, lifted; a disc in the hole unseen for ``hole_gone`` seconds was taken out; a moving
  disc coasts, and after ``lost_after`` seconds its fate is decided (:mod:`tracker.track.fate`).
  A resting disc in a mover's path that vanished as it was due to be hit was knocked away unseen.
* :func:`revive`, :func:`new_track`: an unmatched detection revives a lifted
  disc put back where it was (or where the rules said), or starts a tentative track; tentative
  tracks are confirmed after ``confirm_hits`` detections (:mod:`tracker.track.confirm`), and may be a disc
  already known (knocked a short way, or flicked out of its rest gate: :mod:`tracker.track.merge`),
  or the empty 20-hole just uncovered (``HOLE_UNCOVERED_S``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import DISC, Detections
from tracker.track.association import BIG, bounce
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Sample, Track
from tracker.track.disc_traits import default_radius, rim_radius, running_mean, see_surround
from tracker.track.fate import (
    FLEETING_S,
    coasted_into_pocket,
    fleeting,
    never_seen_away,
    off_unseen,
    resolve_lost,
    where_verdict,
)
from tracker.track.hidden_blows import coast_into_disc, coasted_into_hole
from tracker.track.rims import (
    PRESSED_RESTITUTION,
    RIM_JUMP_SPEED,
    blow_speed,
    on_board,
    pressed_into_rim,
    rebound_blocked,
    struck_back_off_rim,
    wedged,
    within_rims,
)
from tracker.track.steady import gap_start

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker


# Seconds after a disc lying over the 20-hole's edge left it during which a disc first seen in
# the hole is not believed: the detector then reports the uncovered empty hole as a disc in it
# (its empty-board picture there is out of date), and a disc that really drops in is almost
# always one seen moving there (slow enough to fall), not a new track (rendered match, seed
# 7301: three false 20s).
HOLE_UNCOVERED_S = 2.0
# Crokinole: a moving disc seen again after missed frames has its velocity over the whole gap
# from where it was last seen (``steady.gap_start``), not from its forecast (off: the step from the
# forecast over the whole gap, half the speed after one missed frame). Off by default. Replayed
# crokinole reviews (--dets), off -> on: c4h_9951 switches 12.5 -> 0 per 100 shots, removed P
# 17% -> 25% (e1, seen every other frame, forecast to strike n1 head-on and no longer taking
# n1's finds), but c2h_9944 removed P 25% -> 20%: at 19.4 s s4, seen again at the moment it hit
# n3 head-on, kept its full speed and took n3's finds beyond (at half speed it had lagged
# behind and n3's track took them): the shooter's own slowing in a head-on blow is not
# forecast. c2e_9501, c2h_9802, c2h_9932, c4h_9503, c4h_9921, c2e_9943, c2h_9956, c2h_9914, c4h_9945
# and the 6 crokinole fixtures identical. Korona not measured (crokinole only).
VELOCITY_OVER_GAP = False
# The same on a korona board, for a disc seen again on the line it coasted on, not slowed there by
# a disc in its way (``steady.gap_start``): on. The step from the forecast slows every disc seen on few
# frames of its flight: k4h_10106 at 28.3 s, e8, knocked towards s1 at 1.5 m/s and seen again after
# two missed frames, got 540 mm/s, fell behind, and s1's resting track took its finds while s1 went
# down the nw pocket unseen. Replays (--dets dets23), off -> on: k4h_10106 pockets R 33 -> 67%,
# median 1.67 -> 1.56 mm, switches 37.5 -> 25; k4h_9942 median 2.04 -> 1.88; but k4h_9966 median
# 1.92 -> 1.94 (rim rows 1.78 -> 1.90 after a north row shuffle at 12 s named wrong either way); the
# other 10 k4h, 12 k2e dev matches and 5 korona fixtures the same. Without the line check k4h_9306
# p95 went 7.09 -> 9.33 mm and k4h_10006 gained a switch; without the blow check korona_2p_game
# gained a false foul (its striker, stopped by s6, coasted on into the rim).
KORONA_VELOCITY_OVER_GAP = True


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
        see_surround(tk.board, tr, dets, j)
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
        korona = not isinstance(tk.board, CrokinoleBoard)
        over_gap = KORONA_VELOCITY_OVER_GAP if korona else VELOCITY_OVER_GAP
        start = gap_start(tr, prev_xy, prev_t, over_gap, (z, t) if korona else None,
                          [o for o in tk.tracks if o.alive] if korona and over_gap else ())
        tr.v = (z - start) / max(t - prev_t, 1e-3)
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
def miss(tk: Tracker, tr: Track, t: float, dt: float) -> None:
    cfg = tk.cfg
    if tr in tk._tentative:
        return
    if tr.state == "rest" and tr.id in tk._struck and t - tr.last_seen <= 2.5 * dt:  # vanished just now
        knocked_unseen(tk, tr, t, dt)
    elif tr.state == "rest":
        if not tr.occluded:
            uncover_hole(tk, tr, t)
        tr.occluded = True
        tr.displaced_frames = 0
        wait = 0.2 if tr.id in tk._leaving else cfg.lift_after
        if fleeting(tk.board, tr):
            wait = FLEETING_S
        b = tk.board  # (korona: a disc resting against a rim waits longer)
        if tr.id not in tk._leaving and isinstance(b, KoronaBoard) and tr.kind == DISC \
                and b.rim_against(float(tr.xy[0]), float(tr.xy[1]), tr.radius) is not None:
            wait = cfg.rim_lift_after
        if cfg.lift_after_moved > 0 and tr.id not in tk._leaving and tr.rest_xy is not None \
                and isinstance(tk.board, CrokinoleBoard):
            wait = cfg.lift_after_moved  # a disc in play: only the rules take it off
        if tr.id not in tk._leaving and cfg.kept_unseen_lift_after is not None and kept_unseen(tk, tr):
            wait = max(wait, cfg.kept_unseen_lift_after)
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
        elif (down := coasted_into_pocket(tk.board, tr.xy, tr.xy + tr.v * dt)) is not None:
            tr.xy = tr.xy + tr.v * dt
            tr.state, tr.pocket, tr.v = "pocket", down, np.zeros(2)
        else:
            e = PRESSED_RESTITUTION if cfg.rim_wedge and wedged(tk.board, tr.xy + tr.v * dt, tr.v, tr.radius,
                                                                _others(tk, tr)) else cfg.restitution
            at, v = within_rims(tk.board, tr.xy, tr.xy + tr.v * dt, tr.v, rim_radius(tk.board, tr), e)
            if cfg.rebound_blocked:
                at, v = rebound_blocked(tk.board, tr.xy + tr.v * dt, at, v, tr.radius, _in_play(tk, tr))
            tr.xy, tr.v = at, v
        tr.path.append(Sample(t, float(tr.xy[0]), float(tr.xy[1]), False))
        if tr.state == "moving" and t - tr.last_seen > cfg.lost_after:
            resting = np.array([o.position() for o in tk.tracks if o.state == "rest" and o is not tr],
                               float).reshape(-1, 2)
            struck = left_since(tk, tr, dt) if isinstance(tk.board, CrokinoleBoard) else None
            if cfg.unseen_into_hole and isinstance(tk.board, CrokinoleBoard) and never_seen_away(tr) \
                    and coasted_into_hole(tk.board, tr, cfg.unseen_hole_reach):
                tr.state, tr.xy, tr.v = "hole", np.zeros(2), np.zeros(2)
                return
            on_blow = isinstance(tk.board, CrokinoleBoard) and struck_last(tk, tr, dt)
            resolve_lost(tk.board, tr, tk.cfg.decel, resting, struck, stayed_since(tk, tr),
                         collided=cfg.struck_not_in_hole and on_blow, reach=cfg.hole_reach,
                         struck_last=on_blow, creep=cfg.creep_on,
                         past_hole=cfg.slide_past_hole, fast_past_hole=cfg.fast_past_hole)


def kept_unseen(tk: Tracker, tr: Track) -> bool:
    """Crokinole: whether resting disc ``tr`` was never seen at the place it is kept: it came
    there moving (``rest_xy``: it rested elsewhere before) and was lost on its way, so its place
    is the estimate of ``fate.resolve_lost`` (``anchor_n`` 1), not a sighting; and it is no false
    find (``fleeting``). The detector does not see it there (a disc of the board's colour, the
    lamp's glare by the 20-hole), which says nothing of a hand taking it away."""
    return isinstance(tk.board, CrokinoleBoard) and tr.rest_xy is not None and tr.anchor_n <= 1 \
        and not fleeting(tk.board, tr)


def struck_last(tk: Tracker, tr: Track, dt: float) -> bool:
    """Whether ``tr``'s last two sightings straddle its blow on a resting disc: another disc that
    rested within reach of the run between them (touching it, or as far again as the run's
    length: the blow may lie past the second sighting, on the way back) left its place then. The
    velocity they give is the one before the blow (a head-on striker all but stops), so the
    heading says nothing of where it went (c2h_9944 at 7.5 s: s2, red on a red board, bounced
    off n1 and stopped unseen 26 mm from the centre; its run before the blow headed over the
    hole and it was called a 20)."""
    seen = tr.sightings(2)
    if len(seen) < 2:
        return False
    a, c = np.array([seen[0].x, seen[0].y]), np.array([seen[1].x, seen[1].y])
    for o in tk.tracks:
        if o is tr or o.rest_xy is None or o.state not in ("moving", "hole", "off"):
            continue
        q = np.asarray(o.rest_xy, float)
        there = [sm.t for sm in o.path if sm.measured and float(np.hypot(sm.x - q[0], sm.y - q[1])) <= tk.cfg.move_mm]
        if not there or there[-1] < seen[0].t - 1.5 * dt:
            continue  # it had left long before (c4h_9921 at 15.9 s: s1, in the ditch since 5 s)
        left = [sm.t for sm in o.path if not (sm.t < seen[0].t - 1e-6)
                and float(np.hypot(sm.x - q[0], sm.y - q[1])) > tk.cfg.move_mm]
        reach = o.radius + tr.radius + float(np.hypot(*(c - a)))  # touching, anywhere along the run
        if left and left[0] <= seen[1].t + 1e-6 and segment_distance(q, a, c) < reach:
            return True
    return False


def stayed_since(tk: Tracker, tr: Track) -> np.ndarray | None:
    """Korona: (K, 3) rows x, y, radius of the other discs at rest, in view, seen since ``tr``
    was last seen (for :func:`tracker.track.fate.resolve_lost`); None on a crokinole board."""
    seen = tr.last_sighting()
    if not isinstance(tk.board, KoronaBoard) or seen is None:
        return None
    return np.array([(*o.position(), o.radius) for o in tk.tracks
                     if o is not tr and o.state == "rest" and not o.occluded and o.last_seen > seen.t],
                    float).reshape(-1, 3)


def left_since(tk: Tracker, tr: Track, dt: float) -> np.ndarray:
    """(M, 2) the places where other discs rested when ``tr`` was last seen and that they have
    left since (moving now, or gone into the hole or off): each was last seen there (within
    half a radius) no earlier than a frame (``dt``) before ``tr`` was."""
    seen = tr.last_sighting()
    out = []
    for o in tk.tracks:
        if o is tr or seen is None or o.rest_xy is None or o.state not in ("moving", "hole", "off"):
            continue
        at = np.asarray(o.rest_xy, float)
        there = [sm.t for sm in o.path if sm.measured and float(np.hypot(sm.x - at[0], sm.y - at[1])) <= 0.5 * o.radius]
        if there and there[-1] >= seen.t - 1.5 * dt:
            out.append(at)
    return np.array(out, float).reshape(-1, 2)


def uncover_hole(tk: Tracker, tr: Track, t: float) -> None:
    """A resting disc that lay over the edge of the 20-hole moved or stopped being seen: note
    when (``tk._hole_uncovered``, see :func:`confirm`)."""
    b = tk.board
    if isinstance(b, CrokinoleBoard):
        q = tr.settled_xy
        if float(np.hypot(*q)) < b.hole_radius + tr.radius:
            tk._hole_uncovered = t


def knocked_unseen(tk: Tracker, tr: Track, t: float, dt: float) -> None:
    """A resting disc in a mover's path vanished the frame it was due to be hit: it was
    knocked away too fast to be seen (a blurred frame, or straight over the rim or into a
    pocket at a low frame rate). It moves on, unseen, at the speed the collision gives it;
    if it is not seen again within ``lost_after`` its fate is decided from where it was
    heading (:func:`resolve_lost`: a pocket, off the board, or covered where it rested).
    Korona: sent into a rim, it rebounds off it (:mod:`tracker.track.rims`; over it only with
    ``unseen_over_rim``, fast enough to jump); resting against that rim already (its place taken
    on the board, ``rest_on_board``), it slides along it and comes back off it slowly."""
    at, v = tk._struck[tr.id]
    v0 = np.asarray(v, float)  # the blow's way, before any rim turned it
    sent = 0.5 * (1 + tk.cfg.restitution) * blow_speed([o for o in tk.tracks if o is not tr], tr.settled_xy,
                                                         tr.radius, tr.last_seen, dt)
    q = on_board(tk.board, tr.settled_xy, rim_radius(tk.board, tr)) if tk.cfg.rest_on_board else tr.settled_xy
    jump = RIM_JUMP_SPEED if tk.cfg.unseen_over_rim else float("inf")  # (``TrackerConfig.unseen_over_rim``)
    if tk.cfg.rim_pressed:  # korona: pressed into the rim it rests against (``rims.pressed_into_rim``)
        at, v = pressed_into_rim(tk.board, q, np.asarray(at, float), np.asarray(v, float), rim_radius(tk.board, tr),
                                 _others(tk, tr), sent, jump)
    at, v = within_rims(tk.board, q, np.asarray(at, float), np.asarray(v, float), rim_radius(tk.board, tr),
                        tk.cfg.restitution, sent, jump)
    back = struck_back_off_rim(tk.board, tk.tracks, tr, q, v0, v, dt)  # (may have jumped it: ``rim_ghost_places``)
    (tk._rim_turned.add if back else tk._rim_turned.discard)(tr.id)
    ref = tr.settled_xy
    tr.rest_xy = (float(ref[0]), float(ref[1]))
    tr.state, tr.v, tr.xy = "moving", np.asarray(v, float), np.asarray(at, float)
    tr.anchor_n, tr.occluded, tr.displaced_frames = 0, False, 0
    tr.path.append(Sample(t, float(at[0]), float(at[1]), False))
    tk._ghosts.add(tr.id)


def _in_play(tk: Tracker, tr: Track) -> np.ndarray:
    """(K, 3) rows x, y, radius of the other tracks in play (strikers too) where they are now."""
    return np.array([(*o.xy, o.radius) for o in tk.tracks if o is not tr and o.state in ("rest", "moving")],
                    float).reshape(-1, 3)


def _others(tk: Tracker, tr: Track) -> np.ndarray:
    """(K, 3) rows x, y, radius of the other discs of ``tr``'s kind in play: where each rests, or
    where a moving one rested (knocked away this frame, it was there when the blow came)."""
    return np.array([(*(o.rest_xy if o.state == "moving" and o.rest_xy is not None else o.settled_xy), o.radius)
                     for o in tk.tracks if o is not tr and o.alive and o.kind == tr.kind], float).reshape(-1, 3)


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
        see_surround(tk.board, tr, dets, j)
    where_verdict(tk.board, tr, int(dets.where[j]))
    return tr
