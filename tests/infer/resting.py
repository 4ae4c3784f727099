"""Hand-made korona tracks for the tests of a shot's judgement: a disc seen at rest."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER
from tracker.track.datatypes import Sample, Track

R = KoronaBoard().disc_radius


def seen_at_rest(tid: int, x: float, y: float, until: float) -> Track:
    """A disc seen at rest at (x, y) every 0.1 s from 0 s to ``until``."""
    tr = Track(id=tid, kind=DISC, radius=R, xy=np.array([x, y]), born=0.0)
    tr.path = [Sample(k / 10, x, y, True) for k in range(int(round(until * 10)) + 1)]
    tr.last_seen, tr.rest_xy = until, (x, y)
    tr.anchor, tr.anchor_n = tr.xy.copy(), 1
    return tr


def flicked_striker(tid: int, run: list[tuple[float, float]], t0: float, now: float) -> Track:
    """South's striker at rest at ``run[0]`` until the flick at ``t0``, then one sighting a frame
    along ``run``, then at rest at its last place until ``now``."""
    s = Track(id=tid, kind=STRIKER, radius=KoronaBoard().striker_radius, xy=np.array(run[-1]), born=0.0)
    s.path = [Sample(k / 10, *run[0], True) for k in range(int(t0 * 10))]
    s.path += [Sample(t0 + k / 10, x, y, True) for k, (x, y) in enumerate(run)]
    last = t0 + (len(run) - 1) / 10
    s.path += [Sample(last + k / 10, *run[-1], True) for k in range(1, int(round((now - last) * 10)) + 1)]
    s.last_seen = now
    return s
