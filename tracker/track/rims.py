"""Korona: the rims that hold an unseen disc on the board.

A korona board is walled by rims 20 mm high (``KoronaBoard.rim_height``). A disc the tracker moves
on its own, unseen (a mover coasting through frames the detector missed, a resting disc knocked
away the frame it was due to be hit), meets a rim as the real disc does: it bounces back off it,
unless it meets it fast enough to ride up and over (``RIM_JUMP_SPEED``). Coasted straight
through, a disc knocked along or into a rim was placed beyond it and called off the board while
it slid along the rim into a pocket or stopped against it (korona_4p_part at 27.5 s: s1, pressed
into the south rim by the forecast of a blow, placed 40 mm past it and called off while it slid
along the rim into the nw pocket; k2e_9505 at 18.0 s: north's striker, stopped 30 mm short of
the south rim, coasted past it unseen and called off).

Pure functions on positions and velocities in board mm.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Track
from tracker.track.disc_traits import rim_radius

# Speed (mm/s) into a rim below which a disc does not ride up it and over: a disc needs its
# bottom lifted over 20 mm of rim. Rendered matches follow the same physics
# (``sim.physics.PhysicsParams.jump_speed``).
RIM_JUMP_SPEED = 1500.0


def within_rims(board: CrokinoleBoard | KoronaBoard, p0: np.ndarray, p: np.ndarray, v: np.ndarray, radius: float,
                restitution: float, speed: float = 0.0, jump: float = RIM_JUMP_SPEED) -> tuple[np.ndarray, np.ndarray]:
    """Position and velocity of a disc of ``radius`` the tracker moved from ``p0`` to ``p`` at
    ``v``, folded back off any korona rim it ran past on the way (from within it), going outward
    slower than ``RIM_JUMP_SPEED``: as far back as it ran past (times ``restitution``), going
    back at ``restitution`` of its speed into the rim. Unchanged on a crokinole board, within the
    rims, beyond one already (it jumped), or going fast enough to jump one. ``speed``: how fast
    the disc may really go, if faster than ``v`` (``blow_speed``), for the jump test only;
    ``jump``: the speed into a rim from which it goes over (infinite: never; a disc knocked away
    unseen, ``TrackerConfig.unseen_over_rim``)."""
    if not isinstance(board, KoronaBoard):
        return p, v
    lim = board.half - radius
    p, v = np.array(p, float), np.array(v, float)
    pace = max(1.0, speed / max(float(np.hypot(*v)), 1e-9))
    for k in (0, 1):
        over = abs(float(p[k])) - lim
        crossed = abs(float(p0[k])) <= lim + 1.0  # (a rim disc is measured up to a mm past)
        if over > 0 and crossed and float(v[k]) * float(p[k]) > 0 and pace * abs(float(v[k])) < jump:
            p[k] = np.sign(p[k]) * (lim - restitution * over)
            v[k] = -restitution * v[k]
    return p, v


def blow_speed(movers: Sequence[Track], at: np.ndarray, radius: float, seen: float, dt: float) -> float:
    """The fastest a struck resting disc of ``radius`` at ``at``, last seen at ``seen``, may
    have been sent off: equal masses, at most the speed of the fastest moving track near it as
    seen between two of its sightings from a frame (``dt``) before then on. Not the tracker's
    smoothed speed: a mover that struck is seen slow, or stopped, once the blow has stopped it
    (a striker seen at 1800 mm/s on its way, stopped against the disc it drove into the rim)."""
    best = 0.0
    for m in movers:
        if m.state != "moving" or not m.path:
            continue
        sights = [sm for sm in m.path[-8:] if sm.measured and sm.t >= seen - 1.5 * dt]
        fast = max((float(np.hypot(b.x - a.x, b.y - a.y)) / (b.t - a.t)
                    for a, b in zip(sights, sights[1:], strict=False) if b.t > a.t), default=0.0)
        if float(np.hypot(*(m.xy - at))) <= m.radius + radius + 2 * fast * dt:
            best = max(best, fast)
    return best


def on_board(board: CrokinoleBoard | KoronaBoard, q: np.ndarray, radius: float) -> np.ndarray:
    """``q`` (mm) taken within the limits of a disc of ``radius`` by the korona rims: a disc at
    rest lies on the board, and one against a rim is measured up to a few mm past its limit
    (k4h_9912 at 23.13 s: s7, 1.9 mm past the north rim's limit and struck into it unseen, was
    forecast straight through the rim, as if it had jumped it already, and called off the board
    while it came back off the rim into the field). Unchanged on a crokinole board."""
    if not isinstance(board, KoronaBoard):
        return np.asarray(q, float)
    lim = board.half - radius
    return np.clip(np.asarray(q, float), -lim, lim)


def barred_over_rim(board: KoronaBoard, at: np.ndarray, towards: np.ndarray, radius: float,
                    stayed: np.ndarray) -> bool:
    """Whether a disc of ``radius`` last seen at ``at`` (mm) and heading for ``towards``, past a
    rim, could not have slid there: on its straight course to the edge of the board it meets,
    near head on (its centre line within half the two radii of the other's centre), a disc at
    rest that is still there, seen since (``stayed``: rows x, y, radius). A disc sliding at it
    strikes it and drives it on (a striker is four times a disc's weight), or stops or turns
    back, in view; it does not leave the board through it. What crossed the rim over it was
    carried in the air, in a hand (k4h_9606 at 34.8 s and k4h_9924 at 31.4 s: a player's hand
    carrying west's striker off the board across the east rim row, seen twice at 2.6 m/s
    130 mm out of the rim, was called off the board, and the carrying a shot)."""
    a, e = np.asarray(at, float), np.asarray(towards, float)
    run = float(np.hypot(*(e - a)))
    if run < 1e-6 or not len(stayed):
        return False
    u = (e - a) / run
    # where the course leaves the board (its outer edge, ``half`` from the centre)
    out = min((board.half - float(np.sign(u[k]) * a[k])) / abs(float(u[k])) for k in (0, 1) if abs(float(u[k])) > 1e-9)
    edge = a + u * max(out, 0.0)
    return any(segment_distance(np.asarray(q[:2], float), a, edge) < 0.5 * (radius + float(q[2])) for q in stayed)



# mm: a disc whose centre lies this close to its limit by a rim rests against that rim (rim discs
# are measured up to a few mm in from it)
RIM_TOUCH_MM = 5.0
# The part of its speed into the rim with which a disc resting against a rim and struck into it
# comes back off it. Far below a free disc's bounce (the rendered matches' rim restitution, 0.6):
# the disc that struck it follows it into the rim. Rendered matches: k2e_9911 at 35.77 s, s4
# pressed into the north rim at about 670 mm/s came off it at under 100; korona_2p_game at 53.5 s,
# s4 pressed in at about 740 came off at about 250. Replayed reviews of the 12 korona dev matches
# and 5 korona fixtures: 0.25-0.35 the same; 0.15 loses korona_2p_game's pocket at 53.7 s, 0.45
# and more keep k2e_9911's identity switch.
PRESSED_RESTITUTION = 0.3


def pressed_into_rim(board: CrokinoleBoard | KoronaBoard, q: np.ndarray, at: np.ndarray, v: np.ndarray,
                     radius: float, others: np.ndarray, speed: float = 0.0,
                     jump: float = RIM_JUMP_SPEED) -> tuple[np.ndarray, np.ndarray]:
    """Korona: where a disc resting at ``q`` against a rim (within ``RIM_TOUCH_MM`` of touching
    it), struck into that rim (forecast at ``at`` with velocity ``v``, slower than a disc can jump
    the rim), goes: along the rim with the blow's part along it, and back off the rim with only
    ``PRESSED_RESTITUTION`` of its part into it. Unchanged otherwise: on a crokinole board, off the
    rims (``within_rims`` folds back a disc that ran into a rim from further in), or when another
    disc (``others``: rows x, y, radius; at rest, or where a moving one rested) lies on the rim in
    its way within the frame: the blow then passes into that row, whose tracks the row stages of
    the association follow (measured: sliding through the row, korona_4p_part's switches 10 -> 40
    per 100 shots).

    Bounced back off the rim at a free disc's restitution (0.9, ``within_rims``), such a disc's
    forecast left the rim at most of its speed while the real one slid along it and struck the
    next disc of its row: k2e_9911 at 35.77 s, s4 driven east into the north rim by the striker and
    unseen, forecast 35 mm back off the rim two frames later while it slid 30 mm east into s6,
    which passed the blow on to s7; s4's track, by its wide gate, took s7's detection (an identity
    switch). ``jump``: as :func:`within_rims`'."""
    if not isinstance(board, KoronaBoard):
        return at, v
    lim = board.half - radius
    out, w = np.array(at, float), np.array(v, float)
    pace = max(1.0, speed / max(float(np.hypot(*w)), 1e-9))
    for k in (0, 1):
        side = float(np.sign(q[k]))
        if abs(float(q[k])) < lim - RIM_TOUCH_MM or float(w[k]) * side <= 0 or pace * abs(float(w[k])) >= jump:
            continue
        if _row_in_the_way(q, out, k, radius, others):
            return at, v
        out[k] = q[k] - PRESSED_RESTITUTION * float(out[k] - q[k])
        w[k] = -PRESSED_RESTITUTION * w[k]
    return out, w


def _row_in_the_way(q: np.ndarray, at: np.ndarray, k: int, radius: float, others: np.ndarray) -> bool:
    """Whether a disc of ``radius`` sliding along the rim across axis ``k`` from ``q`` to ``at``
    meets one of ``others`` (rows x, y, radius; centres within ``radius`` of its line along the
    rim) on the way."""
    j = 1 - k
    step = float(at[j] - q[j])
    if abs(step) < 1e-9 or not len(others):
        return False
    ahead = (others[:, j] - float(q[j])) * float(np.sign(step))
    inline = np.abs(others[:, k] - float(q[k])) <= radius
    return bool(np.any(inline & (ahead > 0) & (ahead - radius - others[:, 2] < abs(step))))


def wedged(board: CrokinoleBoard | KoronaBoard, to: np.ndarray, v: np.ndarray, radius: float,
           others: np.ndarray) -> bool:
    """Korona: whether a disc of ``radius`` coasting past a rim to ``to`` (velocity ``v``) meets it
    in a row's gap: between two discs against that rim (``others``: rows x, y, radius; centres within
    ``RIM_TOUCH_MM`` of their limit by it), one on either side within touching distance of where it
    meets the rim (and a radius more: the gap is at most a diameter wide). It drives its neighbours
    apart along the rim rather than bouncing back off it (``TrackerConfig.rim_wedge``): k2e_9941 at
    21.63 s, n3, 17 mm off the south rim between n4 and n2 and driven into it by the striker unseen,
    came back off it at about 150 mm/s while n2 and n1 went east and n8 west; its forecast, bounced
    back at 740 mm/s, lost its detection to n2's track (an identity switch)."""
    if not isinstance(board, KoronaBoard) or not len(others):
        return False
    lim = board.half - radius
    for k in (0, 1):
        if abs(float(to[k])) <= lim or float(v[k]) * float(to[k]) <= 0:
            continue
        j = 1 - k
        at_rim = np.abs(np.abs(others[:, k]) - (lim + radius - others[:, 2])) <= RIM_TOUCH_MM
        same = np.sign(others[:, k]) == np.sign(to[k])
        d = others[:, j] - float(to[j])
        near = np.abs(d) <= radius + 2 * others[:, 2]
        row = at_rim & same & near
        return bool(np.any(row & (d < 0)) and np.any(row & (d > 0)))
    return False


def rebound_blocked(board: CrokinoleBoard | KoronaBoard, ran: np.ndarray, at: np.ndarray, v: np.ndarray,
                    radius: float, others: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Korona: an unseen disc's rebound off a rim (``within_rims``: ``ran`` where its run took
    it, ``at``/``v`` after the fold) that would put it over another disc or striker in play
    (``others``: rows x, y, radius where they are now) does not happen: the one that drove it
    into the rim follows it there, so it stays pressed against the rim, still. Unchanged when
    nothing was folded or nothing is in the way.

    k2e_9941 at 21.63 s: the striker drove n3 (16 mm off the north rim) into it; unseen, its
    forecast came back off the rim at 740 mm/s through the striker, 39 mm from where it was found
    again (crept back 6 mm); n2's forecast took that find and the two names swapped.

    Off by default (``TrackerConfig.rebound_blocked``). Replays (--dets), off -> on: k2e_9941
    switches 12.5 -> 0 per 100 shots, p95 at rest 2.43 -> 2.05 mm, but pockets precision
    100 -> 67%: n1, knocked along the rim unseen in the same blow (87 -> 117 mm, never found
    again), stays a stale resting track overlapping n2's place, takes n2's detection at 31.97 s
    and n2 is called pocketed (as with ``rim_wedge``: the stale track is the next problem);
    k4h_9924 p95 7.37 -> 7.06 mm, k4h_9912 3.76 -> 3.72 mm; the other korona matches the same."""
    if not isinstance(board, KoronaBoard) or not len(others):
        return at, v
    lim = board.half - radius
    hit = [k for k in (0, 1) if abs(float(ran[k])) > lim and abs(float(at[k])) <= lim]
    if not hit:
        return at, v
    d = np.hypot(others[:, 0] - at[0], others[:, 1] - at[1])
    if not np.any(d < others[:, 2] + radius):
        return at, v
    pressed = np.array(ran, float)
    for k in hit:
        pressed[k] = np.sign(pressed[k]) * lim
    return pressed, np.zeros(2)


def struck_back_off_rim(board: CrokinoleBoard | KoronaBoard, tracks: Sequence[Track], tr: Track, q: np.ndarray,
                        v0: np.ndarray, v: np.ndarray, dt: float) -> bool:
    """Korona: whether ``tr``, knocked away unseen from ``q`` against a rim by a striker
    (:func:`by_striker`) at ``v0`` into that rim, was forecast back off it at ``v``
    (:func:`turned_back_by_rim`): it may as well have jumped the rim (``Tracker._rim_turned``)."""
    return turned_back_by_rim(board, q, rim_radius(board, tr), v0, v) and by_striker(tracks, tr, dt)


def turned_back_by_rim(board: CrokinoleBoard | KoronaBoard, q: np.ndarray, radius: float, v0: np.ndarray,
                       v: np.ndarray) -> bool:
    """Korona: whether a disc of ``radius`` resting at ``q`` against a rim (within ``RIM_TOUCH_MM``
    of touching it) and struck into it at ``v0`` was forecast back off it, at ``v``, by
    :func:`pressed_into_rim` or :func:`within_rims`: whether it jumped the rim or came back off it
    is then a guess."""
    if not isinstance(board, KoronaBoard):
        return False
    lim = board.half - radius
    return any(abs(float(q[k])) >= lim - RIM_TOUCH_MM and float(v0[k]) * float(np.sign(q[k])) > 0
               and float(v[k]) * float(np.sign(q[k])) < 0 for k in (0, 1))


def by_striker(tracks: Sequence[Track], tr: Track, dt: float) -> bool:
    """Whether a moving striker was within reach of ``tr``'s place this frame (touching it, or
    as far again as it runs in a frame): the blow that knocked it came from a striker, four times
    a disc's weight, which drives it into the rim at up to 1.6 times its own speed and follows
    it there (a row-mate pushing it passes on less, and the row takes part of it)."""
    q = tr.settled_xy
    return any(o.kind == STRIKER and o.state == "moving"
               and float(np.hypot(*(o.xy - q))) <= o.radius + tr.radius + o.speed * dt for o in tracks)
