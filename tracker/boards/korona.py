"""The korona board (Finnish rulebook, 3 ft board): square surface, rims, corner pockets,
striking lines, centre circle and rim marks, in millimetres.

The rulebook fixes only the outer size (3 ft +- 10 mm), a rim at least 2 mm higher than the
discs, pockets at least half the diagonal of the corner square bounded by the striking lines, four
straight striking lines and a marked centre circle. The other figures below are our default
profile, taken from a common club board; calibration measures them where it can.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from tracker.seats import Seat

Pocket = Literal["ne", "nw", "se", "sw"]
POCKETS: tuple[Pocket, ...] = ("ne", "nw", "sw", "se")
# mm past its striking line into the field that a striker waiting to be shot may be measured at:
# it is set with its centre on the line, and a resting striker's measured centre is off by up to
# some 7 mm (its groove and shadow; korona_ru_part at 26.3 s: north's striker, set on its line,
# measured 5.1 mm past it).
ON_LINE_MM = 8.0


@dataclass(frozen=True)
class KoronaBoard:
    """A korona board. Defaults: 914 mm outer square, 32 mm rims (playing area 850 mm)."""

    outer_size: float = 914.0
    rim_width: float = 32.0
    rim_height: float = 20.0
    pocket_radius: float = 32.0
    # Pocket centres sit this far in from each wall of the playing area (inside the corner).
    pocket_inset: float = 30.0
    # Striking lines: straight, parallel to each rim, this far from the rim's inner edge ...
    striking_line_offset: float = 105.0
    # ... and running between these distances of the centre line (their half length).
    striking_line_half_length: float = 250.0
    line_width: float = 2.0
    centre_circle_radius: float = 80.0
    centre_mark_radius: float = 5.0
    # Painted circles at both ends of each striking line, tangent to it on the field side and
    # ending it (carrom boards' base circles; red, outlined): their radius, 0 for none (the
    # default board has none).
    base_circle_radius: float = 0.0
    rim_mark_length: float = 20.0
    striker_diameter: float = 50.0
    disc_diameter: float = 25.0
    disc_thickness: float = 12.0
    discs_per_player: int = 8

    game: str = "korona"

    @property
    def half(self) -> float:
        """Half side of the playing area (inside the rims)."""
        return self.outer_size / 2.0 - self.rim_width

    @property
    def disc_radius(self) -> float:
        return self.disc_diameter / 2.0

    @property
    def striker_radius(self) -> float:
        return self.striker_diameter / 2.0

    def with_measured(self, **figures: float) -> KoronaBoard:
        return replace(self, **figures)  # type: ignore[arg-type]

    def pocket_centres(self) -> dict[Pocket, tuple[float, float]]:
        c = self.half - self.pocket_inset
        return {"ne": (c, c), "nw": (-c, c), "sw": (-c, -c), "se": (c, -c)}

    def pocket_of(self, x: float, y: float, radius: float = 0.0) -> Pocket | None:
        """The pocket a disc centred at (x, y) falls into: its centre is over the pocket mouth
        and at least ``radius`` of its extent (half its disc) is over it."""
        for name, (px, py) in self.pocket_centres().items():
            if math.hypot(x - px, y - py) <= self.pocket_radius - 0.0 * radius:
                return name
        return None

    def on_surface(self, x: float, y: float) -> bool:
        return abs(x) <= self.half and abs(y) <= self.half

    def striking_line(self, seat: Seat) -> tuple[tuple[float, float], tuple[float, float]]:
        """End points of a seat's striking line."""
        d = self.half - self.striking_line_offset
        h = self.striking_line_half_length
        return {
            "south": ((-h, -d), (h, -d)),
            "north": ((-h, d), (h, d)),
            "west": ((-d, -h), (-d, h)),
            "east": ((d, -h), (d, h)),
        }[seat]

    def pockets_behind(self, seat: Seat) -> tuple[Pocket, Pocket]:
        """The two pockets behind a seat's striking line (an overshot lands there)."""
        return {
            "south": ("sw", "se"),
            "north": ("nw", "ne"),
            "west": ("nw", "sw"),
            "east": ("ne", "se"),
        }[seat]  # type: ignore[return-value]

    def in_centre_circle(self, x: float, y: float, radius: float = 0.0) -> bool:
        return math.hypot(x, y) + radius <= self.centre_circle_radius

    def rim_zone_of(self, x: float, y: float, margin: float = 0.0) -> Seat | None:
        """The seat whose rim zone (between the rim and its striking line) holds the point; with
        ``margin`` (mm), reaching that far past the striking line into the field."""
        d = self.half - self.striking_line_offset - margin
        if y <= -d:
            return "south"
        if y >= d:
            return "north"
        if x <= -d:
            return "west"
        if x >= d:
            return "east"
        return None

    def rim_against(self, x: float, y: float, radius: float) -> tuple[int, int] | None:
        """The rim a disc of ``radius`` centred at (x, y) stands against (its centre within a
        radius of where a disc touching that rim stands; in a corner, the nearer rim): the axis
        across that rim (0 for x) and its sign; None for a disc in the open."""
        axis = 0 if abs(x) >= abs(y) else 1
        c = (x, y)[axis]
        if abs(c) < self.half - 2 * radius:
            return None
        return axis, 1 if c > 0 else -1

    def striker_waits(self, x: float, y: float, margin: float = 0.0) -> bool:
        """Whether a striker may wait there to be shot: in a rim zone (or up to ``margin`` mm
        past its striking line: ``ON_LINE_MM`` for one measured as set on the line), and clear
        of the rim where the discs' rows stand (more than a striker's diameter from it)."""
        return self.rim_zone_of(x, y, margin) is not None and max(abs(x), abs(y)) <= self.half - 2 * self.striker_radius

    def seat_of(self, x: float, y: float) -> Seat:
        """The seat whose side of the board is nearest the point."""
        if abs(y) >= abs(x):
            return "north" if y > 0 else "south"
        return "east" if x > 0 else "west"

    def base_circles(self) -> list[tuple[float, float]]:
        """Centres of the painted base circles (none when ``base_circle_radius`` is 0): each is
        tangent to its striking line on the field side (a line width from its centre line) and
        ends it."""
        r = self.base_circle_radius
        if r <= 0.0:
            return []
        inset = r + self.line_width / 2.0
        d = self.half - self.striking_line_offset - inset
        along = self.striking_line_half_length - inset
        return [(sx * along, sy * d) for sx in (-1.0, 1.0) for sy in (-1.0, 1.0)] + \
               [(sx * d, sy * along) for sx in (-1.0, 1.0) for sy in (-1.0, 1.0)]

    def painted_circles(self) -> list[tuple[float, float, float]]:
        """Filled circles painted on the playing surface, (x, y, radius) in mm: the centre mark
        and the base circles. Flat, they show a closed outline all round as a disc does."""
        marks = [(0.0, 0.0, self.centre_mark_radius)] if self.centre_mark_radius > 0.0 else []
        return marks + [(x, y, self.base_circle_radius) for x, y in self.base_circles()]

    def rim_mark(self, seat: Seat) -> tuple[float, float]:
        """The mark halfway along a seat's rim (target discs start in a row there)."""
        h = self.half
        return {"south": (0.0, -h), "north": (0.0, h), "west": (-h, 0.0), "east": (h, 0.0)}[seat]
