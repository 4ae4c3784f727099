"""A camera bump just before a shot (crokinole_4p_part: bumped at 13.6 s, south shot at 15.2 s).

Seen through the old fit, the bump makes the resting discs jump: the segmenter opens an episode.
The drift check used to wait while an episode was in progress, and then tried the new fit only on
frames whose index was a multiple of 5 (``_bump_tries`` was never set); the fixture's hard-preset
frames fail the board fit one time in two, so the board was found again 1.2 s later, after the
next disc had been put down and flicked unseen: the shot was lost and every later shot named
wrong. Now the board is checked on the first frame of an episode, and the new fit is tried on the
frame the bump is noticed. The camera is faked here (a drift monitor that reports the bump while
the old fit is in use, a board fit that always succeeds): the tracks, segmenter and referee are
the real ones, fed with synthetic detections, as ``Pipeline._step`` feeds them.
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
from tracker.detect.datatypes import Detections
from tracker.pipeline import Pipeline, camera
from tracker.track.synthetic import World

from .bumped import assert_south_shot_scored

SHIFT = np.array([12.0, -11.0])  # mm: where the old fit puts everything once the camera moved
BUMP_T = 1.2  # s: the camera is knocked (after the periodic check at 1.0 s)
SHOT_T = 1.6  # s: south flicks


@cache
def world() -> World:
    """North's disc resting inside, south's next disc on the shooting line."""
    w = World(CrokinoleBoard(), seed=3)
    w.place("n1", -58.0, 86.0, cls=1)
    w.place("s2", 13.0, -303.0, cls=0)
    w.run(SHOT_T)
    w.shoot("s2", -10.0, 1000.0)
    w.settle()
    return w


@dataclass
class Report:
    bumped: bool


class FakeDrift:
    """Reports a bump when the fit in use is the one made before ``BUMP_T`` and the camera moved."""

    def __init__(self, p: Pipeline, now: list[float]) -> None:
        self.p, self.now, self.fit = p, now, p.calib

    def check(self, frame: np.ndarray) -> Report:
        return Report(self.now[0] >= BUMP_T and self.fit is None)


class Gate:
    changed = 0.0  # never a cut: only a small part of the picture changes in a bump


def run(monkeypatch: pytest.MonkeyPatch) -> tuple[Pipeline, list[float]]:
    w = world()
    p = Pipeline("crokinole", 2)
    p.start_tracking(w.board)
    now = [0.0]
    fits: list[float] = []
    new_fit = Calibration(homography=np.eye(3), image_size=(64, 64), rms_mm=0.0, board=CrokinoleBoard())

    def calibrate_image(img: Any, game: str, **kw: Any) -> Calibration:
        fits.append(now[0])
        return new_fit

    def start(calib: Calibration, t: float, index: int) -> None:  # ``Pipeline._start`` without a detector
        p.calib = calib
        p.board = p.tracker.board = calib.board

    monkeypatch.setattr(tracker.calibration, "calibrate_image", calibrate_image)
    monkeypatch.setattr(camera, "set_drift", lambda p, img: setattr(p, "drift", FakeDrift(p, now)))
    monkeypatch.setattr(p, "_start", start)
    p.gate = Gate()  # type: ignore[assignment]
    p.drift = FakeDrift(p, now)  # type: ignore[assignment]
    frame = np.zeros((8, 8, 3), np.uint8)
    for i, (t, det) in enumerate(w.frames):
        now[0] = t
        camera.check_drift(p, frame, t, i)
        if p._bumped:  # ``Pipeline._step``: nothing is tracked until the board is found again
            continue
        if t >= BUMP_T and p.calib is None:  # seen through the old fit: everything jumped
            det = Detections(xy=det.xy + SHIFT, cls=det.cls)
        p.process_detections(det, t, i)
    p.finish()
    return p, fits


def test_a_bump_is_noticed_when_its_motion_starts_and_the_board_fitted_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    p, fits = run(monkeypatch)
    assert p._bump_t >= BUMP_T and p._bump_t - BUMP_T < 0.1, p._bump_t  # not after the episode
    assert fits and fits[0] == p._bump_t  # the first try is on the frame it was noticed
    assert p.calib is not None


def test_the_shot_after_a_bump_is_scored(monkeypatch: pytest.MonkeyPatch) -> None:
    p, _ = run(monkeypatch)
    assert_south_shot_scored(p, world().truth_end()["s2"])
