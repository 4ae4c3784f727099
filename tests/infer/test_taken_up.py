"""Korona: a striker seen once off its place and lost there, having struck no disc that rested
before, was taken up by a hand, not flicked (``striker_motion.taken_up``). After k2e_10005 at
11.6 s: the player not shooting took north's striker off the board; the detector found it once,
47 mm from its place under the gripping hand, and never again, and the hand itself as a "disc"
flying in from mid-board. The tracker held the striker covered where it was last seen, and the
episode was logged as a shot that touched nothing. Hand-made tracks in board mm, judged directly."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER
from tracker.infer import striker_motion
from tracker.infer.judge import judge
from tracker.infer.segmenter import ShotSegmenter
from tracker.track.datatypes import Sample, Track

KB = KoronaBoard()
FPS = 30.0
T0, NOW = 11.57, 12.9
START = (-43.5, -368.2)  # north's striker, at rest on its side since its shot
GRIPPED = (-6.3, -395.9)  # its one sighting as the hand took it up
HAND = [(33.0, -139.4), (-47.6, -207.1), (1.8, -305.6), (-6.4, -354.6)]  # the hand, found as a disc


def _striker(run: list[tuple[float, float]]) -> Track:
    tr = Track(id=1, kind=STRIKER, radius=KB.striker_radius, xy=np.array(START), born=0.0)
    tr.path = [Sample(k / FPS, *START, True) for k in range(int(T0 * FPS))]
    tr.path += [Sample(T0 + (k + 1) / FPS, x, y, True) for k, (x, y) in enumerate(run)]
    tr.last_seen = tr.path[-1].t
    tr.anchor, tr.anchor_n = np.array(run[-1]), 1
    tr.xy, tr.rest_xy, tr.hits = np.array(run[-1]), START, len(tr.path)
    return tr


def _hand() -> Track:
    tr = Track(id=2, kind=DISC, radius=KB.disc_radius, xy=np.array(HAND[-1]), born=T0 - 2 / FPS)
    tr.path = [Sample(T0 + (k - 2) / FPS, x, y, True) for k, (x, y) in enumerate(HAND)]
    tr.last_seen = tr.path[-1].t
    tr.state, tr.occluded = "rest", True
    return tr


def _judge(striker: Track) -> tuple[object, ShotSegmenter]:
    seg = ShotSegmenter(KB)
    seg.in_shot, seg._t0, seg.t = True, T0, NOW
    seg._moved = {1, 2}
    seg._before = {1: START, 2: HAND[0]}
    seg._before_state = {1: "rest", 2: "moving"}
    return judge(seg, [striker, _hand()], NOW, int(NOW * FPS)), seg


def _taken() -> Track:
    tr = _striker([GRIPPED])
    tr.state, tr.occluded = "rest", True  # held covered where it was last seen
    return tr


def test_a_striker_seen_once_off_its_place_and_lost_there_was_taken_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(striker_motion, "TAKEN_UP", True)
    rec, seg = _judge(_taken())
    assert rec is None
    assert "took it up" in seg.rejected[-1][1]


def test_without_the_check_it_was_a_shot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The failure it mends: off, the hand's grip is logged as north's shot."""
    monkeypatch.setattr(striker_motion, "TAKEN_UP", False)
    rec, _ = _judge(_taken())
    assert rec is not None and rec.disc == 1


def test_a_striker_seen_on_its_way_and_at_rest_was_flicked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flicked striker is seen on its way and where it stops: a shot, covered or not."""
    monkeypatch.setattr(striker_motion, "TAKEN_UP", True)
    run = [(START[0], START[1] + 45.0 * k) for k in range(1, 12)]
    run += [run[-1]] * 12
    tr = _striker(run)
    tr.anchor_n = 12
    tr.occluded = True  # a hand over it now
    rec, _ = _judge(tr)
    assert rec is not None and rec.disc == 1


def test_a_striker_lost_as_it_left_but_found_where_it_stopped_was_flicked(monkeypatch: pytest.MonkeyPatch) -> None:
    """k4h_9912 at 13.1 s: north's striker, blurred out of every frame of its run, was found at
    rest 510 mm on as a new track: the flick was a shot, though its own track saw it once."""
    monkeypatch.setattr(striker_motion, "TAKEN_UP", True)
    found = Track(id=3, kind=STRIKER, radius=KB.striker_radius, xy=np.array([-40.0, 140.0]), born=T0 + 0.5)
    found.path = [Sample(T0 + 0.5 + k / FPS, -40.0, 140.0, True) for k in range(20)]
    found.last_seen, found.anchor, found.anchor_n = found.path[-1].t, found.xy.copy(), 20
    striker = _taken()
    assert striker_motion.taken_up(KB, striker, START, T0, [striker, _hand()])
    assert not striker_motion.taken_up(KB, striker, START, T0, [striker, _hand(), found])
