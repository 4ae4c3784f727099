"""The region model (``silhouette.py``) in the detector's reported korona positions, switched on
for korona (``chamfer.REGION_MODEL``; off by default), and for korona discs down to a coarser
picture than crokinole's (``chamfer.MODEL_COARSE_MM_PER_PX``): rendered still frames of discs at
known places (``render.still.spread_frame``), with the true calibration."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect import chamfer
from tracker.detect.detector import DiscDetector

HD = (1280, 720)


@functools.lru_cache(maxsize=8)
def _scene(seed: int, preset: str) -> tuple[np.ndarray, Calibration, np.ndarray]:
    from tracker.render.still import spread_frame

    return spread_frame(KoronaBoard(), preset, HD, seed)


def _errors(seed: int, preset: str) -> tuple[np.ndarray, np.ndarray]:
    """Each found disc's distance to the nearest reported one (from the second call on the
    frame: the discs kept, their deferred position refits made), and the image's millimetres a
    pixel at it; a disc is found when one is reported within 8 mm."""
    img, calib, truth = _scene(seed, preset)
    det = DiscDetector(calib, "korona")
    det.detect(img)
    dets = det.detect(img)
    errs = np.array([float(np.hypot(*(dets.xy - p).T).min()) for p in truth]) if len(dets) else np.full(len(truth), 99.0)
    px = np.array([det.refiner._mm_per_image_px(p) for p in truth])
    return errs[errs < 8.0], px[errs < 8.0]


@pytest.fixture(autouse=True)
def _korona_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chamfer, "REGION_MODEL", {"crokinole": True, "korona": True})


def test_easy_preset_positions_at_1280x720() -> None:
    """Easy preset, 1280x720 (1.4-1.7 mm a pixel), two frames of 12 discs, all found: every disc
    within 1.0 mm of where it lies and half within 0.45 mm (measured: median 0.38, worst 0.84).
    The edge fits alone: median 0.51, worst 1.61 mm."""
    errs = np.concatenate([_errors(seed, "easy")[0] for seed in (5200, 5201)])
    assert len(errs) == 24
    assert errs.max() < 1.0 and np.median(errs) < 0.45, np.round(errs, 2)


def test_hard_preset_far_discs_at_1280x720() -> None:
    """Hard preset, 1280x720: the discs the camera sees at 2.4 mm a pixel or coarser (the far
    side of an oblique view; crokinole's region model stops there) are fitted by the model too:
    half within 1.0 mm, all within 3.5 (measured: 11 such discs, median 0.67, worst 1.91 mm; the
    edge fits alone 2.02/4.29, and so with the model held to crokinole's 2.4 mm a pixel)."""
    got = [_errors(seed, "hard") for seed in (5302, 5303, 5304, 5305)]
    errs = np.concatenate([e for e, _ in got])
    px = np.concatenate([p for _, p in got])
    far = errs[px >= 2.4]
    assert len(far) >= 8
    assert np.median(far) < 1.0 and far.max() < 3.5, np.round(far, 2)
