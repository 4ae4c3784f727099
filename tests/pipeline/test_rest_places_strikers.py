"""Resting korona strikers as a shot reports them (``pipeline.rest_places``): the refit of a
striker's outline is square-edged, and the chamfer of its top edge puts it toward the camera;
the region model fitted from that outline (``rest_places.STRIKER_MODEL``) does not. Rendered
still frames (hard preset, 1280x720: the model serves fine pictures only; the renderer's true
calibration, strikers at four places); the tracks stand where the detector reports them."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tests.pipeline.korona_still import settled
from tracker.boards import KoronaBoard
from tracker.infer.datatypes import ShotRecord
from tracker.pipeline import rest_places

pytest.importorskip("tracker.render")

BOARD = KoronaBoard()
STRIKERS = [(-8.0, 277.0), (150.0, -120.0), (-250.0, -200.0), (280.0, 250.0)]
OPEN = [(60.0, -75.0), (-120.0, 30.0)]
SEEDS = (601, 602, 604)


@functools.lru_cache(maxsize=8)
def _errors(seed: int, model: bool | None = None) -> list[tuple[float, float]]:
    """Per striker the detector found (within 8 mm): the reported place's error along the
    camera's line of sight (positive: away from the camera's foot) and its distance; ``model``:
    ``rest_places.STRIKER_MODEL`` for the call (None: as it is)."""
    img, det, dets, tracks = settled("hard", (1280, 720), seed, OPEN, STRIKERS)
    foot = det.pose.centre[:2]
    out: list[tuple[float, float]] = []
    old = getattr(rest_places, "STRIKER_MODEL", None)
    if model is not None:
        rest_places.STRIKER_MODEL = model
    try:
        for p in np.array(STRIKERS):
            k = int(np.argmin(np.hypot(*(dets.xy - p).T)))
            if float(np.hypot(*(dets.xy[k] - p))) > 8.0:
                continue
            ends = {tr.id: (float(tr.xy[0]), float(tr.xy[1])) for tr in tracks}
            rec = ShotRecord(disc=k, start=(0.0, -320.0), t_start=0.0, t_end=1.0, frame_start=0, frame_end=30,
                             ends=ends)
            e = np.array(rest_places.refit_ends(det, img, rec, tracks).ends[k]) - p
            u = (p - foot) / float(np.hypot(*(p - foot)))
            out.append((float(e @ u), float(np.hypot(*e))))
    finally:
        if model is not None:
            rest_places.STRIKER_MODEL = old
    return out


def test_resting_strikers_are_not_drawn_toward_the_camera() -> None:
    """Along the camera's line of sight the reported places sit within 0.5 mm of the truth
    (median; measured -0.2 over 12 strikers) and within 0.8 mm of it (median; measured 0.53).
    The square-edged refits alone sat toward the camera (measured -1.6; 1.6 mm off)."""
    reported = [e for s in SEEDS for e in _errors(s)]
    square = [e for s in SEEDS for e in _errors(s, False)]
    assert len(reported) >= 10 and len(square) == len(reported)
    assert abs(float(np.median([a for a, _ in reported]))) < 0.5, np.round(reported, 2)
    assert np.median([d for _, d in reported]) < 0.8, np.round(reported, 2)
    assert np.median([a for a, _ in square]) < -0.8, np.round(square, 2)
