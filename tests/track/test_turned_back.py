"""Korona: a mover whose last step turned straight back, away from any rim, took another disc's
detection; no blow is forecast from it (``turned_back``). Hand-made detections in board mm after
k4h_9966 at 3.8 s: s1's track, going west along the north rim, took s2's detection 47 mm back
east and was read at 1410 mm/s east; the forecast drove s3's track (unseen that frame) east along
the rim into the ne pocket."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.detect.datatypes import DISC, Detections
from tracker.track import Tracker, turned_back
from tracker.track.datatypes import Sample, Track

from .korona_frames import KB, id_near

FPS = 30.0
Y = 412.5  # against the north rim
A0, B0 = (-100.0, Y), (-50.0, Y)


def _frame(pts: list[tuple[float, float]]) -> Detections:
    a = np.array(pts, float).reshape(-1, 2)
    return Detections(xy=a, kind=np.full(len(a), DISC, int), where=np.zeros(len(a), int))


def _run() -> tuple[Tracker, int]:
    """A and B rest a second; A runs west along the rim (three sightings), its track is then
    given a find 45 mm back east, and B goes unseen for a frame before it is found in place.
    Returns the tracker and B's track id."""
    tk = Tracker(KB)
    for k in range(30):
        tk.update(_frame([A0, B0]), k / FPS)
    b = id_near(tk, B0)
    seen = [[(-120.0, Y), B0], [(-140.0, Y), B0], [(-160.0, Y), B0], [(-115.0, Y), B0], [], [B0], [B0], [B0]]
    for k, pts in enumerate(seen):
        tk.update(_frame(pts), (30 + k) / FPS)
    return tk, b


def test_no_blow_from_a_mover_that_turned_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turned_back, "ON", True)
    tk, b = _run()
    tr = tk.get(b)
    assert tr is not None and tr.state == "rest"
    assert np.hypot(*(np.asarray(tr.position()) - np.array(B0))) < 2.0


def test_without_it_the_resting_disc_is_knocked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The failure it mends: off (the default), the resting disc is sent off on the forecast."""
    monkeypatch.setattr(turned_back, "ON", False)
    tk, b = _run()
    tr = tk.get(b)
    assert tr is not None
    assert tr.state != "rest" or np.hypot(*(np.asarray(tr.position()) - np.array(B0))) > 10.0


def _track(*xs: float, y: float = 0.0) -> Track:
    tr = Track(id=1, kind=DISC, radius=12.5, xy=np.array([xs[-1], y]))
    tr.path = [Sample(k / FPS, x, y, True) for k, x in enumerate(xs)]
    return tr


def test_turned_back_but_not_by_a_rim() -> None:
    assert turned_back.turned_back(KB, _track(-100.0, -140.0, -100.0), 2.5)
    assert not turned_back.turned_back(KB, _track(-100.0, -140.0, -180.0), 2.5)  # straight on
    # running at the east rim and back off it: a bounce
    assert not turned_back.turned_back(KB, _track(350.0, 390.0, 360.0), 2.5)
