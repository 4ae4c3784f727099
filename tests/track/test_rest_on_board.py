"""Korona: a disc resting against a rim whose place is measured a mm or two past its limit by
that rim is still on the board: struck into the rim unseen, its forecast folds back off the rim
(``TrackerConfig.rest_on_board``, ``rims.on_board``). k4h_9912 at 23.13 s: s7, at rest 1.9 mm
past the north rim's limit, struck into it by south's striker and lost, was forecast straight
through the rim as if it had jumped it already and called off the board; it came back off the
rim into the field."""

from __future__ import annotations

import numpy as np

from tests.track.korona_rim import LIM, B, R, strike, unseen_for
from tracker.detect.datatypes import DISC
from tracker.track.rims import on_board
from tracker.track.tracker import TrackerConfig


def _struck_into_rim(past: float, cfg: TrackerConfig) -> tuple[str, np.ndarray]:
    """A striker driven north-east (650, 700 mm/s) into a disc resting against the north rim,
    measured ``past`` mm beyond its limit, its row's next disc touching it on the east (in the
    way along the rim: ``rims.pressed_into_rim`` leaves the blow to the row); neither is seen
    from the frame the disc is struck, nor the striker. Returns the disc's state and place a
    few frames on."""
    disc, nxt = (-18.0, LIM + past, DISC, R), (-18.0 + 2 * R + 0.5, LIM + past, DISC, R)
    tk, rim, _, t = strike(cfg, [disc, nxt], (-83.0, 338.0), (650.0, 700.0))
    unseen_for(tk, 4, t)
    return rim.state, rim.xy.copy()


# mm past the limit: the 1.9 mm of k4h_9912 counted from a track radius 0.8 mm under the board's
# disc radius (the measured place is taken against the limit of the track's own radius,
# ``disc_traits.rim_radius``); here the track has the board's radius
PAST = 3.0


def test_a_rim_disc_measured_past_its_limit_is_struck_back_off_the_rim() -> None:
    state, at = _struck_into_rim(PAST, TrackerConfig(rest_on_board=True))
    assert state in ("moving", "rest"), state
    assert at[1] <= LIM + 1.0, at


def test_without_it_the_forecast_ran_through_the_rim() -> None:
    _, at = _struck_into_rim(PAST, TrackerConfig(rest_on_board=False))
    assert at[1] > LIM + 2 * R, at


def test_on_board_clamps_to_the_rims_limits_only() -> None:
    assert np.allclose(on_board(B, np.array([-18.0, LIM + 1.9]), R), [-18.0, LIM])
    assert np.allclose(on_board(B, np.array([LIM + 3.0, -LIM - 1.0]), R), [LIM, -LIM])
    assert np.allclose(on_board(B, np.array([10.0, -20.0]), R), [10.0, -20.0])
