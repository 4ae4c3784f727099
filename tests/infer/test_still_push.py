"""A shot that runs into a disc at rest the detector does not see, and loses its push towards it,
struck it (``contacts._lost_its_push``).

c2h_9944 at 10.47 s (n2's sightings below): n2, running at 680 mm/s, struck s2 (red on the red
board, never seen at rest, kept at (5.7, -30.1)) 31 mm from its place and went on at 210 mm/s
across the line of centres; its next sample lay 0.5 mm nearer s2's place than where they met, so
"it bounced off" did not hold, no contact was read and the shot was called a foul (no opponent
disc hit), n2 removed."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.infer.contacts import infer_contacts

BOARD = CrokinoleBoard()
R = BOARD.disc_radius
N2 = np.array([[10.333, 100.6, 92.4], [10.367, 81.9, 64.6], [10.4, 58.1, 34.1], [10.433, 42.7, 7.1],
               [10.467, 30.8, -12.1], [10.5, 33.8, -18.4], [10.533, 37.1, -24.4], [10.567, 39.3, -30.3],
               [10.6, 43.1, -34.9], [10.633, 45.5, -38.0], [10.667, 46.8, -38.6]])


def _contacts(s2: tuple[float, float]) -> list[tuple[int, int | str]]:
    rest = {4: (196.8, 233.9), 3: s2}
    found = infer_contacts({4: N2}, rest, {4: R, 3: R}, 4, BOARD, still={3: s2})
    return [(c.a, c.b) for c in found]


def test_a_run_that_lost_its_push_at_a_resting_disc_struck_it() -> None:
    assert (4, 3) in _contacts((5.7, -30.1))


def test_a_disc_the_run_passed_clear_of_was_not_struck() -> None:
    """The same run, with the disc at rest 30 mm farther on (out of the run's reach): no contact."""
    assert (4, 3) not in _contacts((-20.0, -45.0))
