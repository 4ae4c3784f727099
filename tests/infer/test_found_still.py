"""A disc lost at rest and found again during a shot, a few millimetres from where it was kept,
did not move: no contact, and the shot does not read as having moved it.

c2h_9802 at 23.2-24.2 s (the detections the tracker followed, 30 fps): s4 stopped at (60, -5)
unseen and was kept at its last sighting, (56, -12); found again at (60, -6) as north's n4 flew
past 22 mm clear, it was read as struck by n4, and n4's foul (it hit only its own n3) was missed.
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.infer.contacts import found_still, infer_contacts

B = CrokinoleBoard()
R = B.disc_radius
N4 = np.array([
    (23.10, 129, 277), (23.13, 129, 277), (23.17, 129, 277), (23.23, 112, 209), (23.27, 104, 171),
    (23.30, 96, 135), (23.33, 88, 100), (23.37, 79, 68), (23.40, 60, 52), (23.43, 34, 37), (23.47, 16, 24),
    (23.50, -2, 13), (23.53, -19, -2), (23.57, -36, -13), (23.60, -51, -24), (23.63, -65, -34),
    (23.67, -73, -43), (23.70, -66, -54), (23.73, -61, -64), (23.77, -56, -72), (23.83, -57, -75),
    (23.87, -59, -73), (23.90, -61, -72), (23.93, -62, -72), (23.97, -62, -72)], float)
S4_KEPT = (56.0, -12.0)  # where the tracker kept s4 (its last sighting)
S4_FOUND = np.array([(23.47, 60, -6), (23.50, 59, -6), (23.53, 59, -6), (23.57, 59, -6), (23.60, 59, -6),
                     (23.63, 59, -6), (23.90, 59, -6)], float)


def test_found_again_beside_its_kept_place_is_no_blow() -> None:
    out = infer_contacts({1: N4, 2: S4_FOUND}, {1: (129.0, 277.0), 2: S4_KEPT}, {1: R, 2: R}, 1, B)
    assert all(2 not in (c.a, c.b) for c in out), out


def test_found_still() -> None:
    assert found_still(S4_FOUND, S4_KEPT, R)
    # found a disc's width away: it was knocked there unseen (a blow, judged as before)
    assert not found_still(S4_FOUND, (S4_FOUND[0, 1] - 2 * R, S4_FOUND[0, 2]), R)
    # seen moving after it was found: a mover
    sliding = S4_FOUND.copy()
    sliding[3:, 1] += 12.0
    assert not found_still(sliding, S4_KEPT, R)


def test_a_disc_seen_at_rest_and_struck_still_counts() -> None:
    """The same shot with s4 seen at its place before n4 came and knocked 9 mm on: a contact."""
    seen = np.array([(23.10, 56, -12), (23.30, 56, -12), (23.43, 56, -12), (23.47, 60, -6), (23.50, 60, -4),
                     (23.53, 60, -4)], float)
    out = infer_contacts({1: N4, 2: seen}, {1: (129.0, 277.0), 2: S4_KEPT}, {1: R, 2: R}, 1, B)
    assert any(2 in (c.a, c.b) for c in out), out
