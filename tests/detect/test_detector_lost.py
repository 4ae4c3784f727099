"""Resting discs hidden by a passing hand (issue #5), by the two opt-in ways the detector keeps
them: ``lost.py`` (``restore_lost``: a disc comes back at its old centre when its place looks as
before) and ``row_memory.py`` (``row_memory``: a korona row disc stays reported while its place
shows it). A korona setup row that a hand sweeps over is whole again as soon as the hand has
gone -- not only at the next full pass -- and a disc taken away under the hand is not brought
back."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.calibration.datatypes import Calibration
from tracker.detect.detector import DetectorSettings, DiscDetector

pytest.importorskip("tracker.render")
from tests.detect.korona_row import ROW, R, hand_over, has_at, render_row  # noqa: E402

SIZE = (800, 600)
WAYS = ("restore_lost", "row_memory")


def _run(frames: list[np.ndarray], calib: Calibration, way: str | None) -> list[np.ndarray]:
    settings = DetectorSettings(**{way: True}) if way else DetectorSettings()
    det = DiscDetector(calib, "korona", settings=settings)
    return [det.detect(f).xy for f in frames]


@pytest.mark.parametrize("way", WAYS)
def test_a_row_is_whole_again_once_the_hand_has_gone(way: str) -> None:
    img, calib = render_row(ROW, SIZE, 567.0)
    hand = hand_over(img, calib, ROW[1] - R, ROW[5] + R)
    frames = [img, img, hand, hand, img]  # the row at rest (seen twice), a hand over it, gone
    got = _run(frames, calib, way)
    assert all(has_at(got[1], x) for x in ROW)  # the full pass finds the whole row
    assert not any(has_at(got[2], x) for x in ROW[2:5])  # under the hand: not reported
    assert all(has_at(got[4], x) for x in ROW)  # hand gone: all back on an incremental pass
    without = _run(frames, calib, None)
    assert sum(has_at(without[4], x) for x in ROW) < len(ROW)  # the incremental search alone misses some


@pytest.mark.parametrize("way", WAYS)
def test_a_disc_taken_away_under_the_hand_is_not_brought_back(way: str) -> None:
    img, calib = render_row(ROW, SIZE, 567.0)
    fewer, _ = render_row(ROW[:3] + ROW[4:], SIZE, 567.0)  # the fourth disc gone
    hand = hand_over(img, calib, ROW[1] - R, ROW[5] + R)
    got = _run([img, img, hand, fewer, fewer], calib, way)
    assert all(has_at(got[1], x) for x in ROW)
    assert not has_at(got[3], ROW[3]) and not has_at(got[4], ROW[3])  # bare board there
