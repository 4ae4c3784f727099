"""Where each track may be this frame, and what a (track, detection) pair costs: functions of
the :class:`tracker.track.Tracker` (``tk``), called from its ``update``.

* :func:`predict`: one or more hypotheses per track (a moving disc where its velocity puts it,
  where it stands, bounced off a peg or a rim; a resting disc where it rests, or where a mover
  about to hit it would send it) and the tight first-stage gate around them, in mm.
* :func:`penalties` and :func:`colour_penalty`: kind, colour class and top-face colour added to
  the distance, so a pair of unlike discs costs more than its distance.
* :func:`may_jump` and :func:`jump_speed`: which unmatched tracks the wide second stage may give
  a far detection (moving discs, and resting discs a mover could have struck), and how far.

Gates are physical (board millimetres): a resting disc within about a radius of its rest place,
a moving one within two radii of where its velocity puts it. Kept apart from the tracker's state
updates (:mod:`tracker.track.lifecycle`) because these only read the tracks, never change them
(except the frame's struck-disc forecasts, ``tk._struck``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import DISC, IN_HOLE, STRIKER, Detections
from tracker.track import blows
from tracker.track.association import (
    BIG,
    bounce_hypothesis,
    collision_hypotheses,
    first_contact,
    leaves_circle,
    reached,
)
from tracker.track.blows import reach_v, segment_distance
from tracker.track.datatypes import Track
from tracker.track.fate import in_pocket
from tracker.track.lifecycle import HOLE_UNCOVERED_S

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker

# mm/s: a disc this fast passes over the 20-hole. It falls once its centre has been over the
# hole's capture zone (0.55 of its 17.5 mm radius) for the time gravity needs to drop it half
# its thickness, sqrt(9.5 mm / g) = 31 ms: even straight across the zone's 19 mm that is
# 620 mm/s at most (the simulation's rule, tracker.sim.physics, and a real board's).
HOLE_SKIP_SPEED = 650.0


def predict(tk: Tracker, rows: Sequence[Track], dt: float, t: float) -> tuple[list[list[np.ndarray]], np.ndarray]:
    """Hypotheses (a list of points per row) and first-stage gates (mm) for this frame; also
    records, in ``tk._struck``, the resting discs a mover is due to hit now and where to."""
    cfg = tk.cfg
    hyps: list[list[np.ndarray]] = []
    gates = np.zeros(len(rows))
    tk._struck = {}
    tk._blown = {k: b for k, b in tk._blown.items() if t - b[2] <= 3 * dt}
    for i, tr in enumerate(rows):
        if tr.hits < cfg.confirm_hits and tr in tk._tentative:
            hyps.append([tr.xy.copy()])
            # a disc first seen sharp was not flying fast: half the top speed (a new row of
            # discs with one missed must not link two of them across the board)
            fast = tr.first_streak > tr.radius / 2
            gates[i] = (1.0 if fast else 0.5) * cfg.v_max * dt + tr.radius
            if tr.state == "hole":  # first seen down in the 20-hole: it does not climb out
                gates[i] = 1.5 * tr.radius
        elif tr.state == "moving":
            gap = max(t - tr.last_seen, dt)
            hyps.append([tr.xy + tr.v * dt, tr.xy.copy()])
            bounced = bounce_hypothesis(tr.xy, tr.v, tk._pegs, tr.radius + tk._peg_r,
                                        tk._half - tr.radius if tk._half else None, dt, cfg.restitution)
            if bounced is not None:
                hyps[-1].append(bounced)
            gates[i] = 2 * tr.radius + 0.5 * tr.speed * gap
        elif tr.state == "rest":
            hyps.append([tr.anchor.copy() if tr.anchor_n else tr.xy.copy()])
            gates[i] = tr.radius
            blown = tk._blown.get(tr.id)
            if blown is not None and t - blown[2] <= 3 * dt:  # struck by an unseen mover's coast
                ahead = blown[0] + blown[1] * (t - blown[2])
                hyps[-1].append(ahead)
                gates[i] = 2 * tr.radius
                tk._struck[tr.id] = (ahead, blown[1])
        elif tr.state == "hole":  # down in the hole: it stays there (a disc sliding past does not)
            hyps.append([tr.xy.copy()])
            gates[i] = 0.6 * tr.radius
        elif (down := in_pocket(tk.board, tr)) is not None:  # korona: down a pocket
            hyps.append([down[0]])
            gates[i] = down[1]
        else:  # pocket, off: still visible, may roll a little in the ditch
            hyps.append([tr.xy.copy()])
            gates[i] = 1.5 * tr.radius
            if tr.state == "off" and tr.path and not tr.path[-1].measured and isinstance(tk.board, CrokinoleBoard):
                # lost on its way off and placed where it was heading (``fate.resolve_lost``):
                # it lies in the ditch about where its line crossed it; the first disc seen
                # there is it, not a new disc (seed 7506: a new "disc" in the ditch was taken
                # for where an unseen shot went)
                at = ditch_crossing(tk.board, tr)
                if at is not None:
                    hyps[-1].append(at)
                gates[i] = 3.0 * tr.radius
    movers = [k for k, tr in enumerate(rows) if tr.state == "moving" and tr not in tk._tentative]
    resting = [k for k, tr in enumerate(rows) if tr.state == "rest" and tr not in tk._tentative]
    tk._striking = {}
    for a in movers:
        A = rows[a]
        first: tuple[float, np.ndarray, np.ndarray] | None = None  # (contact time, struck place, normal)
        near = [b for b in resting if rows[b] is not A
                and np.hypot(*(A.xy - rows[b].settled_xy)) <= A.speed * dt + A.radius + rows[b].radius]
        met = reached(A.xy, A.v, A.radius, [rows[b].settled_xy for b in near], [rows[b].radius for b in near],
                      dt, cfg.restitution) if cfg.shielded_blows else [True] * len(near)
        for b, meets in zip(near, met, strict=True):
            B = rows[b]
            reach = A.radius + B.radius
            q = B.settled_xy
            hit = collision_hypotheses(A.xy, A.v, q, reach, dt, cfg.restitution)
            if hit is not None:
                hyps[a].append(hit[0])
                hyps[b].append(hit[1])
                gates[b] = max(gates[b], 2 * B.radius)
                push = hit[1] - q
                norm = float(np.hypot(*push))
                if norm > 1e-9 and meets:  # the struck disc's velocity: the mover's along the normal
                    n = push / norm
                    vb = 0.5 * (1 + cfg.restitution) * float(A.v @ n) * n
                    tk._struck[B.id] = (hit[1], vb)
                    s = first_contact(A.xy, A.v, q, reach, dt)
                    if A.kind == B.kind == DISC and s is not None and (first is None or s < first[0]):
                        first = (s, q.copy(), n)
        if first is not None and isinstance(tk.board, CrokinoleBoard):
            tk._striking[A.id] = (first[1], first[2])
    blows.tighten_near_movers(tk, rows, movers, resting, gates, dt)
    blows.widen_touching(tk, rows, resting, gates)
    return hyps, gates


def ditch_crossing(board: CrokinoleBoard, tr: Track) -> np.ndarray | None:
    """Where the line from a lost disc's last sighting through where it coasted to meets the
    middle of the ditch (a disc knocked off rests in the ditch about there), or None."""
    last = tr.last_sighting()
    if last is None:
        return None
    a = np.array([last.x, last.y], float)
    u = tr.xy - a
    n = float(np.hypot(*u))
    if n < 1e-6:
        return None
    u = u / n
    s = leaves_circle(a, u, 0.5 * (board.surface_radius + board.ditch_outer_radius))
    return a + u * s if s is not None else None


def penalties(rows: Sequence[Track], dets: Detections, striker_radius: float | None = None,
              ring: np.ndarray | None = None, struck: Collection[int] = ()) -> np.ndarray:
    """(T, D): BIG for a pair of unlike kinds (disc, striker), a radius for unlike colour classes.

    Korona (``striker_radius`` given): a moving disc blurs into a ring larger than a disc, and
    the detector names it a striker when the ring is nearer a striker's size (korona_2p_game
    at 18.6 s: a disc knocked towards a pocket measured 21 mm, a disc 12.5, a striker 25). A
    moving disc's track may take a "striker" smaller than a striker, at a radius's cost, so it
    is not lost on its way into the pocket while a new track, nameless, takes its run. So may
    the track of a resting disc that is not seen this moment (knocked away unseen, it is set
    moving only once missed: korona_2p_game at 22.7 s, a rim disc knocked along the rim and
    seen once, blurred, on its way into the sw pocket). So may a resting disc a mover is due to
    strike this frame (``struck``, the ids of ``Tracker._struck``; korona_ru_part at 24.0 s: n7,
    struck by north's striker and seen once as a 22 mm "striker" on its way into the se pocket,
    was left to a new track, lost, and called covered where it had lain).

    Korona, the other way round: a striker's track may take a "disc" where ``ring`` says so
    (:func:`striker_rings`), at a disc radius's cost."""
    if not len(rows) or not len(dets):
        return np.zeros((len(rows), len(dets)))
    kinds = np.array([tr.kind for tr in rows])
    cls = np.array([tr.cls for tr in rows])
    radius = np.array([tr.radius for tr in rows])
    pen = np.where(kinds[:, None] != dets.kind[None, :], BIG, 0.0)
    if striker_radius is not None:
        moving = np.array([tr.kind == DISC and (tr.state == "moving" or (
            tr.state == "rest" and (tr.occluded or tr.id in struck))) for tr in rows])
        blurred = (dets.kind == STRIKER) & (dets.radius < striker_radius)
        pen = np.where(moving[:, None] & blurred[None, :], radius[:, None], pen)
        if ring is not None:
            pen = np.where(ring, np.where(dets.radius > 0, dets.radius, 0.5 * striker_radius)[None, :], pen)
    clash = (cls[:, None] >= 0) & (dets.cls[None, :] >= 0) & (cls[:, None] != dets.cls[None, :])
    return pen + np.where(clash, radius[:, None], 0.0)


