"""Disc physics on a crokinole or korona board, with pymunk for the contacts.

Why pymunk: discs sliding on a board are a 2-D rigid-body problem whose hard part is the
contact resolution (several discs touching at once, a disc pressed between a peg and another
disc, a striker in a corner against two rims). pymunk's impulse solver handles those robustly
and conserves momentum exactly in disc-disc impacts (equal and opposite impulses), and its
collision callbacks give us every contact with its time. What pymunk does not model we add
around its step, in plain Python (the openings and the ditch in :mod:`tracker.sim.openings`):

* **Sliding friction** is Coulomb friction against the board: a constant deceleration
  ``a = mu * g`` opposite to the velocity, applied before each step, clamped so a disc stops
  rather than reverses. A disc launched at ``v`` stops after ``v**2 / (2 a)`` (tested).
* **Falling in** (20-hole, korona pocket): a disc falls when its centre has stayed over the
  opening for at least the time gravity needs to drop it by half its thickness,
  ``sqrt(thickness / g)``. A slow, centred disc falls; a fast one passes over; a disc that
  stops over the opening falls. The crokinole capture zone is the hole radius times
  ``hole_capture_fraction`` (the disc tips in once its centre of mass is well over the hole);
  the korona one is the pocket mouth (``KoronaBoard.pocket_of``).
* **Jumping a korona rim**: a real disc struck hard into a rim sometimes rides up it and flies
  off the board. pymunk is 2-D, so we decide it at the impact: a disc meeting a rim with an
  outward speed ``v`` above ``jump_speed`` jumps with probability growing linearly to
  ``jump_max_chance`` at ``jump_full_speed`` (drawn from the table's own generator, so a seed
  fixes it; a table without a generator never jumps). The jumping disc leaves the simulation
  and flies (:class:`~tracker.sim.datatypes.Flight`) over the rim to land on the table beside
  the board, ``TABLE_Z`` below the surface; its state becomes ``"flown"``. The contact with the
  rim is still recorded: it touched the rim as it went over.
* **The ditch**: a crokinole disc whose centre passes the playing-surface radius drops into the
  ditch. It leaves the surface layer (pymunk shape filter) and slides on in the ditch layer with
  more friction until the outer rail stops it; ditch discs collide only with each other and the
  rail. Contacts there are not recorded (the disc is already out of play).

The step is 1 ms: at 4 m/s a disc moves 4 mm a step, well under the smallest contact radius
(disc + peg, about 20 mm), so nothing tunnels, and the recorded trajectory is fine enough for
any motion-blur sub-frame. Every board figure comes from ``tracker.boards``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pymunk

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.sim.datatypes import Contact, Flight, ShotResult, SimDisc, Transition
from tracker.sim.openings import G_MM, drop_time, fall, keep_in_ditch
from tracker.sim.rim_jump import RIM_NORMAL, jump

# Collision layers (pymunk ShapeFilter categories).
_SURFACE = 0b01
_DITCH = 0b10
# Collision types, used to tell discs, pegs and rims apart in the contact callback.
_T_DISC, _T_PEG, _T_RIM = 1, 2, 3


@dataclass(frozen=True)
class PhysicsParams:
    """Material figures. Friction coefficients are for waxed / powdered boards."""

    mu: float = 0.12  # disc on the playing surface
    mu_ditch: float = 0.45  # disc on the ditch floor (felt or bare wood)
    restitution_disc: float = 0.90  # disc-disc (hardwood)
    restitution_peg: float = 0.70  # disc-peg (rubber-ringed pegs)
    restitution_rim: float = 0.60  # disc-rim (korona) / ditch rail
    hole_capture_fraction: float = 0.55  # of the hole radius, see module doc
    dt: float = 0.001
    max_time: float = 12.0
    rest_speed: float = 0.5  # mm/s: below this a disc is at rest
    jump_speed: float = 1500.0  # mm/s, outward speed into a korona rim below which nothing jumps
    jump_full_speed: float = 3500.0  # mm/s, outward speed with the largest chance to jump
    jump_max_chance: float = 0.5

    def jump_chance(self, outward_speed: float) -> float:
        """Chance that a disc meeting a korona rim at ``outward_speed`` (mm/s) jumps it."""
        w = (outward_speed - self.jump_speed) / (self.jump_full_speed - self.jump_speed)
        return self.jump_max_chance * min(1.0, max(0.0, w))

    @property
    def deceleration(self) -> float:
        return self.mu * G_MM


def stopping_distance(speed: float, params: PhysicsParams | None = None) -> float:
    """Distance a free disc launched at ``speed`` (mm/s) slides before it stops."""
    p = params or PhysicsParams()
    return speed * speed / (2.0 * p.deceleration)


def launch_speed(distance: float, params: PhysicsParams | None = None) -> float:
    """Speed (mm/s) that makes a free disc stop after ``distance`` mm."""
    p = params or PhysicsParams()
    return math.sqrt(max(0.0, 2.0 * p.deceleration * distance))


class Table:
    """A board with its discs, ready to simulate shots one after another."""

    def __init__(self, board: CrokinoleBoard | KoronaBoard, params: PhysicsParams | None = None,
                 rng: np.random.Generator | None = None):
        self.board = board
        self.params = params or PhysicsParams()
        self.discs: dict[str, SimDisc] = {}
        self.rng = rng  # draws korona rim jumps; None: discs never jump

    def add(self, disc: SimDisc) -> None:
        self.discs[disc.id] = disc

    def on_surface(self) -> list[SimDisc]:
        return [d for d in self.discs.values() if d.state == "surface"]

    def shoot(self, disc_id: str, velocity: tuple[float, float]) -> ShotResult:
        """Simulate a shot of ``disc_id`` launched with ``velocity`` (mm/s) until all rest.

        Updates the table's discs to their final positions and states, and returns the
        trajectory, contacts and transitions.
        """
        result = simulate(self.board, list(self.discs.values()), disc_id, velocity, self.params, self.rng)
        for did, d in result.final.items():
            self.discs[did] = d
        return result


# The korona rims in the order ``_static_shapes`` builds them: each is named by the seat whose
# side of the board it runs along (the shot log's ``"rim:<seat>"``).
RIM_SIDES = ("south", "east", "north", "west")


def _static_shapes(space: pymunk.Space, board: CrokinoleBoard | KoronaBoard, p: PhysicsParams) -> dict[object, str]:
    """Pegs or rims as static shapes; returns the korona rim shapes with their side."""
    e_disc = math.sqrt(p.restitution_disc)
    sides: dict[object, str] = {}
    sb = space.static_body
    if isinstance(board, CrokinoleBoard):
        for px, py in board.peg_positions():
            peg = pymunk.Circle(sb, board.peg_diameter / 2.0, (px, py))
            peg.elasticity = p.restitution_peg / e_disc
            peg.collision_type = _T_PEG
            peg.filter = pymunk.ShapeFilter(categories=_SURFACE, mask=_SURFACE)
            space.add(peg)
    else:
        h = board.half
        corners = [(-h, -h), (h, -h), (h, h), (-h, h)]
        for k in range(4):
            seg = pymunk.Segment(sb, corners[k], corners[(k + 1) % 4], 0.0)
            seg.elasticity = p.restitution_rim / e_disc
            seg.collision_type = _T_RIM
            seg.filter = pymunk.ShapeFilter(categories=_SURFACE, mask=_SURFACE)
            space.add(seg)
            sides[seg] = RIM_SIDES[k]
    return sides


def simulate(
    board: CrokinoleBoard | KoronaBoard,
    discs: list[SimDisc],
    shooter: str,
    velocity: tuple[float, float],
    params: PhysicsParams | None = None,
    rng: np.random.Generator | None = None,
) -> ShotResult:
    """Run one shot to rest. ``discs`` are not modified; the result holds copies. ``rng`` draws
    korona rim jumps (None: no disc ever jumps)."""
    p = params or PhysicsParams()
    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    space.iterations = 20
    rim_side = _static_shapes(space, board, p)
    e_disc = math.sqrt(p.restitution_disc)

    active = [d for d in discs if d.state in ("surface", "ditch")]
    if shooter not in {d.id for d in active}:
        raise ValueError(f"disc {shooter!r} is not on the board")
    ids = tuple(d.id for d in active)
    state = {d.id: SimDisc(**vars(d)) for d in discs}
    bodies: dict[str, pymunk.Body] = {}
    shapes: dict[str, pymunk.Circle] = {}
    for d in active:
        mass = math.pi * d.radius**2 * d.thickness * 1e-3  # proportional to volume
        body = pymunk.Body(mass, pymunk.moment_for_circle(mass, 0, d.radius))
        body.position = (d.x, d.y)
        shape = pymunk.Circle(body, d.radius)
        shape.elasticity = e_disc
        shape.friction = 0.0
        shape.collision_type = _T_DISC
        layer = _SURFACE if d.state == "surface" else _DITCH
        shape.filter = pymunk.ShapeFilter(categories=layer, mask=layer)
        space.add(body, shape)
        bodies[d.id] = body
        shapes[d.id] = shape
    bodies[shooter].velocity = velocity

    contacts: list[Contact] = []
    jumping: dict[str, str] = {}  # discs that jump a rim in this step, with the rim's side
    flights: dict[str, Flight] = {}
    clock = [0.0]
    names = {shape: did for did, shape in shapes.items()}

    # Only discs in motion are integrated and checked ("awake"); a resting disc wakes when
    # something touches it (pre_solve fires every step of a contact, so a push passed along a
    # row of touching discs wakes each of them).
    awake: set[str] = {shooter}

    def wake(arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
        for sh in arbiter.shapes:
            n = names.get(sh)  # type: ignore[call-overload]
            if n is not None:
                awake.add(n)

    def begin(arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
        wake(arbiter, _space, _data)
        a, b = arbiter.shapes
        na, nb = names.get(a), names.get(b)  # type: ignore[call-overload]
        if na is not None and state[na].state != "surface":
            return
        if nb is not None and state[nb].state != "surface":
            return
        # Things that already touch at rest (a korona setup row, a disc left against a rim or a
        # peg or another disc) are no contact of this shot: nothing struck anything.
        if na is not None and nb is not None and (bodies[na].velocity - bodies[nb].velocity).length < 1.0:
            return
        if (na is None) != (nb is None) and bodies[na or nb].velocity.length < 1.0:  # type: ignore[index]
            return
        if na is None:
            na, nb, a, b = nb, na, b, a
        if na is None:
            return
        if nb is None:
            # Korona rims are named by side (the Russian rules ask which rim a striker touched).
            nb = "peg" if b.collision_type == _T_PEG else f"rim:{rim_side[b]}" if b in rim_side else "rim"
        elif na != shooter and nb == shooter:
            na, nb = nb, na
        contacts.append(Contact(round(clock[0], 4), na, nb))
        side = rim_side.get(b)
        if side is not None and rng is not None:
            vx, vy = bodies[na].velocity
            nx, ny = RIM_NORMAL[side]
            chance = p.jump_chance(vx * nx + vy * ny)
            if chance > 0.0 and rng.random() < chance:
                arbiter.process_collision = False
                jumping[na] = side

    space.on_collision(None, None, begin=begin, pre_solve=wake)

    transitions: list[Transition] = []
    over_since: dict[str, float] = {}
    dt = p.dt
    times = [0.0]
    index = {did: i for i, did in enumerate(ids)}
    cur = np.array([[d.x, d.y] for d in active], dtype=np.float64)
    frames = [cur.copy()]
    crok = isinstance(board, CrokinoleBoard)
    r_hole = board.hole_radius * p.hole_capture_fraction if isinstance(board, CrokinoleBoard) else 0.0
    t = 0.0
    while t < p.max_time:
        moving = False
        for did in sorted(awake):  # sorted: the same order every run (determinism)
            d = state[did]
            body = bodies[did]
            if d.state not in ("surface", "ditch"):
                awake.discard(did)
                continue
            vx, vy = body.velocity
            v = math.hypot(vx, vy)
            if v <= 0.0:
                awake.discard(did)
                continue
            a = (p.mu_ditch if d.state == "ditch" else p.mu) * G_MM
            nv = v - a * dt
            if nv <= p.rest_speed:
                body.velocity = (0.0, 0.0)
            else:
                body.velocity = (vx * nv / v, vy * nv / v)
                moving = True
        if not moving and t > 0.0 and not any(t < f.t + f.duration for f in flights.values()):
            break
        clock[0] = t + dt
        space.step(dt)
        t += dt
        for did, f in flights.items():
            fx, fy, _ = f.at(t)
            cur[index[did]] = (fx, fy)
        for did, side in sorted(jumping.items()):
            assert isinstance(board, KoronaBoard)
            flights[did] = jump(space, bodies[did], shapes[did], state[did], side, board, t, rng, transitions)
        jumping.clear()
        # State changes after the step: ditch, hole, pocket.
        for did in sorted(awake):
            d = state[did]
            body = bodies[did]
            if d.state not in ("surface", "ditch"):
                continue
            if d.state == "ditch":
                assert isinstance(board, CrokinoleBoard)
                keep_in_ditch(body, d, board, p.restitution_rim)
            x, y = body.position
            d.x, d.y = float(x), float(y)
            cur[index[did]] = (d.x, d.y)
            if d.state != "surface":
                continue
            if crok:
                assert isinstance(board, CrokinoleBoard)
                if math.hypot(x, y) <= r_hole:
                    if did not in over_since:
                        over_since[did] = t
                    if t - over_since[did] >= drop_time(d.thickness) or body.velocity.length == 0:
                        fall(space, body, shapes[did], d, "hole", None, board, t, transitions)
                        cur[index[did]] = (d.x, d.y)
                        continue
                else:
                    over_since.pop(did, None)
                if not board.on_surface(x, y):
                    d.state = "ditch"
                    shapes[did].filter = pymunk.ShapeFilter(categories=_DITCH, mask=_DITCH)
                    transitions.append(Transition(round(t, 4), did, "ditch"))
            else:
                assert isinstance(board, KoronaBoard)
                pocket = board.pocket_of(x, y, d.radius)
                if pocket is not None:
                    if did not in over_since:
                        over_since[did] = t
                    if t - over_since[did] >= drop_time(d.thickness) or body.velocity.length == 0:
                        fall(space, body, shapes[did], d, "pocket", pocket, board, t, transitions)
                        cur[index[did]] = (d.x, d.y)
                else:
                    over_since.pop(did, None)
        times.append(t)
        frames.append(cur.copy())

    # A disc resting over an opening after the loop ended has fallen (handled in-loop by the
    # zero-velocity test); settle the final values.
    final = {did: state[did] for did in ids}
    return ShotResult(
        ids=ids,
        times=np.array(times),
        xy=np.stack(frames),
        contacts=contacts,
        transitions=transitions,
        final=final,
        flights=flights,
    )
