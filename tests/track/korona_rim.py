"""A korona striker driven into a disc resting against a rim, the scene of the tests of what
the tracker's forecast does with a struck rim disc nobody sees move (shared by test_rest_on_board,
test_rim_radius and test_unseen_over_rim)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track.datatypes import Track
from tracker.track.tracker import Tracker, TrackerConfig

B = KoronaBoard()
R = B.disc_radius
LIM = B.half - R  # where a disc's centre lies against a rim
DT = 1 / 30
Row = tuple[float, float, int, float]  # x, y (mm), kind, radius


def dets(rows: Sequence[Row]) -> Detections:
    a = np.array(rows, float).reshape(-1, 4)
    return Detections(xy=a[:, :2], kind=a[:, 2].astype(int), radius=a[:, 3])


def strike(cfg: TrackerConfig, resting: Sequence[Row], start: tuple[float, float],
           velocity: tuple[float, float]) -> tuple[Tracker, Track, np.ndarray, float]:
    """The discs ``resting`` seen at rest for 10 frames, then a striker from ``start`` at
    ``velocity`` (mm/s) seen until it reaches touching distance of the first of them; returns
    the tracker, that disc's track, the striker's next place and the time of the next frame (the
    frame from which nothing is seen, when the caller feeds empty frames)."""
    tk = Tracker(B, cfg)
    for k in range(10):
        tk.update(dets(resting), k * DT)
    x0, y0 = resting[0][:2]
    (hit,) = [tr for tr in tk.tracks if tr.kind == DISC and float(np.hypot(tr.xy[0] - x0, tr.xy[1] - y0)) < R]
    p, v = np.array(start, float), np.array(velocity, float)
    t = 10 * DT
    while float(np.hypot(*(p - hit.settled_xy))) > R + B.striker_radius + 1.0:
        tk.update(dets([*resting, (p[0], p[1], STRIKER, B.striker_radius)]), t)
        p, t = p + v * DT, t + DT
    return tk, hit, p, t


def unseen_for(tk: Tracker, frames: int, t: float) -> float:
    """``frames`` frames with nothing seen from ``t``; returns the time of the next frame."""
    for _ in range(frames):
        tk.update(dets([]), t)
        t += DT
    return t
