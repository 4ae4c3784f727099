"""Where a disc leaves the playing surface in the simulation: the ditch, the 20-hole, a korona pocket.

A disc falls into an opening once its centre has stayed over it for :func:`drop_time`, the
time gravity needs to drop it by half its thickness; :func:`fall` then takes it out of the
pymunk space and settles it. A crokinole disc past the surface's edge is held in the ditch
by :func:`keep_in_ditch`. :mod:`tracker.sim.physics` calls these after each step.
"""

from __future__ import annotations

import math

import pymunk

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.sim.datatypes import SimDisc, Transition

G_MM = 9810.0  # gravity, mm/s^2
# Speed (mm/s) at which a disc tipping over the surface's edge slides down into the ditch.
_SLIDE_IN = 150.0


def drop_time(thickness: float) -> float:
    """Time for a disc to drop by half its thickness in free fall."""
    return math.sqrt(thickness / G_MM)


def keep_in_ditch(body: pymunk.Body, d: SimDisc, board: CrokinoleBoard, restitution_rim: float) -> None:
    """A disc in the ditch stays between the surface's edge wall and the outer rail.

    The ditch is lower than the surface, so a disc that dropped in cannot come back: its edge
    slides down off the surface's edge (outward at ``_SLIDE_IN`` mm/s at least, until its centre
    is at ``surface_radius + r``) and the rail (centre at ``ditch_outer_radius - r``) reflects
    its radial velocity with the rim restitution ``restitution_rim``.
    """
    x, y = body.position
    dist = math.hypot(x, y)
    if dist == 0.0:
        return
    ux, uy = x / dist, y / dist
    lo = board.surface_radius + d.radius
    hi = board.ditch_outer_radius - d.radius
    vx, vy = body.velocity
    vr = vx * ux + vy * uy
    if dist < lo and vr < _SLIDE_IN:
        # Still tipping over the edge: it slides down and out, never back up.
        body.velocity = (vx + (_SLIDE_IN - vr) * ux, vy + (_SLIDE_IN - vr) * uy)
    elif dist > hi:
        body.position = (ux * hi, uy * hi)
        if vr > 0:
            k = (1.0 + restitution_rim) * vr
            body.velocity = (vx - k * ux, vy - k * uy)


def fall(
    space: pymunk.Space,
    body: pymunk.Body,
    shape: pymunk.Circle,
    d: SimDisc,
    where: str,
    pocket: str | None,
    board: CrokinoleBoard | KoronaBoard,
    t: float,
    transitions: list[Transition],
) -> None:
    """Take a disc off the surface into the hole or a pocket, where it settles."""
    space.remove(body, shape)
    if where == "hole":
        assert isinstance(board, CrokinoleBoard)
        # It comes to rest on the bottom of the hole, its edge against the wall at most.
        room = max(0.0, board.hole_radius - d.radius)
        dist = math.hypot(d.x, d.y)
        if dist > room and dist > 0:
            d.x, d.y = d.x * room / dist, d.y * room / dist
        d.state = "hole"
    else:
        assert isinstance(board, KoronaBoard) and pocket is not None
        d.x, d.y = board.pocket_centres()[pocket]  # type: ignore[index]
        d.state = "pocket"
        d.pocket = pocket
    transitions.append(Transition(round(t, 4), d.id, d.state, pocket))  # type: ignore[arg-type]
