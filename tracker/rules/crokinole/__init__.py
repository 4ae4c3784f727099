"""Crokinole rules: pure predicates (``predicates``), scoring (``scoring``) and the engine.

Pure Python: no OpenCV, no numpy, no I/O. ``CrokinoleEngine.apply(entry) -> Outcome``.
"""

from __future__ import annotations

from tracker.rules.crokinole.datatypes import GameEnd, Removal, RoundScore, Rules
from tracker.rules.crokinole.engine import DISCS_PER_PLAYER, CrokinoleEngine

__all__ = ["CrokinoleEngine", "DISCS_PER_PLAYER", "GameEnd", "Removal", "RoundScore", "Rules"]
