"""Synthetic matches: disc physics, simulated players, the match script and its ground truth.

``tracker synth`` renders what this package plays out (through ``tracker.render``) and writes the
truth beside the video, so every other stage can be measured against known answers.
"""

from __future__ import annotations

from tracker.sim.match import Match, MatchConfig, run_match
from tracker.sim.output import write_match

__all__ = ["Match", "MatchConfig", "run_match", "write_match"]
