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
    def is_free(self, at: Point, ignore: str | None = None) -> bool:
        gap = self.board.disc_diameter
        return all(
            math.hypot(at[0] - d.at[0], at[1] - d.at[1]) >= gap - 1e-6
            for d in self.discs.values()
            if d.on_table and d.at is not None and d.id != ignore
        )

    def centre_spot(self, ignore: str | None = None) -> Point:
        """The centre point if free, else the free spot inside the centre circle nearest to it.

        Searched on rings 1 mm apart, with points about 2 mm apart along each ring, so the
        choice is deterministic. If the circle is full, the centre point.
        """
        if self.is_free((0.0, 0.0), ignore):
            return (0.0, 0.0)
        r_max = self.board.centre_circle_radius - self.board.disc_radius
        r = 1.0
        while r <= r_max:
            n = max(8, int(2 * math.pi * r / 2.0))
            for k in range(n):
                a = 2 * math.pi * k / n
                p = (round(r * math.cos(a), 2), round(r * math.sin(a), 2))
                if self.is_free(p, ignore):
                    return p
            r += 1.0
        return (0.0, 0.0)

    def spot_near(self, at: Point, ignore: str | None = None) -> Point:
        """``at`` if free, else the nearest free spot on the playing surface (rings 1 mm apart)."""
        if self.is_free(at, ignore):
            return at
        lim = self.board.half - self.board.disc_radius
        for i in range(1, 400):
            r = float(i)
            n = max(8, int(2 * math.pi * r / 2.0))
            for k in range(n):
                a = 2 * math.pi * k / n
                p = (round(at[0] + r * math.cos(a), 2), round(at[1] + r * math.sin(a), 2))
                if abs(p[0]) <= lim and abs(p[1]) <= lim and self.is_free(p, ignore):
                    return p
        return at

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
