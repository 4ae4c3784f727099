"""A crokinole disc lost as it slid by the 20-hole and struck a disc at rest unseen stopped where
it struck it, not where it was last seen, when it went too fast to drop into the hole
(``TrackerConfig.fast_past_hole``, ``slide.slid_to``).

c2h_9932 at 4.87 s (its sightings below): n1, last seen at (35, 6) going 870 mm/s, struck s1
(resting at (9, -40)) unseen and stopped at (27.7, -16.1), 32 mm from the hole's centre. Its
course, cut at s1's place, ran by the hole and was dropped; kept at its last sighting, 23 mm off,
the next shot's blow on it was missed: a false 'no opponent hit' foul, the first of five."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.track.datatypes import Sample, Track
from tracker.track.slide import slid_to, too_fast_for_hole
from tracker.track.tracker import TrackerConfig

BOARD = CrokinoleBoard()
DECEL = TrackerConfig.decel
TRUE_REST = (27.7, -16.1)
S1 = (9.2, -39.8)


def _n1() -> Track:
    seen = [(4.733, 87.2, 120.0), (4.767, 74.1, 90.4), (4.833, 47.5, 32.2), (4.867, 35.3, 6.0)]
    tr = Track(id=2, kind=0, radius=BOARD.disc_radius, xy=np.array([35.3, 6.0]), state="moving")
    tr.path = [Sample(t, x, y, True) for t, x, y in seen]
    return tr


def test_a_course_cut_by_a_struck_disc_stands_by_the_hole_when_too_fast_to_drop() -> None:
    stop = slid_to(BOARD, _n1(), DECEL, np.zeros((0, 2)), np.array([S1]), fast_past_hole=True)
    assert stop is not None
    assert np.hypot(stop[0] - TRUE_REST[0], stop[1] - TRUE_REST[1]) < 4.0, stop


def test_without_the_setting_the_last_sighting_stands() -> None:
    assert slid_to(BOARD, _n1(), DECEL, np.zeros((0, 2)), np.array([S1]), fast_past_hole=False) is None


def test_a_slow_course_by_the_hole_is_left_to_the_hole() -> None:
    """Slow enough to drop in by the hole: the hole's own tests decide (``hole_course``)."""
    assert not too_fast_for_hole(BOARD, np.array([10.0, 20.0]), np.array([-150.0, -400.0]), DECEL)
    slow = _n1()
    x0, y0 = slow.path[-1].x, slow.path[-1].y
    slow.path = [Sample(s.t, x0 + 0.6 * (s.x - x0), y0 + 0.6 * (s.y - y0), True) for s in slow.path]  # ~540 mm/s
    stop = slid_to(BOARD, slow, DECEL, np.zeros((0, 2)), np.array([S1]), fast_past_hole=True)
    assert stop is None
    # (a course off the hole stands all the same: the same run 60 mm east of it)
    east = _n1()
    east.path = [Sample(s.t, s.x + 60.0, s.y, True) for s in slow.path]
    assert slid_to(BOARD, east, DECEL, np.zeros((0, 2)), np.array([(S1[0] + 60.0, S1[1])]),
                   fast_past_hole=True) is not None
