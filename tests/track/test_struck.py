"""A struck disc takes no detection that the blow could not have sent it to (hand-made frames)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import IN_HOLE, ON_SURFACE, Detections
from tracker.track import Tracker


def dets(*rows: tuple[float, float, int]) -> Detections:
    return Detections(xy=np.array([(x, y) for x, y, _ in rows], float).reshape(-1, 2),
                      where=np.array([w for _, _, w in rows], int))


def test_a_disc_knocked_fast_past_the_hole_is_not_a_twenty() -> None:
    """n1 rests with its edge over the 20-hole; s1 hits it head-on at 1.5 m/s and sends it north.
    The frame after the hit the detector misses n1 and reports a disc in the (empty) hole, for
    two frames: too fast to drop in, n1 must not take it (seed 7301, shot 11, was a false 20)."""
    tk = Tracker(CrokinoleBoard())
    n1 = (12.0, -11.0, ON_SURFACE)
    t = 0.0
    for _ in range(6):  # both at rest
        tk.update(dets(n1, (12.0, -300.0, ON_SURFACE)), t)
        t += 0.1
    for y in (-240.0, -150.0, -60.0):  # s1 flicked north at 900 mm/s a frame
        tk.update(dets(n1, (12.0, y, ON_SURFACE)), t)
        t += 0.1
    phantom = (0.5, -0.5, IN_HOLE)
    tk.update(dets((12.0, -43.0, ON_SURFACE), phantom), t)  # s1 stopped; n1 unseen
    t += 0.1
    for y in (120.0, 160.0, 170.0, 170.0, 170.0, 170.0):
        tk.update(dets((12.0, -43.0, ON_SURFACE), phantom, (12.0, y, ON_SURFACE)), t)
        t += 0.1
    hole = [tr for tr in tk.tracks if tr.state == "hole"]
    assert all(np.hypot(*(tr.path[0].x - 12.0, tr.path[0].y + 11.0)) > 5 for tr in hole)  # not n1
    first = min(tk.tracks, key=lambda tr: tr.born)  # n1 or s1, both born at 0
    n1_track = next(tr for tr in tk.tracks if tr.born == first.born and abs(tr.path[0].y + 11.0) < 1)
    assert n1_track.state == "rest"
    assert np.hypot(n1_track.xy[0] - 12.0, n1_track.xy[1] - 170.0) < 3.0


def test_the_empty_hole_a_disc_uncovers_is_not_a_disc_in_it() -> None:
    """n6 rests over the hole's edge; a disc the tracker first sees in that frame knocks it away
    (no forecast of the blow). The detector then reports the uncovered hole as a disc in it: no
    track in the hole for the next two seconds (seed 7301, shot 13, was a false 20). A disc
    first seen in the hole when no disc left its edge is believed at once."""
    tk = Tracker(CrokinoleBoard())
    n6 = (4.9, -9.5, ON_SURFACE)
    t = 0.0
    for _ in range(6):
        tk.update(dets(n6), t)
        t += 0.1
    phantom = (-0.5, -1.0, IN_HOLE)
    tk.update(dets((2.8, -39.2, ON_SURFACE), phantom, (7.7, 59.7, ON_SURFACE)), t)  # the blow
    t += 0.1
    for _ in range(15):
        tk.update(dets((2.8, -39.2, ON_SURFACE), phantom), t)
        t += 0.1
        assert not [tr for tr in tk.tracks if tr.state == "hole"], t
    fresh = Tracker(CrokinoleBoard())
    for k in range(3):
        fresh.update(dets(phantom), 0.1 * k)
    assert [tr.state for tr in fresh.tracks] == ["hole"]
