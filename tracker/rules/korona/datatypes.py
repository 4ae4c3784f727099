"""Values passed between the korona engine and its variant judges.

The engine checks a shot line against the table (:func:`observe`), hands the variant judge an
:class:`Observation` and a :class:`Context`, and gets back a :class:`Verdict`: the decisions with
their reasons, the actions the players must carry out, and whether the shooter's turn continues.
The judge has already updated the table (moves, pockets, discs put back); the engine owns turns,
game ends and the match.
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker.errors import InputError
from tracker.rules.datatypes import Action, Decision
from tracker.rules.korona.chain import is_rim, rim_side
from tracker.rules.korona.table import Point, Table
from tracker.seats import CLOCKWISE, Seat
from tracker.shotlog import End, Shot

POCKET_PREFIX = "pocket:"


@dataclass(frozen=True)
class Context:
    seat: Seat
    striker: str
    opponent: Seat  # "the opponent" of the rulebooks: the next player in turn
    line: int  # shot log line, for error messages


@dataclass(frozen=True)
class Observation:
    """A shot's observed result, checked against the table."""

    moved: dict[str, Point]  # target discs that came to rest on the table
    pocketed: dict[str, str]  # target disc -> pocket (ne, nw, se, sw)
    off: tuple[str, ...]  # target discs that left the board
    striker_end: End | None
    before: dict[str, Point]  # positions of all discs on the table before the shot

    @property
    def striker_lost(self) -> bool:
        e = self.striker_end
        return isinstance(e, str) and (e == "off" or e.startswith(POCKET_PREFIX))


@dataclass(frozen=True)
class Verdict:
    decisions: tuple[Decision, ...]
    actions: tuple[Action, ...]
    turn_continues: bool
    foul: bool  # counted in the game's fouls for the shooter
    debt: int = 0  # Russian variant: penalty pawns owed (no pocketed pawn to place)
    ends_game: bool = False  # a referee ruling ended the game
    winner: Seat | None = None  # with ends_game


def observe(table: Table, shot: Shot, strikers: dict[str, str], line: int) -> Observation:
    """Check every id and end of a shot against the table; refuse what cannot be."""

    def fail(what: str) -> InputError:
        return InputError(f"shot log line {line}: {what}")

    striker_ids = set(strikers.values())
    for i, (a, b) in enumerate(shot.contacts):
        for tok in (a, b):
            if is_rim(tok):
                side = rim_side(tok)
                if side is not None and side not in CLOCKWISE:
                    raise fail(f"contacts[{i}]: {tok!r} is not a rim (use 'rim' or 'rim:<seat>')")
                continue
            if tok in striker_ids:
                continue
            if tok not in table.discs:
                raise fail(f"contacts[{i}]: unknown disc {tok!r}")
            if not table.discs[tok].on_table:
                raise fail(f"contacts[{i}]: disc {tok!r} is not on the table (it was pocketed)")
    moved: dict[str, Point] = {}
    pocketed: dict[str, str] = {}
    off: list[str] = []
    striker_end: End | None = None
    half = table.board.half + 5.0  # 5 mm of slack for measurement noise
    for did, end in shot.end.items():
        if did == shot.disc:
            if end == "hole":
                raise fail(f"end.{did}: korona has no hole")
            striker_end = end
            continue
        if did in striker_ids:
            continue  # another player's striker left on the board: not a target disc
        if did not in table.discs:
            raise fail(f"end: unknown disc {did!r}")
        if not table.discs[did].on_table:
            raise fail(f"end.{did}: disc {did!r} is not on the table (it was pocketed)")
        if isinstance(end, tuple):
            if abs(end[0]) > half or abs(end[1]) > half:
                raise fail(f"end.{did}: {list(end)} is outside the playing area; write 'off'")
            moved[did] = end
        elif end == "off":
            off.append(did)
        elif end.startswith(POCKET_PREFIX):
            pocketed[did] = end[len(POCKET_PREFIX):]
        else:
            raise fail(f"end.{did}: korona has no {end!r}")
    before = {d.id: d.at for d in table.on_table() if d.at is not None}
    return Observation(moved, pocketed, tuple(off), striker_end, before)
