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
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Track

# Speed (mm/s) into a rim below which a disc does not ride up it and over: a disc needs its
# bottom lifted over 20 mm of rim. Rendered matches follow the same physics
# (``sim.physics.PhysicsParams.jump_speed``).
RIM_JUMP_SPEED = 1500.0


def within_rims(board: CrokinoleBoard | KoronaBoard, p0: np.ndarray, p: np.ndarray, v: np.ndarray, radius: float,
                restitution: float, speed: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Position and velocity of a disc of ``radius`` the tracker moved from ``p0`` to ``p`` at
    ``v``, folded back off any korona rim it ran past on the way (from within it), going outward
    slower than ``RIM_JUMP_SPEED``: as far back as it ran past (times ``restitution``), going
    back at ``restitution`` of its speed into the rim. Unchanged on a crokinole board, within the
    rims, beyond one already (it jumped), or going fast enough to jump one. ``speed``: how fast
    the disc may really go, if faster than ``v`` (``blow_speed``), for the jump test only."""
    if not isinstance(board, KoronaBoard):
        return p, v
    lim = board.half - radius
    p, v = np.array(p, float), np.array(v, float)
    pace = max(1.0, speed / max(float(np.hypot(*v)), 1e-9))
    for k in (0, 1):
        over = abs(float(p[k])) - lim
        crossed = abs(float(p0[k])) <= lim + 1.0  # (a rim disc is measured up to a mm past)
        if over > 0 and crossed and float(v[k]) * float(p[k]) > 0 and pace * abs(float(v[k])) < RIM_JUMP_SPEED:
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
