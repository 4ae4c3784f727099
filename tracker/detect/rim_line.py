"""Korona discs against a rim, reported on the rim line (``DiscDetector``'s reported centres).

A korona disc at rest is most often against a rim: the players' rows are laid there, and a disc
driven along a rim stays on it (in the rendered dev matches, 89% of the frames of a disc at rest
within 3 mm of a rim line have it touching the rim). Its fit is pulled in from the rim: the side
it shares with the rim shows no edge of its own (the rim's wall and shadow meet it), so the rays
there take the rim's shadow or the disc's own bevel, and the circle settles inward. Per frame, on
the korona dev matches (detections of the cached reviews against the truth, discs at rest), a
disc fitted against a rim lay 1.24 mm inward on average (sd 1.4; 0.5-2.9 by match and rim), and
a disc 1-4 mm off the rim 1.0-1.6 mm inward as well; the discs the row pass places
(``rows.py``, ``rim.py``) are already put on the line.

So a disc (not a striker) on the surface whose reported centre lies within ``SNAP_MM`` of the
rim line ``half - r`` (or past it: a disc cannot overlap the rim) is reported on that line, for
each rim it is near (in a corner, both). Only the reported centre moves, as with the chamfer
correction (``chamfer.py``): the detector's own fits, its reuse of discs and its decisions stay.
A disc truly a few millimetres off the rim is then reported that far off (at most ``SNAP_MM``)
instead of its fit's 1-2 mm inward bias plus that distance's share of it.

Measured per frame on the cached detections of the nine korona dev matches (k2e_9505..k4h_9806),
the fitted (not row-placed) discs at rest: within 3 mm of a line, 70k of 112k detections, their
error median/p95 1.69/2.85 -> 0.71/2.17 mm; all fitted discs 1.74/3.89 -> 1.01/3.87. (2 mm:
1.34/3.89; 4 mm: 0.94/3.27, but the replayed reviews lost pockets: more discs truly off the rim
are moved.) Opt-in (``DetectorSettings.rim_snap_mm``, 0 by default): the full reviews' positions
gain on 10 of the 11 korona dev matches, but their identity switches rise on five matches
(figures at the setting).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import DISC, ON_SURFACE, Detections

# A disc reported within this of a rim line (mm, inward) is reported on it, when asked for
# (``DetectorSettings.rim_snap_mm``).
SNAP_MM = 3.0


def on_rim_lines(board: CrokinoleBoard | KoronaBoard, dets: Detections, n: int, snap_mm: float = SNAP_MM) -> Detections:
    """``dets`` with each of its first ``n`` (the discs; streaks follow them) that is a korona
    disc on the surface within ``snap_mm`` of a rim line (or past it) moved onto that line.
    Unchanged on a crokinole board or with ``snap_mm`` 0."""
    if not isinstance(board, KoronaBoard) or snap_mm <= 0.0 or n == 0:
        return dets
    line = board.half - board.disc_radius
    xy = dets.xy.copy()
    disc = (dets.kind[:n] == DISC) & (dets.where[:n] == ON_SURFACE)
    for k in (0, 1):
        c = xy[:n, k]
        near = disc & (line - np.abs(c) < snap_mm)
        xy[:n, k] = np.where(near, np.sign(c) * line, c)
    return replace(dets, xy=xy)
