"""Korona: a disc resting against a rim and struck into it slides along the rim and comes back
off it slowly (``rims.pressed_into_rim``, ``TrackerConfig.rim_pressed``), not at a free disc's
restitution: k2e_9911 at 35.77 s, where the bounced forecast took the next row's disc's name."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track.rims import PRESSED_RESTITUTION, RIM_JUMP_SPEED, pressed_into_rim, wedged
from tracker.track.tracker import Tracker, TrackerConfig

B = KoronaBoard()
R = B.disc_radius
NONE = np.zeros((0, 3))


def _dets(rows: list[tuple[float, float, int, float]]) -> Detections:
    a = np.array(rows, float).reshape(-1, 4)
    return Detections(xy=a[:, :2], kind=a[:, 2].astype(int), radius=a[:, 3])


def test_a_rim_disc_struck_into_its_rim_slides_along_it() -> None:
    """k2e_9911 at 35.77 s: s4 at (-18, 410), against the north rim, struck north-east."""
    q = np.array([-18.0, 410.0])
    at, v = pressed_into_rim(B, q, np.array([0.0, 432.0]), np.array([559.0, 674.0]), R, NONE)
    assert v[0] == 559.0 and v[1] == -PRESSED_RESTITUTION * 674.0
    assert at[0] == 0.0 and 400.0 < at[1] < 410.0


def test_a_disc_off_the_rim_a_fast_blow_crokinole_or_a_row_in_the_way_are_left_alone() -> None:
    v0 = np.array([559.0, 674.0])
    q = np.array([-18.0, 410.0])
    s6 = np.array([[4.0, 411.0, R]])  # touching distance 25 mm: met within the frame's 18 mm slide
    for board, at_, speed, others in ((B, np.array([-18.0, 380.0]), 0.0, NONE),  # 30 mm off the rim
                                      (B, q, 2 * RIM_JUMP_SPEED, NONE),  # fast enough to jump it
                                      (CrokinoleBoard(), q, 0.0, NONE),
                                      (B, q, 0.0, s6)):  # the blow passes into the row
        at, v = pressed_into_rim(board, at_, at_ + v0 / 30, v0, R, others, speed)
        assert np.allclose(v, v0) and np.allclose(at, at_ + v0 / 30)
    at, v = pressed_into_rim(B, q, q + v0 / 30, v0, R, np.array([[40.0, 411.0, R]]))  # 33 mm away: free
    assert v[1] < 0 and v[0] == 559.0


def _struck_rim_disc(pressed: bool) -> np.ndarray:
    """A striker driven north-east into a disc resting against the north rim; the disc is not
    seen from the frame it is struck. Returns the disc's track's velocity after that frame."""
    tk = Tracker(B, TrackerConfig(rim_pressed=pressed))
    disc = (-18.0, 410.0, DISC, R)
    dt = 1 / 30
    for k in range(10):
        tk.update(_dets([disc]), k * dt)
    (rim,) = [tr for tr in tk.tracks if tr.kind == DISC]
    p, v = np.array([-83.0, 338.0]), np.array([650.0, 700.0])
    t = 10 * dt
    while float(np.hypot(*(p - rim.settled_xy))) > R + B.striker_radius + 1.0:
        tk.update(_dets([disc, (p[0], p[1], STRIKER, B.striker_radius)]), t)
        p, t = p + v * dt, t + dt
    tk.update(_dets([(p[0], p[1], STRIKER, B.striker_radius)]), t)
    assert rim.state == "moving"
    return rim.v.copy()


def test_the_tracker_forecasts_a_struck_rim_disc_along_the_rim() -> None:
    bounced, slid = _struck_rim_disc(False), _struck_rim_disc(True)
    assert bounced[1] < -300.0  # off: back off the rim at 0.9 of its speed into it
    assert -0.4 * abs(bounced[1]) / 0.9 < slid[1] < 0.0  # on: slowly
    assert slid[0] > 100.0  # and on along the rim


def test_a_disc_meeting_the_rim_in_a_rows_gap_is_wedged() -> None:
    """k2e_9941 at 21.63 s: n3 driven into the south rim between n4 (12, -412) and n2 (63, -412)."""
    row = np.array([[12.0, -412.0, R], [63.0, -412.0, R], [89.0, -412.0, R]])
    v = np.array([16.0, -868.0])
    assert wedged(B, np.array([38.0, -440.0]), v, R, row)
    assert not wedged(B, np.array([38.0, -440.0]), v, R, row[1:])  # a neighbour on one side only
    assert not wedged(B, np.array([38.0, -400.0]), v, R, row)  # short of the rim
    assert not wedged(B, np.array([38.0, -440.0]), -v, R, row)  # going away from it
    assert not wedged(B, np.array([38.0, 440.0]), -v, R, row)  # the far rim
    assert not wedged(CrokinoleBoard(), np.array([38.0, -440.0]), v, R, row)


def _coasted_into_gap(wedge: bool) -> np.ndarray:
    """A disc seen moving south into the gap of a row against the south rim, then unseen as it
    meets the rim: its velocity after the coast that takes it past the rim."""
    tk = Tracker(B, TrackerConfig(rim_wedge=wedge))
    dt = 1 / 30
    row = [(12.0, -412.0, DISC, R), (63.0, -412.0, DISC, R)]
    for k in range(10):
        tk.update(_dets(row), k * dt)
    t = 10 * dt
    for y in (-300.0, -329.0, -358.0, -387.0):  # 870 mm/s south
        tk.update(_dets([*row, (37.5, y, DISC, R)]), t)
        t += dt
    (mover,) = [tr for tr in tk.tracks if tr.state == "moving"]
    while mover.v[1] < 0:
        tk.update(_dets(row), t)
        t += dt
    return mover.v.copy()


def test_the_tracker_forecasts_a_disc_wedged_in_a_rows_gap_back_off_slowly() -> None:
    bounced, wedged_ = _coasted_into_gap(False), _coasted_into_gap(True)
    assert bounced[1] > 600.0  # off: back at 0.9 of its speed
    assert 0.0 < wedged_[1] < 0.4 * bounced[1] / 0.9
