"""Bank shots off a korona rim: where to aim so the striker reaches a point after one bounce.

A sliding disc meets a straight rim; the physics (``tracker.sim.physics``) has frictionless
contacts, so the bounce keeps the velocity along the rim and multiplies the velocity into it by
``-e`` (``e`` the disc-rim restitution). The disc's centre bounces on the line ``half - R`` from
the centre (``R`` its radius). Because ``e < 1`` the path is not a mirror reflection; with ``a``
and ``b`` the distances of the start and of the target from that line, and ``s``, ``g`` their
coordinates along it, the bounce point's coordinate along the line is

    p = (e a g + b s) / (b + e a)

(the outgoing direction must be ``(-e a, p - s)`` scaled, and point at the target). Friction
slows the disc on both legs, at the same constant deceleration the players plan with, so the
launch speed follows from the wanted speed at the target backwards through the bounce.

Sides are the seats' names (``"north"``: the rim along the north edge, ``y = +half``), as in the
shot log's ``"rim:<seat>"`` contacts.
"""

from __future__ import annotations

import math

from tracker.sim.physics import PhysicsParams, launch_speed
from tracker.sim.rim_jump import RIM_NORMAL

Point = tuple[float, float]

def _frame(side: str) -> tuple[Point, Point]:
    """Outward normal and tangent (the normal turned a quarter counter-clockwise) of a rim."""
    n = RIM_NORMAL[side]
    return n, (-n[1], n[0])


def bounce_point(start: Point, target: Point, side: str, line: float, e: float) -> Point | None:
    """Where the centre of a disc from ``start`` must meet the ``side`` rim (its centre on the
    line ``line`` mm from the board centre) to go on to ``target``; None when either point is not
    inside that line."""
    n, t = _frame(side)
    a = line - (start[0] * n[0] + start[1] * n[1])
    b = line - (target[0] * n[0] + target[1] * n[1])
    if a <= 1.0 or b <= 1.0:
        return None
    s = start[0] * t[0] + start[1] * t[1]
    g = target[0] * t[0] + target[1] * t[1]
    p = (e * a * g + b * s) / (b + e * a)
    return (n[0] * line + t[0] * p, n[1] * line + t[1] * p)


def bank_launch_speed(start: Point, bounce: Point, target: Point, side: str, speed_at_target: float,
                      params: PhysicsParams) -> float:
    """Launch speed (mm/s) that brings the disc to ``target`` at ``speed_at_target`` after
    bouncing at ``bounce``."""
    n, t = _frame(side)
    ox, oy = target[0] - bounce[0], target[1] - bounce[1]
    leg2 = math.hypot(ox, oy) or 1.0
    v_out = math.hypot(speed_at_target, launch_speed(leg2, params))
    vn = v_out * abs(ox * n[0] + oy * n[1]) / leg2
    vt = v_out * (ox * t[0] + oy * t[1]) / leg2
    v_in = math.hypot(vn / params.restitution_rim, vt)
    leg1 = math.hypot(bounce[0] - start[0], bounce[1] - start[1])
    return math.hypot(v_in, launch_speed(leg1, params))
