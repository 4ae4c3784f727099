"""Korona: a striker a hand carries off the board over a rim row is lifted, not off the board,
and the carrying is no shot. The tracker is fed detections as the detector gave them on
k4h_9606 at 34.5-35.3 s (west's striker, resting by the west rim, hidden by the hand that took it
up, seen twice 600 mm on at 2.6 m/s heading for the east rim row, then carried over that row
off the board, while every disc of the row was seen where it lay)."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.infer.segmenter import ShotSegmenter
from tracker.track.tracker import Tracker

B = KoronaBoard()
FPS = 30.0
ROW_X = -(B.half - B.disc_radius)  # discs against the east rim


def _dets(rows: list[tuple[float, float, int, float]]) -> Detections:
    a = np.array(rows, float).reshape(-1, 4)
    return Detections(xy=a[:, :2], kind=a[:, 2].astype(int), radius=a[:, 3])


def _carried_off(row_y: tuple[float, ...]) -> tuple[str, list[int]]:
    """The striker track's state at the end, and the shot discs the segmenter logged."""
    tk, seg = Tracker(B), ShotSegmenter(B)
    row = [(ROW_X, y, DISC, B.disc_radius) for y in row_y]
    striker = (368.0, -154.0, STRIKER, B.striker_radius)
    shots: list[int] = []
    for k in range(150):
        t = k / FPS
        if k < 60:
            seen = [striker]  # at rest by the west rim
        elif k == 68:
            seen = [(-235.0, -137.0, STRIKER, B.striker_radius)]  # first seen in the hand's run
        elif k == 69:
            seen = [(-323.0, -135.0, STRIKER, B.striker_radius)]
        else:
            seen = []  # under the hand, then off the board in it
        tk.update(_dets(row + seen), t)
        got, _ = seg.update(tk.tracks, t, k)
        shots += [r.disc for r in got]
    strikers = [tr for tr in tk.tracks if tr.kind == STRIKER]
    assert len(strikers) == 1
    return strikers[0].state, shots


def test_a_striker_carried_over_a_rim_row_it_never_moved_is_lifted_and_no_shot() -> None:
    """Its course runs head on into e1 (against the east rim, on its line) and the row's
    neighbours: sliding, it would have struck e1 and driven it on, or stayed in view. e1 is
    seen where it lay after: the striker went over it in the air. Before, it coasted on over
    the rim, was called off the board, and the carrying was logged as a shot."""
    state, shots = _carried_off((-134.0, -76.0, -43.0))
    assert state == "lifted"
    assert shots == []


def test_a_striker_lost_heading_over_a_clear_rim_is_still_off() -> None:
    """The same run with no disc on its course to the rim (the row lies further along it): a
    striker lost at that speed heading for the rim may have jumped it; off the board, as before."""
    state, _ = _carried_off((76.0, 110.0, 143.0))
    assert state == "off"
