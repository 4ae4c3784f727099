"""Korona: a striker carried off the board by a hand is not taken for one put down where a "disc"
waits and flicked from there, when that "disc" is still found at its place after the striker was
seen on its way (``start_places.seen_there_after``, ``unseen.striker_put_down``; constructed tracks,
board mm).

k4h_10206 at 10.7 s: west's striker, at rest mid-board at (191, -141) after its shot, was covered
by a hand and carried off the board over the west rim; it was first seen on its way 490 mm on, at
(-297, -139), and its track took that sighting. A false "disc" (w8's shadow) rested at (363, -100)
in the east rim zone, where a striker waits, and was found there until 11.10 s, 0.37 s after the
striker was seen on its way, then covered. It was taken for east's striker put down there and
flicked, and an east shot with the striker off the board was logged."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER
from tracker.infer import unseen
from tracker.infer.segmenter import ShotSegmenter
from tracker.track.datatypes import Sample, Track

KB = KoronaBoard()
DT = 1 / 30


def _track(tid: int, kind: int, pts: list[tuple[float, float, float]], born: float) -> Track:
    r = KB.striker_radius if kind == STRIKER else KB.disc_radius
    tr = Track(id=tid, kind=kind, radius=r, xy=np.array(pts[-1][1:], float), born=born, last_seen=pts[-1][0],
               path=[Sample(t, x, y, True) for t, x, y in pts], hits=len(pts))
    tr.anchor, tr.anchor_n = np.array(pts[0][1:], float), len(pts)
    return tr


def _scene(waiting_until: float) -> tuple[ShotSegmenter, list[Track], Track]:
    """The striker at rest till 10.27 s, seen on its way from 10.73 s; the "disc" found at its
    place from 10.17 s to ``waiting_until``, covered since."""
    rest = [(10.0 + k * DT, 191.0, -141.0) for k in range(9)]
    run = [(10.733, -297.0, -139.0), (10.767, -314.0, -87.0), (10.8, -379.0, -82.0)]
    striker = _track(51, STRIKER, rest + run, born=6.97)
    striker.state, striker.xy = "off", np.array([-940.0, -37.0])
    n = int(round((waiting_until - 10.167) / DT)) + 1
    disc = _track(59, DISC, [(10.167 + k * DT, 363.0, -100.0) for k in range(n)], born=10.167)
    disc.occluded = True
    seg = ShotSegmenter(KB)
    seg._t0 = 10.6
    seg._before = {51: (191.0, -141.0), 59: (363.0, -100.0)}
    return seg, [striker, disc], striker


def test_a_waiting_disc_still_seen_after_the_striker_left_is_no_put_down() -> None:
    seg, tracks, striker = _scene(waiting_until=11.1)
    assert unseen.striker_put_down(seg, tracks, striker, (191.0, -141.0), 11.3) == ()


def test_a_waiting_disc_gone_as_the_striker_left_is_a_put_down() -> None:
    """The same run, the "disc" last found as the striker was flicked: it was the striker."""
    seg, tracks, striker = _scene(waiting_until=10.567)
    assert unseen.striker_put_down(seg, tracks, striker, (191.0, -141.0), 11.3) == ((51, 59),)
