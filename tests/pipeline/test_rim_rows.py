"""A row of korona discs against a rim whose anchors all sit shifted along the rim (the row
finder's shadow bias, ``detect/rim.py``) and whose edge refits the detector turns down (shared
sides, a neighbour still at its biased place) is moved along the rim as one piece
(``rim_rows.py``), not left at the biased anchors. Rendered still frame (hard preset, 1280x720,
the renderer's true calibration)."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.detect.detector import DiscDetector
from tracker.infer.datatypes import ShotRecord
from tracker.pipeline import rim_rows
from tracker.pipeline.rest_places import refit_ends
from tracker.track.datatypes import Track

pytest.importorskip("tracker.render")

BOARD = KoronaBoard()
LINE = BOARD.half - BOARD.disc_radius
# A row of four touching discs against the north rim (far from the camera), and one in the open.
ROW = [(-60.0 + 2 * BOARD.disc_radius * i, -LINE) for i in range(4)]
OPEN = [(40.0, 120.0)]
SHIFT = 3.0  # the anchors' error along the rim (mm)


def _rows(monkeypatch: pytest.MonkeyPatch, on: bool) -> list[float]:
    from tracker.render.still import still_frame

    monkeypatch.setattr(rim_rows, "ON", on)
    places = ROW + OPEN
    img, calib = still_frame(BOARD, "hard", (1280, 720), 602, lambda rng: [(x, y, i % 2) for i, (x, y) in enumerate(places)])
    det = DiscDetector(calib, "korona")
    det.detect(img)
    monkeypatch.setattr(det, "_accept", lambda *a, **k: False)
    anchors = [np.array(p) + (np.array([SHIFT, 0.0]) if i < len(ROW) else 0.0) for i, p in enumerate(places)]
    tracks = [Track(id=i, kind=0, radius=BOARD.disc_radius, xy=a.copy(), anchor=a.copy(), anchor_n=5)
              for i, a in enumerate(anchors)]
    ends = {tr.id: (float(tr.xy[0]), float(tr.xy[1])) for tr in tracks}
    rec = ShotRecord(disc=-1, start=(0.0, 320.0), t_start=0.0, t_end=1.0, frame_start=0, frame_end=30, ends=ends)
    out = refit_ends(det, img, rec, tracks)
    return [float(np.hypot(*(np.array(out.ends[i]) - p))) for i, p in enumerate(ROW)]


def test_a_row_against_a_rim_is_moved_along_it_as_one_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """The row's members within 1.5 mm of where they lie (from 3 mm off); left at the anchors
    without the row fit."""
    before = _rows(monkeypatch, False)
    after = _rows(monkeypatch, True)
    assert min(before) > 2.5, np.round(before, 2)
    assert max(after) < 1.5, (np.round(before, 2), np.round(after, 2))


def test_rows_are_runs_of_touching_discs_on_one_rim_line() -> None:
    places = {0: ROW[0], 1: ROW[1], 2: ROW[2], 3: (ROW[3][0] + 10.0, ROW[3][1]), 4: OPEN[0], 5: (LINE, 0.0)}
    assert rim_rows.rows(BOARD, places) == [(1, -1, [0, 1, 2])]
