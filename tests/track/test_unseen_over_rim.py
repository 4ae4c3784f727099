"""Korona: a disc knocked away unseen is not forecast over a rim, however hard the blow drove it
into the rim (``TrackerConfig.unseen_over_rim`` off): a disc jumps a rim only now and then even
when struck hard (the rendered matches: a chance growing from 0 at 1500 mm/s into the rim to 1 in
2 at 3500), so its forecast comes back off the rim, and whether it went over is judged from what
is seen after (``infer.rim_gone``). k4h_9996 at 26.3 s: a south row disc, struck into the north
rim by the striker at 1.7 m/s and lost, was forecast over the rim and called off the board; it
came back off the rim and was seen again 6 mm from its place 0.07 s later."""

from __future__ import annotations

import numpy as np

from tests.track.korona_rim import LIM, R, strike, unseen_for
from tracker.detect.datatypes import DISC
from tracker.track.tracker import TrackerConfig


def _struck_hard_into_rim(cfg: TrackerConfig) -> tuple[str, np.ndarray]:
    """A striker driven north at 2.4 m/s straight into a disc resting against the north rim;
    neither is seen from the frame it strikes. Returns the disc's state and place 0.5 s on (past
    the tracker's ``lost_after``: its fate decided)."""
    tk, rim, _, t = strike(cfg, [(40.0, LIM, DISC, R)], (40.0, 150.0), (0.0, 2400.0))
    unseen_for(tk, 15, t)
    return rim.state, rim.xy.copy()


def test_a_disc_struck_hard_into_the_rim_unseen_stays_on_the_board() -> None:
    state, at = _struck_hard_into_rim(TrackerConfig(unseen_over_rim=False))
    assert state != "off", (state, at)
    assert abs(at[1]) <= LIM + 1.0, at


def test_with_it_the_disc_was_called_off() -> None:
    state, _ = _struck_hard_into_rim(TrackerConfig(unseen_over_rim=True))
    assert state == "off"
