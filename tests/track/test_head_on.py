"""A head-on hit: the shooter stops, the struck disc carries on; the shooter never takes a
detection beyond the disc it hit (hand-made frames, board millimetres)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.track import Tracker


def dets(*xy: tuple[float, float]) -> Detections:
    return Detections(xy=np.array(xy, float).reshape(-1, 2), where=np.full(len(xy), ON_SURFACE, int),
                      radius=np.full(len(xy), 15.0))


def test_the_shooter_does_not_take_a_find_beyond_the_disc_it_hits() -> None:
    """w flies east at 1.1 m/s into s resting at (0, -50), a little off centre. The frame of
    the hit the detector misses w (it stopped against s, blurred) and s, struck part way
    through the frame, is seen 20 mm on; a false find on the tail of s's blur lies 50 mm
    further on. w must not take it: after an equal-mass hit it cannot be beyond s (the
    blow passed its motion along the line of centres to s). crokinole_4p_part at 18.1 s:
    w2 took the find, then s2's own detection, and the two swapped names."""
    tk = Tracker(CrokinoleBoard())
    s_rest, t = (1.6, -51.1), 0.0
    for _ in range(6):  # both at rest
        tk.update(dets(s_rest, (-274.6, -129.0)), t)
        t += 0.1
    for xy in ((-198.9, -103.2), (-87.5, -84.6)):  # w flicked
        tk.update(dets(s_rest, xy), t)
        t += 0.1
    w = next(tr for tr in tk.tracks if tr.state == "moving")
    s = next(tr for tr in tk.tracks if tr is not w)
    tk.update(dets((22.9, -47.2), (70.1, -27.2)), t)  # the hit: s on its way, a false find beyond
    t += 0.1
    assert not np.allclose(w.xy, (70.1, -27.2)), "the shooter took the find beyond the struck disc"
    for s_xy in ((88.2, -17.3), (127.3, 38.1), (161.6, 81.6), (183.7, 111.7), (195.7, 133.5),
                 (207.2, 147.1), (211.3, 149.9), (211.3, 149.9), (211.3, 149.9), (211.3, 149.9)):
        tk.update(dets((-26.0, -62.6), s_xy), t)
        t += 0.1
    assert w.state == "rest" and float(np.hypot(*(w.xy - (-26.0, -62.6)))) < 3.0, (w.state, w.xy)
    assert s.state == "rest" and float(np.hypot(*(s.xy - (211.3, 149.9)))) < 3.0, (s.state, s.xy)
