"""A crokinole disc lost as it creeps to a stop in the open (slower than a slide ``slide.slid_to``
forecasts) rests where its creep ends, not where it was last seen (c2h_9932 at 8.27 s: n1, last
seen creeping out at 250 mm/s, stopped 12 mm on by the shooting line and stayed unseen 14 s;
kept at its last sighting, the shots that struck it were read as missing it). The sightings
follow known-truth friction (``DECEL``, the tracker's), so the true stop is known."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.track.datatypes import Sample, Track
from tracker.track.fate import resolve_lost
from tracker.track.slide import crept_to
from tracker.track.tracker import TrackerConfig

BOARD = CrokinoleBoard()
DECEL = TrackerConfig.decel
U = np.array([-0.4, 0.92]) / np.hypot(-0.4, 0.92)  # outward, to the north-west
START = np.array([-10.0, 150.0])


def _creeping(v0: float, seen: int = 5) -> tuple[Track, np.ndarray]:
    """A disc sliding along ``U`` from ``START`` at ``v0`` mm/s, seen on ``seen`` frames (30 fps),
    then lost; (its track, its true stop)."""
    tr = Track(id=1, kind=1, radius=BOARD.disc_radius, xy=START.copy(), state="moving")
    for k in range(seen):
        t = k / 30
        x, y = START + U * (v0 * t - DECEL * t * t / 2)
        tr.path.append(Sample(t, float(x), float(y), True))
    tr.xy = np.array([tr.path[-1].x, tr.path[-1].y])
    return tr, START + U * v0 * v0 / (2 * DECEL)


def test_a_disc_lost_creeping_rests_where_its_creep_ends() -> None:
    for creep in (True, False):
        tr, true = _creeping(380.0, 3)  # last seen at 280 mm/s: 26 mm short of its stop
        resolve_lost(BOARD, tr, DECEL, np.zeros((0, 2)), creep=creep)
        err = float(np.hypot(*(tr.xy - true)))
        assert tr.state == "rest"
        assert (err < 2.0) if creep else (err > 10.0)  # else its last sighting


def test_the_creep_ends_at_a_disc_at_rest_on_its_course_and_not_after_a_blow() -> None:
    tr, true = _creeping(380.0, 3)
    s1 = true + U * 10.0  # a disc at rest 10 mm past where it would stop: met 22 mm short
    stop = crept_to(BOARD, tr, DECEL, s1[None, :])
    assert stop is not None and float(np.hypot(*(np.array(stop) - s1))) >= 2 * BOARD.disc_radius - 0.5
    tr, _ = _creeping(380.0, 3)
    last = tr.path[-1]
    resolve_lost(BOARD, tr, DECEL, np.zeros((0, 2)), creep=True, struck_last=True)
    assert np.allclose(tr.xy, (last.x, last.y))  # its blow's heading says nothing: where last seen


def _struck_by_hole() -> Track:
    """c2h_9932 at 4.87 s: n1 seen at 840 mm/s on its way past the 20-hole to (35, 6), where it
    struck s1's place (9, -40) and stopped at (28, -16), 25 mm from the centre."""
    u = np.array([-350.0, -767.0]) / np.hypot(-350.0, -767.0)
    end = np.array([35.0, 6.0])
    tr = Track(id=1, kind=1, radius=BOARD.disc_radius, xy=end.copy(), state="moving")
    for k in range(4):
        t = k / 30
        x, y = end - u * (840.0 * (3 / 30 - t))
        tr.path.append(Sample(t, float(x), float(y), True))
    return tr


def test_a_course_whose_rim_only_crosses_the_hole_stands_past_hole() -> None:
    struck = np.array([[9.0, -40.0]])
    tr = _struck_by_hole()
    resolve_lost(BOARD, tr, DECEL, np.zeros((0, 2)), struck, past_hole=True)
    assert tr.state == "rest" and float(np.hypot(tr.xy[0] - 28.0, tr.xy[1] + 16.0)) < 5.0
    tr = _struck_by_hole()
    resolve_lost(BOARD, tr, DECEL, np.zeros((0, 2)), struck, past_hole=False)
    assert tr.state == "rest" and np.allclose(tr.xy, (35.0, 6.0))  # its last sighting, 23 mm off
