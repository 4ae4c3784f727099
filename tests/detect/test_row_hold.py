"""Korona row places kept through the picture's grain (``DetectorSettings.row_hold``): a place
the row pass put in (no fit of its own: only a full pass finds it) is kept by an incremental pass
while only a few pixels of its silhouette changed, and dropped as before when its disc has gone."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.calibration.datatypes import Calibration
from tracker.detect.detector import DetectorSettings, DiscDetector
from tracker.detect.rows import predicted

pytest.importorskip("tracker.render")
from tests.detect.korona_row import LINE, ROW, has_at, render_row  # noqa: E402

SIZE = (480, 360)
HOLD = 0.25


def _speck(img: np.ndarray, calib: Calibration, x: float) -> np.ndarray:
    """``img`` with a few image pixels at the row place ``x`` brightened: a grain or a flicker of
    light, no disc moved."""
    uv = calib.to_image(np.array([[x, LINE]]))[0]
    u, v = int(round(float(uv[0]))), int(round(float(uv[1])))
    out = img.copy()
    out[v: v + 2, u: u + 3] = np.clip(out[v: v + 2, u: u + 3].astype(int) + 60, 0, 255).astype(np.uint8)
    return out


def _run(frames: list[np.ndarray], calib: Calibration, hold: float) -> list[np.ndarray]:
    det = DiscDetector(calib, "korona", settings=DetectorSettings(row_hold=hold))
    out = []
    for f in frames:
        d = det.detect(f)
        out.append(d.xy[predicted(d)] if len(out) == 0 else d.xy)
    return out


def _a_place(img: np.ndarray, calib: Calibration) -> float:
    """A place of the row the full pass put in (not fitted)."""
    places = _run([img], calib, HOLD)[0]
    inner = [x for x in ROW if has_at(places, x)]
    assert inner, "the full pass fitted every disc: no row place to hold"
    return inner[len(inner) // 2]


def test_a_row_place_is_kept_through_a_speck_of_changed_pixels() -> None:
    img, calib = render_row(ROW, SIZE, 340.0)
    x = _a_place(img, calib)
    frames = [img, _speck(img, calib, x)]
    assert has_at(_run(frames, calib, HOLD)[1], x)
    assert not has_at(_run(frames, calib, 0.0)[1], x)  # off: any changed pixel drops it


def test_a_row_place_whose_disc_has_gone_is_dropped() -> None:
    img, calib = render_row(ROW, SIZE, 340.0)
    x = _a_place(img, calib)
    fewer, _ = render_row(tuple(r for r in ROW if r != x), SIZE, 340.0)
    assert not has_at(_run([img, fewer], calib, HOLD)[1], x)
