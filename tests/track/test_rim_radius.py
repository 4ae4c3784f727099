"""Korona: a disc resting against a rim whose track's radius is too large (its first find
blurred or shadowed) is still held on the board by that rim when struck into it unseen
(``disc_traits.rim_radius``): korona_4p_part at 18.1 s, e4 (track radius 15.3 mm, a disc's 12.5)
forecast 57 mm beyond the west rim."""

from __future__ import annotations

import numpy as np

from tests.track.korona_rim import LIM, B, R, dets, strike
from tracker.detect.datatypes import DISC, STRIKER
from tracker.track.tracker import TrackerConfig


def _struck_into_rim(found_r: float, pressed: bool) -> np.ndarray:
    """A striker driven north-east into a disc resting against the north rim (found with radius
    ``found_r``), its row's next disc touching it on the east; neither is seen from the frame the
    disc is struck. Returns the struck disc's forecast position after that frame."""
    disc, nxt = (-18.0, LIM, DISC, found_r), (-18.0 + 2 * R + 0.5, LIM, DISC, R)
    tk, rim, p, t = strike(TrackerConfig(rim_pressed=pressed), [disc, nxt], (-83.0, 338.0), (650.0, 700.0))
    tk.update(dets([(p[0], p[1], STRIKER, B.striker_radius)]), t)
    assert rim.state == "moving"
    return rim.xy.copy()


def test_a_rim_disc_with_an_oversized_track_stays_within_the_rim() -> None:
    for pressed in (True, False):
        for found_r in (R, R + 3.0):
            at = _struck_into_rim(found_r, pressed)
            assert at[1] <= LIM + 1.0, (pressed, found_r, at)
