"""Korona: a mover whose last step turned straight back on the one before, away from any rim,
was not seen turning: its track took another disc's detection (two discs of a row knocked
apart along a rim, swapped between frames), and the velocity read from that step is no disc's.
A blow forecast from it is none (``prediction.predict`` records no knock from it): k4h_9966 at
3.8 s, s1's track, seen going west along the north rim at 490 mm/s, took s2's detection 47 mm
back east and was read at 1410 mm/s east; the forecast drove s3's track (unseen that frame)
east at 1330 mm/s along the rim into the ne pocket, a pocket nobody made.

A bounce off a rim turns a disc back too, but only across that rim, at it. Pure function.
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.track.datatypes import Track

# Whether ``predict`` ignores such movers' blows (korona). On since session 21, with
# ``donor_course.ON``. Replayed reviews (--dets) of the 10 k4h and 10 k2e dev matches and the 5
# korona fixtures, off -> on: k4h_9966 pockets P 33 -> 50%
# (the false s4 ne pocket at 4.45 s gone), median 2.03 -> 1.93 mm, but p95 5.25 -> 5.38 mm (south's
# striker's refit at rest after that shot 2.80 -> 5.39 mm off, s3's 4.98 -> 4.12; cause not
# found); the other 24 identical. With ``donor_course.ON`` too: k4h_9966 pockets 33%/33% ->
# 67%/100%, k2e_9983 switches 25 -> 0, korona_4p_part p95 2.75 -> 2.71 mm, k4h_9506 p95 2.60 ->
# 2.68 mm; all 25: pockets 81%/95% -> 82%/98%, switches 6.6 -> 5.7 per 100 shots.
ON = True
# The cosine between the last two steps below which the second turned back on the first.
BACK_COS = -0.5


def turned_back(board: CrokinoleBoard | KoronaBoard, tr: Track, least: float) -> bool:
    """Whether ``tr``'s last two steps between measured samples (each longer than ``least`` mm)
    turn back on each other (``BACK_COS``) where no rim across that course turned it: from the
    turning sighting, the rim the first step ran at lies farther than either step reached."""
    if not isinstance(board, KoronaBoard):
        return False
    seen = [s for s in tr.path[-6:] if s.measured]
    if len(seen) < 3:
        return False
    a, b, c = (np.array([s.x, s.y]) for s in seen[-3:])
    s1, s2 = b - a, c - b
    n1, n2 = float(np.hypot(*s1)), float(np.hypot(*s2))
    if n1 <= least or n2 <= least or float(s1 @ s2) >= BACK_COS * n1 * n2:
        return False
    for k in (0, 1):  # a rim across axis k, within a step's reach, turns back the course along k
        to_rim = board.half - tr.radius - abs(float(b[k]))
        if abs(float(s1[k])) >= 0.5 * n1 and float(s1[k] * b[k]) > 0 and to_rim <= max(abs(float(s1[k])), abs(float(s2[k]))):
            return False
    return True
