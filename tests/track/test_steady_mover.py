"""A disc sliding steadily, seen frame after frame, is not given a detection a disc's width to
the side of its line when nothing could have turned it (``tracker.track.steady``)."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, Detections
from tracker.track import Tracker
from tracker.track.datatypes import Sample, Track
from tracker.track.steady import steady_velocity

KB = KoronaBoard()
DT = 1.0 / 30

# k2e_9935 at 13.10-13.50 s (30 fps), the detector's own detections of the north-west corner:
# s1 rests at (-80, 349), s2 at (-61, 411) at the west end of a row along the north rim; the
# striker (kind 1) comes up and drives s1 west at y = 344 and s2 west along the rim at
# y = 395-400. s2 is not seen from 13.23 to 13.33 s; at 13.37 s s1 is not seen and s2 is
# (-183.6, 397.1), 53 mm to the side of s1's line; from 13.40 s both are seen.
S1 = (-79.6, 348.8)
FRAMES: list[list[tuple[float, float, int]]] = [
    [(-79.6, 348.8, 0), (-60.7, 410.9, 0), (15.3, 410.6, 0), (-36.6, 410.2, 0), (-10.2, 412.5, 0), (-11.9, 280.4, 1)],
    [(-79.6, 348.8, 0), (-60.7, 410.9, 0), (15.3, 410.6, 0), (-36.6, 410.2, 0), (-10.2, 412.5, 0), (-27.5, 318.1, 1)],
    [(15.3, 410.6, 0), (-10.2, 412.5, 0), (-60.8, 410.9, 0), (-80.9, 348.8, 0), (-43.8, 356.5, 1)],
    [(-55.6, 371.2, 1), (-106.4, 343.6, 0)],
    [(-30.2, 412.7, 0), (-67.3, 359.2, 1), (-127.6, 343.1, 0)],
    [(-30.1, 411.5, 0), (2.3, 411.5, 0), (-77.4, 348.2, 1), (-146.4, 342.6, 0)],
    [(-30.1, 411.5, 0), (2.5, 411.6, 0), (-87.2, 337.3, 1), (-166.5, 343.7, 0)],
    [(-30.1, 411.5, 0), (2.7, 411.5, 0), (-95.6, 328.0, 1), (-183.6, 397.1, 0)],
    [(-30.1, 411.5, 0), (2.7, 411.5, 0), (-200.5, 348.5, 0), (-104.1, 319.0, 1), (-207.4, 394.7, 0)],
    [(-30.1, 411.5, 0), (2.7, 411.5, 0), (-215.7, 348.1, 0), (-111.1, 311.6, 1), (-229.9, 392.6, 0)],
    [(-30.1, 411.5, 0), (2.7, 411.5, 0), (-229.7, 347.6, 0), (-117.5, 304.8, 1), (-251.2, 391.0, 0)],
]


def dets(points: list[tuple[float, float, int]]) -> Detections:
    a = np.array([(x, y) for x, y, _ in points], float).reshape(-1, 2)
    return Detections(xy=a, kind=np.array([k for _, _, k in points], int), where=np.zeros(len(a), int))


def _nearest(tr: Tracker, p: tuple[float, float]) -> int:
    live = [x for x in tr.tracks if x.state in ("rest", "moving") and x.kind == DISC]
    best = min(live, key=lambda x: float(np.hypot(*(x.xy - np.array(p)))))
    assert float(np.hypot(*(best.xy - np.array(p)))) < 3.0
    return best.id


def test_a_steady_mover_does_not_take_a_disc_beside_its_line() -> None:
    tr = Tracker(KB)
    rest = FRAMES[0][:5]
    for k in range(12):
        tr.update(dets(rest), k * DT)
    s1 = _nearest(tr, S1)
    for k, pts in enumerate(FRAMES, start=12):
        tr.update(dets(pts), k * DT)
    assert _nearest(tr, (-229.7, 347.6)) == s1
    assert _nearest(tr, (-251.2, 391.0)) != s1


def _track(points: list[tuple[float, float]], measured: bool = True) -> Track:
    tr = Track(id=1, kind=DISC, radius=12.5, xy=np.array(points[-1], float), state="moving")
    tr.path = [Sample(k * DT, x, y, measured) for k, (x, y) in enumerate(points)]
    return tr


def test_steady_velocity_needs_a_line_seen_every_frame() -> None:
    line = [(-100.0 - 18.0 * k, 344.0) for k in range(5)]
    v = steady_velocity(_track(line), 5 * DT, DT)
    assert v is not None and abs(v[0] + 540.0) < 1.0 and abs(v[1]) < 1.0
    assert steady_velocity(_track(line), 7 * DT, DT) is None  # not seen the frame before
    assert steady_velocity(_track(line, measured=False), 5 * DT, DT) is None  # forecast, not seen
    turned = line[:3] + [(-154.0, 356.0), (-166.0, 372.0)]  # turned the frame before: not steady
    assert steady_velocity(_track(turned), 5 * DT, DT) is None
    slow = [(-100.0 - 2.0 * k, 344.0) for k in range(5)]  # 2 mm a frame: too slow for a line
    assert steady_velocity(_track(slow), 5 * DT, DT) is None
