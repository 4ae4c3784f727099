"""Seats and teams (SPEC section 1).

Seats are ``south``, ``west``, ``north``, ``east`` in clockwise order seen from above.
"""

from __future__ import annotations

from typing import Literal

Seat = Literal["south", "west", "north", "east"]
Game = Literal["crokinole", "korona"]

CLOCKWISE: tuple[Seat, ...] = ("south", "west", "north", "east")


def seats_for(game: str, players: int) -> tuple[Seat, ...]:
    """The seats occupied for ``players`` players, in clockwise order starting at south."""
    if game == "crokinole":
        table: dict[int, tuple[Seat, ...]] = {
            2: ("south", "north"),
            3: ("south", "west", "north"),
            4: CLOCKWISE,
        }
    elif game == "korona":
        table = {2: ("south", "north"), 3: ("south", "west", "north"), 4: CLOCKWISE}
    else:
        raise ValueError(f"unknown game {game!r}: expected crokinole or korona")
    if players not in table:
        raise ValueError(f"{game} is played by 2, 3 or 4 players, not {players}")
    return table[players]


def next_seat(seat: Seat, occupied: tuple[Seat, ...]) -> Seat:
    """The next occupied seat clockwise after ``seat``."""
    i = occupied.index(seat)
    return occupied[(i + 1) % len(occupied)]


def team_of(seat: Seat, game: str, players: int) -> str:
    """Crokinole team of a seat: A = south(+north with 4), B = north (2p) or west+east (4p).

    With 3 players (crokinole variant) and in korona every player is their own side, keyed by
    seat.
    """
    if game == "crokinole" and players == 2:
        return {"south": "A", "north": "B"}[seat]
    if game == "crokinole" and players == 4:
        return "A" if seat in ("south", "north") else "B"
    return seat


def opposite(seat: Seat) -> Seat:
    return CLOCKWISE[(CLOCKWISE.index(seat) + 2) % 4]
