"""A crokinole find at rest seen only twice, and never again, is forgotten before it can take a
struck neighbour's detection as a knock of its own (``fate.fleeting``): hand-made
detections after c2e_9301 at 15.6-17.6 s (an arm's edge beside s3 found twice; then n3, first
seen in flight, strikes s3)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

BOARD = CrokinoleBoard()
FPS = 30.0


def dets(items: list[tuple[float, float]]) -> Detections:
    return Detections(xy=np.array(items, float).reshape(-1, 2))


def test_a_false_find_seen_twice_does_not_take_a_struck_discs_detection() -> None:
    s3 = (-14.0, -57.0)
    frames: list[list[tuple[float, float]]] = [[s3]] * 20
    frames += [[s3, (-14.0, -87.0)]] * 2  # the arm's edge, 30 mm beside s3
    frames += [[s3]] * 55  # 1.8 s: nothing there any more
    frames += [[s3, (-45.0, 10.0)], [s3], [(-23.0, -27.0), (-3.0, -78.0)],  # n3 in, s3 struck
               [(-22.0, -27.0), (8.0, -105.0)], [(-22.0, -27.0), (20.0, -131.0)],
               [(-22.0, -27.0), (30.0, -157.0)], [(-22.0, -27.0), (42.0, -183.0)]]
    tk = Tracker(BOARD)
    for i, items in enumerate(frames):
        tk.update(dets(items), i / FPS)
    first = min(tr.id for tr in tk.tracks)  # s3's track
    s3_track = next(tr for tr in tk.tracks if tr.id == first)
    assert s3_track.state == "moving" and np.hypot(*(s3_track.xy - [42.0, -183.0])) < 5.0
    assert not any(tr.state == "rest" and np.hypot(*(tr.xy - [-14.0, -87.0])) < 10 for tr in tk.tracks)
    assert not any(tr.state == "rest" and np.hypot(*(tr.xy - np.array(s3))) < 5 for tr in tk.tracks)
