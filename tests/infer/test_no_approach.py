"""A mover that never came near a disc that "left" its place did not strike it
(``contacts.APPROACH_MM``): the disc's motion was its detections' scatter."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.infer import contacts
from tracker.infer.contacts import infer_contacts

KB = KoronaBoard()

# korona_ru_part at 23.1-24.3 s (10 fps), the tracker's samples on the fixture's detector cache:
# north's striker, set down 23 mm from south's s2 (truth: never touched, never moved), is shot
# away from it towards n7; s2's detections scatter 8 mm as the striker leaves. Truth contacts:
# the striker and n7 only.
STRIKER = np.array([
    (23.1, -150.6, 320.1), (23.2, -150.6, 320.1), (23.3, -145.9, 314.8), (23.4, -73.4, 211.1),
    (23.5, -4.3, 113.5), (23.6, 57.5, 25.2), (23.7, 113.0, -54.2), (23.8, 161.4, -122.5),
    (23.9, 204.4, -174.3), (24.0, 224.7, -205.1), (24.1, 235.8, -231.8), (24.2, 247.1, -241.4),
    (24.3, 247.1, -241.4)])
S2 = np.array([
    (23.1, -178.0, 373.9), (23.2, -178.0, 373.9), (23.3, -173.7, 380.9), (23.4, -173.7, 380.9),
    (23.5, -174.6, 375.4), (23.6, -178.0, 374.2), (23.7, -178.2, 375.7), (23.8, -178.2, 375.7),
    (24.3, -178.2, 375.7)])
N7 = np.array([(23.1, 221.5, -211.6), (23.8, 221.5, -211.6), (23.9, 220.8, -211.9)])
REST = {1: (-150.8, 319.0), 2: (-178.8, 373.6), 3: (221.5, -211.6)}
RADIUS = {1: 25.1, 2: 12.5, 3: 14.2}


def test_a_disc_the_striker_only_ran_away_from_was_not_struck() -> None:
    out = infer_contacts({1: STRIKER, 2: S2, 3: N7}, REST, RADIUS, 1, KB)
    assert [(c.a, c.b) for c in out] == [(1, 3)], out


def test_without_the_approach_test_it_was_struck_first() -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(contacts, "APPROACH_MM", None)
        out = infer_contacts({1: STRIKER, 2: S2, 3: N7}, REST, RADIUS, 1, KB)
    assert [(c.a, c.b) for c in out][:1] == [(1, 2)], out


def test_a_striker_running_up_to_a_disc_still_strikes_it() -> None:
    """The same striker shot the other way, up to s2: it comes 20 mm nearer than it started and
    s2 is knocked (it is seen 12 mm off its place)."""
    back = STRIKER.copy()
    back[2:, 1:] = np.array([(-155.4, 325.4), (-160.0, 331.0), (-166.0, 342.0)] + [(-166.0, 342.0)] * 8)
    s2 = S2.copy()
    s2[4:, 1:] = (-186.0, 385.0)
    out = infer_contacts({1: back, 2: s2}, {1: REST[1], 2: REST[2]}, {1: 25.1, 2: 12.5}, 1, KB)
    assert [(c.a, c.b) for c in out][:1] == [(1, 2)], out
