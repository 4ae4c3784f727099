"""Simulated players: they choose plausible shots and execute them with human-like error.

A player plans with the same closed-form friction model the physics uses (``launch_speed``)
and a straight-line path check against pegs and discs, then perturbs the aim angle and the
speed with Gaussian error (a :class:`Skill`). That is enough to produce the situations a
tracker must handle: clean 20s, near misses, takeouts, fouls when a path is blocked, ricochets
off pegs, discs in the ditch, pockets, overshots.

* Crokinole: with no opponent disc on the board, aim for the 20 (a slow shot that would stop
  just past the hole's centre); otherwise take out an opponent disc, from the own quadrant of
  the shooting line, hard enough to send it off the surface.
* Korona: striker from the own striking line, forward, at an own disc that has a clear path
  to a pocket (cut angle, distance); a pocket behind the own striking line is called
  (announced) as the rulebook demands of an overshot. When a bank shot off a rim is easier (or
  the only one), the player plays it and announces it as indirect (Finnish rulebook 2.6); a
  direct shot announces nothing. In the Russian variant a pawn in the centre circle or in the
  shooter's own rim zone may not be played directly, only by a ricochet off the opposite rim.

Everything draws from the ``numpy.random.Generator`` passed in, so a seed fixes every shot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.sim.datatypes import SimDisc
from tracker.sim.physics import PhysicsParams, launch_speed

_SEAT_ANGLE = {"east": 0.0, "north": 90.0, "west": 180.0, "south": 270.0}


@dataclass(frozen=True)
class Skill:
    """Human error: standard deviations of the aim angle (degrees) and of the speed (relative)."""

    angle_sigma_deg: float = 0.8
    speed_sigma: float = 0.05


@dataclass(frozen=True)
class ShotPlan:
    """A shot as the player executes it: where the disc starts and its launch velocity (mm/s)."""

    start: tuple[float, float]
    velocity: tuple[float, float]
    intent: str  # "twenty", "takeout:<id>", "pocket:<id>:<pocket>", "bank:<id>:<pocket>:<rim>", ...
    announced_pocket: str | None = None
    announced_indirect: bool = False  # korona: a bank shot, called before it is played

    @property
    def direction(self) -> tuple[float, float]:
        vx, vy = self.velocity
        n = math.hypot(vx, vy) or 1.0
        return (vx / n, vy / n)


def _seg_point_distance(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> float:
    ab = b - a
    L2 = float(ab @ ab)
    if L2 == 0:
        return float(np.hypot(*(p - a)))
    w = min(1.0, max(0.0, float((p - a) @ ab) / L2))
    return float(np.hypot(*(a + w * ab - p)))


def path_clearance(
    start: tuple[float, float],
    end: tuple[float, float],
    radius: float,
    obstacles: Sequence[tuple[float, float, float]],
) -> float:
    """Smallest gap (mm) between a disc of ``radius`` sliding start->end and the obstacles
    ``(x, y, r)``; negative when it would touch one."""
    a, b = np.array(start, dtype=float), np.array(end, dtype=float)
    gap = math.inf
    for ox, oy, orad in obstacles:
        gap = min(gap, _seg_point_distance(a, b, np.array([ox, oy])) - radius - orad)
    return gap


def perturb(plan: ShotPlan, skill: Skill, rng: np.random.Generator) -> ShotPlan:
    """The plan as a human executes it: aim off by a few tenths of a degree, speed by a few %."""
    vx, vy = plan.velocity
    speed = math.hypot(vx, vy) * max(0.3, 1.0 + rng.normal(0.0, skill.speed_sigma))
    ang = math.atan2(vy, vx) + math.radians(rng.normal(0.0, skill.angle_sigma_deg))
    return replace(plan, velocity=(speed * math.cos(ang), speed * math.sin(ang)))


def _velocity(start: tuple[float, float], toward: tuple[float, float], speed: float) -> tuple[float, float]:
    dx, dy = toward[0] - start[0], toward[1] - start[1]
    n = math.hypot(dx, dy) or 1.0
    return (speed * dx / n, speed * dy / n)


class CrokinolePlayer:
    """A crokinole player at ``seat``; ``own`` tells which disc ids are on the player's side."""

    def __init__(self, seat: str, board: CrokinoleBoard, params: PhysicsParams, skill: Skill,
                 rng: np.random.Generator):
        self.seat, self.board, self.params, self.skill, self.rng = seat, board, params, skill, rng

    def start_at(self, offset_deg: float) -> tuple[float, float]:
        return self.board.shooting_position(self.seat, offset_deg)  # type: ignore[arg-type]

    def _obstacles(self, discs: Sequence[SimDisc], skip: str | None = None) -> list[tuple[float, float, float]]:
        obs = [(px, py, self.board.peg_diameter / 2.0) for px, py in self.board.peg_positions()]
        obs += [(d.x, d.y, d.radius) for d in discs if d.state == "surface" and d.id != skip]
        return obs

    def _offsets(self) -> np.ndarray:
        """Start offsets along the own quadrant of the shooting line (degrees from its centre)."""
        half = 45.0 - math.degrees(self.board.disc_radius / self.board.shooting_line_radius) - 2.0
        return np.arange(-half, half + 0.01, 2.5)

    def plan(self, discs: Sequence[SimDisc], is_opponent: set[str]) -> ShotPlan:
        """Choose a shot given the discs on the board; ``is_opponent`` holds opponent disc ids."""
        opponents = [d for d in discs if d.state == "surface" and d.id in is_opponent]
        r = self.board.disc_radius
        if not opponents:
            return self._plan_twenty(discs, r)
        return self._plan_takeout(discs, opponents, r)

    def _plan_twenty(self, discs: Sequence[SimDisc], r: float) -> ShotPlan:
        obstacles = self._obstacles(discs)
        best: tuple[float, float] | None = None
        for off in self._offsets():
            start = self.start_at(float(off))
            gap = path_clearance(start, (0.0, 0.0), r, obstacles)
            if gap > 3.0:
                score = abs(off) + self.rng.uniform(0.0, 6.0)
                if best is None or score < best[0]:
                    best = (score, float(off))
        off = 0.0 if best is None else best[1]
        start = self.start_at(off)
        # Just over the hole: a disc that would stop a few mm past the centre drops in.
        speed = launch_speed(math.hypot(*start) + 4.0, self.params)
        return ShotPlan(start, _velocity(start, (0.0, 0.0), speed), "twenty")

    def _plan_takeout(self, discs: Sequence[SimDisc], opponents: list[SimDisc], r: float) -> ShotPlan:
        best: tuple[float, ShotPlan] | None = None
        e = self.params.restitution_disc
        for target in opponents:
            obstacles = self._obstacles(discs, skip=target.id)
            d_t = math.hypot(target.x, target.y)
            for off in self._offsets()[::2]:
                start = self.start_at(float(off))
                gap = path_clearance(start, (target.x, target.y), r, obstacles)
                dist = math.hypot(target.x - start[0], target.y - start[1])
                # Blocked paths are allowed but scored badly (that is how fouls happen).
                score = (0.0 if gap > 2.0 else 400.0) + dist * 0.3 - (self.board.zone(target.x, target.y) * 3.0)
                score += self.rng.uniform(0.0, 20.0)
                if best is not None and score >= best[0]:
                    continue
                # The target must travel to beyond the surface's edge along the hit line.
                ux, uy = (target.x - start[0]) / dist, (target.y - start[1]) / dist
                along = target.x * ux + target.y * uy
                exit_d = -along + math.sqrt(max(0.0, self.board.surface_radius**2 - d_t**2 + along**2))
                v_target = launch_speed(exit_d + 3 * r, self.params)
                v_hit = v_target * 2.0 / (1.0 + e)
                v0 = math.sqrt(v_hit**2 + launch_speed(dist - 2 * r, self.params) ** 2)
                v0 = min(v0, 2600.0)
                best = (score, ShotPlan(start, _velocity(start, (target.x, target.y), v0), f"takeout:{target.id}"))
        assert best is not None
        return best[1]


