"""Korona: an unseen mover's coast is not turned by a free resting disc's stale track that the
detector found only now and then (``hidden_blows.found_seldom``; constructed tracks, board mm).

k4h_10206 at 23.33 s: s3, knocked towards the nw pocket unseen, was forecast at (-183, 352) going
(-681, 286) mm/s into the track of a shadow find by s2, resting at (-185, 376), found on 98 frames
from 5.07 s to 20.73 s (30 fps: 470) and unseen since. Turned along the north rim, s3's forecast
stopped short of the pocket, s3 was kept at rest where it lay and its pocket was lost."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC
from tracker.track import Tracker
from tracker.track.datatypes import Sample, Track
from tracker.track.hidden_blows import coast_into_disc

KB = KoronaBoard()
DT = 1 / 30


def _scene(hits: int) -> tuple[Tracker, Track]:
    tk = Tracker(KB)
    mover = Track(id=37, kind=DISC, radius=KB.disc_radius, xy=np.array([-183.0, 352.0]),
                  v=np.array([-681.0, 286.0]), state="moving", born=5.07, last_seen=23.2,
                  path=[Sample(23.2, -111.0, 321.0, True), Sample(23.3, -183.0, 352.0, False)])
    stale = Track(id=35, kind=DISC, radius=KB.disc_radius, xy=np.array([-185.0, 376.0]), state="rest",
                  anchor=np.array([-185.0, 376.0]), anchor_n=1, occluded=True, born=5.07, last_seen=20.73,
                  hits=hits, path=[Sample(20.73, -185.0, 376.0, True)])
    tk.tracks = [mover, stale]
    return tk, mover


def test_a_seldom_found_stale_disc_does_not_turn_an_unseen_coast() -> None:
    tk, mover = _scene(hits=98)
    assert coast_into_disc(tk, mover, 23.333, DT) is None


def test_a_disc_found_on_every_frame_turns_an_unseen_coast() -> None:
    """The same disc found on every frame till it was covered: the coast strikes it."""
    tk, mover = _scene(hits=470)
    assert coast_into_disc(tk, mover, 23.333, DT) is not None
