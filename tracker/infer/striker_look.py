"""Korona: what the strikers of this video look like, to tell a striker from a false find.

The detector now and then finds a striker-sized ring that is no striker: the board's own wood
between a row of discs and a striking line, a pale disc of a rim row with its shadow, a disc by
its player's line. Such a find may rest where a striker waits (on a striking line) and, when the
detector loses it again, read as a striker that vanished from its line: a shot nobody saw
(``ShotSegmenter._vanished``, ``unseen.unseen_shot``). Rendered matches, hard preset: k4h_9942 at
7.8 s (a board-coloured ring on north's line, Lab 83/9/48 on a board of 80/5/39, strikers
40/21/32), k4h_9924 at 37.8 s (a grey ring by n7 on west's line, 66/4/14 against strikers of
35/17/24), k4h_9606 at 15.9 s (66/-6/11 on a board of 77/-7/9, strikers 36/6/12): three phantom
shots. A real striker's mean colour (``Track.color``, sharp sightings) stays within about 5 of
the mean of the strikers seen flicked before it in the same video (lightness halved, all k4h
matches); these false finds lie 17 to 28 away, and two of them within ``BOARD_LAB`` of the board
around them, where no striker ever is (20 to 47).

``StrikerLook`` learns the strikers' colour from the shots seen flicked (per seat: a set may have
strikers of more than one colour) and says whether a striker track is unlike all of them, or like
the board around it.
"""

from __future__ import annotations

import numpy as np

from tracker.detect.color import lab_distance
from tracker.detect.datatypes import STRIKER
from tracker.infer.naming import BOARD_LAB
from tracker.track.datatypes import Track

# Lab distance (lightness halved) from every learned striker colour beyond which a striker track
# is a false find (real strikers: within 5 of their mean; false finds seen: 17 to 28)
UNLIKE_STRIKER_LAB = 12.0


class StrikerLook:
    def __init__(self) -> None:
        self._seat: dict[str, tuple[np.ndarray, int]] = {}  # seat -> (mean Lab, count)

    def learn(self, seat: str, tr: Track | None) -> None:
        """Remember the colour of the striker ``seat`` was seen flicking."""
        if tr is None or tr.kind != STRIKER or tr.color_n <= 0:
            return
        mean, n = self._seat.get(seat, (np.zeros(3), 0))
        self._seat[seat] = ((mean * n + tr.color) / (n + 1), n + 1)

    def unlike(self, tr: Track) -> bool:
        """Whether the striker track ``tr`` is a false find: it looks like the board around it,
        or (once a striker was seen flicked) unlike every striker seen flicked."""
        if tr.kind != STRIKER or tr.color_n <= 0:
            return False
        if tr.surround_n > 0 and lab_distance(tr.color, tr.surround) < BOARD_LAB:
            return True
        if not self._seat:
            return False
        return min(lab_distance(tr.color, m) for m, _ in self._seat.values()) > UNLIKE_STRIKER_LAB
