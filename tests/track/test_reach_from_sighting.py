"""A moving disc unseen for a few frames does not take a detection farther from its last
sighting than its speed allows: the wide stage's reach is counted from the sighting, not on top
of the coasted forecast (``tracker.track.steady.beyond_reach``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, Detections
from tracker.track import Tracker, TrackerConfig

KB = KoronaBoard()
DT = 1.0 / 30

# k4h_9606 at 36.90-37.30 s (30 fps), the detector's own finds: n2 rests at (191, -335), is struck
# south-west and seen only at 37.03, 37.10 and 37.30 s; e2 and e3 rest against the east rim and a
# false find (-397, -83) beside e2 shows from 37.13 s on, 418 mm from n2's last sighting.
N2 = (191.0, -335.0)
ROW = [(-413.0, -76.0), (-413.0, -134.0)]
FALSE = (-397.0, -83.0)
SEEN = {3: (145.0, -393.0), 5: (81.0, -303.0), 11: (-80.0, -67.0)}


def dets(points: list[tuple[float, float]]) -> Detections:
    a = np.array(points, float).reshape(-1, 2)
    return Detections(xy=a, kind=np.full(len(a), DISC), where=np.zeros(len(a), int))


def _id_at(tk: Tracker, p: tuple[float, float]) -> int | None:
    near = [x for x in tk.tracks if x.state in ("rest", "moving") and float(np.hypot(*(x.xy - np.array(p)))) < 3.0]
    return near[0].id if near else None


def _run(cfg: TrackerConfig) -> tuple[int | None, int | None, int | None]:
    tk = Tracker(KB, cfg)
    for k in range(12):
        tk.update(dets([N2, *ROW]), k * DT)
    n2 = _id_at(tk, N2)
    t0 = 12 * DT
    falsefind = None
    for k in range(12):
        pts = list(ROW) + ([SEEN[k]] if k in SEEN else []) + ([FALSE] if k >= 6 else [])
        tk.update(dets(pts), t0 + k * DT)
        if k == 10:
            falsefind = _id_at(tk, FALSE)
    return n2, falsefind, _id_at(tk, SEEN[11])


def test_an_unseen_mover_does_not_jump_past_its_speed_to_a_false_find() -> None:
    n2, falsefind, later = _run(TrackerConfig())
    assert n2 is not None and falsefind != n2
    assert later == n2  # and its track is there when it is seen again


def test_the_old_gate_jumped() -> None:
    n2, falsefind, _ = _run(replace(TrackerConfig(), reach_from_sighting=False, coasted_line=False))
    assert falsefind == n2
