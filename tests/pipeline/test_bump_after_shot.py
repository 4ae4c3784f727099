"""A camera bump as a shot's motion ends (c2h_9602: knocked over frames 422-425, during the
segmenter's wait for the discs to settle; the episode closed at 427).

During an episode the board is checked every ``drift_in_shot`` seconds, between shots every
``drift_every``, counted from the last look: the look after the episode came 1 s after the one
before it, at frame 451, and for those 24 frames every disc was measured through the old fit
(28 mm off). Now the board is also checked on the first frame after an episode. The camera is
faked as in ``test_bump.py`` (a drift monitor that reports the bump once the camera moved while
the old fit is in use, a board fit that always succeeds); the tracks, segmenter and referee are
the real ones, fed with synthetic detections.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pytest

import tracker.calibration
from tracker.boards import CrokinoleBoard
from tracker.calibration import Calibration
from tracker.pipeline import Pipeline, camera
from tracker.track.synthetic import World

SHOT_T = 1.0  # s: south flicks


@cache
def world() -> World:
    """South's disc flicked from the shooting line, coming to rest inside."""
    w = World(CrokinoleBoard(), seed=5)
    w.place("n1", -58.0, 86.0, cls=1)
    w.place("s2", 13.0, -303.0, cls=0)
    w.run(SHOT_T)
    w.shoot("s2", -10.0, 1000.0)
    w.settle(2.0)
    return w


@dataclass
class Report:
    bumped: bool


class Gate:
    changed = 0.0  # never a cut: only a small part of the picture changes in a bump


def run(monkeypatch: pytest.MonkeyPatch, bump_t: float) -> tuple[Pipeline, float | None]:
    """The match with the camera moved at ``bump_t``: the pipeline, and when its episode ended."""
    w = world()
    p = Pipeline("crokinole", 2)
    p.start_tracking(w.board)
    now = [0.0]
    new_fit = Calibration(homography=np.eye(3), image_size=(64, 64), rms_mm=0.0, board=CrokinoleBoard())

    class FakeDrift:
        def __init__(self, p: Pipeline, img: Any = None) -> None:
            self.fit = p.calib

        def check(self, frame: np.ndarray) -> Report:
            return Report(now[0] >= bump_t and self.fit is None)

    def start(calib: Calibration, t: float, index: int) -> None:  # ``Pipeline._start`` without a detector
        p.calib = calib
        p.board = p.tracker.board = calib.board

    monkeypatch.setattr(tracker.calibration, "calibrate_image", lambda img, game, **kw: new_fit)
    monkeypatch.setattr(camera, "set_drift", lambda p, img: setattr(p, "drift", FakeDrift(p)))
    monkeypatch.setattr(p, "_start", start)
    p.gate = Gate()  # type: ignore[assignment]
    p.drift = FakeDrift(p)  # type: ignore[assignment]
    frame = np.zeros((8, 8, 3), np.uint8)
    ended = None
    for i, (t, det) in enumerate(w.frames):
        now[0] = t
        was = p.segmenter.in_shot
        camera.check_drift(p, frame, t, i)
        if not p._bumped:
            p.process_detections(det, t, i)
        if was and not p.segmenter.in_shot and ended is None:
            ended = t
    p.finish()
    return p, ended


def test_a_bump_as_a_shot_ends_is_noticed_on_the_first_frame_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    _, ended = run(monkeypatch, bump_t=np.inf)  # where the episode ends, the camera left alone
    assert ended is not None and ended > SHOT_T
    p, _ = run(monkeypatch, bump_t=ended)  # the camera moved as the discs came to rest
    assert p._bump_t >= ended and p._bump_t - ended < 0.1, (p._bump_t, ended)
