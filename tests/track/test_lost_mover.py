"""A crokinole disc missed for frames in flight and found again stopping further on its line is
that disc, not a new one (hand-made detections, board mm, 30 fps; c4h_9993 at 17.7-18.3 s:
w2, flicked at 1.25 m/s, missed for two frames, seen once, then missed for five, found as it
stopped at (66, -12): its own track kept coasting short of it, a new track took w2's end, and
w2's track, put at rest unseen, took s2's run off the board). ``lost_mover.ON``."""

from __future__ import annotations

import numpy as np
import pytest

from tests.track.crokinole_frames import dets, run
from tracker.track import lost_mover

W2 = (-276.3, -128.7)
E1 = (-7.9, 81.3)
# w2's detections (c4h_9993, frames 531-545); None: the detector missed it
FLIGHT: list[tuple[float, float] | None] = [
    (-291.9, -135.8), (-232.8, -115.6), None, None, (-120.9, -75.9), None, None, None, None, None,
    (65.9, -12.4), (67.2, -9.2), (67.8, -6.6), (67.9, -5.5), (67.9, -5.3)]


def _frames() -> list:
    frames = [dets(W2, E1)] * 15
    for xy in FLIGHT:
        frames.append(dets(E1) if xy is None else dets(xy, E1))
    frames += [dets((67.9, -5.4), E1)] * 30
    return frames


def _w2_track(monkeypatch: pytest.MonkeyPatch, on: bool):
    monkeypatch.setattr(lost_mover, "ON", on)
    tk = run(_frames())
    (w2,) = [tr for tr in tk.tracks if np.hypot(tr.path[0].x - W2[0], tr.path[0].y - W2[1]) < 1]
    return tk, w2


def test_a_disc_lost_in_flight_keeps_its_name_where_it_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    tk, w2 = _w2_track(monkeypatch, True)
    assert w2.state == "rest"
    assert np.hypot(w2.position()[0] - 67.9, w2.position()[1] + 5.4) < 2.0, w2.position()
    others = [tr for tr in tk.tracks if tr is not w2 and tr.alive and np.hypot(tr.xy[0] - 67.9, tr.xy[1] + 5.4) < 30]
    assert not others, [(o.id, o.xy) for o in others]


def test_off_the_stopped_disc_is_a_new_track(monkeypatch: pytest.MonkeyPatch) -> None:
    """What it did before (``ON`` False): w2's track is left behind, a new track takes its end."""
    _, w2 = _w2_track(monkeypatch, False)
    assert np.hypot(w2.position()[0] - 67.9, w2.position()[1] + 5.4) > 10.0
