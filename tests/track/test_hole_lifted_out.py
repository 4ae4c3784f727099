"""A disc that dropped into the 20-hole and lay there is taken out only by a hand: a disc found
beyond the hole after it has lain there a while is not it sliding on over the hole (detections
of c2e_10101 at 5.3-8.3 s, 30 fps).

n1 was shot from the north line into the hole and found in it on every frame for 0.85 s; a hand
then hid it and lifted it out, and carried it off over the north rim, where the detector found
it twice (on the line, then over the ditch) 0.47 s after its last sighting in the hole. Taken
for a disc that crossed the hole and slid on (``hole_course.passed_over``), n1 was "moving" at
1200 mm/s and called off the board: a phantom north shot and a false off_board."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import IN_DITCH, IN_HOLE, ON_SURFACE, Detections
from tracker.track import Tracker
from tracker.track.tracker import TrackerConfig

DT = 1.0 / 30
RUN = [(-0.1, 288.2), (0.8, 260.4), (1.2, 234.8), (1.8, 208.8), (1.8, 188.8), (2.1, 164.9), (2.6, 145.2),
       (2.5, 126.9), (3.2, 110.2), (3.4, 93.7), (3.5, 79.6), (3.9, 65.9), (4.2, 54.5), (4.2, 44.2),
       (4.1, 35.2), (4.3, 27.0), (4.5, 20.3), (4.5, 14.6), (4.5, 10.4), (4.9, 7.4)]
# its sightings in the hole (the last two a tenth of a mm apart, as found)
IN_HOLE_XY = [(-0.2, -0.7)] + [(-0.1, -0.4)] * 9 + [(-0.2, -0.3)] * 7 + [(-0.3, -0.3)] * 2 + \
    [(-0.2, -0.3)] * 7 + [(-0.1, -0.3)]


def dets(*rows: tuple[float, float, int]) -> Detections:
    return Detections(xy=np.array([(x, y) for x, y, _ in rows], float).reshape(-1, 2),
                      where=np.array([w for _, _, w in rows], int))


def _lifted_out() -> Tracker:
    """n1 rests on the north line, is shot into the hole, lies there 27 frames, is hidden 13
    frames by the hand, and is found twice being carried off over the north rim."""
    tk = Tracker(CrokinoleBoard(), TrackerConfig())
    frames: list[list[tuple[float, float, int]]] = [[(0.2, 305.0, ON_SURFACE)]] * 10
    frames += [[(x, y, ON_SURFACE)] for x, y in RUN]
    frames += [[(x, y, IN_HOLE)] for x, y in IN_HOLE_XY]
    frames += [[]] * 13
    frames += [[(22.2, 299.3, ON_SURFACE)], [(25.8, 338.7, IN_DITCH)]]
    frames += [[]] * 30
    for k, rows in enumerate(frames):
        tk.update(dets(*rows), k * DT)
    return tk


def test_a_disc_lain_in_the_hole_is_not_found_sliding_on_beyond_it() -> None:
    tk = _lifted_out()
    n1 = next(tr for tr in tk.tracks if tr.born == 0.0)
    assert n1.state in ("hole", "lifted"), n1.state  # in the hole, then taken out (``hole_gone``)
    carried = (10 + len(RUN) + len(IN_HOLE_XY) + 13) * DT  # when the hand's disc was first found
    assert not [sm for sm in n1.path if sm.measured and sm.t >= carried - 1e-6], "took the carried sightings"
