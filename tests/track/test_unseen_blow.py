"""A blow nobody saw start (crokinole, hand-made detections after c4h_9303 at 12-15 s): the
shooter unseen in flight from its line, the struck disc unseen at rest for seconds (its outline
too weak), and a board refit between (``Tracker.rebase``)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

BOARD = CrokinoleBoard()
FPS = 30.0
N1, E1, S2 = (-24.0, 72.0), (7.0, 70.0), (153.0, -266.0)


def dets(items: list[tuple[float, float]]) -> Detections:
    return Detections(xy=np.array(items, float).reshape(-1, 2))


def near(tk: Tracker, xy: tuple[float, float], mm: float = 5.0) -> list[int]:
    return [tr.id for tr in tk.tracks if tr.state != "lifted" and np.hypot(*(tr.xy - np.array(xy))) < mm]


def test_a_refit_pairs_a_moving_discs_detection_with_it_not_with_a_resting_neighbour() -> None:
    """n1 read as moving for a frame (a fit drawn towards e1 touching it) when the board is
    refitted; e1, unseen, must not take n1's detection 31 mm from its place."""
    tk = Tracker(BOARD)
    frames = [[N1, E1]] * 20 + [[N1]] * 10 + [[(-17.0, 69.0)]] * 2
    for i, items in enumerate(frames):
        tk.update(dets(items), i / FPS)
    e1 = near(tk, E1)
    assert len(e1) == 1
    t = len(frames) / FPS
    tk.rebase(dets([N1]), t)
    assert near(tk, E1) == e1


def test_the_struck_disc_unseen_for_seconds_takes_the_flight_and_the_shooter_stops() -> None:
    tk = Tracker(BOARD)
    frames = [[N1, E1, S2]] * 20 + [[N1, S2]] * 70  # e1 unseen 2.3 s (nothing over it)
    frames += [[N1]] * 12  # s2 flicked, unseen in flight
    frames += [[N1, (15.0, 38.0)], [N1, (-3.0, 130.0)], [N1, (-10.0, 155.0)], [N1, (-21.0, 196.0)],
               [N1, (-25.0, 214.0)], [N1, (-30.0, 232.0)]]
    frames += [[N1, (11.0, 39.0), (-36.0, 250.0)]] + [[N1, (11.0, 39.0)]] * 10
    e1 = near(tk, E1)
    for i, items in enumerate(frames):
        tk.update(dets(items), i / FPS)
        if i == 19:
            e1 = near(tk, E1)
            s2 = near(tk, S2)
    assert len(e1) == 1 and len(s2) == 1
    by_id = {tr.id: tr for tr in tk.tracks}
    assert np.hypot(*(by_id[s2[0]].xy - [11.0, 39.0])) < 6.0  # the shooter stopped where it struck
    assert by_id[e1[0]].rest_xy is not None and np.hypot(*(np.array(by_id[e1[0]].rest_xy) - E1)) < 3.0
    assert by_id[e1[0]].state != "rest" or np.hypot(*(by_id[e1[0]].xy - E1)) > 100.0  # e1 flew on
