"""A flicked disc that strikes a resting one within a frame, at 10 fps (hand-made detections,
board mm): the first sight of the two discs' blow is the shooter, stopped, and the next the
struck disc carried on (``merge.blow_split``)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

FPS = 10.0


def dets(*xy: tuple[float, float]) -> Detections:
    return Detections(xy=np.array(xy, float).reshape(-1, 2), radius=np.full(len(xy), 16.0))


def test_a_head_on_blow_within_a_frame_keeps_both_names() -> None:
    """East's e2 waits on its shooting line at (240, 193); south's s2 rests 53 mm in front of it.
    Within one frame e2 is flicked, strikes s2 and stops 25 mm from its place, and s2 is driven
    on. The frame after, e2 is not found (blurred) and a false find lies on s2's blur behind
    s2. The sights are the detector's of crokinole_4p_part at 23.7-24.4 s (w2, which s2 then
    glanced off, and the other false finds left out). Before, the track first seen where e2
    stopped took s2's next sight and carried e2's name off with s2."""
    e2, s2 = (240.0, 193.0), (211.0, 149.0)
    frames: list[list[tuple[float, float]]] = [[e2, s2]] * 10
    frames += [[(223.0, 174.0), (183.0, 94.0)],
               [(183.0, 24.0), (152.0, 64.0)],  # e2 unseen, a find on s2's blur
               [(224.0, 176.0), (190.0, -42.0)],
               [(224.0, 176.0), (206.0, -96.0)],
               [(224.0, 176.0), (213.0, -136.0)],
               [(224.0, 176.0), (220.0, -159.0)],
               [(224.0, 176.0), (220.0, -175.0)]]
    frames += [[(224.0, 176.0), (222.0, -181.0)]] * 12
    tk = Tracker(CrokinoleBoard())
    ids: dict[tuple[float, float], int] = {}
    for k, rows in enumerate(frames):
        tk.update(dets(*rows), k / FPS)
        if k == 5:
            ids = {xy: min(tk.tracks, key=lambda tr: np.hypot(*(tr.xy - xy))).id for xy in (e2, s2)}
    for was, end in ((e2, (224.0, 176.0)), (s2, (222.0, -181.0))):
        tr = tk.get(ids[was])
        assert tr is not None and tr.state == "rest", (was, tr)
        assert np.hypot(*(np.array(tr.position()) - end)) < 3.0, (was, tr.position(), end)
