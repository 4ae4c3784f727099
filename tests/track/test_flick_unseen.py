"""A disc waiting on the shooting line, flicked short and unseen in flight, is the disc found
stopped a little way in a frame or two later (``prediction.flicked_unseen``): detections after
c4e_9404 at 19.8-20.4 s (n2 placed at (103, 289), on the line; unseen one frame; found stopped at
(117, 258) while e1, which it struck, flies off). Before, a new track took the stopped place and
the flicked disc stayed "on the line", to be removed as outside the shooting line."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

BOARD = CrokinoleBoard()
FPS = 30.0
E1, N2, STOP = (129.0, 229.0), (103.0, 289.0), (117.0, 258.0)


def dets(items: list[tuple[float, float]]) -> Detections:
    return Detections(xy=np.array(items, float).reshape(-1, 2))


def run(frames: list[list[tuple[float, float]]], at: int) -> tuple[Tracker, int]:
    """The tracker after ``frames``, and the id of the track on n2's place after frame ``at``."""
    tk = Tracker(BOARD)
    placed = -1
    for i, items in enumerate(frames):
        tk.update(dets(items), i / FPS)
        if i == at:
            placed = near(tk, N2)[0]
    return tk, placed


def near(tk: Tracker, xy: tuple[float, float], tol: float = 5.0) -> list[int]:
    return [tr.id for tr in tk.tracks if tr.state not in ("lifted", "off") and np.hypot(*(tr.xy - xy)) < tol]


def test_a_short_flick_unseen_in_flight_is_the_disc_from_the_line() -> None:
    assert BOARD.waits_on_shooting_line(*N2)
    frames: list[list[tuple[float, float]]] = [[E1]] * 20 + [[E1, N2]] * 12  # n2 set on the line
    frames += [[E1]]  # the flick: n2 blurred, unseen
    frames += [[(140.0, 205.0), STOP], [(154.0, 174.0), STOP], [(165.0, 150.0), STOP]]
    frames += [[STOP]] * 20  # e1 gone off; n2 at rest
    tk, n2 = run(frames, 31)
    assert not near(tk, N2, 3.0)  # nothing left waiting on the line
    assert near(tk, STOP) == [n2]  # the disc from the line, not a newcomer


def test_a_find_outward_of_the_line_is_not_taken_for_a_flick() -> None:
    out = (118.0, 330.0)  # beyond the line, off the surface: a hand's find, not the shot
    frames: list[list[tuple[float, float]]] = [[E1]] * 20 + [[E1, N2]] * 12 + [[E1]] + [[E1, out]] * 3
    tk, n2 = run(frames, 31)
    assert n2 not in near(tk, out)
