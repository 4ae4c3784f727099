"""A crokinole disc in play the detector loses at rest for seconds (a dark disc on a dark board:
c4h_9951's e1 at 15.3-19.3 s): with ``TrackerConfig.lift_after_moved`` it stays where it lay,
without it it is lifted after ``lift_after``; a disc set down and never moved is lifted as before."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker, TrackerConfig

FPS = 30.0
START, REST, PUT = (0.0, -304.8), (-40.4, -61.2), (120.0, 80.0)


def dets(items: list[tuple[float, float]]) -> Detections:
    return Detections(xy=np.array(items, float).reshape(-1, 2), cls=np.zeros(len(items), int))


def states(cfg: TrackerConfig) -> dict[str, str]:
    tk = Tracker(CrokinoleBoard(), cfg)
    k = 0
    for _ in range(20):  # waits on the line; a disc set down in the open
        tk.update(dets([START, PUT]), k / FPS)
        k += 1
    for f in np.linspace(0.1, 1.0, 12):  # shot to its rest
        tk.update(dets([tuple(np.add(START, f * np.subtract(REST, START))), PUT]), k / FPS)
        k += 1
    for _ in range(30):
        tk.update(dets([REST, PUT]), k / FPS)
        k += 1
    for _ in range(int(6.0 * FPS)):  # both lost at rest for 6 s
        tk.update(dets([]), k / FPS)
        k += 1
    out = {}
    for tr in tk.tracks:
        out["shot" if np.hypot(*(np.array(tr.position()) - REST)) < 3.0 else "put"] = tr.state
    return out


def test_a_disc_in_play_lost_at_rest_stays_with_lift_after_moved() -> None:
    assert states(TrackerConfig(lift_after_moved=15.0)) == {"shot": "rest", "put": "lifted"}


def test_without_it_a_disc_lost_at_rest_is_lifted() -> None:
    assert states(TrackerConfig()) == {"shot": "lifted", "put": "lifted"}
