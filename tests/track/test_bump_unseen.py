"""A bump that makes resting discs "move" through the old fit, and a disc not seen on the frame
the board is fitted again (hand-made detections after c2h_9502 at 12.2-12.4 s: the camera moved
for four frames, the board was fitted at once mid-bump and again once it stopped; s2, at rest by
the board's edge, read 5 then 13 mm off and was not found on the first fit's frame)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

BOARD = CrokinoleBoard()
FPS = 30.0
N2, S2 = (139.5, 62.7), (265.0, -79.4)
STEP = np.array([-0.5, 5.0])  # mm per frame the bump carries every disc through the old fit


def dets(items: list[tuple[float, float]]) -> Detections:
    return Detections(xy=np.array(items, float).reshape(-1, 2), cls=np.zeros(len(items), int))


def test_a_disc_unseen_when_the_board_is_fitted_mid_bump_rests_where_it_waited() -> None:
    tk = Tracker(BOARD)
    k = 0
    for _ in range(30):  # both at rest
        tk.update(dets([N2, S2]), k / FPS)
        k += 1
    for part in (1.0, 2.6):  # the bump: both read moving through the old fit
        tk.update(dets([tuple(np.add(N2, part * STEP)), tuple(np.add(S2, part * STEP))]), k / FPS)
        k += 1
    s2 = [tr.id for tr in tk.tracks if np.hypot(*(tr.xy - np.add(S2, 2.6 * STEP))) < 5.0]
    assert len(s2) == 1
    # first fit (the camera still moving): s2 not found on its frame
    first = dets([N2])
    tk.rebase(first, k / FPS)
    tk.update(first, k / FPS)
    tk.settle_moving(k / FPS)
    k += 1
    for part in (1.4, 1.6):  # the camera settles a little further on: seen through the first fit
        tk.update(dets([tuple(np.add(N2, part * STEP)), tuple(np.add(S2, part * STEP))]), k / FPS)
        k += 1
    second = dets([N2, S2])  # fitted again once it stopped
    tk.rebase(second, k / FPS)
    tk.update(second, k / FPS)
    tk.settle_moving(k / FPS)
    k += 1
    for _ in range(60):
        tk.update(second, k / FPS)
        k += 1
    tr = tk.get(s2[0])
    assert tr is not None and tr.state == "rest"
    assert np.hypot(*(np.array(tr.position()) - S2)) < 2.0
    assert sum(1 for t in tk.tracks if t.state == "rest") == 2  # no second disc born on s2's place
