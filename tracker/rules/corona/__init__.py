"""Corona, the dice-and-carriers board game: model, exact best-plan solver, and the game of chips."""

from __future__ import annotations
