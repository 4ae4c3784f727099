"""Korona: a resting disc unseen since a blow began is not taken for a disc found moving back
towards the blow (``donor_push``, off by default). The detector's finds in board mm (the south
quarter) of two matches. k2e_9705 at 12.93-13.33 s: the striker drove s1 into s2 and the south
rim; s1 squirted out west, unseen a frame, while the detector dropped the row east of it; its
first find going west was joined to s3 (46 mm east of s1's place, s2 touching it on the west),
and s1's own track, sought where the blow's forecast put it, stayed behind. k4h_9984 at 34.33-35.20 s: the south striker drove s4 (at x = -2 mm against the south rim) into
s5 (28 mm); s5's first find going east (58 mm) and s4's on its way out of the row (41 mm), a frame
apart, made one tentative track "going west", and it was joined to s6, resting 23 mm east of the
first find with nothing east of it to push it west: s6's track then followed s4 out into the
field, and s6's name went to s4 (an identity switch)."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.detect.datatypes import Detections
from tracker.track import Tracker, donor_push
from tracker.track.datatypes import Sample, Track

from .korona_frames import KB, id_near

T0 = 34.333
FPS = 30.0
REST = [(198.6, 410.3, 0), (27.7, 409.1, 0), (-68.2, 358.8, 0), (-4.6, 409.5, 0), (81.3, 410.5, 0)]
S6 = (81.3, 410.5)
# frames from 1045 on (before: the discs at rest, ``REST``)
BLOW = [
    [(198.6, 410.3, 0), (27.7, 409.1, 0), (81.3, 410.5, 0), (-68.5, 359.0, 0), (-1.8, 409.6, 0)],
    [(198.6, 410.3, 0), (58.5, 403.7, 0), (-48.2, 387.0, 1)],
    [(198.6, 410.3, 0), (40.9, 390.4, 0), (-64.2, 373.3, 1)],
    [(48.7, 375.9, 0), (198.7, 410.0, 0), (-78.2, 361.6, 1)],
    [(56.9, 361.9, 0), (175.6, 407.1, 0), (102.7, 403.1, 0), (-92.2, 350.3, 1)],
    [(64.0, 349.2, 0), (176.9, 405.9, 0), (119.0, 400.5, 0), (-104.6, 339.3, 1)],
    [(176.9, 405.9, 0), (70.7, 338.5, 0), (133.1, 398.1, 0), (-116.2, 329.5, 1)],
    [(145.8, 395.4, 0), (77.3, 327.2, 0), (177.5, 405.9, 0), (-125.9, 320.8, 1)],
    [(81.6, 318.9, 0), (154.6, 392.4, 0), (179.5, 406.8, 0), (-136.1, 312.7, 1)],
]


# k2e_9705 from 12.933 s: s1..s8 of the south row at rest (``ROW9705``), the striker coming in
ROW9705 = [(289.3, 411.8, 0), (51.9, 411.5, 0), (129.1, 412.0, 0), (16.2, 411.7, 0), (-80.3, 390.2, 0),
           (-59.0, 407.3, 0), (-8.8, 412.5, 0), (-33.8, 412.5, 0)]
S1, S3 = (-80.3, 390.2), (-33.8, 412.5)
BLOW9705 = [
    [(-97.1, 231.6, 1)], [(-94.1, 274.3, 1)], [(-91.1, 321.3, 1)],
    [(289.3, 411.8, 0), (129.1, 412.0, 0), (51.9, 411.7, 0), (-91.3, 360.9, 1)],
    [(289.3, 411.8, 0), (129.1, 412.0, 0), (-45.1, 393.3, 0), (61.6, 411.9, 0), (-92.6, 377.2, 1)],
    [(289.3, 411.8, 0), (129.1, 412.0, 0), (-35.2, 377.0, 0), (81.7, 411.9, 0), (-92.7, 384.1, 1), (-175.1, 385.2, 0)],
    [(289.3, 411.8, 0), (-26.9, 362.3, 0), (130.2, 412.1, 0), (99.7, 412.1, 0), (-92.8, 389.3, 1), (-220.7, 365.9, 0)],
    [(289.3, 411.8, 0), (-19.2, 348.8, 0), (105.2, 412.1, 0), (141.3, 411.2, 0), (46.0, 411.8, 0), (-93.2, 393.3, 1)],
    [(289.3, 411.8, 0), (-12.3, 336.9, 0), (105.0, 412.0, 0), (156.6, 412.0, 0), (48.8, 411.8, 0), (-93.2, 395.8, 1)],
    [(289.3, 411.8, 0), (105.0, 412.0, 0), (-5.4, 325.2, 0), (169.6, 412.0, 0), (50.4, 411.9, 0), (-93.4, 397.7, 1)],
    [(289.3, 411.8, 0), (105.0, 412.0, 0), (50.4, 411.9, 0), (-93.4, 397.7, 1), (0.1, 315.5, 0), (182.2, 411.5, 0)],
]


def _frame(pts: list[tuple[float, float, int]]) -> Detections:
    a = np.array([(x, y) for x, y, _ in pts], float).reshape(-1, 2)
    return Detections(xy=a, kind=np.array([k for *_, k in pts], int), where=np.zeros(len(a), int))


def _s6_track() -> Track:
    tk = Tracker(KB)
    frames = [REST] * 13 + [REST + [(-27.4, 234.5, 1)], REST] + BLOW
    s6 = -1
    for k, pts in enumerate(frames):
        tk.update(_frame(pts), T0 + k / FPS)
        if k == 14:
            s6 = id_near(tk, S6)
    assert s6 >= 0
    tr = tk.get(s6)
    assert tr is not None
    return tr


def _flown_from() -> tuple[float, float]:
    """k2e_9705: where the track that ends out west (s1's flight) was first seen."""
    tk = Tracker(KB)
    frames = [ROW9705] * 15 + [ROW9705 + b for b in BLOW9705[:3]] + BLOW9705[3:]
    for k, pts in enumerate(frames):
        tk.update(_frame(pts), 12.433 + k / FPS)
    flown = [tr for tr in tk.tracks if tr.state in ("rest", "moving") and tr.xy[0] < -200.0]
    assert len(flown) == 1
    first = next(sm for sm in flown[0].path if sm.measured)
    return first.x, first.y


@pytest.mark.parametrize("fallback", [False, True])
def test_the_struck_disc_keeps_its_flight(monkeypatch: pytest.MonkeyPatch, fallback: bool) -> None:
    monkeypatch.setattr(donor_push, "ON", True)
    monkeypatch.setattr(donor_push, "FALLBACK", fallback)
    assert np.hypot(*(np.array(_flown_from()) - S1)) < 1.0


def test_without_the_gate_s3_takes_s1s_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(donor_push, "ON", False)
    assert np.hypot(*(np.array(_flown_from()) - S3)) < 1.0


def test_a_disc_is_not_found_back_towards_the_blow(monkeypatch: pytest.MonkeyPatch) -> None:
    """k4h_9984, the strict gate (no ``FALLBACK``: with it, s6 is still the nearest donor)."""
    monkeypatch.setattr(donor_push, "ON", True)
    monkeypatch.setattr(donor_push, "FALLBACK", False)
    tr = _s6_track()
    # s6 was pushed east or not at all: never seen west of its place (s4's way out of the row)
    assert all(sm.x > S6[0] - tr.radius for sm in tr.path if sm.measured)


def test_without_the_gate_s6_follows_s4(monkeypatch: pytest.MonkeyPatch) -> None:
    """The failure the gate mends: off, s6's track takes s4's way out of the row."""
    monkeypatch.setattr(donor_push, "ON", False)
    tr = _s6_track()
    assert any(sm.x < S6[0] - tr.radius for sm in tr.path if sm.measured)


def test_a_disc_driven_into_a_rim_may_come_back_off_it() -> None:
    """korona_ru_part at 38.0 s: s3, a few cm in from the south rim, struck from the north by the
    striker, bounced off the rim and came back north-west past it: a way back towards the blow
    that only the rim explains."""
    d = Track(id=1, kind=0, radius=12.5, xy=np.array([3.0, 380.0]), anchor=np.array([3.0, 380.0]), anchor_n=20,
              last_seen=38.7)
    striker = Track(id=2, kind=1, radius=25.0, xy=np.array([11.0, 340.0]), state="moving", last_seen=38.7,
                    path=[Sample(38.6, 10.0, 300.0, True), Sample(38.7, 11.0, 340.0, True)])
    new = Track(id=3, kind=0, radius=12.5, xy=np.array([-214.0, 203.0]), path=[Sample(38.8, -214.0, 203.0, True)])
    assert donor_push.pushed_that_way([d, striker], d, new, 38.8, half=KB.half)
    assert not donor_push.pushed_that_way([d, striker], d, new, 38.8)  # no rim: back towards the blow
