"""Korona: a disc a striker knocked away unseen into the rim it rests against (its forecast turned
back off the rim) takes no detection on the place of a row-mate the detector has lost
(``TrackerConfig.rim_ghost_places``, ``pair_costs.rim_ghost_penalty``). k4h_9924 at 17.93 s: the
striker drove e4 over the west rim; e4's forecast came back off the rim at 970 mm/s and its gate
took the detection of e3, pushed 18 mm along the rim, 10 mm from e2's place (both lost by the
detector since 17.3 s); e4 "stayed" on the board in e3's place."""

from __future__ import annotations

import numpy as np

from tests.track.korona_rim import DT, LIM, B, R, dets
from tracker.detect.datatypes import DISC, STRIKER
from tracker.track.tracker import Tracker, TrackerConfig

# the west rim row, e2 .. e6 as in k4h_9924 (e4 the struck one first)
ROW = [(-LIM, -8.3), (-LIM, -58.3), (-LIM, -33.3), (-LIM, 16.7), (-LIM, 41.7)]


def _row_mate_pushed(cfg: TrackerConfig) -> tuple[list[float], float]:
    """The row seen at rest, then e2 and e3 lost by the detector (as rim rows are, for seconds)
    while the striker comes west at 1.3 m/s into e4 (from a little south of its centre), seen
    last two frames before it reaches it; e4 goes over the rim and is never seen again. Then, as
    in k4h_9924: e6 alone, none, e3 alone pushed 18 mm along the rim towards e2, none; then e3
    there, e5 and e6 in their places and the striker come back off the row, all at rest. Returns
    the distances from e4's track's sightings after the blow to its rest place, and how far from
    e3's pushed place e4's track lies 0.5 s on."""
    row = [(x, y, DISC, R) for x, y in ROW]
    tk = Tracker(B, cfg)
    t = 0.0
    for _ in range(10):
        tk.update(dets(row), t)
        t += DT
    (e4,) = [tr for tr in tk.tracks if float(np.hypot(tr.xy[0] - ROW[0][0], tr.xy[1] - ROW[0][1])) < R]
    for k in range(4):  # seen last 90 mm short of e4 (two frames before it reaches it)
        x = -322.5 + 44.5 * (3 - k)
        tk.update(dets([row[0], row[3], row[4], (x, -23.0, STRIKER, B.striker_radius)]), t)
        t += DT
    struck_at = t
    pushed = (-405.6, -50.6)
    back = (-352.7, -10.2, STRIKER, B.striker_radius)  # where the striker stops, come back off the row
    for seen in ([row[4]], [], [(*pushed, DISC, R)], []) + ([(*pushed, DISC, R), row[3], row[4], back],) * 12:
        tk.update(dets(seen), t)
        t += DT
    after = [float(np.hypot(sm.x - ROW[0][0], sm.y - ROW[0][1])) for sm in e4.path if sm.measured and sm.t >= struck_at]
    return after, float(np.hypot(e4.xy[0] - pushed[0], e4.xy[1] - pushed[1]))


def test_the_disc_knocked_over_the_rim_takes_no_row_mates_detection() -> None:
    after, off_pushed = _row_mate_pushed(TrackerConfig(rim_ghost_places=True))
    assert after == [], after
    assert off_pushed > R, off_pushed


def test_without_it_the_knocked_disc_took_the_row_mates_detection() -> None:
    after, off_pushed = _row_mate_pushed(TrackerConfig(rim_ghost_places=False))
    assert after and max(after) > 2 * R, after
    assert off_pushed < R, off_pushed
