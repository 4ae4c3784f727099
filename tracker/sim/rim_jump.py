"""A korona disc jumping a rim: where it flies and lands (see ``tracker.sim.physics``).

pymunk is 2-D, so a jump is decided at the impact (``PhysicsParams.jump_chance``) and the rest is
a ballistic flight computed here: the disc leaves the simulation, rises at ``_JUMP_VZ``, crosses
the rim in a straight line and lands on the table beside the board, where it stays (state
``"flown"``: off the board for the rules, still in view for the camera).
"""

from __future__ import annotations

import numpy as np
import pymunk

from tracker.boards import KoronaBoard
from tracker.sim.datatypes import Flight, SimDisc, Transition

# Height of the table the korona board stands on, relative to the playing surface (the
# renderer's board model puts it 25 mm below): where a disc that flew off comes to rest.
TABLE_Z = -25.0
# Upward speed (mm/s) of a disc riding up a rim: its bottom clears the 20 mm rim by some 30 mm.
_JUMP_VZ = 1000.0
# Outward unit normal of each korona rim.
RIM_NORMAL = {"south": (0.0, -1.0), "east": (1.0, 0.0), "north": (0.0, 1.0), "west": (-1.0, 0.0)}


def jump(
    space: pymunk.Space,
    body: pymunk.Body,
    shape: pymunk.Circle,
    d: SimDisc,
    side: str,
    board: KoronaBoard,
    t: float,
    rng: np.random.Generator | None,
    transitions: list[Transition],
) -> Flight:
    """Take a disc that jumps the ``side`` rim out of the simulation and plan its flight.

    It lands just beyond the rim's outer edge (a few cm of scatter), carried along the rim by a
    part of its speed along it, and always on the table: the renderer's table reaches at least
    some 75 mm beyond the board's outer edge, so the landing spot is clamped inside that.
    """
    x, y = body.position
    vx, vy = body.velocity
    space.remove(body, shape)
    nx, ny = RIM_NORMAL[side]
    tx, ty = -ny, nx
    edge = board.outer_size / 2.0
    flight_time = Flight(t, (0.0, 0.0), (0.0, 0.0), _JUMP_VZ, TABLE_Z).duration
    gap = float(rng.uniform(3.0, 40.0)) if rng is not None else 10.0
    out = edge + d.radius + gap
    along = (x * tx + y * ty) + 0.5 * (vx * tx + vy * ty) * flight_time
    lim = edge + 45.0
    along = max(-lim, min(lim, along))
    land = (round(nx * out + tx * along, 3), round(ny * out + ty * along, 3))
    d.x, d.y = land
    d.state = "flown"
    transitions.append(Transition(round(t, 4), d.id, "flown"))
    return Flight(t, (float(x), float(y)), land, _JUMP_VZ, TABLE_Z)