def striker_rings(tk: Tracker, rows: Sequence[Track], dets: Detections, dt: float) -> np.ndarray | None:
    """(T, D) korona: True where a striker's track may take a "disc" detection, None on
    crokinole. The detector sees a striker come to rest as the ring of its top's groove,
    disc-sized. A striker at rest or all but stopped (under half its radius a frame), seen a
    frame or two ago, and a "disc" within half its radius of that sighting: no disc's centre can
    lie so deep inside a striker, so the find is the striker (k4h_9912 at 31.43 s: south's
    striker stopped, found as a 12.9 mm disc 5 mm from its last sighting; the disc it had
    struck took it, and that disc's name stayed on the striker).

    ``TrackerConfig.striker_rings`` (on by default; off, the disc a striker struck took the
    striker's ring and name: k2e_9923 at 27.77 s, n6 struck along the south rim, its track took
    the stopped striker's ring and n6's run became a new track). It was off while the events
    misread k2e_9605's last shot with it (the striker on its line, seen as a disc, was not taken
    up when flicked: ``confirm.striker_seen_as_disc``, now with the line's margin) and read a
    striker set on its line as where another went unseen (``segmenter``: no longer), and lost
    shots whose striker, unseen leaving, stopped on the far striking line (kept as a striker
    there, it was taken for one a hand set down: ``unseen.unseen_shot``, no longer for one seen
    flying in). On, with those (full reviews): k2e_9923 shots 88/88 -> 100/100%, switches
    25 -> 0 per 100 shots (rest p95 3.55 -> 7.9 mm: the two shots it now reads are measured);
    k2e_9605 shots 88/100 -> 100/100%; k4h_9912 switches 12.5 -> 0; rest positions k2e_9505
    1.81/6.52 -> 1.50/3.30 mm, k2e_9705 p95 5.93 -> 4.17 mm; the other korona dev matches and
    fixtures unchanged."""
    r = tk._striker_r
    if r is None or not tk.cfg.striker_rings:
        return None
    out = np.zeros((len(rows), len(dets)), bool)
    discs = dets.kind == DISC
    if not discs.any():
        return out
    for i, tr in enumerate(rows):
        if tr.kind != STRIKER or tr in tk._tentative or tr.state not in ("rest", "moving"):
            continue
        seen = tr.last_sighting()
        if seen is None or tk._t_now - seen.t > 3.5 * dt or tr.speed * dt > 0.5 * r:
            continue
        out[i] = discs & (np.hypot(dets.xy[:, 0] - seen.x, dets.xy[:, 1] - seen.y) <= 0.5 * r)
    return out


