"""What can happen at a Corona table, as typed values the game engine applies one at a time.

The flow of a round (rulebook, "The Flow of a Play Round"): the master sets the carriers and
throws the dice (:class:`Setup`); during the hourglass minute anybody calls estimates, each higher
than the last (:class:`Bid`); the hourglass runs out (:class:`CloseBidding`); the highest bidder
plays the carriers out (:class:`PlayOut`). The agreed game time running out is an outside event
(:class:`TimeUp`): the engine keeps no clock, so it stays pure and replayable.
"""

from __future__ import annotations

from dataclasses import dataclass


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
