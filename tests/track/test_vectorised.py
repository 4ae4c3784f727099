"""The tracker's vectorised helpers give what the plain loops they replaced gave (random
layouts of discs at rest, forecasts of a few points a track), and row_order leaves the pairs
alone when no resting disc moved."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, Detections
from tracker.track import Tracker
from tracker.track.association import hypothesis_cost
from tracker.track.blows import rest_of, touching
from tracker.track.datatypes import Track
from tracker.track.row_order import row_order


def _touching_loop(rows: list[Track], resting: list[int], start: int, slack: float = 3.0) -> list[int]:
    out, todo = [start], [start]
    while todo:
        a = todo.pop()
        for b in resting:
            if b not in out and float(np.hypot(*(rest_of(rows[a]) - rest_of(rows[b])))) \
                    <= rows[a].radius + rows[b].radius + slack:
                out.append(b)
                todo.append(b)
    return out


def _rows(rng: np.random.Generator, n: int) -> list[Track]:
    rows = []
    for i in range(n):
        tr = Track(id=i, kind=DISC, radius=15.0, xy=rng.uniform(-120, 120, 2))
        if i % 2:
            tr.anchor, tr.anchor_n = tr.xy + rng.normal(0, 0.5, 2), 3
        rows.append(tr)
    return rows


def test_touching_finds_the_same_discs_in_the_same_order() -> None:
    rng = np.random.default_rng(0)
    for _ in range(40):
        rows = _rows(rng, 14)
        resting = [i for i in range(len(rows)) if rng.random() < 0.8]
        for start in range(len(rows)):
            for slack in (3.0, 18.0):
                assert touching(rows, resting, start, slack) == _touching_loop(rows, resting, start, slack)
    assert touching(_rows(rng, 3), [], 1) == [1]


def test_hypothesis_cost_is_the_least_per_track() -> None:
    rng = np.random.default_rng(1)
    hyps = [[rng.uniform(-100, 100, 2) for _ in range(int(rng.integers(1, 4)))] for _ in range(7)]
    pen = [[float(p) for p in rng.uniform(0, 5, len(h))] for h in hyps]
    det = rng.uniform(-100, 100, (9, 2))
    for penalty in (None, pen):
        got = hypothesis_cost(hyps, det, penalty)
        for i, pts in enumerate(hyps):
            P = np.asarray(pts)
            d = np.hypot(det[None, :, 0] - P[:, None, 0], det[None, :, 1] - P[:, None, 1])
            if penalty is not None:
                d = d + np.asarray(penalty[i]).reshape(-1, 1)
            assert np.array_equal(got[i], d.min(axis=0))
    assert hypothesis_cost([], det).shape == (0, 9)


def test_row_order_leaves_pairs_alone_when_no_resting_disc_moved() -> None:
    tk = Tracker(KoronaBoard())
    rows = [Track(id=i + 1, kind=DISC, radius=15.0, xy=np.array([-60.0 + 30.5 * i, 0.0])) for i in range(4)]
    dets = Detections(xy=np.array([tr.xy + [0.5, 0.0] for tr in rows][::-1]), radius=np.full(4, 15.0),
                      color=np.zeros((4, 3)), confidence=np.ones(4), kind=np.full(4, DISC),
                      where=np.zeros(4, int), surround=np.zeros((4, 3)))
    pairs = [(i, 3 - i) for i in range(4)]
    used_t, used_d = {0, 1, 2, 3}, {0, 1, 2, 3}
    row_order(tk, rows, dets, pairs, used_t, used_d, 1 / 30)
    assert pairs == [(i, 3 - i) for i in range(4)]
