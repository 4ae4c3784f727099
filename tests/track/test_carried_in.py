"""A disc carried in to the shooting line while a hand hides a resting disc (hand-made
detections, board mm): the carried disc is not the hidden one (``confirm.knock_or_flick``)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

FPS = 30.0


def dets(*xy: tuple[float, float]) -> Detections:
    return Detections(xy=np.array(xy, float).reshape(-1, 2), radius=np.full(len(xy), 16.0))


def test_a_disc_carried_to_the_line_is_not_a_hidden_resting_disc() -> None:
    """North's n2 rests at (-60, 108); the east player's arm hides it while the hand brings
    east's disc in from beside the board to the shooting line at (232, 192), at about 700 mm/s
    (c4h_8803 at 21.5 s). Nothing moved n2: a resting disc off the line does not start by
    itself, and it could not have gone 300 mm in the 0.1 s it was hidden at the speed the
    carried disc showed. Before, n2's track took the carried disc (it was the only disc that had
    vanished), east's shot was then n2's from the east line, and n2, seen again in place, was
    a new disc."""
    n2, carried = (-60.0, 108.0), [(300.0, 176.0), (278.0, 184.0), (252.0, 188.0), (233.0, 195.0)]
    other = (75.0, 39.0)
    tk = Tracker(CrokinoleBoard())
    for k in range(110):
        rows = [other]
        if k < 43 or k >= 57:
            rows.append(n2)
        if 45 <= k < 49:
            rows.append(carried[k - 45])
        elif k >= 49:
            rows.append((232.0, 192.0))
        tk.update(dets(*rows), k / FPS)
    first = [tr for tr in tk.tracks if tr.born < 1.0]
    at_n2 = [tr for tr in first if np.hypot(*(np.array(tr.position()) - n2)) < 3.0]
    assert len(at_n2) == 1 and at_n2[0].state == "rest", [(tr.id, tr.state, tr.position()) for tr in tk.tracks]
    on_line = [tr for tr in tk.tracks if tr.state == "rest" and np.hypot(*(np.array(tr.position()) - (232.0, 192.0))) < 5]
    assert len(on_line) == 1 and on_line[0] is not at_n2[0]
