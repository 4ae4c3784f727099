"""Values the rules engines return. Pure Python, frozen, JSON-friendly.

A rules engine takes the shot log's entries (``tracker.shotlog``) one at a time and returns an
:class:`Outcome` for each: the decisions of that shot, each with a reason a player accepts, and
the actions the players must now take. Any state can be rebuilt by replaying the log.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol

from tracker.shotlog import Entry


@dataclass(frozen=True)
class Decision:
    """One ruling, e.g. kind="removed", reason="disc n2 removed: touched the shooting line"."""

    kind: str
    reason: str
    discs: tuple[str, ...] = ()
    seat: str | None = None
    points: int | None = None


@dataclass(frozen=True)
class Action:
    """Something the players must now do on the board (lift a disc out, place one back)."""

    kind: str  # "lift_out" | "place_back" | "place_in_centre_circle" | "place_penalty" | ...
    disc: str
    reason: str
    at: tuple[float, float] | None = None
    by: str | None = None  # the seat who does it


@dataclass(frozen=True)
class Outcome:
    index: int  # 0-based position of the entry in the log
    seat: str | None
    decisions: tuple[Decision, ...] = ()
    actions: tuple[Action, ...] = ()
    next_seat: str | None = None
    round_over: bool = False
    game_over: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class RulesEngine(Protocol):
    """What every game's engine offers (crokinole, korona fi/ru)."""

    def apply(self, entry: Entry) -> Outcome: ...

    def summary(self) -> dict[str, Any]:
        """The summary JSON of SPEC section 4 for everything applied so far."""
        ...
