"""The board's colour around a disc (a track's ``surround``) is learned where the disc lies over
the open board, not over the 20-hole: there the ring the detector reads round it crosses the
hole. Colours (CIE Lab) as measured on c4h_9921 (hard preset, blue discs on a blue board): n1,
first seen in flight from the north line, then twice over the hole as it dropped in; the ring
round it there read (24, 17, -16), the board (41, 10, -50). Its track's board colour came within
4.3 of its own, nearer than south's discs, and the namer took it for a mark on the board: its
shot, a 20, was rejected."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.infer.naming import Namer
from tracker.track import Tracker
from tracker.track.datatypes import Track

BOARD = CrokinoleBoard()
BLUE_DISC, BOARD_BLUE, OVER_HOLE = (30.3, 10.4, -41.7), (41.2, 10.6, -49.6), (23.8, 16.7, -16.1)
SOUTH, WEST = (28.3, 8.3, -37.3), (9.1, 0.8, -1.5)  # the two sides' discs, as seen shot


def _one(xy: tuple[float, float], surround: tuple[float, float, float], streak: tuple[float, float]) -> Detections:
    return Detections(xy=np.array([xy], float), radius=np.array([15.9]), color=np.array([BLUE_DISC]),
                      surround=np.array([surround]), streak=np.array([streak], float))


def test_a_disc_dropping_into_the_hole_does_not_learn_the_hole_for_the_board() -> None:
    fps = 30.0
    tk = Tracker(BOARD)
    # in flight from the north line toward the hole (1100 mm/s, a 13 mm blur), then over the hole
    flight = [((-135.0 + 13.0 * k, 210.0 - 35.0 * k), BOARD_BLUE, (5.0, -13.0)) for k in range(5)]
    over = [((-9.8, -0.3), OVER_HOLE, (4.0, -12.0)), ((-6.0, -1.0), OVER_HOLE, (2.0, -3.0))]
    for k, (xy, sur, st) in enumerate(flight + over):
        tk.update(_one(xy, sur, st), k / fps)
    tracks = [tr for tr in tk.tracks if tr.surround_n]
    assert len(tracks) == 1
    tr = tracks[0]
    assert np.linalg.norm(tr.surround - np.array(BOARD_BLUE)) < 1.0
    namer = Namer("crokinole", 4, BOARD)
    for seat, colour in (("south", SOUTH), ("west", WEST)):
        namer.learn_colour(seat, Track(id=0, kind=0, radius=15.875, xy=np.zeros(2), color=np.array(colour),
                                       color_n=5, surround=np.array(BOARD_BLUE), surround_n=5))
    assert not namer.looks_like_board(tr)
