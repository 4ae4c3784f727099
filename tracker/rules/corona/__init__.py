"""Corona, the dice-and-carriers board game (``shared/rules/corona-dice-game.txt``).

* :mod:`.model` - 12 fields on a ring, 6 carriers, 6 dice; a position and the rulebook scoring of a
  plan (every variant is a points table).
* :mod:`.solver` - the exact best plan (branch and bound over assignments, ~1 ms);
  :mod:`.states` - the general exact state search it is checked against.
* :mod:`.actions`, :mod:`.game` - the game of estimates and chips as a pure state machine.

Pure Python: no I/O, no clock.
"""

from __future__ import annotations

from tracker.rules.corona.actions import Bid, CloseBidding, CoronaAction, PlayOut, Setup, TimeUp
from tracker.rules.corona.game import CoronaGame, replay, start_chips
from tracker.rules.corona.model import (
    FIELDS,
    VARIANTS,
    Plan,
    Position,
    Step,
    points_table,
    score_plan,
)
from tracker.rules.corona.solver import best_plan

__all__ = [
    "FIELDS", "VARIANTS", "Bid", "CloseBidding", "CoronaAction", "CoronaGame", "Plan", "PlayOut",
    "Position", "Setup", "Step", "TimeUp", "best_plan", "points_table", "replay", "score_plan",
    "start_chips",
]