def colour_penalty(rows: Sequence[Track], dets: Detections, unlike: float | None = None) -> np.ndarray:
    """(T, D) mm added to a pair when the detection's top-face colour is far from the
    track's own.

    Position alone can swap discs in the commonest hit, head-on: the shooter stops about
    where the struck disc rested, and a collision forecast that is a little off pairs each
    with the other's detection. Players' discs differ in colour. A moving disc's colour is
    measured through blur (on the fixtures 95% of a disc's own matches lie within 33 Lab
    units while it moves, 99% within 20 at rest), so only a gap beyond 25 counts, growing
    to two radii at 75: a light track then falls outside its tight gate for a dark
    detection and is matched in the wide stage instead, where the right disc is in reach.

    ``unlike`` (``TrackerConfig.colour_gate``): a sharp detection (blur under a radius) further
    than that from the track's known colour is never its disc (BIG, not a penalty a wide gate
    can pay: the light and dark discs of crokinole's sides are ~50 Lab apart)."""
    out = np.zeros((len(rows), len(dets)))
    if not len(rows) or not len(dets):
        return out
    known = np.array([tr.color_n >= 3 for tr in rows])
    seen = np.any(dets.color != 0, axis=1)
    if not known.any() or not seen.any():
        return out
    tc = np.array([tr.color for tr in rows], float)
    de = np.linalg.norm(tc[:, None, :] - dets.color[None, :, :], axis=2)
    radius = np.array([tr.radius for tr in rows])
    pen = radius[:, None] * np.clip((de - 25.0) / 25.0, 0.0, 2.0)
    if unlike is not None:
        sharp = np.hypot(dets.streak[:, 0], dets.streak[:, 1])[None, :] < radius[:, None]
        pen = np.where(sharp & (de > unlike), BIG, pen)
    return np.where(known[:, None] & seen[None, :], pen, 0.0)


