"""Korona: two discs at rest cannot overlap; a resting disc unseen whose place a disc seen at
rest now overlaps was pushed aside unseen (``overlap.pushed_aside``, off by default:
``TrackerConfig.push_aside``)."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC
from tracker.track import Tracker
from tracker.track.datatypes import Track
from tracker.track.overlap import pushed_aside


def _rest(tid: int, xy: tuple[float, float], seen: float, occluded: bool) -> Track:
    z = np.array(xy, float)
    return Track(id=tid, kind=DISC, radius=12.5, xy=z.copy(), anchor=z.copy(), anchor_n=5,
                 last_seen=seen, occluded=occluded)


def test_an_unseen_disc_overlapped_by_one_seen_at_rest_lies_beside_it() -> None:
    # k2e_9941 after 21.8 s: n2 seen at rest at (77, -410); n1, knocked east along the north rim
    # unseen in the same blow, still "rests" 10 mm from it at (87, -412)
    tk = Tracker(KoronaBoard())
    n2, n1 = _rest(1, (76.9, -409.6), 22.0, False), _rest(2, (87.4, -412.5), 21.6, True)
    tk.tracks = [n2, n1]
    pushed_aside(tk, 22.0)
    assert float(np.hypot(*(n1.position() - n2.settled_xy))) >= 25.0 - 1e-6  # in contact at least
    assert n1.position()[0] > 87.4  # pushed on east, away from n2
    assert np.allclose(n2.settled_xy, (76.9, -409.6))  # the disc seen stays


def test_discs_touching_or_apart_stay() -> None:
    tk = Tracker(KoronaBoard())
    a, b = _rest(1, (62.4, -412.5), 22.0, False), _rest(2, (86.0, -412.5), 21.0, True)
    tk.tracks = [a, b]
    pushed_aside(tk, 22.0)  # 23.6 mm apart: within the detector's error of touching
    assert np.allclose(b.settled_xy, (86.0, -412.5))


def test_pushed_into_a_rim_it_lies_along_it() -> None:
    tk = Tracker(KoronaBoard())
    lim = tk.board.half - 12.5
    a, b = _rest(1, (60.0, lim - 8.0), 22.0, False), _rest(2, (64.0, lim), 21.0, True)
    tk.tracks = [a, b]
    pushed_aside(tk, 22.0)
    x, y = b.position()
    assert abs(y) <= lim + 1e-6 and x > 64.0
    assert float(np.hypot(x - 60.0, y - (lim - 8.0))) >= 25.0 - 1e-6
