"""Board models in millimetres (SPEC section 2). Pure Python: no OpenCV, no I/O but profiles.

All geometry in the project lives here: the board frame has its origin at the board centre, +x east,
+y north, seen from above.
"""

from __future__ import annotations

from tracker.boards.crokinole import CrokinoleBoard
from tracker.boards.korona import KoronaBoard
from tracker.boards.profile import load_profile

__all__ = ["CrokinoleBoard", "KoronaBoard", "load_profile", "board_for"]


def board_for(game: str) -> CrokinoleBoard | KoronaBoard:
    """The default board model of a game."""
    if game == "crokinole":
        return CrokinoleBoard()
    if game == "korona":
        return KoronaBoard()
    raise ValueError(f"unknown game {game!r}: expected crokinole or korona")
