"""A row struck from one end: its discs are pushed on, never back towards the blow
(``row_order._with_push``, ``row_order.WITH_PUSH``: see its note)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.track.korona_frames import id_near
from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track import Tracker, row_order

KB = KoronaBoard()
D, S = DISC, STRIKER
REST = [(-45.4, -409.1, D), (-79.1, -411.4, D), (-148.4, -411.0, D), (-31.1, -331.5, D)]

# k2e_9971 at 17.87-18.73 s (30 fps), the detector's finds by the north rim: the striker knocks
# n5 (at -31, -332) west and drives n6 (-45, -409) west along the rim into n7 (-79, -411); at
# 18.30 s n6 is found 17 mm west of its place, 16 mm east of n7's, n7 unseen. Truth at rest
# after: n6 at (-133, -408), n7 at (-134, -383).
FRAMES: list[list[tuple[float, float, int]]] = [
    *[REST] * 10,
    [(-45.4, -409.1, D), (-79.1, -411.4, D), (-148.4, -411.0, D), (-31.4, -331.5, D), (10.0, -319.0, S)],
    [(-45.4, -409.1, D), (-79.1, -411.4, D), (-148.4, -411.0, D), (-53.7, -334.1, D), (-0.3, -363.0, S)],
    [(-148.4, -411.0, D), (-79.2, -411.2, D), (-86.1, -337.6, D), (-45.7, -409.8, D), (-17.7, -382.7, S)],
    [(-148.4, -411.0, D), (-111.3, -340.6, D), (-62.6, -407.2, D), (-32.4, -381.1, S)],
    [(-136.3, -344.1, D), (-124.7, -405.6, D), (-75.5, -407.3, D), (-152.2, -410.2, D), (-43.9, -377.0, S)],
    [(-162.1, -347.0, D), (-127.3, -398.6, D), (-86.9, -407.2, D), (-180.2, -406.3, D), (-54.9, -373.0, S)],
    [(-185.0, -349.9, D), (-129.6, -392.6, D), (-97.4, -407.1, D), (-204.1, -405.4, D), (-63.2, -370.0, S)],
    [(-207.4, -352.3, D), (-131.2, -388.7, D), (-230.5, -402.4, D), (-106.2, -407.2, D), (-70.9, -367.0, S)],
    [(-228.7, -354.4, D), (-252.8, -400.7, D), (-132.8, -385.1, D), (-113.4, -407.5, D), (-77.2, -364.9, S)],
    [(-248.2, -356.9, D), (-133.5, -382.7, D), (-120.7, -407.3, D), (-82.4, -363.0, S)],
    [(-133.6, -381.9, D), (-125.3, -407.0, D), (-86.5, -361.4, S)],
    [(-133.7, -381.7, D), (-129.3, -407.3, D), (-89.1, -360.6, S)],
    [(-133.7, -381.7, D), (-131.5, -406.5, D), (-90.6, -359.8, S)],
    *[[(-90.6, -359.8, S), (-133.1, -407.1, D), (-133.6, -381.7, D)]] * 8,
]


def _names() -> tuple[tuple[int, int], tuple[int, int]]:
    """(n6, n7) track ids before the blow and at rest after it."""
    tk = Tracker(KB)
    before = (-1, -1)
    for k, pts in enumerate(FRAMES):
        a = np.array([(x, y) for x, y, _ in pts], float)
        tk.update(Detections(xy=a, kind=np.array([c for *_, c in pts]), where=np.zeros(len(a), int)), 17.5667 + k / 30)
        if k == 9:
            before = (id_near(tk, (-45.4, -409.1)), id_near(tk, (-79.1, -411.4)))
    return before, (id_near(tk, (-133.1, -407.1)), id_near(tk, (-133.6, -381.7)))


def test_a_row_disc_is_not_pushed_back_towards_the_blow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row_order, "WITH_PUSH", True)
    before, after = _names()
    assert -1 not in before and before[0] != before[1]
    assert after == before


def test_without_the_push_the_least_squares_tie_break_swaps_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row_order, "WITH_PUSH", False)
    before, after = _names()
    assert after != before
