"""Where each track may be this frame, and what a (track, detection) pair costs: functions of
the :class:`tracker.track.Tracker` (``tk``), called from its ``update``.

* :func:`predict`: one or more hypotheses per track (a moving disc where its velocity puts it,
  where it stands, bounced off a peg or a rim; a resting disc where it rests, where a mover
  about to hit it would send it, or on along its first step off its place: :func:`leaving`) and
  the tight first-stage gate around them, in mm.
* what a pair costs beyond its distance is :mod:`tracker.track.pair_costs`'s.
* :func:`may_jump` and :func:`jump_speed`: which unmatched tracks the wide second stage may give
  a far detection (moving discs, and resting discs a mover could have struck), and how far.

Gates are physical (board millimetres): a resting disc within about a radius of its rest place,
a moving one within two radii of where its velocity puts it. Kept apart from the tracker's state
updates (:mod:`tracker.track.lifecycle`) because these only read the tracks, never change them
(except the frame's struck-disc forecasts, ``tk._struck``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import DISC
from tracker.track import blows, turned_back
from tracker.track.association import (
    bounce_hypothesis,
    collision_hypotheses,
    first_contact,
    leaves_circle,
    reached,
)
from tracker.track.blows import reach_v, segment_distance
from tracker.track.datatypes import Track
from tracker.track.fate import in_pocket

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
            on = leaving(tr, tk._blow_start) if cfg.leaving_ahead and isinstance(tk.board, CrokinoleBoard) else None
            if on is not None:
                hyps[-1].append(on)
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
        back = turned_back.ON and turned_back.turned_back(tk.board, A, cfg.move_mm)  # no disc's velocity
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
                if norm > 1e-9 and meets and not back:  # the struck disc's velocity: the mover's along the normal
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


def leaving(tr: Track, blow_start: float | None) -> np.ndarray | None:
    """Where a resting disc seen off its place on its last frame, while other discs were already
    moving (``blow_start``, the present motion's start, before that sighting: a blow reached it),
    is now if it slides on: as far again along that step. The tracker calls it moving only on a
    second such frame (``observe``'s debounce), so until then its one hypothesis was its place,
    under a gate kept tight beside a mover (``blows.tighten_near_movers``), and its next find
    went to the mover that struck it. c2h_10208 at 19.43 s: n3, struck by s4 (unseen since
    19.33 s) and found 11 mm off its place at 19.40 s, was found 8 mm further on; 19 mm from its
    place, beyond its gate, that find fell in the unseen mover's wide gate (73 of 74 mm in the
    scene rebuilt in tests/track/test_crokinole_overlap.py) and the names swapped there.
    Not while nothing moved before: every disc then shifted at once was the camera's bump, and
    a disc followed along it leaves the discs at rest the next board fit is turned by
    (``camera.board_turn``: crokinole_4p_part at 13.7 s, turned 180 degrees, shots R 50%).
    Crokinole only: on korona it gave the scene of k2e_9983 at 27.3 s (a blow along a row by the
    rim, tests/track/test_korona_ghost_blocked.py) back the swap that test guards against."""
    if tr.displaced_frames < 1 or not tr.anchor_n:  # (a miss resets the count: seen last frame)
        return None
    if blow_start is None or blow_start >= tr.last_seen:
        return None
    return 2.0 * tr.xy - tr.anchor


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


def pushed_into_rim(tk: Tracker, q: np.ndarray, u: np.ndarray, radius: float,
                    ahead: np.ndarray | None = None) -> bool:
    """Korona: a disc resting against a rim (within a few mm) and pushed into it: it rebounds
    off the rim within the frame, so it may be seen a little back from where it rested, against
    the push (seed 7504, truth detections: the first disc of a row along the south rim, struck
    into the rim, was refused its own detection 5 mm back out; a new track took it and later the
    far end of the row). Only within a radius: further back is another disc's detection (a 10 fps
    blow into a row, korona_4p_part at 27.4 s).

    With ``ahead``, where the blow's forecast puts the disc at the frame's end: a disc resting
    further from the rim rebounds within the frame too when that forecast lies over the rim
    (``TrackerConfig.rim_push_ahead``). k2e_10105 at 13.03 s: s6, 3.6 mm short of the north rim
    (as measured), driven into it at 840 mm/s by s7, was refused its detection 11 mm back; s7 took
    it, s6's forecast ran on along a row-mate's run off the board and was called off, and s7's own
    run along the rim became a new disc, whose pocket later went to nobody."""
    if not tk._half:
        return False
    lim = tk._half - radius - 3.0
    over = ahead is not None and tk.cfg.rim_push_ahead
    return any(float(u[k]) * np.sign(q[k]) > 0.3
               and (abs(float(q[k])) >= lim
                    or (over and ahead is not None and float(ahead[k]) * np.sign(q[k]) > tk._half - radius))
               for k in (0, 1))


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
