"""A dark disc resting at the edge of the playing surface, its rim over the dark ditch, on a
rendered still frame: like a dark disc over the 20-hole it merges with the dark beyond it and
shows no edge on that side, so the occlusion-aware pass masks the ditch (``clusters._ditch``).
(c2e_8801: a black disc knocked to 315 mm from the centre was lost as it came to rest there and
called off the board, not removed from outside the shooting line.)"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import ON_SURFACE
from tracker.detect.detector import DiscDetector
from tracker.render.sampling import sample_look
from tracker.render.still import still_frame

BOARD = CrokinoleBoard()


def test_dark_disc_over_the_surface_edge_is_found_where_it_is() -> None:
    seed, size = 7952, (640, 360)  # a dark disc, a near-black ditch
    look = sample_look("easy", np.random.default_rng(seed), "crokinole")
    dark = int(np.argmin([sum(c) for c in look.disc_colors]))
    x, y = 316.0 * np.cos(np.radians(125.0)), 316.0 * np.sin(np.radians(125.0))  # rim 1.7 mm over the edge
    empty, calib = still_frame(BOARD, "easy", size, seed, lambda rng: [])
    img, _ = still_frame(BOARD, "easy", size, seed, lambda rng: [(x, y, dark)])
    det = DiscDetector(calib, "crokinole")
    det.set_background(empty)
    got = det.detect(img)
    assert len(got) == 1, got.xy.round(1).tolist()
    assert float(np.hypot(got.xy[0, 0] - x, got.xy[0, 1] - y)) < 2.5 and got.where[0] == ON_SURFACE
