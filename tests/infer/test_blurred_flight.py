"""A shot disc first seen in flight whose blurred centres are found along its streak, not on it
(hand-made detections, board mm): ``tracker.infer.flicked_unseen.flicked_unseen``."""

from __future__ import annotations

import math

from tests.infer.scenes import discs_at, south_shot
from tracker.boards import CrokinoleBoard
from tracker.pipeline import Pipeline

FPS = 30.0


def test_a_shot_first_seen_blurred_off_its_place_along_the_streak_is_logged() -> None:
    """South's disc (red on a red board) is never seen waiting on the shooting line under the
    hand, nor in its first 0.23 s of flight; it is then found in a few frames only, the second
    sight 16 mm ahead of where it was and the third 13 mm behind it, 0.13 s later (c2h_9202 at
    8.8 s), then every frame once it slows. It is south's shot from the south line, at rest where
    it stopped: the shot was lost ("motion with no disc that rested before it"), and the disc
    was one nobody shot."""
    y0, v0, a = -304.8, 839.0, 545.0  # y(tau) = y0 + v0 tau - a tau^2, at rest from tau = 0.77
    rest = y0 + v0 * 0.77 - a * 0.77 ** 2
    error = {7: 0.0, 8: 16.0, 12: -13.0, 14: 0.0, 15: 0.0, 16: 0.0}  # frame of flight -> mm along
    p = Pipeline("crokinole", 2)
    p.start_tracking(CrokinoleBoard())
    launch = 30
    for k in range(110):
        f = k - launch
        tau = min(max(f / FPS, 0.0), 0.77)
        y = y0 + v0 * tau - a * tau * tau
        if f < 0 or (f < 18 and f not in error):
            rows: list[tuple[float, float]] = []
        else:
            rows = [(0.0, y + error.get(f, 0.0))]
        p.process_detections(discs_at(*rows), k / FPS, k)
    p.finish()
    shot, end = south_shot(p)
    assert math.dist(end, (0.0, rest)) < 2.0
    assert shot.start is not None and math.dist(shot.start, (0.0, y0)) < 15.0
