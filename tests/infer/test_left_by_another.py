"""Korona: a striker run from where another seat's shot left it, not moved since, is no shot of the
seat whose zone it lies in (``striker_motion.left_by_another``). After k4h_9996 at 14.9 s: west's
striker, left at (319, 9) in east's zone by west's shot, was lifted and carried off over the west
rim at 2.2 m/s by a hand, unseen under it for 0.43 s and first found 500 mm on; the run was logged
as an east shot. Hand-made tracks in board mm, judged directly."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.infer import striker_motion
from tracker.infer.judge import judge
from tracker.infer.segmenter import ShotSegmenter
from tracker.track.datatypes import Sample, Track

KB = KoronaBoard()
FPS = 30.0
LAST, T0, NOW = 14.43, 14.87, 15.43
LEFT = (319.0, 9.1)  # where west's shot left west's striker, in east's zone
RUN = [(-180.2, 55.1), (-253.0, 59.3), (-323.0, 63.1), (-395.2, 71.1)]  # found on its way, 2.2 m/s


def _judge(left_by: str, at: tuple[float, float] = LEFT) -> tuple[object, ShotSegmenter]:
    tr = Track(id=1, kind=STRIKER, radius=KB.striker_radius, xy=np.array(RUN[-1]), born=10.9)
    tr.path = [Sample(10.9 + k / FPS, *LEFT, True) for k in range(int((LAST - 10.9) * FPS) + 1)]
    tr.path += [Sample(T0 + k / FPS, x, y, True) for k, (x, y) in enumerate(RUN)]
    tr.last_seen, tr.state = tr.path[-1].t, "off"
    seg = ShotSegmenter(KB)
    seg.in_shot, seg._t0, seg.t = True, T0, NOW
    seg._moved, seg._before, seg._before_state = {1}, {1: LEFT}, {1: "rest"}
    seg.left_by = {1: (left_by, at)}
    return judge(seg, [tr], NOW, int(NOW * FPS)), seg


def test_another_seats_striker_carried_off_from_where_its_shot_left_it_is_no_shot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(striker_motion, "LEFT_BY_ANOTHER", True)
    rec, seg = _judge("west")
    assert rec is None
    assert "west's shot left it" in seg.rejected[-1][1]


def test_without_the_check_it_was_an_east_shot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The failure it mends: off, the hand's carry is logged as a shot from east's zone."""
    monkeypatch.setattr(striker_motion, "LEFT_BY_ANOTHER", False)
    rec, _ = _judge("west")
    assert rec is not None and rec.disc == 1 and KB.seat_of(*rec.start) == "east"


def test_own_striker_or_one_set_down_since_is_shot(monkeypatch: pytest.MonkeyPatch) -> None:
    """East's own striker left in east's zone by east's shot may be shot from there again; and a
    striker resting elsewhere than its last shot left it was set down by a hand since."""
    monkeypatch.setattr(striker_motion, "LEFT_BY_ANOTHER", True)
    rec, _ = _judge("east")
    assert rec is not None
    rec, _ = _judge("west", at=(LEFT[0] + 12.0, LEFT[1] - 6.0))
    assert rec is not None
