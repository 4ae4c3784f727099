"""What can happen at a Corona table, as typed values the game engine applies one at a time.

The flow of a round (rulebook, "The Flow of a Play Round"): the master sets the carriers and
throws the dice (:class:`Setup`); during the hourglass minute anybody calls estimates, each higher
than the last (:class:`Bid`); the hourglass runs out (:class:`CloseBidding`); the highest bidder
plays the carriers out (:class:`PlayOut`). The agreed game time running out is an outside event
(:class:`TimeUp`): the engine keeps no clock, so it stays pure and replayable.

A game log is one JSON object per action (:func:`action_to_json`, :func:`action_from_json`):
``{"action": "setup", "carriers": [...], "dice": [...]}``, ``{"action": "bid", "player": "ann",
"estimate": 12}``, ``{"action": "close"}``, ``{"action": "play", "moves": [[3, 2], ...]}``,
``{"action": "time_up"}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tracker.errors import InputError


@dataclass(frozen=True)
class Setup:
    """The master places the 6 carriers (fields 0..11) and throws the 6 dice."""

    carriers: tuple[int, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Bid:
    """``player`` calls an estimate aloud: the points they claim they can score."""

    player: str
    estimate: int


@dataclass(frozen=True)
class CloseBidding:
    """The hourglass has run out: the highest estimate stands."""


@dataclass(frozen=True)
class PlayOut:
    """The highest bidder's moves, in order: ``(carrier, die)`` pairs, one per carrier."""

    moves: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class TimeUp:
    """The agreed game duration has expired (rulebook, "End Game")."""


CoronaAction = Setup | Bid | CloseBidding | PlayOut | TimeUp


_KINDS = {"setup": Setup, "bid": Bid, "close": CloseBidding, "play": PlayOut, "time_up": TimeUp}


def action_to_json(action: CoronaAction) -> dict[str, Any]:
    """``{"action": "bid", "player": "ann", "estimate": 12}`` and so on (one line of a game log)."""
    kind = next(k for k, cls in _KINDS.items() if isinstance(action, cls))
    if isinstance(action, Setup):
        return {"action": kind, "carriers": list(action.carriers), "dice": list(action.dice)}
    if isinstance(action, Bid):
        return {"action": kind, "player": action.player, "estimate": action.estimate}
    if isinstance(action, PlayOut):
        return {"action": kind, "moves": [list(m) for m in action.moves]}
    return {"action": kind}


def action_from_json(obj: Any) -> CoronaAction:
    """The inverse of :func:`action_to_json`; a malformed object raises InputError naming the field."""
    if not isinstance(obj, dict):
        raise InputError(f"a Corona action is a JSON object, not {obj!r}")
    kind = obj.get("action")
    try:
        if kind == "setup":
            return Setup(_int_tuple(obj["carriers"], "carriers"), _int_tuple(obj["dice"], "dice"))
        if kind == "bid":
            player, estimate = obj["player"], obj["estimate"]
            if not isinstance(player, str) or isinstance(estimate, bool) or not isinstance(estimate, int):
                raise InputError(f"bid: needs a player name and a whole-number estimate, got {obj!r}")
            return Bid(player, estimate)
        if kind == "close":
            return CloseBidding()
        if kind == "play":
            moves = obj["moves"]
            if not isinstance(moves, list) or not all(
                isinstance(m, list) and len(m) == 2 for m in moves
            ):
                raise InputError(f"play: moves must be [carrier, die] pairs, got {moves!r}")
            return PlayOut(tuple((_int(m[0], "carrier"), _int(m[1], "die")) for m in moves))
        if kind == "time_up":
            return TimeUp()
    except KeyError as e:
        raise InputError(f"{kind}: missing field {e.args[0]!r}") from None
    raise InputError(f"unknown Corona action {kind!r}: expected one of {', '.join(_KINDS)}")


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(f"{what} must be a whole number, not {v!r}")
    return v


def _int_tuple(values: Any, what: str) -> tuple[int, ...]:
    if not isinstance(values, list):
        raise InputError(f"{what} must be a list of whole numbers, not {values!r}")
    return tuple(_int(v, what) for v in values)
