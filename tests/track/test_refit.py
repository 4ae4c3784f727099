"""Korona: the board fitted again after a camera bump (``refit.rebase_korona``, off by default:
``TrackerConfig.rebase_movers``): the discs the bump read as moving are paired with the new
fit's detections jointly with the resting ones, at their rest places, so a row keeps its names."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, Detections
from tracker.track import Tracker
from tracker.track.tracker import TrackerConfig

KB = KoronaBoard()

# k4h_9912 at 20.23-21.0 s (30 fps), the detector's finds near the north rim: two discs against
# it (62, 414) and (88, 414), two long-standing false finds beside them; the camera is bumped at
# 20.6 s (the finds drift east through the old fit, the false ones lost), and the board is fitted
# again at 20.73 s (``Pipeline.process_detections``: rebase, update, settle_moving).
STILL = [(87.8, 414.0), (61.9, 414.4), (93.8, 394.9), (68.1, 394.2)]
BUMP = [[(91.5, 414.3), (65.7, 413.8)], [(70.7, 414.0), (96.4, 413.8)], [(74.7, 413.3), (101.4, 413.3)]]
REFIT = [(61.4, 413.8), (87.2, 413.7)]


def _dets(pts: list[tuple[float, float]]) -> Detections:
    return Detections(xy=np.array(pts, float), kind=np.full(len(pts), DISC), where=np.zeros(len(pts), int))


def _id_near(tk: Tracker, at: tuple[float, float], within: float = 3.0) -> int:
    live = [tr for tr in tk.tracks if tr.state in ("rest", "moving")]
    best = min(live, key=lambda tr: float(np.hypot(*(tr.xy - np.array(at)))))
    return best.id if float(np.hypot(*(best.xy - np.array(at)))) < within else -1


def _names(cfg: TrackerConfig) -> tuple[list[int], list[int]]:
    tk = Tracker(KB, cfg)
    t = 20.0
    for _ in range(10):
        tk.update(_dets(STILL), t)
        t += 1 / 30
    before = [_id_near(tk, p) for p in STILL[:2]]
    for pts in BUMP:
        tk.update(_dets(pts), t)
        t += 1 / 30
    tk.rebase(_dets(REFIT), t)
    tk.update(_dets(REFIT), t)
    tk.settle_moving(t)
    for _ in range(8):
        t += 1 / 30
        tk.update(_dets(REFIT), t)
    return before, [_id_near(tk, p) for p in ((87.2, 413.7), (61.4, 413.8))]


def test_a_bumped_row_keeps_its_names_through_the_refit() -> None:
    before, after = _names(replace(TrackerConfig(), rebase_movers=True))
    assert -1 not in before and before[0] != before[1]
    assert after == before


def test_resting_tracks_alone_swap_the_row() -> None:
    """As before (korona's resting tracks alone paired, nearest first): the names move."""
    before, after = _names(replace(TrackerConfig(), rebase_movers=False))
    assert after != before
