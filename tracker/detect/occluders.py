"""What hides part of a disc's outline in a cluster pass (``clusters.ClusterPass``): the discs
accepted so far (as silhouettes: bottom circle and top face), the pegs and the 20-hole, korona's
pockets on a second try, and the ditch beside the surface's edge. ``Refiner.refine`` leaves the
rays whose rim point falls inside one of these circles out of the fit and its coverage. Split
out of ``clusters.py``; the pass carries the state these read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.ditch import ditch_circle

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

HOLE_REST = 0.5  # (where a disc over its edge is sought: ``cluster_seeds.HOLE_SEEDS``)


class Occluders:
    """The occluder circles of a pass (mixed into ``ClusterPass``, which sets the attributes)."""

    det: DiscDetector
    radius: float
    taken: list[tuple[np.ndarray, float]]
    static: np.ndarray
    pockets: np.ndarray
    _sil: np.ndarray | None

    def _static_occluders(self) -> np.ndarray:
        b = self.det.board
        out: list[tuple[float, float, float]] = []
        if isinstance(b, CrokinoleBoard):
            pr = b.peg_diameter / 2 + 1.0
            out += [(float(x), float(y), pr) for x, y in b.peg_positions()]
            out.append((0.0, 0.0, float(b.hole_radius)))
        return np.array(out, float).reshape(-1, 3)

    def _pocket_occluders(self) -> np.ndarray:
        """Korona's pockets as occluders (``DetectorSettings.pocket_occluders``): a pocket is a
        dark opening, as the 20-hole, and a dark disc just outside its mouth shows no edge on that
        side once the gap is about a pixel. The mouth is widened by a pixel's share (the fits'
        margin adds as much again: 1.5 pixels, as ``try_seeds`` keeps off the rim). korona_ru_part
        at 480x270 (4.4 mm a pixel): n8, 4.5 mm from the sw pocket's mouth, was never found at
        rest, so its pocketing went unseen."""
        b = self.det.board
        if not isinstance(b, KoronaBoard) or not self.det.settings.pocket_occluders:
            return np.zeros((0, 3))
        out = [(float(x), float(y), float(b.pocket_radius) + 0.75 * self.det.refiner._mm_per_image_px(np.array([x, y], float)))
               for x, y in b.pocket_centres().values()]
        return np.array(out, float).reshape(-1, 3)

    def occluders(self, xy: np.ndarray, margin: float, reach: float = 0.0, pockets: bool = False) -> np.ndarray:
        """Circles within ``reach`` of a disc near ``xy`` where its rim cannot show (inflated by
        ``margin``); with ``pockets``, korona's pockets too (``_pocket_occluders``)."""
        reach += self.radius * 2.6 + 30.0
        circ: list[np.ndarray] = []
        if self.taken:
            if self._sil is None or len(self._sil) != len(self.taken):
                P = np.array([p for p, _ in self.taken])
                R = np.array([r for _, r in self.taken])
                s, k = self.det.pose.top_shift(P, self.det.thickness)
                # The neighbour's silhouette: its bottom circle and its top face, as one circle.
                self._sil = np.concatenate([P + 0.5 * s, (k * R + 0.5 * np.linalg.norm(s, axis=1))[:, None]], 1)
            C = self._sil[:, :2]
            rad = self._sil[:, 2] + margin
            near = np.hypot(*(C - xy).T) < reach
            circ.append(np.concatenate([C[near], rad[near, None]], 1))
        st = self.static.copy()
        if len(st):
            d = np.hypot(*(st[:, :2] - xy).T)
            # The hole hides nothing of a disc sunk in it (its centre is inside).
            keep = (d < reach) & (d > HOLE_REST * st[:, 2])
            st = st[keep]
            st[:, 2] += margin
            circ.append(st)
        if pockets and len(self.pockets):
            pk = self.pockets[np.hypot(*(self.pockets[:, :2] - xy).T) < reach].copy()
            pk[:, 2] += margin
            circ.append(pk)
        circ.append(self._ditch(xy, margin))
        return np.concatenate(circ) if circ else np.zeros((0, 3))

    def openings(self, xy: np.ndarray, margin: float) -> np.ndarray:
        """The 20-hole as ``Refiner.refine``'s ``openings`` (it hides the foot's edge over it
        too) for a disc near ``xy``, when ``occluders`` masks it."""
        b = self.det.board
        if not isinstance(b, CrokinoleBoard):
            return np.zeros((0, 3))
        d = float(np.hypot(*xy))
        if not HOLE_REST * b.hole_radius < d < self.radius * 2.6 + 30.0:
            return np.zeros((0, 3))
        return np.array([[0.0, 0.0, b.hole_radius + margin]])

    def _ditch(self, xy: np.ndarray, margin: float) -> np.ndarray:
        """The ditch beside a disc at ``xy`` at the surface's edge, as one circle (``ditch.py``)."""
        return ditch_circle(self.det.board, xy, self.radius, margin)
