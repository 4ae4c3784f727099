"""The disc a blow struck in a row may itself rebound against the push the forecast gave it
(``row_order._with_push`` constrains only the disc it pushes; ``WITH_PUSH``)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.track.korona_frames import id_near
from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track import Tracker, row_order

KB = KoronaBoard()
D, S = DISC, STRIKER
ROW = [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (61.0, 412.5, D), (86.0, 412.5, D),
       (-64.0, 412.5, D), (-89.0, 412.5, D)]

# k4h_9972 at 3.53-4.10 s (30 fps), the detector's finds by the south rim: the striker comes up
# from the south into s8, the east end of the south row (86, 412); s7 (61, 412) and s8 are hidden
# under it for a frame, then s8 is found 13 mm east of its place and runs off the rim to rest
# at (172, 332); s7 stays (hidden from the detector from then on). With the push forecast
# constraining the struck disc too, s8 was refused its own finds (the forecast's push along the
# row pointed the other way) and s7 took them: s8 "pocketed", s7 at s8's rest place.
FRAMES: list[list[tuple[float, float, int]]] = [
    *[ROW] * 10,
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (61.0, 412.5, D), (86.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (81.1, 296.3, S)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (61.0, 412.5, D), (86.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (83.8, 334.7, S)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (87.9, 370.4, S)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (98.7, 403.2, D), (86.2, 347.9, S)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (111.0, 392.2, D), (85.1, 322.7, S)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (120.5, 382.5, D), (83.0, 296.6, S)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (129.5, 373.1, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (138.9, 364.2, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (145.6, 357.3, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (151.7, 352.3, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (157.9, 345.8, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (163.7, 341.7, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (167.2, 338.8, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (169.6, 334.4, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (172.3, 331.7, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (172.3, 332.1, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (172.3, 332.1, D)],
    [(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D), (172.3, 332.1, D)],
    *[[(-39.0, 410.1, D), (-14.0, 412.5, D), (11.0, 412.5, D), (36.0, 412.5, D), (-64.0, 412.5, D), (-89.0, 412.5, D),
       (172.3, 332.1, D)]] * 8,
]


@pytest.mark.parametrize("with_push", [False, True])
def test_the_struck_disc_keeps_its_name_when_it_rebounds(monkeypatch: pytest.MonkeyPatch, with_push: bool) -> None:
    monkeypatch.setattr(row_order, "WITH_PUSH", with_push)
    tk = Tracker(KB)
    s8 = -1
    for k, pts in enumerate(FRAMES):
        a = np.array([(x, y) for x, y, _ in pts], float)
        tk.update(Detections(xy=a, kind=np.array([c for *_, c in pts]), where=np.zeros(len(a), int)), 3.2 + k / 30)
        if k == 9:
            s8 = id_near(tk, (86.0, 412.5))
    assert s8 != -1
    assert id_near(tk, (172.3, 332.1)) == s8
