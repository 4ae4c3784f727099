"""Korona discs at rest in a coarse picture (480x270, 4-6 mm a pixel, as the korona fixtures):
a shot's places are refitted with the region model there too (``rest_places.MODEL_MM_PER_PX``),
not left at the detector's anchors. Rendered still frames (hard preset, the renderer's true
calibration): discs alone against each rim and in the open; the tracks stand where the detector
reports them, and a shot lists them all as moved."""

from __future__ import annotations

import numpy as np
import pytest

from tests.pipeline.korona_still import settled
from tracker.boards import KoronaBoard
from tracker.infer.datatypes import ShotRecord
from tracker.pipeline.rest_places import refit_ends

pytest.importorskip("tracker.render")

BOARD = KoronaBoard()
LINE = BOARD.half - BOARD.disc_radius
PLACES = [(-250.0, LINE), (250.0, -LINE), (LINE, -210.0), (-LINE, 190.0), (60.0, -75.0), (-120.0, 30.0),
          (200.0, 150.0), (-200.0, -220.0), (150.0, 300.0)]


def _errors(seed: int) -> list[float]:
    img, det, dets, tracks = settled("hard", (480, 270), seed, PLACES)
    ends = {tr.id: (float(tr.xy[0]), float(tr.xy[1])) for tr in tracks}
    rec = ShotRecord(disc=-1, start=(0.0, -320.0), t_start=0.0, t_end=1.0, frame_start=0, frame_end=30, ends=ends)
    out = refit_ends(det, img, rec, tracks)
    errors = []
    for p in PLACES:
        k = int(np.argmin(np.hypot(*(dets.xy - p).T)))
        if np.hypot(*(dets.xy[k] - p)) < 8.0:
            errors.append(float(np.hypot(*(np.asarray(out.ends[k]) - p))))
    return errors


def test_discs_in_a_coarse_picture_are_refitted_with_the_region_model() -> None:
    """18 discs found of 27 over three seeds: median 1.37 mm, nine in ten within 3.2 (left at the
    anchors, snapped to the rims, as before: 1.65 and 4.10)."""
    e = np.array([x for seed in (700, 701, 702) for x in _errors(seed)])
    assert len(e) >= 15, e
    assert np.median(e) < 1.5 and np.percentile(e, 90) < 3.5, np.round(np.sort(e), 2)
