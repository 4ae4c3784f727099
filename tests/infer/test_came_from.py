"""Korona: a striker's track that took over a false striker find at rest on another striking line
(``infer.start_places.came_from``): the shot came along the striker's line from where that line,
run back, meets a striking line, unless a bounce off a rim could have brought it back in time.
Hand-made tracks at 30 fps, board mm (k4h_9942 at 3.2 s)."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.infer.start_places import came_from
from tracker.track.datatypes import Sample, Track
from tracker.track.tracker import TrackerConfig

B = KoronaBoard()
FALSE = (4.0, 358.0)  # a striker "found" twice by the north row, where north's striker would wait
T0 = 3.23


def _striker(speed: float) -> Track:
    """Seen at rest at ``FALSE`` at 2.83 s and 2.87 s, then first seen on its way at (19, -114) at
    ``T0``, running north at ``speed`` mm/s (south's striker, flicked from its line unseen)."""
    tr = Track(id=11, kind=STRIKER, radius=B.striker_radius, xy=np.array(FALSE), born=2.83)
    tr.path = [Sample(2.83, *FALSE, True), Sample(2.87, *FALSE, True)]
    tr.path += [Sample(T0 + k / 30, 19.0 - 0.03 * k, -114.0 + speed / 30 * k, True) for k in range(8)]
    return tr


def _came(tr: Track) -> tuple[float, float] | None:
    return came_from(B, tr, FALSE, T0, TrackerConfig.decel, TrackerConfig.restitution)


def test_a_striker_first_seen_running_back_at_its_false_rest_place_came_from_the_striking_line_behind_it() -> None:
    at = _came(_striker(1270.0))
    assert at is not None and B.rim_zone_of(*at) == "south"
    assert abs(at[0] - 19.0) < 5.0 and abs(at[1] + (B.half - B.striking_line_offset)) < 5.0


def test_a_run_back_fast_enough_to_have_come_off_the_far_rim_keeps_its_start() -> None:
    """Flicked north-to-south at 3 m/s, off the south rim and back: it may well have been."""
    assert _came(_striker(3200.0)) is None


def test_a_striker_running_away_from_its_rest_place_keeps_its_start() -> None:
    tr = _striker(1270.0)
    tr.path = tr.path[:2] + [Sample(T0 + k / 30, 4.0, 300.0 - 42.0 * k, True) for k in range(8)]
    assert _came(tr) is None


def test_a_striker_first_seen_far_off_the_line_from_its_rest_place_sooner_than_it_could_get_there_came_along_its_line() -> None:
    """South's striker, first seen mid-board running north-east, was joined to a false striker in
    the west rim zone 444 mm off, seen there a frame before (k4h_9966 at 31.7 s): no striker
    gets there so soon, and its line run back meets south's striking line."""
    west = (-354.0, -69.0)
    tr = Track(id=22, kind=STRIKER, radius=B.striker_radius, xy=np.array(west), born=20.0)
    tr.path = [Sample(20.0 + k / 30, *west, True) for k in range(353)]  # at rest until 31.73 s
    first = tr.path[-1].t + 1 / 30
    tr.path += [Sample(first + k / 30, -6.0 + 27.0 * k, 207.0 + 49.5 * k, True) for k in range(6)]
    at = came_from(B, tr, west, first, TrackerConfig.decel, TrackerConfig.restitution)
    assert at is not None and B.rim_zone_of(*at) == "south", at
    # seen at rest there half a second before instead: a striker flicked from there, turned on the
    # way (by a disc it struck unseen), may have got there: its start stands
    tr.path = [s for s in tr.path if s.t < first - 0.5 or s.t >= first]
    assert came_from(B, tr, west, first, TrackerConfig.decel, TrackerConfig.restitution) is None


def test_a_striker_whose_first_sightings_make_no_line_keeps_its_start() -> None:
    """Its first sighting off its rest place is a false find by a disc it passes (k4h_9924 at
    33.4 s: north's striker, flicked from its line, "seen" 60 mm off its way at a south disc);
    the next step does not carry on along the line of the first two, so there is no line to run
    back along: the start it was seen flicked from stands."""
    north = (225.0, 318.0)
    tr = Track(id=50, kind=STRIKER, radius=B.striker_radius, xy=np.array(north), born=32.33)
    tr.path = [Sample(32.33 + k / 30, *north, True) for k in range(30)]
    first = tr.path[-1].t + 1 / 30
    tr.path += [Sample(first, 208.0, 296.0, True), Sample(first + 1 / 30, 266.0, 257.0, True)]
    tr.path += [Sample(first + (k + 2) / 30, 149.0 - 28.0 * k, 219.0 - 30.0 * k, True) for k in range(6)]
    assert came_from(B, tr, north, first, TrackerConfig.decel, TrackerConfig.restitution) is None
