"""The crokinole board: rings, pegs, 20-hole, quadrants and ditch, in millimetres.

Scoring follows the line-touching rule of SPEC section 2: a disc is worth the inner zone of a line
only when it lies wholly inside the line's inner edge; touching the line means the lower value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from tracker.seats import Seat

Zone = Literal[20, 15, 10, 5, 0]
OuterShape = Literal["round", "octagon"]


# mm beyond a disc's radius off the shooting line where a disc still waits to be shot
# (``CrokinoleBoard.waits_on_shooting_line``)
SHOT_PLACE_SLACK = 12.0


@dataclass(frozen=True)
class CrokinoleBoard:
    """A crokinole board. Defaults are the tournament board of SPEC section 2.

    Every figure can be overridden by a board profile (``tracker.boards.load_profile``) or by the
    calibration, which measures the real board's rings.
    """

    surface_radius: float = 330.2
    shooting_line_radius: float = 304.8
    ten_line_radius: float = 203.2
    fifteen_line_radius: float = 101.6
    hole_radius: float = 17.5
    hole_tolerance: float = 1.0
    line_width: float = 2.0
    peg_circle_radius: float = 101.6
    peg_diameter: float = 8.0
    peg_height: float = 25.0
    peg_count: int = 8
    peg_angle_offset_deg: float = 22.5
    disc_diameter: float = 31.75
    disc_thickness: float = 9.5
    discs_per_side: int = 12
    ditch_outer_radius: float = 381.0
    rail_width: float = 25.0
    rail_height: float = 30.0
    outer_shape: OuterShape = "round"
    quadrant_angles_deg: tuple[float, ...] = (45.0, 135.0, 225.0, 315.0)

    game: str = "crokinole"

    # ------------------------------------------------------------------ derived figures
    @property
    def disc_radius(self) -> float:
        return self.disc_diameter / 2.0

    @property
    def outer_radius(self) -> float:
        """Outer edge of the rail (for an octagon: the inscribed radius of its flats)."""
        return self.ditch_outer_radius + self.rail_width

    @property
    def line_radii(self) -> tuple[float, float, float]:
        """Centre radii of the shooting, 10 and 15 lines, outermost first."""
        return (self.shooting_line_radius, self.ten_line_radius, self.fifteen_line_radius)

    def peg_positions(self) -> list[tuple[float, float]]:
        """Peg centres in mm."""
        out = []
        for k in range(self.peg_count):
            a = math.radians(self.peg_angle_offset_deg + k * 360.0 / self.peg_count)
            out.append((self.peg_circle_radius * math.cos(a), self.peg_circle_radius * math.sin(a)))
        return out

    def with_measured(self, **figures: float) -> CrokinoleBoard:
        """A copy with measured figures (from calibration) replacing the defaults."""
        return replace(self, **figures)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ queries
    def zone(self, x: float, y: float, radius: float | None = None) -> Zone:
        """Points of a disc at rest centred at (x, y) on the playing surface.

        20 when it lies in the hole; 15/10/5 when wholly inside that line's inner edge; 0 when it
        touches the shooting line or is off the surface (it will be removed).
        """
        r = self.disc_radius if radius is None else radius
        d = math.hypot(x, y)
        if self.in_hole(x, y, r):
            return 20
        half = self.line_width / 2.0
        if d + r >= self.shooting_line_radius - half or d > self.surface_radius:
            return 0
        if d + r < self.fifteen_line_radius - half:
            return 15
        if d + r < self.ten_line_radius - half:
            return 10
        return 5

    def in_hole(self, x: float, y: float, radius: float | None = None) -> bool:
        """A disc lies in the 20-hole when d + r <= hole radius + tolerance (SPEC section 2)."""
        r = self.disc_radius if radius is None else radius
        return math.hypot(x, y) + r <= self.hole_radius + self.hole_tolerance

    def tips_into_hole(self, x: float, y: float, radius: float | None = None) -> bool:
        """Whether a disc centred at (x, y) has nothing under its centre of mass and cannot rest
        on the surface: the part of it outside the hole, beyond the chord where its rim crosses
        the hole's, does not reach its centre (d^2 < R^2 - r^2: 7.4 mm from the centre with the
        standard hole and discs). Such a disc is down in the hole."""
        r = self.disc_radius if radius is None else radius
        return x * x + y * y < self.hole_radius ** 2 - r * r

    def waits_on_shooting_line(self, x: float, y: float, radius: float | None = None) -> bool:
        """Whether a disc there waits to be shot: players set discs on the shooting line or just
        inside it, so its centre is within its radius and ``SHOT_PLACE_SLACK`` mm of the line."""
        r = self.disc_radius if radius is None else radius
        return abs(math.hypot(x, y) - self.shooting_line_radius) <= r + SHOT_PLACE_SLACK

    def touches_shooting_line(self, x: float, y: float, radius: float | None = None) -> bool:
        r = self.disc_radius if radius is None else radius
        return math.hypot(x, y) + r >= self.shooting_line_radius - self.line_width / 2.0

    def touches_fifteen_line_or_inside(self, x: float, y: float, radius: float | None = None) -> bool:
        """True when the disc is in the 15 zone or touches the 15 line (no-opponent rule)."""
        r = self.disc_radius if radius is None else radius
        return math.hypot(x, y) - r <= self.fifteen_line_radius + self.line_width / 2.0

    def on_surface(self, x: float, y: float) -> bool:
        """True when the disc centre is over the playing surface (not in the ditch)."""
        return math.hypot(x, y) <= self.surface_radius

    def in_ditch(self, x: float, y: float) -> bool:
        d = math.hypot(x, y)
        return self.surface_radius < d <= self.ditch_outer_radius

    def line_gaps(self, x: float, y: float, radius: float | None = None) -> dict[str, float]:
        """Signed gap in mm between the disc edge and each line's nearer edge.

        Positive means clear of the line, negative means overlapping it. Used for close calls.
        """
        r = self.disc_radius if radius is None else radius
        d = math.hypot(x, y)
        half = self.line_width / 2.0
        gaps: dict[str, float] = {}
        for name, R in (("shooting", self.shooting_line_radius), ("10", self.ten_line_radius),
                        ("15", self.fifteen_line_radius)):
            if d <= R:
                gaps[name] = (R - half) - (d + r)
            else:
                gaps[name] = (d - r) - (R + half)
        return gaps

    def closest_line_gap(self, x: float, y: float, radius: float | None = None) -> tuple[str, float]:
        gaps = self.line_gaps(x, y, radius)
        name = min(gaps, key=lambda k: abs(gaps[k]))
        return name, gaps[name]

    def seat_of(self, x: float, y: float) -> Seat:
        """The seat whose quadrant contains the point (quadrants centred on each seat)."""
        a = math.degrees(math.atan2(y, x)) % 360.0
        if 45.0 <= a < 135.0:
            return "north"
        if 135.0 <= a < 225.0:
            return "west"
        if 225.0 <= a < 315.0:
            return "south"
        return "east"

    def shooting_position(self, seat: Seat, offset_deg: float = 0.0) -> tuple[float, float]:
        """A point on the shooting line in the seat's quadrant, ``offset_deg`` from its centre."""
        base = {"east": 0.0, "north": 90.0, "west": 180.0, "south": 270.0}[seat]
        a = math.radians(base + offset_deg)
        return (self.shooting_line_radius * math.cos(a), self.shooting_line_radius * math.sin(a))

    def octagon_vertices(self) -> list[tuple[float, float]]:
        """Vertices of an octagonal outer rail (flats facing the seats)."""
        R = self.outer_radius / math.cos(math.pi / 8)
        return [
            (R * math.cos(math.pi / 8 + k * math.pi / 4), R * math.sin(math.pi / 8 + k * math.pi / 4))
            for k in range(8)
        ]
