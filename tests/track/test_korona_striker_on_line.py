"""Korona: a striker set on its striking line and seen as a disc until it is flicked (k2e_9605 at
36.0-36.25 s, 30 fps, the detector's own detections). The detector finds a resting striker as the
ring of its top's groove, disc-sized; once flicked it is a striker again, a new track born moving,
and the tracker joins it to the "disc" it left (``confirm.striker_seen_as_disc``) only where a
striker waits. South's striker was set with its centre on the line (y = -320 mm) and measured
0.02 mm past it, into the field: not taken up, the striker became a new track (no rest place
before the shot), the "disc" stayed on the line, unseen, and the shot was lost (the shot disc is
one that rested before it)."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track import Tracker

KB = KoronaBoard()
DT = 1.0 / 30
ROW = [(-43.0, -411.0), (-17.0, -412.0), (9.0, -410.0), (34.0, -409.0)]  # south's row, at rest
RING = (49.95, -319.98)  # the striker on its line, seen as a disc (0.02 mm past the line)
# its sightings once flicked, as a striker (none on some frames: blurred)
FLIGHT: list[tuple[float, float] | None] = [(51.0, -318.0), None, (90.0, -236.0), None, None, (143.0, -124.0),
                                            None, (174.0, -57.0), (190.0, -24.0)]


def dets(points: list[tuple[float, float, int, float]]) -> Detections:
    a = np.array([(x, y) for x, y, _, _ in points], float).reshape(-1, 2)
    return Detections(xy=a, kind=np.array([k for _, _, k, _ in points], int),
                      radius=np.array([r for _, _, _, r in points], float))


def test_a_striker_seen_as_a_disc_on_its_line_keeps_its_track_when_flicked() -> None:
    assert abs(RING[1]) < KB.half - KB.striking_line_offset  # just past the line, into the field
    tk = Tracker(KB)
    row = [(x, y, DISC, 12.5) for x, y in ROW]
    t = 35.0
    for _ in range(20):
        tk.update(dets([*row, (*RING, DISC, 13.5)]), t)
        t += DT
    ring = [tr for tr in tk.tracks if float(np.hypot(*(tr.xy - np.array(RING)))) < 3.0]
    assert len(ring) == 1 and ring[0].kind == DISC
    for p in FLIGHT:
        tk.update(dets(row + ([(*p, STRIKER, 25.0)] if p else [])), t)
        t += DT
    strikers = [tr for tr in tk.tracks if tr.kind == STRIKER and tr.state != "lifted"]
    assert [s.id for s in strikers] == [ring[0].id]  # the ring's track is the striker, no new one
    assert strikers[0].state == "moving" and float(np.hypot(*(strikers[0].xy - np.array(FLIGHT[-1])))) < 3.0
