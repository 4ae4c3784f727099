"""The state of the korona table during a game: every target disc, its owner and where it is.

A disc is either on the table (with a position in board mm) or pocketed. "Pocketed" includes the
discs the rules count as pocketed without a pocket (Finnish rulebook 2.6: an opponent's disc that
flew off the board), which are recorded with ``pocket="off"``. So a disc is never lost: for every
seat, on table + pocketed == the discs it started with (the conservation the tests check).

The table also finds free spots for discs put back by hand (centre circle, penalty spot): the
rules say *where* (anywhere in the centre circle, the middle of a rim zone), and a disc cannot be
put on top of another, so we take the nearest free spot to the named one. Strikers are not on the
table between shots (they return to the striking line), so only target discs block a spot.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from tracker.boards.korona import KoronaBoard
from tracker.seats import Seat, opposite

Point = tuple[float, float]


@dataclass
class DiscState:
    id: str
    owner: Seat
    at: Point | None  # None when pocketed
    pocket: str | None = None  # "ne" | "nw" | "se" | "sw" | "off" (counted as pocketed)

    @property
    def on_table(self) -> bool:
        return self.pocket is None


class Table:
    """Target discs of one game. Mutated only by the engine and the variant judges."""

    def __init__(self, board: KoronaBoard, discs: dict[str, tuple[Seat, Point]]) -> None:
        self.board = board
        self.discs: dict[str, DiscState] = {
            did: DiscState(did, owner, (float(at[0]), float(at[1]))) for did, (owner, at) in discs.items()
        }
        self.start_counts: dict[str, int] = {}
        for d in self.discs.values():
            self.start_counts[d.owner] = self.start_counts.get(d.owner, 0) + 1
        # Ids in the order they were pocketed: "return one pocketed disc" takes the latest.
        self.pocket_order: list[str] = []

    # ------------------------------------------------------------------ queries
    def owner(self, did: str) -> Seat:
        return self.discs[did].owner

    def on_table(self, seat: str | None = None) -> list[DiscState]:
        return [d for d in self.discs.values() if d.on_table and (seat is None or d.owner == seat)]

    def pocketed(self, seat: str) -> list[str]:
        """A seat's pocketed discs, oldest first."""
        return [did for did in self.pocket_order if self.discs[did].owner == seat]

    def count_on_table(self, seat: str) -> int:
        return sum(1 for d in self.discs.values() if d.on_table and d.owner == seat)

    def count_pocketed(self, seat: str) -> int:
        return sum(1 for d in self.discs.values() if not d.on_table and d.owner == seat)

    def in_centre_circle(self, at: Point) -> bool:
        """Centre of the disc inside the centre circle."""
        return math.hypot(at[0], at[1]) <= self.board.centre_circle_radius

    def in_rim_zone(self, seat: str, at: Point) -> bool:
        """Centre of the disc between the seat's rim and its striking line."""
        d = self.board.half - self.board.striking_line_offset
        x, y = at
        return {"south": y <= -d, "north": y >= d, "west": x <= -d, "east": x >= d}[seat]

    def snapshot(self) -> dict[str, object]:
        """A plain, comparable picture of the table (for replay checks and the summary)."""
        return {
            "discs": {
                did: {"owner": d.owner, "at": d.at, "pocket": d.pocket}
                for did, d in sorted(self.discs.items())
            },
            "pocket_order": list(self.pocket_order),
        }

    # ------------------------------------------------------------------ changes
    def move(self, did: str, at: Point) -> None:
        d = self.discs[did]
        d.at = (float(at[0]), float(at[1]))

    def pocket(self, did: str, pocket: str) -> None:
        d = self.discs[did]
        if not d.on_table:
            return
        d.at = None
        d.pocket = pocket
        self.pocket_order.append(did)

    def put_back(self, did: str, at: Point) -> None:
        """Put a disc (pocketed or not) on the table at ``at``."""
        d = self.discs[did]
        if not d.on_table:
            self.pocket_order.remove(did)
        d.pocket = None
        d.at = (float(at[0]), float(at[1]))

    # ------------------------------------------------------------------ free spots
    def _blockers(self, near: Point, reach: float, ignore: str | None) -> list[Point]:
        """Centres of the discs on the table that could block a spot within ``reach`` of ``near``."""
        lim = reach + self.board.disc_diameter
        return [
            d.at for d in self.discs.values()
            if d.on_table and d.at is not None and d.id != ignore
            and math.hypot(d.at[0] - near[0], d.at[1] - near[1]) <= lim
        ]

    def _free(self, at: Point, blockers: list[Point]) -> bool:
        gap = self.board.disc_diameter - 0.02  # positions are rounded to 0.01 mm
        return all(math.hypot(at[0] - bx, at[1] - by) >= gap for bx, by in blockers)

    def is_free(self, at: Point, ignore: str | None = None) -> bool:
        return self._free(at, self._blockers(at, 0.0, ignore))

    def _nearest_free(self, anchor: Point, reach: float, ok: Callable[[Point], bool],
                      ignore: str | None, bound: tuple[Point, float] | None = None) -> Point | None:
        """The free spot nearest ``anchor`` within ``reach`` that passes ``ok``, or None.

        The nearest free point is the anchor itself or lies on the edge of the region a disc may
        not enter: a circle of one disc diameter around each blocker, or the ``bound`` circle.
        So the candidates are the anchor, its projection onto each blocker's circle and every
        intersection of two of these circles; the nearest candidate that is free wins (ties
        broken by coordinates, so the choice is deterministic).
        """
        gap = self.board.disc_diameter
        blockers = self._blockers(anchor, reach, ignore)
        circles: list[tuple[Point, float]] = [(b, gap) for b in blockers]
        if bound is not None:
            circles.append(bound)
        cands: list[Point] = [anchor]
        for (bx, by), rad in circles:
            dx, dy = anchor[0] - bx, anchor[1] - by
            d = math.hypot(dx, dy)
            ux, uy = (dx / d, dy / d) if d > 1e-9 else (1.0, 0.0)
            cands.append((bx + rad * ux, by + rad * uy))
        for i, (c0, r0) in enumerate(circles):
            for c1, r1 in circles[i + 1:]:
                cands.extend(_intersections(c0, r0, c1, r1))
        best: Point | None = None
        best_key = (math.inf, 0.0, 0.0)
        for x, y in cands:
            p = (round(x, 2) + 0.0, round(y, 2) + 0.0)
            dist = math.hypot(p[0] - anchor[0], p[1] - anchor[1])
            key = (round(dist, 2), p[0], p[1])
            if dist <= reach + 1e-6 and key < best_key and ok(p) and self._free(p, blockers):
                best, best_key = p, key
        return best

    def centre_spot(self, ignore: str | None = None) -> Point:
        """The centre point if free, else the free spot inside the centre circle nearest to it
        (the disc wholly inside). If the circle is full, the centre point."""
        r_max = self.board.centre_circle_radius - self.board.disc_radius
        spot = self._nearest_free((0.0, 0.0), r_max, lambda p: math.hypot(*p) <= r_max + 0.01, ignore,
                                  bound=((0.0, 0.0), r_max))
        return spot if spot is not None else (0.0, 0.0)

    def spot_near(self, at: Point, ignore: str | None = None) -> Point:
        """``at`` if free, else the nearest free spot on the playing surface within 100 mm."""
        lim = self.board.half - self.board.disc_radius
        spot = self._nearest_free(at, 100.0, lambda p: abs(p[0]) <= lim and abs(p[1]) <= lim, ignore)
        return spot if spot is not None else at

    def penalty_spot(self, seat: Seat) -> Point:
        """Russian variant: where a penalty pawn of ``seat`` goes.

        "Exactly on the middle line of the opponent's rim zone; if that spot is taken, on the side
        where the distance to the central line is smaller." We read the middle line as the line
        through the rim marks (the pawns start "along the middle line"), the spot as the middle of
        the rim zone's depth on it, on the side opposite the shooter (where his pawns started),
        and "the side nearer the central line" as: step from there toward the board centre along
        the middle line, 1 mm at a time, until the pawn fits.
        """
        far = opposite(seat)
        depth = self.board.half - self.board.striking_line_offset / 2.0
        ux, uy = {"south": (0.0, -1.0), "north": (0.0, 1.0), "west": (-1.0, 0.0), "east": (1.0, 0.0)}[far]
        s = depth
        while s >= 0.0:
            p = (round(ux * s, 2) + 0.0, round(uy * s, 2) + 0.0)
            if self.is_free(p):
                return p
            s -= 1.0
        return (ux * depth + 0.0, uy * depth + 0.0)


def _intersections(c0: Point, r0: float, c1: Point, r1: float) -> list[Point]:
    """The points where two circles cross (none, or two)."""
    dx, dy = c1[0] - c0[0], c1[1] - c0[1]
    d = math.hypot(dx, dy)
    if d < 1e-9 or d > r0 + r1 or d < abs(r0 - r1):
        return []
    a = (r0 * r0 - r1 * r1 + d * d) / (2 * d)
    h = math.sqrt(max(0.0, r0 * r0 - a * a))
    mx, my = c0[0] + a * dx / d, c0[1] + a * dy / d
    return [(mx - h * dy / d, my + h * dx / d), (mx + h * dy / d, my - h * dx / d)]