def struck_penalty(tk: Tracker, rows: Sequence[Track], dets: Detections) -> np.ndarray:
    """(T, D): BIG for a resting disc and a detection the blow it may get this frame could not
    have sent it to. Detections within a few mm of where it rests (its own) are never penalised.

    * Well behind where it rests, against the push, when a mover is due to hit it now
      (``tk._struck``): a struck disc is driven away from the disc that hits it, along the line
      of their centres. Without this, a struck disc beside the 20-hole took a spurious detection
      in the empty hole on the far side and was called a 20, while its own detection, where the
      blow sent it, started a new track (a rendered match, seed 7301, shot 9).
    * In the 20-hole, unless a mover is due to hit it slowly enough to drop it in
      (``HOLE_SKIP_SPEED``): a resting disc does not fall in by itself, and a disc knocked
      faster passes over the hole (same match, shots 11 and 13: the hole empty, the disc
      knocked over it or by a disc first seen that frame).

    * In the 20-hole, for a tentative track, while the hole was just uncovered
      (``HOLE_UNCOVERED_S``): such spurious hole detections appear where a disc had rested over
      the hole's edge, and a track first seen sharp has a wide gate.

    The detector's verdict for a disc really down in the hole is kept by the geometry at rest
    (:func:`tracker.track.fate.where_verdict`) and by moving discs, which are not limited here."""
    out = np.zeros((len(rows), len(dets)))
    if not len(dets):
        return out
    in_hole = dets.where == IN_HOLE
    uncovered = tk._t_now - tk._hole_uncovered < HOLE_UNCOVERED_S
    for i, tr in enumerate(rows):
        if tr in tk._tentative:
            if uncovered:  # nor a disc first seen this moment (see lifecycle.HOLE_UNCOVERED_S)
                out[i, in_hole] = BIG
            continue
        if tr.state != "rest":
            continue
        hit = tk._struck.get(tr.id)
        if hit is None and not in_hole.any():
            continue
        q = tr.settled_xy
        d = dets.xy - q
        dist = np.hypot(d[:, 0], d[:, 1])
        away = dist > 2 * tk.cfg.move_mm
        sp = float(np.hypot(*hit[1])) if hit is not None else 0.0
        if hit is None or sp > HOLE_SKIP_SPEED:  # not struck, or too fast to drop in this frame
            out[i, in_hole & away] = BIG
        if hit is not None and sp > 1e-9:
            # well behind (over 120 degrees off the push: the forecast normal is rough at 10 fps)
            behind = (d @ (hit[1] / sp) < -0.5 * dist) & away
            if pushed_into_rim(tk, q, hit[1] / sp, tr.radius):  # back off the rim, a little
                behind &= dist > tr.radius
            out[i, behind] = BIG
    return out


