"""Touching and clustered discs: a second, occlusion-aware pass after the ring-filter candidates.

The coarse ring filter wants an edge in every quarter of a disc's outline. A disc that touches
another one of the same colour, a dark disc overhanging the dark 20-hole, or a korona row of
discs laid side by side against the rim has no such edge on the sides it shares: its candidate is
missing (a row's inner discs give no peak at all) or pulled toward the dark neighbour, and the fit
from there is captured by the neighbour's edge and rejected. Lowering the filter's thresholds
would let hands and shadows through; this pass instead uses what is already known:

* Occluders: every disc accepted so far, the pegs, and the 20-hole (for a disc centred outside
  it). ``Refiner.refine(occluders=...)`` leaves the rays whose rim point falls inside one out of
  the fit and out of the coverage, so a disc is judged only on the part of its outline that can
  show an edge. Hands, arms and shadows are never occluders: their open outlines still fail.
  The hole also hides the foot's edge where the foot overhangs it on the side facing the camera
  (``openings``; there the foot, not the top rim, is the outline). Korona's pockets
  (``DetectorSettings.pocket_occluders``) mask a seed's fit only on a second try, when the fit
  without them was turned down (``try_seeds``).
* Rejected ring-filter candidates: one whose fit found the disc off-centre (a light disc's
  shadow pulls the coarse peak) is refitted once from where the fit went, so its rays are cast
  from the disc's centre; one next to an occluder is retried where it was, a third of a radius
  further from the occluder (the peak is pulled toward a dark neighbour by about that), and just
  touching it; one at the 20-hole, however open its outline, also on the line from the hole's
  centre at the places a disc resting over the hole's edge can be (``hole_seeds``: a dark disc
  there merges with the dark hole, issue #5).
* Growing clusters: around every accepted disc, seeds at the touching distance in
  ``N_AROUND`` directions (``cluster_seeds.py``); each disc found becomes an occluder and a source of seeds in turn, so
  a row is followed disc by disc from the end the ring filter found (and a place that failed is
  tried again once a new neighbour masks it).
* Discs no known disc touches (a row whose ends the ring filter missed too): the local maxima of
  an *outline map* (``outline.py``), for every coarse-view pixel the share of a disc-sized circle's points that
  show an edge running along it (a sum of shifted binary maps, a few ms a view).
* A cheap look before every fit (``outline.py``): the same outline share, occluder-aware, at the best place
  within half a radius of the seed; most seeds stop here, so a fit (a few ms) is spent only
  where a disc is likely.

Fits found this way are judged more strictly than the first pass's: at least 0.9 of the nominal
radius, more outline (``_convincing``: a partly masked circle drawn by board lines has the
board's colour; a fully visible one the ring filter already turned down needs a closed outline),
and the face must differ from the board or from its surround.

Cost (1280x720, where a fit costs 3-4 ms): the full search above runs on full passes only. On a
pass over a changed region (a hand or a disc moving: most of a match's detector calls) only the
nearly accepted rejected candidates are retried (see ``run``). Places where a fit failed, and
discs whose surroundings were searched in vain, are remembered by the detector's
``RejectMemory`` (``rejects.py``) and not searched again until the picture changes within their
reach. A budget of refits per pass (``MAX_REFITS``) bounds the cost in pathological frames.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.cluster_seeds import UNLIKE_BOARD, around, hole_seeds, reseed
from tracker.detect.ditch import like_ditch
from tracker.detect.lab_weights import WEIGHTS32
from tracker.detect.occluders import HOLE_REST, Occluders
from tracker.detect.outline import MIN_DENSE, MIN_RING, MIN_VISIBLE, OutlineLook, cv2_blur
from tracker.detect.refine import Fit
from tracker.detect.strikers import fit_options

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

MAX_REFITS = 80  # refits per kind and pass
STRICT_COVERAGE, STRICT_QUARTER = 0.8, 0.5  # outline a found disc shows (of its visible rays)
UNLIKE_COVERAGE = 0.7  # ... or this much, with a face unlike the board
ALONE_COVERAGE, ALONE_QUARTER = 0.9, 0.75  # ... with no part of it masked and a board-like face
RESIDUAL_SCALE = 1.3  # looser residual when neighbours are masked
# A line's end or crossing, or the centre mark, closes a smaller circle than a disc; a real disc
# fits at least about its size (dark ones larger, their shadow merging with them).
MIN_RADIUS = 0.9  # of the nominal radius
RETRY_COVERAGE = 0.4  # a rejected candidate's first fit showed this much outline: worth a retry
SEED_KIND = 100  # the reject memory's kind for failed seeds of this pass (plus the disc kind)
GROW_KIND = 200  # ... for discs whose surroundings were searched in vain
# A disc centred this far (of the hole's radius) from the 20-hole's centre can rest over its edge;
# the hole then masks its rim (``occluders``) and is masked for no disc nearer its centre.
GROW_REACH = 4.5  # disc radii a search around a disc reads (seeds at 2, the look moves 0.5, the fit 1.8)


class ClusterPass(Occluders, OutlineLook):
    """One pass over one frame and one disc kind; see the module docstring."""

    def __init__(self, det: DiscDetector, frame: np.ndarray, lab_view: np.ndarray,
                 kind: int, radius: float, taken: list[tuple[np.ndarray, float]],
                 region: np.ndarray | None) -> None:
        self.det = det
        self.frame = frame
        self.lab = lab_view
        self.kind = kind
        self.radius = radius
        self.taken = taken
        self.region = region
        self.refits = 0
        valid = det._valid if region is None else det._valid & region
        # The board's colour: the view's median, measured on full passes (it changes slowly), on
        # every third pixel each way (the median of 100k pixels cost 5 ms at 1280x720).
        if region is None or det.cluster_board_lab is None:
            board = lab_view[::3, ::3][det._valid[::3, ::3]]
            det.cluster_board_lab = np.median(board, axis=0) if len(board) else np.zeros(3, np.float32)
        self.board_lab = det.cluster_board_lab
        self.valid = valid
        # Edge and outline maps only over the searched region (with room for a disc around it).
        ys, xs = np.nonzero(valid)
        m = int(np.ceil(2 * radius / det.view.mm_per_px)) + 2
        H, W = valid.shape
        self.box = (max(int(ys.min()) - m, 0), min(int(ys.max()) + m + 1, H),
                    max(int(xs.min()) - m, 0), min(int(xs.max()) + m + 1, W)) if len(ys) else (0, 0, 0, 0)
        self.static = self._static_occluders()
        self.pockets = self._pocket_occluders()
        b = det.board
        self.pegs = np.asarray(b.peg_positions(), float).reshape(-1, 2) if isinstance(b, CrokinoleBoard) \
            else np.zeros((0, 2))
        self._edges: tuple[np.ndarray, np.ndarray, np.ndarray, float] | None = None
        self._map: np.ndarray | None = None
        self._sil: np.ndarray | None = None  # taken discs' silhouettes (x, y, radius), cached
        self.tried: list[np.ndarray] = []  # fits already tried from the cheap look (failed or not)

    def _like_ditch(self, fit: Fit) -> bool:
        """Whether masking the ditch was fair for ``fit``: its face nearer the ditch's colour
        than the board's (``ditch.like_ditch``)."""
        b = self.det.board
        assert isinstance(b, CrokinoleBoard)
        return like_ditch(b, self.det.refiner, self.frame, fit, self.radius, self.board_lab)

    # ------------------------------------------------------------------ seeds
    def lab_at(self, xy: np.ndarray) -> np.ndarray | None:
        v = self.det.view
        u, w = v.to_px(xy[None])[0]
        iu, iw = int(round(u)), int(round(w))
        if not (1 <= iu < v.width - 1 and 1 <= iw < v.height - 1) or not self.valid[iw, iu]:
            return None
        return np.asarray(self.lab[iw - 1: iw + 2, iu - 1: iu + 2].reshape(-1, 3).mean(axis=0))

    def free(self, xy: np.ndarray) -> bool:
        return not any(np.hypot(*(xy - p)) < 1.6 * min(self.radius, pr) for p, pr in self.taken)

    def fits_board(self, xy: np.ndarray) -> bool:
        b = self.det.board
        if not self.det.place_ok(xy, self.radius, self.det.view.mm_per_px):
            return False
        if isinstance(b, KoronaBoard):
            return True
        # On the playing surface only: in the ditch the walls and the rail draw arcs that a
        # partly masked outline would take for a disc (ditch discs come from the first pass).
        # A disc may rest with its centre over the 20-hole: it stays up while the part of it
        # on the board carries its centre (d > sqrt(R_hole^2 - r^2), about 7 mm; the simulator
        # drops it within ~9.6 mm). Such a disc, dark over the dark hole, is this pass's to find
        # (the hole masked); nearer the centre is the hole's (sunk discs: the first pass).
        d = float(np.hypot(*xy))
        if not HOLE_REST * b.hole_radius < d <= b.surface_radius:
            return False
        # Well clear of a peg (a peg's bright head in its dark shadow is a small ring of its own).
        return bool(np.hypot(*(self.pegs - xy).T).min() >= 0.9 * (self.radius + b.peg_diameter / 2))

    def look(self, seed: np.ndarray) -> np.ndarray | None:
        """Where to fit near ``seed``: the best place by the cheap look, unless it shows too
        little outline, is taken, or was tried already."""
        if not self.free(seed):
            return None
        near = self.best_near(seed)
        if near is None or not self.free(near[0]) or not self.fits_board(near[0]):
            return None
        if any(np.hypot(*(near[0] - t)) < 0.4 * self.radius for t in self.tried):
            return None
        self.tried.append(near[0])
        return near[0]

    def try_seeds(self, seeds: list[np.ndarray], ring: bool = False) -> tuple[Fit, float] | None:
        """Refit from each seed (neighbours masked); the best accepted fit, or None. (The fit
        starts with the usual wide edge search: a narrower one, or a limit on how far the fit
        may move from a seed of the cheap look, lost more discs on the korona fixtures than
        it saved from neighbours' edges.) ``ring``: the seed stands for a ring-filter candidate,
        judged by the first pass's criteria and a little more outline (``_convincing`` is for
        seeds without it)."""
        best: tuple[Fit, float] | None = None
        for seed in seeds:
            # Beside a korona pocket, a seed the fit turned down is fitted once more with the
            # pocket masked (``_pocket_occluders``); a fit that passes without stays as it was
            # (a disc over a pocket's mouth, masked, showed too little outline: korona_2p_game).
            for pockets in (False, True) if self._beside_pocket(seed) else (False,):
                if self.refits >= MAX_REFITS:
                    return best
                self.refits += 1
                fit = self._seed_fit(seed, ring, pockets, best)
                if fit is not None:
                    best = (fit, fit.coverage)
                    break
            if best is not None and best[1] >= 0.9:
                break
        return best

    def _beside_pocket(self, xy: np.ndarray) -> bool:
        return bool(len(self.pockets)) and \
            bool(np.any(np.hypot(*(self.pockets[:, :2] - xy).T) < self.pockets[:, 2] + 2.0 * self.radius))

    def _seed_fit(self, seed: np.ndarray, ring: bool, pockets: bool, best: tuple[Fit, float] | None) -> Fit | None:
        """``try_seeds``' fit from one seed, if it is accepted and better than ``best``."""
        det = self.det
        px = det.refiner._mm_per_image_px(seed)
        margin = max(1.5, 0.75 * px)
        occ = self.occluders(seed, margin, pockets=pockets)
        # Against the rim even a strip of board a pixel or so wide is lost in the blur.
        bounds = det.board.half - max(2.0, 1.5 * px) if isinstance(det.board, KoronaBoard) else None
        fit = det.refiner.refine(self.frame, seed, self.radius, with_colors=False,
                                 give_up_below=0.6 * det.settings.min_coverage, occluders=occ,
                                 bounds=bounds, openings=self.openings(seed, margin),
                                 **fit_options(det, self.kind, seed))
        if fit.visible < MIN_VISIBLE or not self.free(fit.centre) or \
                not det._accept(fit, self.radius, residual_scale=RESIDUAL_SCALE if fit.visible < 1.0 else 1.0):
            return None
        if best is not None and fit.coverage <= best[0].coverage:
            return None
        det.refiner.add_colors(self.frame, fit)
        if len(self._ditch(fit.centre, margin)) and fit.visible < 1.0 and not self._like_ditch(fit):
            return None  # its outline ends where the ditch was masked for it (``_like_ditch``)
        # The ring around a disc in a cluster is mostly its neighbours (or the rim): its face
        # may match that and still differ from the board.
        assert fit.color is not None
        if not det._accept_colors(fit) and \
                float(np.linalg.norm((fit.color - self.board_lab) * WEIGHTS32)) < det.settings.min_color_step:
            return None
        if det._is_empty_hole(self.frame, seed, fit, self.radius) or det.is_painted_mark(fit):
            return None
        if not self.fits_board(fit.centre) or fit.radius < MIN_RADIUS * self.radius:
            return None
        if not (fit.coverage >= UNLIKE_COVERAGE if ring else self._convincing(fit)):
            return None
        return fit

    def fit_at(self, at: np.ndarray) -> tuple[Fit, float] | None:
        """``try_seeds([at])`` for a place the cheap look chose, unless a fit there failed on an
        earlier call and nothing within its reach has changed since (the detector's
        ``RejectMemory``, ``rejects.py``: on every full pass the same line crossings and peg
        shadows pass the cheap look and fail the fit)."""
        memory = getattr(self.det, "rejects", None)
        key = SEED_KIND + self.kind
        if memory is not None and memory.recall(at, key) is not None:
            return None
        before = self.refits
        got = self.try_seeds([at])
        if got is None and memory is not None and self.refits > before:
            memory.note(at, key, self.radius, None, "seed")
        return got

    def _convincing(self, fit: Fit) -> bool:
        """Stricter than the first pass: these seeds did not come from the ring filter, which
        rejects most board lines, rails and wood grain on its own. A partly masked outline drawn
        by board lines has a face of the board's colour, so a face unlike the board passes with
        a little less outline."""
        assert fit.color is not None
        unlike = float(np.linalg.norm((fit.color - self.board_lab) * WEIGHTS32)) >= UNLIKE_BOARD
        # With nothing masked the ring filter had its chance at this circle already: a patch of
        # board framed by an arm and a board line, or a noisy board's texture, is the usual
        # thing it rightly turned down.
        alone = fit.visible >= 1.0
        if unlike and fit.coverage >= (STRICT_COVERAGE if alone else UNLIKE_COVERAGE):
            return True
        if alone:
            return fit.coverage >= ALONE_COVERAGE and fit.quarter_coverage >= ALONE_QUARTER
        return fit.coverage >= STRICT_COVERAGE and fit.quarter_coverage >= STRICT_QUARTER

    def blobs(self) -> list[np.ndarray]:
        """Disc centres the ring filter missed, strongest first: local maxima of the outline
        map where no disc is known. The ring filter wants edges in all four quarters; here
        a disc in a row (neighbours on two sides, the rim on a third) still shows most of its
        outline points. Each is checked occluder-aware (``best_near``) before a fit."""
        from tracker.detect.candidates import peaks

        if self._map is None:
            m = self.outline_map()
            m[~self.valid] = 0.0
            self._map = m + 1e-3 * cv2_blur(m)
        rp = self.radius / self.det.view.mm_per_px
        uv = peaks(self._map, 1.2 * rp, MIN_DENSE, None, MAX_REFITS)
        xy = self.det.view.to_mm(uv)
        if len(xy) == 0:
            return []
        # The occluder-aware look at all of them at once (``look`` repeats it for the few left).
        frac, vis = self.ring_scores(xy)
        xy = xy[(frac >= MIN_RING - 0.1) & (vis >= MIN_VISIBLE)]
        return [q for q in xy if self.fits_board(q) and self.free(q)]

    def _found(self, xy: np.ndarray) -> None:
        """A disc found here: it masks its neighbours' fits from now on, so places next to it
        that failed before are worth another fit."""
        self.taken.append((xy, self.radius))
        self.tried = [t for t in self.tried if np.hypot(*(t - xy)) > 2.6 * self.radius]

    def run(self, rejected: list[tuple[np.ndarray, float, Fit]],
            sources: list[tuple[np.ndarray, float]]) -> list[tuple[Fit, float]]:
        """Discs found: first from the rejected candidates (strongest first; each with where its
        fit went), then by growing from ``sources`` (accepted discs) and from every disc found
        here. Accepted discs are appended to ``taken`` as they are found.

        On a pass over a changed region only (``region`` set: frames where a hand or a disc
        moves, most of a match's detector calls) only the candidates the first pass could not
        settle are worked on: the nearly accepted rejected ones, and clusters grown from what
        they yield. Growing from every disc the first pass accepted, and the outline map's
        blobs, cost 10-20 ms a frame there and found a disc in about one frame in forty, almost
        always the sliding disc's blur or a hand; a disc that comes to rest in a cluster is
        found by them on the next full pass (the pipeline asks for one when the board
        settles)."""
        found: list[tuple[Fit, float]] = []
        queue: deque[tuple[np.ndarray, float, np.ndarray | None]] = deque()
        full = self.region is None
        memory = getattr(self.det, "rejects", None)
        grown: list[np.ndarray] = []  # sources whose neighbourhood is searched afresh
        if full:
            for p, r in sources:
                # A disc whose surroundings were searched on an earlier full pass, finding
                # nothing, and have not changed since: the same search would find nothing again.
                if memory is not None and memory.recall(p, GROW_KIND + self.kind) is not None:
                    continue
                grown.append(p)
                queue.append((p, r, self.lab_at(p)))
        n_found = len(self.taken)
        for c, q, first in sorted(rejected, key=lambda cq: -cq[1]):
            # Most rejected candidates are plainly no disc (a sliding disc's blur, fingers): their
            # outline was mostly open. Only the nearly accepted ones are worth another fit.
            hole = hole_seeds(self, c, first)
            if not self.free(c) or (first.coverage < RETRY_COVERAGE and not hole):
                continue
            got = None
            went = first.centre
            # A coarse peak pulled off-centre (a light disc's shadow on one side) casts its rays
            # from off-centre: the fit may find the disc and still judge its outline poorly.
            # Once more from where it went, as a ring-filter candidate (first-pass criteria).
            moved = float(np.hypot(*(went - c)))
            if 0.2 * self.radius < moved < self.radius and first.coverage >= RETRY_COVERAGE + 0.1 and \
                    self.free(went) and self.fits_board(went):
                got = self.try_seeds([went], ring=True)
            if got is None:
                got = self.try_seeds(reseed(self, c))
            if got is None and hole:
                got = self.try_seeds(hole)
            if got is not None:
                fit = got[0]
                self._found(fit.centre)
                found.append((fit, q))
                queue.append((fit.centre, self.radius, self.lab_at(fit.centre)))
        self._grow(queue, found)
        if not full:
            return found
        if memory is not None and len(self.taken) == n_found:
            for p in grown:
                memory.note(p, GROW_KIND + self.kind, self.radius, None, "grow", reach=GROW_REACH)
        for b in self.blobs():
            if self.refits >= MAX_REFITS:
                break
            at = self.look(b)
            if at is None:
                continue
            got = self.fit_at(at)
            if got is not None:
                fit = got[0]
                self._found(fit.centre)
                found.append((fit, 0.0))
                queue.append((fit.centre, self.radius, self.lab_at(fit.centre)))
                self._grow(queue, found)
        return found

    def _grow(self, queue: deque[tuple[np.ndarray, float, np.ndarray | None]],
              found: list[tuple[Fit, float]]) -> None:
        while queue and self.refits < MAX_REFITS:
            p, pr, col = queue.popleft()
            for s in around(self, p, pr, col):
                at = self.look(s)
                if at is None:
                    continue
                got = self.fit_at(at)
                if got is None:
                    continue
                fit = got[0]
                self._found(fit.centre)
                found.append((fit, 0.0))
                queue.append((fit.centre, self.radius, self.lab_at(fit.centre)))
