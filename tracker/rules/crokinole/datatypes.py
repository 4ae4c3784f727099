"""Values of the crokinole engine: discs in play, the rules in force, and the decisions it makes.

The decisions extend :class:`tracker.rules.datatypes.Decision` with the one or two machine fields
a consumer needs (why a disc was removed, the round's points per side), so the shared ``Outcome``
type carries them unchanged and ``asdict`` still turns them into JSON. Everything is frozen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tracker.rules.datatypes import Decision

Scoring = Literal["differential", "simple"]

# Why a disc was taken off the board; these are the ``reason`` codes of SPEC section 4 ``removed``.
RemovalCause = Literal["shooting_line", "foul", "no_opponent_rule", "off_board"]


@dataclass(frozen=True)
class Rules:
    """The rules in force for one game (all chosen before the first shot)."""

    players: int = 2
    scoring: Scoring = "differential"
    target: int = 100
    rounds: int | None = None  # fixed number of rounds with championship points (2/1/0)
    no_opponent_rule: bool = True
    first_seat: str = "south"
    discs_per_player: int = 12


@dataclass(frozen=True)
class DiscAt:
    """A disc resting on the playing surface: its id, owning seat and side, centre in mm."""

    disc: str
    seat: str
    side: str
    x: float
    y: float


@dataclass(frozen=True)
class Removal(Decision):
    """Discs taken off the board by a ruling; ``cause`` is the SPEC ``removed`` reason code."""

    cause: str = "shooting_line"


@dataclass(frozen=True)
class RoundScore(Decision):
    """The end of a round: points counted per side and points awarded per side."""

    scores: dict[str, int] = field(default_factory=dict)
    awarded: dict[str, int] = field(default_factory=dict)
    round_index: int = 0


@dataclass(frozen=True)
class GameEnd(Decision):
    """The end of the game; ``winner`` is a side (team or seat) or None for a draw."""

    winner: str | None = None


@dataclass(frozen=True)
class RoundRecord:
    """A finished round as the summary reports it."""

    index: int
    lead: str
    shots: int
    twenties: dict[str, int]
    discs: tuple[DiscAt, ...]
    points: dict[str, int]
    awarded: dict[str, int]
    ended_by: str  # "all_shot" | "round_end_line"
