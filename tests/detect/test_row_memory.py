"""Korona rows kept between full passes (``row_memory.py``, issue #5): a setup row that a hand
reaches over is reported whole again on the first incremental pass after the hand has gone (not
only at the next full pass), and a disc taken away under the hand is not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tracker.calibration.datatypes import Calibration
from tracker.detect.detector import DetectorSettings, DiscDetector

pytest.importorskip("tracker.render")
from tests.detect.korona_row import LINE, ROW, R, render_row  # noqa: E402

SIZE = (800, 600)


def _shot(xs: tuple[float, ...]) -> tuple[np.ndarray, Calibration]:
    return render_row(xs, SIZE, 567.0)


def _hand_over(img: np.ndarray, calib: Calibration, x0: float, x1: float) -> np.ndarray:
    """``img`` with a skin-coloured arm across the row from ``x0`` to ``x1`` mm."""
    corners = np.array([[x0, LINE - 40.0], [x1, LINE - 40.0], [x1, LINE + 120.0], [x0, LINE + 120.0]])
    px = np.round(calib.to_image(corners)).astype(np.int32)
    out = img.copy()
    cv2.fillPoly(out, [px], (120, 160, 215))
    return out


def _run(frames: list[np.ndarray], calib: Calibration, memory: bool) -> list[np.ndarray]:
    det = DiscDetector(calib, "korona", settings=DetectorSettings(row_memory=memory))
    return [det.detect(f).xy for f in frames]


def _has(xy: np.ndarray, x: float) -> bool:
    return len(xy) > 0 and float(np.hypot(*(xy - [x, LINE]).T).min()) < 5.0


def test_a_row_is_whole_again_once_the_hand_has_gone() -> None:
    img, calib = _shot(ROW)
    hand = _hand_over(img, calib, ROW[1] - R, ROW[5] + R)
    frames = [img, img, hand, hand, img]  # the row at rest (seen twice), a hand over it, gone
    got = _run(frames, calib, memory=True)
    assert all(_has(got[1], x) for x in ROW)  # the full pass finds the whole row
    assert not any(_has(got[2], x) for x in ROW[2:5])  # under the hand: not reported
    assert all(_has(got[4], x) for x in ROW)  # hand gone: all back on an incremental pass
    without = _run(frames, calib, memory=False)
    assert sum(_has(without[4], x) for x in ROW) < len(ROW)  # the incremental search alone misses some


def test_a_disc_taken_away_under_the_hand_is_not_reported() -> None:
    img, calib = _shot(ROW)
    fewer, _ = _shot(ROW[:3] + ROW[4:])  # the fourth disc gone
    hand = _hand_over(img, calib, ROW[1] - R, ROW[5] + R)
    got = _run([img, img, hand, fewer, fewer], calib, memory=True)
    assert all(_has(got[1], x) for x in ROW)
    assert not _has(got[3], ROW[3]) and not _has(got[4], ROW[3])  # bare board there
    assert all(_has(got[4], x) for x in ROW[:3] + ROW[4:])  # the others are back