def beyond_struck_penalty(tk: Tracker, rows: Sequence[Track], dets: Detections) -> np.ndarray:
    """(T, D): BIG for a mover due to hit a resting disc this frame (``tk._striking``, the first
    disc in its path) and a detection beyond that disc's rest place along the line of their
    centres at contact.

    Equal masses: the blow passes the mover's motion along that line to the struck disc (all
    of it but ``(1 - e) / 2``); the mover keeps only the part across it, so it ends on its own
    side of the struck disc, short of where that disc rested. In a head-on hit the shooter
    stops and the struck disc carries on; the struck disc's blur is then drawn out along its
    new course, and a false find on the blur's tail, beyond the struck disc, lay as near the
    shooter's "ran on" forecast as anything: the shooter took it, then the struck disc's own
    detection the frame after, and the two swapped names (crokinole_4p_part at 18.1 s: west's
    w2 head-on into south's s2; removals precision 33%). Disc on disc only (a korona striker
    is heavier than a disc and runs on through it), and crokinole only for now: on korona's
    disc-on-disc blows it also holds (korona_2p_game on truth detections: 3.6 switches per 100
    shots to none), but korona's tracking is measured and tuned on its own."""
    out = np.zeros((len(rows), len(dets)))
    if not len(dets) or not tk._striking:
        return out
    for i, tr in enumerate(rows):
        f = tk._striking.get(tr.id) if tr not in tk._tentative else None
        if f is not None:
            q, n = f
            out[i, (dets.xy - q) @ n > 0.0] = BIG
    return out


def pushed_into_rim(tk: Tracker, q: np.ndarray, u: np.ndarray, radius: float) -> bool:
    """Korona: a disc resting against a rim (within a few mm) and pushed into it: it rebounds
    off the rim within the frame, so it may be seen a little back from where it rested, against
    the push (seed 7504, truth detections: the first disc of a row along the south rim, struck
    into the rim, was refused its own detection 5 mm back out; a new track took it and later the
    far end of the row). Only within a radius: further back is another disc's detection (a 10 fps
    blow into a row, korona_4p_part at 27.4 s)."""
    if not tk._half:
        return False
    lim = tk._half - radius - 3.0
    return any(abs(float(q[k])) >= lim and float(u[k]) * np.sign(q[k]) > 0.3 for k in (0, 1))


