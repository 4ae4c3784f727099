"""A disc struck where it cannot move: the shot disc's turn beside a disc that stayed at rest.

c2h_9956 at 21.6-22.7 s (the detections the tracker followed, 30 fps): n4, shot from the north,
struck s4, which lay against a peg (the renderer's log: n4-s4, s4-peg, n4-s4, n4-peg); s4 moved
under 4 mm and back, so it never joined the movers, and n4, unseen for seven frames beside it,
turned 90 degrees there. Without the contact the rules called the shot a foul (no opponent disc
hit) and removed n4.
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.infer.contacts import infer_contacts

B = CrokinoleBoard()
R = B.disc_radius
N4 = np.array([
    (21.60, -92, 291), (21.63, -92, 291), (21.67, -88, 251), (21.70, -84, 210), (21.73, -80, 170),
    (21.77, -76, 131), (21.80, -72, 93), (21.83, -68, 58), (21.87, -64, 24), (21.90, -61, -10),
    (22.17, -113, 6), (22.27, -125, -6), (22.30, -125, -6), (22.33, -128, -11), (22.37, -130, -12),
    (22.40, -130, -12), (22.43, -130, -12)], float)
S4 = (-50.0, -67.0)  # where s4 lay (against the peg at 202.5 degrees), and stayed
N1, N3 = (-22.0, 31.0), (129.0, 149.0)  # the other discs at rest, away from n4's turn


def _contacts(still: dict[int, tuple[float, float]] | None) -> list[tuple[object, object]]:
    rest = {1: (-92.0, 291.0), 2: S4, 3: N1, 4: N3}
    out = infer_contacts({1: N4}, rest, {1: R, 2: R, 3: R, 4: R}, 1, B, still=still)
    return [(c.a, c.b) for c in out]


def test_turn_beside_a_disc_that_stayed_put_is_a_hit_on_it() -> None:
    assert (1, 2) in _contacts({2: S4, 3: N1, 4: N3})


def test_without_the_still_discs_the_turn_explains_nothing() -> None:
    """(the reading before: the foul)"""
    assert _contacts(None) == []


def test_a_disc_the_run_passes_clear_of_is_not_struck() -> None:
    """The same turn with the resting disc 40 mm further off n4's run (its centre 45 mm from the
    run's line): nothing touched it."""
    away = (S4[0] + 40.0, S4[1])
    assert _contacts({2: away, 3: N1, 4: N3}) == []


def test_a_run_straight_past_a_resting_disc_is_no_hit() -> None:
    """No sharp turn, no contact, however close the run passes."""
    line = np.array([(0.1 * i, -150.0 + 40.0 * i, -67.0 + 2 * R + 1.0) for i in range(8)])
    rest = {1: (-150.0, -67.0 + 2 * R + 1.0), 2: S4}
    out = infer_contacts({1: line}, rest, {1: R, 2: R}, 1, B, still={2: S4})
    assert out == []
