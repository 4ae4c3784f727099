"""What the camera-bump tests check of a match played through a bump: south's one shot, judged
from where its disc waited on the shooting line (13, -303) to where it truly stopped."""

from __future__ import annotations

import numpy as np

from tracker.pipeline import Pipeline
from tracker.shotlog import Shot


def assert_south_shot_scored(p: Pipeline, truth_end: object) -> None:
    shots = [e for e in p.entries if isinstance(e, Shot)]
    assert len(shots) == 1, (shots, p.segmenter.rejected)
    shot = shots[0]
    assert shot.seat == "south"
    assert shot.start is not None and np.hypot(shot.start[0] - 13.0, shot.start[1] + 303.0) < 3.0, shot.start
    assert set(shot.end) == {shot.disc}, shot.end  # the north disc never moved
    end = shot.end[shot.disc]
    assert isinstance(end, tuple) and isinstance(truth_end, tuple)
    assert np.hypot(end[0] - truth_end[0], end[1] - truth_end[1]) < 3.0
