"""A disc held under the player's fingers on the shooting line is seen at rest only in the moment
the fingers shift (triple.mp4: 4 frames at 25 fps, 0.12 s), and its flight starts under the hand.
It is still the shot disc: the shot is read from the rest states, not rejected as a struck disc's
motion "not where a shot starts"."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.pipeline import Pipeline
from tracker.shotlog import Shot
from tracker.track.synthetic import World


def test_a_disc_seen_at_rest_for_a_tenth_of_a_second_is_the_shot_disc() -> None:
    w = World(CrokinoleBoard(), fps=25.0, seed=2)
    w.place("n1", -20.0, -120.0, cls=1)
    w.place("s1", 0.0, -300.0, cls=0)
    w.hand(0.0, -300.0, 60.0, 0.4)  # the hand sets the disc down
    w.run(0.4)
    w.run(0.16)  # 4 frames with the disc in sight
    w.hand(0.0, -380.0, 180.0, 10.0)  # fingers and arm over it, and over the flight's start
    w.run(0.6)
    w.shoot("s1", -220.0, 2000.0)
    w.settle()
    p = Pipeline("crokinole", 2)
    p.start_tracking(w.board)
    for i, (t, det) in enumerate(w.frames):
        p.process_detections(det, t, i)
    p.finish()
    shots = [e for e in p.entries if isinstance(e, Shot)]
    assert len(shots) == 1, p.segmenter.rejected
    shot = shots[0]
    assert shot.seat == "south" and shot.start is not None
    assert np.hypot(shot.start[0], shot.start[1] + 300.0) < 3.0, shot.start
    truth = w.truth_end()
    assert truth["s1"] == "off" and shot.end[shot.disc] == "off"
    n1 = truth["n1"]
    assert isinstance(n1, tuple)
    ends = [e for k, e in shot.end.items() if k != shot.disc]
    assert len(ends) == 1 and isinstance(ends[0], tuple)
    assert np.hypot(ends[0][0] - n1[0], ends[0][1] - n1[1]) < 3.0