# A possible pot: (own disc, pocket, distance to the pocket, unit direction to it, ghost point,
# the other discs as obstacles (x, y, r)).
_Pot = tuple[SimDisc, str, float, tuple[float, float], tuple[float, float], list[tuple[float, float, float]]]


class KoronaPlayer:
    """A korona player at ``seat`` shooting their striker from their striking line.

    ``variant`` is the rules the player follows: "fi" (Finnish rulebook) or "ru" (Russian: no
    direct shot at a restricted pawn, bank shots off the opposite rim only).
    """

    # How much harder a bank shot looks than a direct one of the same cut (score points; a
    # direct shot scores some 20-200): players bank when no easy direct shot is left, and now
    # and then by taste.
    BANK_PENALTY = 70.0

    def __init__(self, seat: str, board: KoronaBoard, params: PhysicsParams, skill: Skill,
                 rng: np.random.Generator, variant: str = "fi"):
        self.seat, self.board, self.params, self.skill, self.rng = seat, board, params, skill, rng
        self.variant = variant

    def forward(self) -> tuple[float, float]:
        """Unit vector away from the own rim (shots must be directed forwards)."""
        a = math.radians(_SEAT_ANGLE[self.seat] + 180.0)
        return (math.cos(a), math.sin(a))

    def line_points(self, n: int = 21) -> list[tuple[float, float]]:
        (x0, y0), (x1, y1) = self.board.striking_line(self.seat)  # type: ignore[arg-type]
        return [(x0 + (x1 - x0) * k / (n - 1), y0 + (y1 - y0) * k / (n - 1)) for k in range(n)]

    def start_points(self, n: int = 21) -> list[tuple[float, float]]:
        """Where the player may put the striker down: on the own striking line (Finnish rulebook
        2.6); in the Russian variant anywhere in the own rim zone, so also on a row half-way
        between the line and the rim."""
        pts = self.line_points(n)
        if self.variant != "ru":
            return pts
        bx, by = self.forward()
        back = (self.board.striking_line_offset - self.board.striker_radius) / 2.0
        return pts + [(x - bx * back, y - by * back) for x, y in pts[1::2]]

    def restricted(self, d: SimDisc) -> bool:
        """Russian variant: an own pawn in the centre circle or in the own rim zone, which may
        not be played directly."""
        if self.variant != "ru":
            return False
        b = self.board
        return b.in_centre_circle(d.x, d.y) or b.rim_zone_of(d.x, d.y) == self.seat

    def plan(self, discs: Sequence[SimDisc], own: set[str]) -> ShotPlan:
        """Pick an own disc, a pocket and a striker position with the easiest clear shot, direct
        or banked off a rim."""
        on = [d for d in discs if d.state == "surface" and d.kind == "disc"]
        direct = [c for c in self.candidates(on, own) if not self.restricted(self._disc(on, c[1]))]
        best = min(direct + self.bank_candidates(on, own), key=lambda c: c[0], default=None)
        if best is not None:
            return best[1]
        return self._plan_nudge(on, own)

    @staticmethod
    def _disc(on: Sequence[SimDisc], plan: ShotPlan) -> SimDisc:
        did = plan.intent.split(":")[1]
        return next(d for d in on if d.id == did)

    def _pots(self, on: Sequence[SimDisc], own: set[str]) -> list[_Pot]:
        """Every own disc with a clear path to a pocket: (disc, pocket, distance, unit direction,
        ghost point where the striker's centre must be at impact, the other discs)."""
        b = self.board
        R, r = b.striker_radius, b.disc_radius
        out: list[_Pot] = []
        for d in on:
            if d.id not in own:
                continue
            others = [(o.x, o.y, o.radius) for o in on if o.id != d.id]
            for pname, (px, py) in b.pocket_centres().items():
                dist_p = math.hypot(px - d.x, py - d.y)
                if dist_p < 1.0:
                    continue
                ux, uy = (px - d.x) / dist_p, (py - d.y) / dist_p
                if path_clearance((d.x, d.y), (px, py), r, others) < 1.0:
                    continue
                ghost = (d.x - ux * (R + r), d.y - uy * (R + r))
                if abs(ghost[0]) > b.half - R or abs(ghost[1]) > b.half - R:
                    continue
                out.append((d, pname, dist_p, (ux, uy), ghost, others))
        return out

    def _impact_speed(self, dist_p: float, cos_cut: float) -> float:
        """Striker speed at impact that sends the target to the pocket with some to spare (the
        impulse along the line of centres; masses scale with area)."""
        m_s, m_d = self.board.striker_radius ** 2, self.board.disc_radius ** 2
        v_t = launch_speed(dist_p + 60.0, self.params)
        return v_t * (m_s + m_d) / (m_s * (1.0 + self.params.restitution_disc) * cos_cut)

    def candidates(self, discs: Sequence[SimDisc], own: set[str],
                   call_overshots: bool = True) -> list[tuple[float, ShotPlan]]:
        """Every clear direct pot (own disc, pocket, striker spot on the line) with its difficulty
        score (lower is easier: small cut angle, short paths; an overshot is harder)."""
        b = self.board
        R = b.striker_radius
        fwd = self.forward()
        behind = set(b.pockets_behind(self.seat))  # type: ignore[arg-type]
        on = [d for d in discs if d.state == "surface" and d.kind == "disc"]
        out: list[tuple[float, ShotPlan]] = []
        for d, pname, dist_p, (ux, uy), ghost, others in self._pots(on, own):
            for start in self.start_points():
                sx, sy = ghost[0] - start[0], ghost[1] - start[1]
                ds = math.hypot(sx, sy)
                if ds < 1.0 or (sx * fwd[0] + sy * fwd[1]) / ds < 0.2:
                    continue
                cos_cut = (sx * ux + sy * uy) / ds
                if cos_cut < 0.35:
                    continue
                if path_clearance(start, ghost, R, others) < 1.0:
                    continue
                if any(math.hypot(o[0] - start[0], o[1] - start[1]) < R + o[2] + 1 for o in others):
                    continue
                score = (1.0 - cos_cut) * 400.0 + ds * 0.15 + dist_p * 0.3
                score += (60.0 if pname in behind else 0.0) + self.rng.uniform(0.0, 25.0)
                v_imp = self._impact_speed(dist_p, cos_cut)
                v0 = min(math.sqrt(v_imp**2 + launch_speed(ds, self.params) ** 2), 4000.0)
                call = pname if (pname in behind and call_overshots) else None
                out.append((score, ShotPlan(start, _velocity(start, ghost, v0),
                                            f"pocket:{d.id}:{pname}", announced_pocket=call)))
        return out

    def bank_sides(self) -> list[str]:
        """Rims a bank shot may use: the far one and the two at the sides (a shot goes forwards,
        never back into the own rim); in the Russian variant only the opposite rim counts."""
        from tracker.seats import opposite

        far = opposite(self.seat)  # type: ignore[arg-type]
        if self.variant == "ru":
            return [far]
        return [s for s in ("south", "east", "north", "west") if s != self.seat]

    def bank_candidates(self, discs: Sequence[SimDisc], own: set[str]) -> list[tuple[float, ShotPlan]]:
        """Every clear pot banked once off a rim (striker -> rim -> own disc -> pocket), scored
        like a direct shot plus :attr:`BANK_PENALTY` and the extra path; announced as indirect."""
        from tracker.sim.bank import bank_launch_speed, bounce_point

        b = self.board
        R = b.striker_radius
        fwd = self.forward()
        behind = set(b.pockets_behind(self.seat))  # type: ignore[arg-type]
        e = self.params.restitution_rim
        on = [d for d in discs if d.state == "surface" and d.kind == "disc"]
        # Bounce points this close to a corner would meet the pocket's mouth, not the rim.
        corner = b.half - b.pocket_inset - 60.0
        out: list[tuple[float, ShotPlan]] = []
        for d, pname, dist_p, (ux, uy), ghost, others in self._pots(on, own):
            for side in self.bank_sides():
                for start in self.start_points(11):
                    bp = bounce_point(start, ghost, side, b.half - R, e)
                    if bp is None or max(abs(bp[0]), abs(bp[1])) > b.half - R + 1e-6:
                        continue
                    if min(abs(bp[0]), abs(bp[1])) > corner:
                        continue
                    lx, ly = bp[0] - start[0], bp[1] - start[1]
                    l1 = math.hypot(lx, ly)
                    if l1 < 1.0 or (lx * fwd[0] + ly * fwd[1]) / l1 < 0.2:
                        continue
                    ox, oy = ghost[0] - bp[0], ghost[1] - bp[1]
                    l2 = math.hypot(ox, oy)
                    if l2 < 1.0:
                        continue
                    cos_cut = (ox * ux + oy * uy) / l2
                    if cos_cut < 0.5:
                        continue
                    if path_clearance(start, bp, R, others) < 2.0 or path_clearance(bp, ghost, R, others) < 2.0:
                        continue
                    if any(math.hypot(o[0] - start[0], o[1] - start[1]) < R + o[2] + 1 for o in others):
                        continue
                    score = (1.0 - cos_cut) * 400.0 + (l1 + l2) * 0.15 + dist_p * 0.3 + self.BANK_PENALTY
                    score += (60.0 if pname in behind else 0.0) + self.rng.uniform(0.0, 40.0)
                    v0 = bank_launch_speed(start, bp, ghost, side, self._impact_speed(dist_p, cos_cut), self.params)
                    if v0 > 4000.0:
                        continue
                    call = pname if pname in behind else None
                    out.append((score, ShotPlan(start, _velocity(start, bp, v0), f"bank:{d.id}:{pname}:{side}",
                                                announced_pocket=call, announced_indirect=True)))
        return out

    def _plan_nudge(self, on: Sequence[SimDisc], own: set[str]) -> ShotPlan:
        """No clear pot: hit the nearest own disc straight on, firmly (breaks clusters)."""
        pts = self.start_points()
        line = self.line_points()
        start = line[len(line) // 2]
        # Russian variant: a direct hit on a restricted pawn is a violation; with only those
        # left, a straight shot at the opposite rim is the legal way to pass.
        mine = [d for d in on if d.id in own and not self.restricted(d)]
        if not mine:
            fwd = self.forward()
            v = launch_speed(2.0 * self.board.half + 80.0, self.params) if self.variant == "ru" else 800.0
            return ShotPlan(start, (fwd[0] * v, fwd[1] * v), "safety")
        fwd = self.forward()
        R = self.board.striker_radius
        pts = [s for s in pts if all(math.hypot(o.x - s[0], o.y - s[1]) > R + o.radius + 1.0 for o in on)] or pts
        cands = []
        for d in mine:
            for s in pts:
                dx, dy = d.x - s[0], d.y - s[1]
                n = math.hypot(dx, dy)
                if n > 0 and (dx * fwd[0] + dy * fwd[1]) / n > 0.3:
                    cands.append((n + self.rng.uniform(0, 50.0), s, d))
        if not cands:
            return ShotPlan(start, (fwd[0] * 800.0, fwd[1] * 800.0), "safety")
        _, s, d = min(cands, key=lambda c: c[0])
        v0 = launch_speed(math.hypot(d.x - s[0], d.y - s[1]) + 500.0, self.params)
        return ShotPlan(s, _velocity(s, (d.x, d.y), v0), f"nudge:{d.id}")
