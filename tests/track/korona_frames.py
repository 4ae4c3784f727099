"""Replaying a few frames of the detector's korona finds through the tracker, and asking which
track is where (shared by the tests built from real detector output at a failing blow)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, Detections
from tracker.track import Tracker
from tracker.track.tracker import TrackerConfig

KB = KoronaBoard()
Frame = Sequence[tuple[float, float, int]]
Place = tuple[float, float]


def id_near(tk: Tracker, at: Place, within: float = 4.0) -> int:
    """The id of the live disc track nearest ``at`` (mm), or -1 when none is within ``within``."""
    live = [tr for tr in tk.tracks if tr.state in ("rest", "moving") and tr.kind == DISC]
    if not live:
        return -1
    best = min(live, key=lambda tr: float(np.hypot(*(tr.xy - np.array(at)))))
    return best.id if float(np.hypot(*(best.xy - np.array(at)))) < within else -1


def names_through(cfg: TrackerConfig, frames: Sequence[Frame], t0: float, k_before: int,
                  before_at: tuple[Place, Place], after_at: tuple[Place, Place],
                  fps: float = 30.0) -> tuple[tuple[int, int], tuple[int, int]]:
    """Track ids at ``before_at`` after frame ``k_before`` and at ``after_at`` after the last frame."""
    tk = Tracker(KB, cfg)
    before = (-1, -1)
    for k, pts in enumerate(frames):
        a = np.array([(x, y) for x, y, _ in pts], float).reshape(-1, 2)
        tk.update(Detections(xy=a, kind=np.array([c for *_, c in pts], int), where=np.zeros(len(a), int)),
                  t0 + k / fps)
        if k == k_before:
            before = (id_near(tk, before_at[0]), id_near(tk, before_at[1]))
    return before, (id_near(tk, after_at[0]), id_near(tk, after_at[1]))
