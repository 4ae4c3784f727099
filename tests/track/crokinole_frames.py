"""Hand-made crokinole detections (board mm) fed to the tracker a frame at a time: the scenes of
the tests of one blow or slide rebuilt from a match's detections."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

BOARD = CrokinoleBoard()
R = BOARD.disc_radius
FPS = 30.0


def dets(*xy: tuple[float, float], radius: float = R) -> Detections:
    """Discs of ``radius`` found at ``xy``."""
    return Detections(xy=np.array(xy, float).reshape(-1, 2), radius=np.full(len(xy), radius))


def run(frames: Sequence[Detections]) -> Tracker:
    """A tracker on the board, given ``frames`` at ``FPS`` from t = 0."""
    tk = Tracker(BOARD)
    for i, det in enumerate(frames):
        tk.update(det, i / FPS)
    return tk
