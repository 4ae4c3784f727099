"""A crokinole disc lost on its way in, further out than the hole test of ``fate.resolve_lost``
reaches, slid on into the 20-hole when its course runs over the hole slow enough to drop in
(``hole_course.slid_into_hole``). Known-truth physics of ``tracker.track.synthetic``; a "hand" stands for
the lamp's glare by the centre, and a dark disc down in the hole is not found (the detector cannot
tell it from the empty hole)."""

from __future__ import annotations

import numpy as np

from tests.infer.scenes import feed, shots
from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import IN_HOLE, Detections
from tracker.track.synthetic import World

BOARD = CrokinoleBoard()


def _flick(speed: float) -> tuple[World, object]:
    """South's s1 flicked from its line straight at the centre at ``speed``; hidden from 70 mm
    out (the glare), and not found down in the hole. Returns the world and the shot's end for
    the shot disc."""
    w = World(BOARD, fps=30, seed=9)
    w.place("s1", 0.0, -BOARD.shooting_line_radius, cls=1)
    w.run(0.5)
    w.hand(0.0, 0.0, 70.0, 10.0)
    w.shoot("s1", 0.0, speed)
    w.settle(2.0)
    frames = []
    for t, det in w.frames:
        keep = det.where != IN_HOLE
        frames.append((t, Detections(xy=det.xy[keep], radius=det.radius[keep], cls=det.cls[keep],
                                     kind=det.kind[keep], where=det.where[keep], streak=det.streak[keep],
                                     color=det.color[keep])))
    log = shots(feed(frames))
    assert len(log) == 1 and log[0].seat == "south", log
    return w, log[0].end.get(log[0].disc)


def test_a_disc_lost_sliding_slowly_into_the_hole_is_a_twenty() -> None:
    w, end = _flick(1000.0)
    assert w.truth_end()["s1"] == "hole"
    assert end == "hole"


def test_a_disc_lost_stopping_short_of_the_hole_is_not() -> None:
    w, end = _flick(880.0)
    true = w.truth_end()["s1"]
    assert isinstance(true, tuple) and 35.0 < float(np.hypot(*true)) < 70.0
    assert end != "hole"


def test_a_disc_lost_sliding_fast_over_the_hole_is_not() -> None:
    w, end = _flick(1350.0)
    true = w.truth_end()["s1"]
    assert isinstance(true, tuple) and float(np.hypot(*true)) > 70.0  # on, out of the glare
    assert isinstance(end, tuple) and np.hypot(*(np.array(end) - true)) < 5.0
