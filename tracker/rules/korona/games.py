"""The course of one korona game: its record, whose turn follows a turn, who lost.

Finnish rulebook 2.5 and 2.9: a game ends when a player has pocketed all his discs and the other
player has had his possible equalising turn, which he has only if he did not start the game. With
3-4 players we generalise this to equal turns: the players after the finisher who have had one
turn fewer (those before the starter comes round again) each get one equalising turn. A player
who has finished gets none. The loser starts the next game (2.3); with 3-4 players we take the
one with most discs left (ties: the first clockwise after the winner); after a draw the starter
moves one seat clockwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracker.seats import Seat, next_seat


@dataclass
class Game:
    index: int
    starter: Seat
    shots: int = 0
    fouls: dict[str, int] = field(default_factory=dict)
    finishers: list[Seat] = field(default_factory=list)
    equalisers: list[Seat] | None = None
    over: bool = False
    abandoned: bool = False
    winner: Seat | None = None
    final: dict[str, Any] | None = None


def end_turn(g: Game, seat: Seat, seats: tuple[Seat, ...]) -> Seat | None:
    """The next player after ``seat``'s turn ends, or None when the game is over."""
    if g.equalisers is None and g.finishers:
        after: list[Seat] = []
        s = next_seat(seat, seats)
        while s != g.starter:
            after.append(s)
            s = next_seat(s, seats)
        g.equalisers = [s for s in after if s not in g.finishers]
    elif g.equalisers is not None:
        if g.equalisers and g.equalisers[0] == seat:
            g.equalisers.pop(0)
        g.equalisers = [s for s in g.equalisers if s not in g.finishers]
    else:
        return next_seat(seat, seats)
    return g.equalisers[0] if g.equalisers else None


def loser_of(g: Game, seats: tuple[Seat, ...]) -> Seat:
    """Who starts the game after ``g``."""
    if g.winner is None:
        return next_seat(g.starter, seats)
    left = (g.final or {}).get("left", {})
    order: list[Seat] = []
    s = next_seat(g.winner, seats)
    while s != g.winner:
        order.append(s)
        s = next_seat(s, seats)
    return max(order, key=lambda x: (left.get(x, 0), -order.index(x)))
