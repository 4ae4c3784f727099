"""A run read as reaching the rim between two frames must not pass through a disc on the way:
that disc stopped it (``contacts._rim_reached``)."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.infer.contacts import infer_contacts

KB = KoronaBoard()

# k4h_9972 at 8.2-8.6 s, the tracker's samples on the detector's cache (30 fps): west's striker
# driven east into w1, lying against the east rim in a row of west's discs; at 8.367 s it lies
# 1.3 mm short of touching w1 and comes back off it. Its run on at full speed for a frame would
# reach the east rim through w1, which was read as a rim bounce first: an unannounced indirect
# shot, a foul (truth: the striker hit w2 and w1, never the rim).
STRIKER = np.array([
    (8.2000, 142.2, 80.9), (8.2333, 190.5, 79.4), (8.2667, 232.8, 79.0), (8.3000, 279.9, 78.4),
    (8.3333, 322.2, 76.5), (8.3667, 370.4, 74.1), (8.4000, 367.7, 78.2), (8.4333, 354.1, 80.3),
    (8.4667, 341.0, 83.5), (8.5000, 330.7, 86.2), (8.5333, 320.4, 87.7), (8.5667, 312.2, 89.5),
    (8.6000, 304.7, 91.2)])
W1 = np.array([
    (8.2000, 407.8, 62.9), (8.2333, 407.8, 62.9), (8.2667, 407.8, 62.9), (8.3000, 407.8, 62.9),
    (8.3333, 407.8, 62.9), (8.4000, 406.3, 60.2), (8.5333, 408.1, 34.6), (8.5667, 408.1, 34.8),
    (8.6000, 407.8, 34.9)])


def test_a_striker_stopped_by_a_disc_at_the_rim_did_not_touch_the_rim_first() -> None:
    out = infer_contacts({1: STRIKER, 2: W1}, {1: (142.2, 80.9), 2: (407.8, 62.9)},
                         {1: 25.6, 2: 12.1}, 1, KB)
    mine = [c.b for c in out if c.a == 1]
    assert mine and mine[0] == 2, out
    assert not any(isinstance(c.b, str) and c.b.startswith("rim") for c in out if c.a == 1), out


def test_a_run_into_the_rim_with_no_disc_in_the_way_still_bounces() -> None:
    """The same run with w1 lying elsewhere (moved by another disc, out of the way): the striker's
    turn back is a bounce off the east rim."""
    away = W1.copy()
    away[:, 2] -= 200.0
    out = infer_contacts({1: STRIKER, 2: away}, {1: (142.2, 80.9), 2: (407.8, -137.1)},
                         {1: 25.6, 2: 12.1}, 1, KB)
    assert [c.b for c in out if c.a == 1][:1] == ["rim:east"], out
