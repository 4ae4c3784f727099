"""Known discs are matched before tentative tracks (one or two detections, not yet a disc), on
hand-made detections with known truth (rendered match, seed 7502, shot 3)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

BOARD = CrokinoleBoard()


def dets(items: list[tuple[float, float, float]]) -> Detections:
    """(x, y, streak length along y) per detection."""
    a = np.array(items, float).reshape(-1, 3)
    return Detections(xy=a[:, :2], streak=np.stack([np.zeros(len(a)), a[:, 2]], axis=1))


def test_a_false_find_in_the_blur_does_not_take_a_moving_discs_detection() -> None:
    """A disc slides north-east at 900 mm/s. One blurred frame measures it 25 mm behind (its
    velocity is thrown off) and holds a false streak beside it; the next frame the disc's
    detection lies just outside its tight gate and within the false find's wide one. The disc
    keeps its track to the end, and no second moving disc appears."""
    fps = 30.0
    step = 30.0 / np.sqrt(2)
    path = [(-40.0 + step * k, -40.0 + step * k) for k in range(12)]  # 30 mm a frame
    frames: list[list[tuple[float, float, float]]] = [[(-40.0, -40.0, 0.0)]] * 6
    for k, (x, y) in enumerate(path[1:], start=1):
        if k == 3:
            frames.append([(x - 25, y - 3, 20.0), (x - 30, y - 70, 20.0)])  # lagging; a false streak
        else:
            frames.append([(x, y, 20.0)])
    tr = Tracker(BOARD)
    for i, items in enumerate(frames):
        tr.update(dets(items), i / fps)
    assert len(tr.tracks) == 1
    disc = tr.tracks[0]
    assert np.hypot(disc.xy[0] - path[-1][0], disc.xy[1] - path[-1][1]) < 1.0
