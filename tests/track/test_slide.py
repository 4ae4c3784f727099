"""A crokinole disc lost while it slides in the open, and never found at rest: the lamp's glare
bleaches the board around a pale disc so its outline does not close (c4h_9403 at 8.7 s: n1,
last seen 480 mm/s inward at (-11, 147), slid on unseen to (-12, 55)). Discs move in the
known-truth physics of ``tracker.track.synthetic``; a "hand" that never lifts stands for the
glare: nothing is seen within it."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.track import Tracker
from tracker.track.datatypes import Sample, Track
from tracker.track.slide import slid_to
from tracker.track.synthetic import World

BOARD = CrokinoleBoard()


def _glare_world(others: list[tuple[float, float]]) -> World:
    w = World(BOARD, fps=30, seed=4)
    for k, (x, y) in enumerate(others):
        w.place(f"s{k + 1}", x, y, cls=0)
    w.place("n1", -12.0, 300.0, cls=1)
    w.run(0.5)
    w.hand(-12.0, 55.0, 100.0, 10.0)  # the glare: unseen within 100 mm of (-12, 55)
    w.shoot("n1", 0.0, -float(np.sqrt(2 * w.decel * 245.0)))  # stops 245 mm on, at (-12, 55)
    w.settle(2.0)
    return w


def _n1(w: World) -> tuple[Tracker, np.ndarray]:
    tk = Tracker(BOARD)
    for t, det in w.frames:
        tk.update(det, t)
    n1 = [tr for tr in tk.tracks if tr.born < 0.5 and tr.cls == 1]
    assert len(n1) == 1
    return tk, np.array(n1[0].position())


def test_a_disc_lost_sliding_in_the_open_rests_where_its_course_stops() -> None:
    w = _glare_world([])
    true = w.truth_end()["n1"]
    assert isinstance(true, tuple) and abs(true[1] - 55.0) < 3
    _, at = _n1(w)
    assert np.hypot(*(at - np.array(true))) < 10.0  # not at its last sighting, 100 mm back


def _sliding(speed: float) -> Track:
    """A disc seen sliding straight south along x = -12 at ``speed`` mm/s, last at y = 150."""
    tr = Track(id=1, kind=0, radius=BOARD.disc_radius, xy=np.array([-12.0, 150.0]), state="moving")
    for k in range(6):
        t = k / 30
        tr.path.append(Sample(t, -12.0, 150.0 + speed * (5 / 30 - t), True))
    return tr


def test_the_course_is_not_forecast_through_a_resting_disc_nor_for_a_hand_carried_one() -> None:
    """A disc at rest on the course may have stopped the slider (a blow nobody saw), and a slow
    disc may be in a hand: the last sighting stands for both (None)."""
    stop = slid_to(BOARD, _sliding(550.0), 1500.0, np.zeros((0, 2)))
    assert stop is not None and abs(stop[0] + 12.0) < 0.5 and 50.0 < stop[1] < 120.0  # on along its line
    assert slid_to(BOARD, _sliding(550.0), 1500.0, np.array([[0.0, 100.0]])) is None
    assert slid_to(BOARD, _sliding(200.0), 1500.0, np.zeros((0, 2))) is None
