"""The outline map (``tracker/detect/outline.py``): the share of a disc-sized circle's points that
show an edge along it, for every coarse-view pixel at once.

Checked against the definition, point by point (the map is built from shifted binary maps for
speed, with the radii's shifts deduplicated), and on a drawn disc: high at its centre, low on the
bare board.
"""

from __future__ import annotations

import numpy as np

from tests.detect.drawing import DARK, LIGHT, DrawnDisc, render
from tracker.detect.clusters import ClusterPass
from tracker.detect.detector import DiscDetector
from tracker.detect.outline import N_RING
from tracker.detect.view_colours import lab_of


def _pass(discs: list[DrawnDisc]) -> tuple[DiscDetector, ClusterPass]:
    shot = render(discs, (640, 360), tilt_deg=0.0, seed=3)
    det = DiscDetector(shot.calib, "crokinole")
    view = det.rectify(shot.image)
    lab = lab_of(view)
    r = det.board.disc_radius
    return det, ClusterPass(det, shot.image, lab, 0, r, [], None)


def _by_definition(cp: ClusterPass, v: int, u: int) -> float:
    c, s_, st, thr = cp._edge_maps()
    rp = cp.radius / cp.det.view.mm_per_px
    H, W = st.shape
    n = 0
    for a in np.linspace(0, 2 * np.pi, N_RING, endpoint=False):
        hit = False
        for r in rp + np.array([-0.5, 0.0, 0.5, 1.0]):
            uu, vv = u + int(round(r * np.cos(a))), v + int(round(r * np.sin(a)))
            if 0 <= uu < W and 0 <= vv < H and st[vv, uu] * (c[vv, uu] * np.cos(2 * a) + s_[vv, uu] * np.sin(2 * a)) > thr:
                hit = True
        n += hit
    return n / N_RING


def test_outline_map_matches_its_definition() -> None:
    discs = [DrawnDisc(60.0, -90.0, LIGHT), DrawnDisc(-100.0, 120.0, DARK)]
    det, cp = _pass(discs)
    m = cp.outline_map()
    rng = np.random.default_rng(0)
    ys, xs = np.nonzero(det._valid)
    pick = rng.choice(len(ys), 60, replace=False)
    centres = det.view.to_px(np.array([[d.x, d.y] for d in discs])).round().astype(int)
    points = [(int(ys[i]), int(xs[i])) for i in pick] + [(int(v), int(u)) for u, v in centres]
    for v, u in points:
        assert abs(m[v, u] - _by_definition(cp, v, u)) < 1e-6, (v, u)


def test_outline_map_is_high_on_a_disc_and_low_on_bare_board() -> None:
    disc = DrawnDisc(60.0, -90.0, LIGHT)
    det, cp = _pass([disc])
    m = cp.outline_map()
    u, v = det.view.to_px(np.array([[disc.x, disc.y]]))[0].round().astype(int)
    assert m[v - 1: v + 2, u - 1: u + 2].max() >= 0.8
    bare = det.view.to_px(np.array([[-60.0, -200.0]]))[0].round().astype(int)
    assert m[bare[1], bare[0]] < 0.3
