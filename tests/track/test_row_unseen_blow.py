"""A korona blow into a row that the detector drops for several frames: a row disc found again
pushed along the rim keeps its name (not a new disc), but only while a blow is in progress."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track import Tracker

KB = KoronaBoard()
DT = 1.0 / 30

# k2e_9705 at 12.87-13.23 s (30 fps), the detector's own detections of the south half: a row of
# seven discs along the south rim (and s8 apart); the striker (kind 1) comes up the board and
# strikes s1, the west end. The row's middle (s3, s4, s5) is not seen from 13.03 s on; s5,
# pushed 30 mm east by the blow, is seen again at 13.17 s (46.0, then 48.8 and 50.4).
ROW = [(289.3, 411.8), (51.9, 411.5), (129.1, 412.0), (16.2, 411.7), (-80.3, 390.2), (-59.0, 407.3),
       (-8.8, 412.5), (-33.8, 412.5)]
S5 = (16.2, 411.7)
BLOW: list[list[tuple[float, float, int]]] = [
    [(*p, DISC) for p in ROW] + [(-97.1, 231.6, STRIKER)],
    [(*p, DISC) for p in ROW] + [(-94.1, 274.3, STRIKER)],
    [(*p, DISC) for p in ROW] + [(-91.1, 321.3, STRIKER)],
    [(289.3, 411.8, DISC), (129.1, 412.0, DISC), (51.9, 411.7, DISC), (-91.3, 360.9, STRIKER)],
    [(289.3, 411.8, DISC), (129.1, 412.0, DISC), (-45.1, 393.3, DISC), (61.6, 411.9, DISC),
     (-92.6, 377.2, STRIKER)],
    [(289.3, 411.8, DISC), (129.1, 412.0, DISC), (-35.2, 377.0, DISC), (81.7, 411.9, DISC),
     (-92.7, 384.1, STRIKER), (-175.1, 385.2, DISC)],
    [(289.3, 411.8, DISC), (-26.9, 362.3, DISC), (130.2, 412.1, DISC), (99.7, 412.1, DISC),
     (-92.8, 389.3, STRIKER), (-220.7, 365.9, DISC)],
    [(289.3, 411.8, DISC), (-19.2, 348.8, DISC), (105.2, 412.1, DISC), (141.3, 411.2, DISC),
     (46.0, 411.8, DISC), (-93.2, 393.3, STRIKER), (-263.6, 347.5, DISC)],
    [(289.3, 411.8, DISC), (-12.3, 336.9, DISC), (105.0, 412.0, DISC), (156.6, 412.0, DISC),
     (48.8, 411.8, DISC), (-93.2, 395.8, STRIKER), (-306.5, 329.3, DISC)],
    [(289.3, 411.8, DISC), (105.0, 412.0, DISC), (-5.4, 325.2, DISC), (169.6, 412.0, DISC),
     (50.4, 411.9, DISC), (-93.4, 397.7, STRIKER), (-347.5, 311.6, DISC)],
]


def dets(points: list[tuple[float, float, int]]) -> Detections:
    a = np.array([(x, y) for x, y, _ in points], float).reshape(-1, 2)
    return Detections(xy=a, kind=np.array([k for _, _, k in points], int), where=np.zeros(len(a), int))


def _id_at(tr: Tracker, p: tuple[float, float]) -> int:
    """The id of the live track within 3 mm of ``p``, or -1."""
    live = [x for x in tr.tracks if x.state in ("rest", "moving")]
    best = min(live, key=lambda x: float(np.hypot(*(x.xy - np.array(p)))))
    return best.id if float(np.hypot(*(best.xy - np.array(p)))) < 3.0 else -1


def _settled(tr: Tracker, frames: int) -> int:
    for k in range(frames):
        tr.update(dets([(*p, DISC) for p in ROW]), k * DT)
    return frames


def test_a_row_disc_found_again_pushed_along_the_rim_keeps_its_name() -> None:
    tr = Tracker(KB)
    n = _settled(tr, 12)
    s5 = _id_at(tr, S5)
    assert s5 >= 0
    for k, pts in enumerate(BLOW, start=n):
        tr.update(dets(pts), k * DT)
    assert _id_at(tr, (50.4, 411.9)) == s5


def test_with_nothing_moving_a_disc_found_beside_an_unseen_one_is_another() -> None:
    """No blow: s5 unseen four frames (a hand over it, say) and a disc seen 31 mm from it, off
    the row, is a disc put there, not s5 moved."""
    tr = Tracker(KB)
    n = _settled(tr, 12)
    s5 = _id_at(tr, S5)
    rest = [(*p, DISC) for p in ROW if p != S5]
    for k in range(4):
        tr.update(dets(rest), (n + k) * DT)
    for k in range(4, 8):
        tr.update(dets([*rest, (20.0, 381.0, DISC)]), (n + k) * DT)
    found = _id_at(tr, (20.0, 381.0))
    assert found >= 0 and found != s5