def may_jump(tk: Tracker, tr: Track, movers: list[Track], dt: float) -> bool:
    """May this unmatched track take a detection far from its prediction?

    A moving disc may (a bounce, a missed frame). A resting disc only when a moving disc's
    path this frame passed close enough to have hit it: resting discs do not start by
    themselves, and letting them jump steals detections from the mover that bounced.
    """
    if tr.state == "moving":
        return True
    if tr.state != "rest" or tr in tk._tentative:
        return False
    q = tr.settled_xy
    if flicked_unseen(tk, tr, dt):
        return True
    for m in movers:
        if m is tr:
            continue
        reach = 1.5 * (m.radius + tr.radius)
        if segment_distance(q, m.xy, m.xy + reach_v(tk, m) * dt) < reach:
            return True
    return False


def flicked_unseen(tk: Tracker, tr: Track, dt: float) -> bool:
    """A crokinole disc waiting on the shooting line is the one disc that starts by itself: the
    flick. Flicked hard and short, it can go unseen (blurred) and be found stopped a frame or two
    later, with no mover near to let it jump (c4e_9404 at 20.2 s: n2 flicked 34 mm into e1, found
    stopped two frames on; a new track took that place, the disc stayed "on the line", was
    removed as outside the shooting line, and the new one was logged as a shot of its own). So
    while nothing moves it may take a detection a short way in from its place (``blows.
    backwards`` refuses the rest), while unseen for at most two frames."""
    board = tk.board
    if not isinstance(board, CrokinoleBoard) or tk._t_now - tr.last_seen > 2.5 * dt:
        return False
    x, y = (float(v) for v in tr.settled_xy)
    return board.waits_on_shooting_line(x, y, tr.radius)


def jump_speed(tk: Tracker, tr: Track, movers: list[Track]) -> float:
    """How fast a track taking a far detection may have gone: a moving disc at its own speed,
    a struck resting disc at most at the speed of the mover that hit it (equal masses). A
    row of touching discs passes a blow on to its far end; the gate keeps a struck disc from
    taking the far disc's detection."""
    if tr.state == "moving":
        return tr.speed
    q = tr.settled_xy
    chain = tk.cfg.chain_speed
    near = [m.speed for m in movers if m is not tr
            and float(np.hypot(*(m.xy - q))) < max(m.speed, chain) * 0.2 + 3 * (m.radius + tr.radius)]
    return max([chain, *near]) if near else tk.cfg.v_max


# Frames a resting disc's blow may lie behind the frame that lets it jump (``may_jump``: a mover's
# path passes it now), when it was unseen already as the motion began: it may have been struck a
# frame or two before, blurred and unseen.
STRUCK_FRAMES = 3


def struck_for(tr: Track, t: float, dt: float, blow_start: float | None) -> float:
    """Seconds a resting disc let jump (``may_jump``) may have been on its way: since it was last
    seen, when that was after the board's present motion began (``blow_start``, less
    ``STRUCK_FRAMES`` frames: a track is set moving a frame or two after it starts); else no
    longer than ``STRUCK_FRAMES`` frames. A disc at rest does not move by itself: one seen as the
    shot began was struck since, at the latest when it vanished (k4h_9806 at 22.8 s: s2, lost
    as it was knocked 100 mm along the rim, found there four frames later); one lost long before is
    struck now, whatever long it lay unseen (a rim disc the detector loses for seconds, or no
    disc at all any more). Timed from its last sighting, a disc unseen 10 s took a false find
    184 mm along the rim (k4h_9912 at 31.3 s: south's s4, unseen since 20.7 s, as the striker
    came up the board; it then slid on, "moving", and was called pocketed)."""
    gap = max(t - tr.last_seen, dt)
    if blow_start is not None and tr.last_seen >= blow_start - STRUCK_FRAMES * dt:
        return gap
    return min(gap, STRUCK_FRAMES * dt)
