"""Where a shot reports its korona discs at rest (``pipeline.rest_places``): refitted on the settled
frame, apart from the detections the tracker follows. Rendered still frames of known places
(``render.still.still_frame``, easy preset, 1280x720, the renderer's true calibration): discs
alone against each rim, rows of touching discs along two rims, discs in the open, and resting
strikers. The tracks stand where the detector reports the discs (their rest anchors), as in a
review, and a shot lists them all as moved."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tests.pipeline.korona_still import settled
from tracker.boards import KoronaBoard
from tracker.infer.datatypes import ShotRecord
from tracker.pipeline.rest_places import refit_ends

pytest.importorskip("tracker.render")

BOARD = KoronaBoard()
R = BOARD.disc_radius
LINE = BOARD.half - R  # 412.5 mm: a disc touching a rim
ALONE = [(-250.0, LINE), (250.0, -LINE), (LINE, -210.0), (-LINE, 190.0)]
ROWS = [(x, LINE) for x in (60.0, 60.0 + 2 * R, 60.0 + 4 * R)] + [(-LINE, y) for y in (-60.0, -60.0 + 2 * R, -60.0 + 4 * R, -60.0 + 6 * R)]
OPEN = [(60.0, -75.0), (-120.0, 30.0), (200.0, 150.0)]
PLACES = [*ALONE, *ROWS, *OPEN]
STRIKERS = [(-8.0, 277.0), (150.0, -120.0)]
SEEDS = (600, 601, 602)


@functools.lru_cache(maxsize=4)
def _reported(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """For each true place (``PLACES`` then ``STRIKERS``): where the detector reports it (the
    nearest detection within 8 mm, on the second call on the frame: at rest) and where the shot
    reports it after ``refit_ends``; NaN where the detector found nothing."""
    img, det, dets, tracks = settled("easy", (1280, 720), seed, PLACES, STRIKERS)
    truth = np.array([*PLACES, *STRIKERS])
    near = [int(np.argmin(np.hypot(*(dets.xy - p).T))) for p in truth]
    found = np.array([float(np.hypot(*(dets.xy[k] - p))) < 8.0 for k, p in zip(near, truth, strict=True)])
    # the shot's striker: the track found at the first striker's place (a striker-sized find, or
    # its groove's disc-sized ring)
    shooter = near[len(PLACES)]
    ends = {tr.id: (float(tr.xy[0]), float(tr.xy[1])) for tr in tracks}
    rec = ShotRecord(disc=shooter, start=(0.0, -320.0), t_start=0.0, t_end=1.0, frame_start=0, frame_end=30,
                     ends=dict(ends))
    out = refit_ends(det, img, rec, tracks)
    before = np.array([ends[k] if ok else (np.nan, np.nan) for k, ok in zip(near, found, strict=True)])
    after = np.array([out.ends[k] if ok else (np.nan, np.nan) for k, ok in zip(near, found, strict=True)])
    return np.hypot(*(before - truth).T), np.hypot(*(after - truth).T)


def _errors(part: slice) -> tuple[np.ndarray, np.ndarray]:
    got = [_reported(seed) for seed in SEEDS]
    b = np.concatenate([g[0][part] for g in got])
    a = np.concatenate([g[1][part] for g in got])
    ok = np.isfinite(b)
    return b[ok], a[ok]


ALONE_AT, ROWS_AT, OPEN_AT, STRIKERS_AT = slice(0, 4), slice(4, 11), slice(11, 14), slice(14, 16)


def test_discs_alone_against_a_rim_are_reported_where_they_lie() -> None:
    """Alone against a rim: reported within 0.3 mm (median) and 0.6 mm (nine in ten) of where
    they lie (measured: 0.12 and 0.46; the worst, a disc the detector put 5.1 mm off, 3.0). The
    anchors, as reported before: median 1.03 mm, inward of the rim line."""
    before, after = _errors(ALONE_AT)
    assert len(after) >= 10, after
    assert np.median(after) < 0.3 and np.percentile(after, 90) < 0.6, np.round(after, 2)
    assert np.median(before) > 0.8, np.round(before, 2)


def test_rows_along_a_rim_are_reported_where_they_lie() -> None:
    """Rows of three and four touching discs along two rims: median within 0.45 mm (measured
    0.30; nine in ten within 0.83). The anchors: median 0.88 mm."""
    before, after = _errors(ROWS_AT)
    assert len(after) >= 18, after
    assert np.median(after) < 0.45 and np.percentile(after, 90) < 1.0, np.round(after, 2)
    assert np.median(before) > 0.7, np.round(before, 2)


def test_discs_in_the_open_stay_as_good() -> None:
    """Discs in the open, found well already (anchors' median 0.31 mm), are no worse for it
    (measured 0.32; each within 0.8 mm)."""
    before, after = _errors(OPEN_AT)
    assert len(after) == 9
    assert np.median(after) < np.median(before) + 0.15 and after.max() < 0.8, np.round(after, 2)


def test_resting_strikers_stay_on_their_outline() -> None:
    """Resting strikers, found at their size or as their groove's disc-sized ring (seed 602),
    the shot's or not: refitted by their outline, each within 1.6 mm (measured: worst 1.44; the
    groove found 0.1 mm off is put 0.6 mm off), never taken for a disc beside them."""
    before, after = _errors(STRIKERS_AT)
    assert len(after) == 6
    assert after.max() < 1.6, np.round(after, 2)
