"""Korona: a disc resting against a rim whose track's radius is too large (its first find
blurred or shadowed) is still held on the board by that rim when struck into it unseen
(``disc_traits.rim_radius``): korona_4p_part at 18.1 s, e4 (track radius 15.3 mm, a disc's 12.5)
forecast 57 mm beyond the west rim."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track.tracker import Tracker, TrackerConfig

B = KoronaBoard()
R = B.disc_radius
LIM = B.half - R  # where a disc's centre lies against a rim


def _dets(rows: list[tuple[float, float, int, float]]) -> Detections:
    a = np.array(rows, float).reshape(-1, 4)
    return Detections(xy=a[:, :2], kind=a[:, 2].astype(int), radius=a[:, 3])


def _struck_into_rim(found_r: float, pressed: bool) -> np.ndarray:
    """A striker driven north-east into a disc resting against the north rim (found with radius
    ``found_r``), its row's next disc touching it on the east; neither is seen from the frame the
    disc is struck. Returns the struck disc's forecast position after that frame."""
    tk = Tracker(B, TrackerConfig(rim_pressed=pressed))
    disc, nxt = (-18.0, LIM, DISC, found_r), (-18.0 + 2 * R + 0.5, LIM, DISC, R)
    dt = 1 / 30
    for k in range(10):
        tk.update(_dets([disc, nxt]), k * dt)
    (rim,) = [tr for tr in tk.tracks if tr.kind == DISC and tr.xy[0] < -10]
    p, v = np.array([-83.0, 338.0]), np.array([650.0, 700.0])
    t = 10 * dt
    while float(np.hypot(*(p - rim.settled_xy))) > R + B.striker_radius + 1.0:
        tk.update(_dets([disc, nxt, (p[0], p[1], STRIKER, B.striker_radius)]), t)
        p, t = p + v * dt, t + dt
    tk.update(_dets([(p[0], p[1], STRIKER, B.striker_radius)]), t)
    assert rim.state == "moving"
    return rim.xy.copy()


def test_a_rim_disc_with_an_oversized_track_stays_within_the_rim() -> None:
    for pressed in (True, False):
        for found_r in (R, R + 3.0):
            at = _struck_into_rim(found_r, pressed)
            assert at[1] <= LIM + 1.0, (pressed, found_r, at)
