"""The lamp's glare beside the surface's edge is not a disc (rendered hard stills, 640x360).

The occlusion-aware pass masks the ditch for a disc at the surface's edge (a dark disc merges
with a dark ditch: ``test_ditch_edge``). With the ditch masked, the shooting line, a quadrant
line's end and the surface's edge, brightened by the glare, closed a disc-sized circle on the
empty board there (c4h_9303: a glare 'disc' at (218, 223) mm taken as an east shot). The ditch is
masked now only for a face nearer the ditch's colour than the board's (``ClusterPass._like_ditch``);
light and dark discs at the edge are still found.
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import ON_SURFACE
from tracker.detect.detector import DiscDetector
from tracker.render.still import still_frame

BOARD = CrokinoleBoard()
SEED, SIZE = 6001, (640, 360)  # hard preset: glare reaching the surface's edge at about 45 degrees


def test_glare_at_the_surface_edge_is_no_disc() -> None:
    empty, calib = still_frame(BOARD, "hard", SIZE, SEED, lambda rng: [])
    det = DiscDetector(calib, "crokinole")
    det.set_background(empty)
    got = det.detect(empty)
    r = np.hypot(*got.xy.T)
    edge = got.xy[(got.where == ON_SURFACE) & (r > BOARD.shooting_line_radius)]
    assert len(edge) == 0, edge.round(1).tolist()


def test_discs_at_the_surface_edge_under_the_glare_are_found() -> None:
    x, y = 316.0 * np.cos(np.radians(44.0)), 316.0 * np.sin(np.radians(44.0))  # rim 1.7 mm from the edge
    empty, calib = still_frame(BOARD, "hard", SIZE, SEED, lambda rng: [])
    for side in (0, 1):  # a light disc and a near-black one
        img, _ = still_frame(BOARD, "hard", SIZE, SEED, lambda rng, s=side: [(x, y, s)])
        det = DiscDetector(calib, "crokinole")
        det.set_background(empty)
        got = det.detect(img)
        d = np.hypot(*(got.xy - [x, y]).T)
        assert len(got) and float(d.min()) < 3.0 and got.where[int(np.argmin(d))] == ON_SURFACE, got.xy.round(1).tolist()
