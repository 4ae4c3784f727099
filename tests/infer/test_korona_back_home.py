"""Korona: a disc whose track followed a hand-carried striker's finds for a few frames and came
back to its place is no shot (``striker_motion.back_home``); a striker seen as a disc, flicked from
where a striker waits and run on, still is. The segmenter is fed hand-made tracks; the motions are
k4h_10106's at 11.3 s."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC
from tracker.infer.segmenter import ShotSegmenter
from tracker.track.datatypes import Sample, Track

B = KoronaBoard()
FPS = 30.0
HOME = (-1.0, 364.0)  # s4 of k4h_10106: in north's rim zone, where a striker waits


def _feed(tr: Track, place: Callable[[float], tuple[float, float, str]]) -> list[int]:
    seg = ShotSegmenter(B)
    records = []
    for k in range(round(4.0 * FPS)):
        t = k / FPS
        x, y, state = place(t)
        if state == "moving" and tr.state == "rest":
            tr.rest_xy = (float(tr.xy[0]), float(tr.xy[1]))
        tr.xy = np.array([x, y])
        tr.state = state  # type: ignore[assignment]
        tr.last_seen, tr.occluded = t, False
        tr.hits += 1
        tr.path.append(Sample(t, x, y, True))
        if state == "rest":
            tr.anchor, tr.anchor_n = tr.xy.copy(), 1
        got, _ = seg.update([tr], t, k)
        records += got
    return [r.disc for r in records]


def test_a_disc_that_followed_a_carried_striker_and_came_back_is_no_shot() -> None:
    """k4h_10106 at 11.3 s: north's striker, carried in by a hand over s4 to north's line, passed
    within s4's gate; s4's track took its finds 50 mm off for two frames and jumped back at
    1.4 m/s. s4, resting where a striker waits, was let in as a striker seen as a disc and
    logged as a north shot. It rests where it rested: it never ran."""
    assert B.striker_waits(*HOME)
    s4 = Track(id=6, kind=DISC, radius=B.disc_radius, xy=np.array(HOME), born=0.0)
    run = [(-3.0, 359.0), (-9.0, 355.0), (-12.0, 350.0), (-52.0, 314.0), (-58.0, 309.0), (-3.0, 358.0),
           (12.0, 401.0), (1.0, 365.0), (1.0, 365.0), (-2.0, 366.0), (0.0, 364.0)]

    def place(t: float) -> tuple[float, float, str]:
        k = round((t - 1.0) * FPS)
        if k < 0:
            return (*HOME, "rest")
        if k < len(run):
            return (*run[k], "moving")
        return (0.0, 364.0, "moving" if k < len(run) + 3 else "rest")

    assert _feed(s4, place) == []


def test_a_striker_seen_as_a_disc_flicked_from_where_strikers_wait_is_a_shot() -> None:
    """The same place, a disc-kind track (a striker whose groove ring reads disc-sized, k2e_8805)
    flicked down the board at 1.2 m/s, sliding to a stop 500 mm on: a shot."""
    s = Track(id=7, kind=DISC, radius=B.disc_radius, xy=np.array(HOME), born=0.0)
    a = 0.12 * 9810.0
    stop = 1200.0 / a

    def place(t: float) -> tuple[float, float, str]:
        if t < 1.0:
            return (*HOME, "rest")
        u = min(t - 1.0 + 1.0 / FPS, stop)
        return (HOME[0], HOME[1] - 1200.0 * u + 0.5 * a * u * u, "moving" if t - 1.0 < stop + 0.2 else "rest")

    assert _feed(s, place) == [7]
