"""The cheap look before a fit (``clusters.py``): how much of a disc-sized circle shows an edge.

A fit costs a few milliseconds; most seeds of the second pass are no disc. So before fitting, the
coarse view's edge field (``candidates.edge_field``: colour edges of any polarity, with their
orientation) is read at ``N_RING`` points of the disc's circle (the best of a few radii across the
edge blur): a point counts when the edge there runs along the circle. Points an occluder hides are
left out, as in the fit. The *outline map* is the same share for every view pixel at once,
without occluders: a sum of shifted binary maps, one per direction, over the searched region only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import KoronaBoard

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

MIN_VISIBLE = 0.4  # a disc must show this much of its outline (a row's inner disc against the rim: ~half)
MIN_DENSE = 0.5  # outline map: a place worth a closer look
N_RING = 24  # outline points of the cheap look before a fit
MIN_EDGE = 3.0  # Lab units per view pixel: an outline point shows an edge
MIN_RING = 0.7  # share of the visible outline points with an edge, for a fit to be tried


def cv2_blur(m: np.ndarray) -> np.ndarray:
    import cv2

    return np.asarray(cv2.GaussianBlur(m, (0, 0), 1.0))


def cv2_weighted(a: np.ndarray, wa: float, b: np.ndarray, wb: float) -> np.ndarray:
    """``wa a + wb b`` in one pass (float32 images)."""
    import cv2

    return np.asarray(cv2.addWeighted(a, wa, b, wb, 0.0))


class OutlineLook:
    """Mixin of ``ClusterPass``: the outline share at given centres and over the view."""

    det: DiscDetector
    lab: np.ndarray  # the coarse view, Lab float32
    radius: float
    valid: np.ndarray  # where discs are searched (the view's board region, this pass's region)
    box: tuple[int, int, int, int]  # y0, y1, x0, x1: the searched region with a disc's margin
    _edges: tuple[np.ndarray, np.ndarray, np.ndarray, float] | None
    _map: np.ndarray | None

    def occluders(self, xy: np.ndarray, margin: float, reach: float = 0.0) -> np.ndarray:
        raise NotImplementedError

    def ring_scores(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A cheap look before a fit: for disc centres ``xy`` (M, 2) mm, the share of the outline
        (``N_RING`` points on the disc's circle in the coarse view, the best of a few radii
        across the edge blur) that shows an edge running along the circle, counting only points
        no occluder hides; and the share that is visible."""
        c, s_, st, thr = self._edge_maps()
        v = self.det.view
        m = len(xy)
        a = np.linspace(0, 2 * np.pi, N_RING, endpoint=False)
        rp = self.radius / v.mm_per_px
        radii = rp + np.array([-0.5, 0.0, 0.5, 1.0])
        uv = v.to_px(xy)
        du, dv = np.cos(a), np.sin(a)  # view pixels (v down)
        pu = uv[:, 0, None, None] + radii[None, None, :] * du[None, :, None]
        pv = uv[:, 1, None, None] + radii[None, None, :] * dv[None, :, None]
        iu = np.clip(np.round(pu).astype(int), 0, v.width - 1)
        iv = np.clip(np.round(pv).astype(int), 0, v.height - 1)
        cos2, sin2 = np.cos(2 * a)[None, :, None], np.sin(2 * a)[None, :, None]
        aligned = (st[iv, iu] * (c[iv, iu] * cos2 + s_[iv, iu] * sin2)).max(axis=2)  # (M, N_RING)
        # Hidden outline points: inside an occluder, or beyond a korona rim.
        on = v.to_mm(np.stack([uv[:, 0, None] + rp * du[None], uv[:, 1, None] + rp * dv[None]], -1).reshape(-1, 2))
        hidden = np.zeros(len(on), bool)
        occ = self.occluders(xy.mean(axis=0), v.mm_per_px, reach=float(np.ptp(xy, axis=0).max()) if m else 0.0) \
            if m else np.zeros((0, 3))
        if len(occ):
            hidden |= (np.hypot(on[:, None, 0] - occ[None, :, 0], on[:, None, 1] - occ[None, :, 1])
                       < occ[None, :, 2]).any(axis=1)
        if isinstance(self.det.board, KoronaBoard):
            hidden |= np.abs(on).max(axis=1) > self.det.board.half - 1.5 * v.mm_per_px
        vis = ~hidden.reshape(m, N_RING)
        n_vis = vis.sum(axis=1)
        edge = (aligned > thr) & vis
        frac = edge.sum(axis=1) / np.maximum(n_vis, 1)
        # The worst quarter that is mostly visible: a board line crossing the circle lights up
        # two opposite arcs, a disc's outline all of its visible ones.
        vq = vis.reshape(m, 4, -1).sum(axis=2)
        eq = edge.reshape(m, 4, -1).sum(axis=2)
        judged = vq >= N_RING // 8
        worst = np.where(judged, eq / np.maximum(vq, 1), 1.0).min(axis=1)
        return np.minimum(frac, worst + 0.25), n_vis / N_RING

    def best_near(self, seed: np.ndarray) -> tuple[np.ndarray, float] | None:
        """The best centre within half a radius of ``seed`` by the outline map, and its
        occluder-aware outline share; None when that shows too little outline for a fit."""
        if self._map is None:
            m = self.outline_map()
            m[~self.valid] = 0.0
            self._map = m + 1e-3 * cv2_blur(m)
        m = self._map
        v = self.det.view
        u0, v0 = v.to_px(seed[None])[0]
        n = max(1, int(np.ceil(0.5 * self.radius / v.mm_per_px)))
        iu, iv = int(round(u0)), int(round(v0))
        if not (0 <= iu < v.width and 0 <= iv < v.height):
            return None
        y0, y1, x0, x1 = max(iv - n, 0), min(iv + n + 1, v.height), max(iu - n, 0), min(iu + n + 1, v.width)
        win = m[y0:y1, x0:x1]
        k = int(np.argmax(win))
        if win.flat[k] < MIN_DENSE:
            return None
        at = v.to_mm(np.array([[x0 + k % win.shape[1], y0 + k // win.shape[1]]], float))
        frac, vis = self.ring_scores(at)
        if vis[0] < MIN_VISIBLE or frac[0] < MIN_RING:
            return None
        return at[0], float(frac[0])

    def _edge_maps(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        if self._edges is None:
            from tracker.detect.candidates import edge_field

            y0, y1, x0, x1 = self.box
            H, W = self.valid.shape
            c, s_, st = (np.zeros((H, W), np.float32) for _ in range(3))
            thr = MIN_EDGE
            if y1 > y0 and x1 > x0:
                cc, ss, sst = edge_field(np.ascontiguousarray(self.lab[y0:y1, x0:x1]))
                c[y0:y1, x0:x1], s_[y0:y1, x0:x1], st[y0:y1, x0:x1] = cc, ss, sst
                # (the texture level: the median edge strength, on every other pixel each way)
                inside = self.det._valid[y0:y1:2, x0:x1:2]
                if inside.any():
                    thr = max(MIN_EDGE, 3.0 * float(np.median(sst[::2, ::2][inside])))
            self._edges = (c, s_, st, thr)
        return self._edges

    def outline_map(self) -> np.ndarray:
        """For every coarse-view pixel as a disc centre: the share of the ``N_RING`` outline
        points showing an edge along the circle (no occluders considered). A sum of shifted
        binary maps, one per outline direction: a few milliseconds for a whole view."""
        c_all, s_all, st_all, thr = self._edge_maps()
        y0, y1, x0, x1 = self.box
        out = np.zeros(st_all.shape, np.float32)
        c, s_, st = c_all[y0:y1, x0:x1], s_all[y0:y1, x0:x1], st_all[y0:y1, x0:x1]
        H, W = st.shape
        if H == 0 or W == 0:
            return out
        rp = self.radius / self.det.view.mm_per_px
        # The edge's projection on each direction is u cos + v sin with u = st c, v = st s (one
        # weighted sum a direction); the shifts of the few radii often round to the same pixel.
        u, v = st * c, st * s_
        acc = np.zeros((H, W), np.uint8)
        hit = np.zeros((H, W), bool)
        for a in np.linspace(0, 2 * np.pi, N_RING, endpoint=False):
            edge = cv2_weighted(u, float(np.cos(2 * a)), v, float(np.sin(2 * a))) > thr
            hit[:] = False
            shifts = {(int(round(r * np.cos(a))), int(round(r * np.sin(a))))
                      for r in rp + np.array([-0.5, 0.0, 0.5, 1.0])}
            for du, dv in shifts:
                # hit[v, u] |= edge[v + dv, u + du]
                hit[max(0, -dv): H - max(0, dv), max(0, -du): W - max(0, du)] |= \
                    edge[max(0, dv): H - max(0, -dv), max(0, du): W - max(0, -du)]
            acc += hit.view(np.uint8)
        out[y0:y1, x0:x1] = acc.astype(np.float32) / N_RING
        return out
