"""``DiscDetector``: every disc in a frame, in board millimetres.

Pipeline per frame (each stage cheap, the expensive one only where a disc is likely):

1. Rectify the board region to a top-down view at a modest scale (``mm_per_px``, default 2, never
   finer than the camera sees), with remap tables computed once per calibration.
2. Reuse: compare with the view of the previous call; discs with no changed pixel on their own
   silhouette are kept as they were (a neighbour sliding past does not force a refit), and the
   search below runs only on the changed region's bounding box (a full pass every
   ``refresh_frames`` calls). A still frame costs a remap and a difference.
3. Coarse candidates: the fixed-radius four-quadrant ring filter of ``candidates.py`` (one radius
   per kind: disc, korona striker), peaks above a coherence and strength floor.
4. Refine each candidate in the original image (``refine.py``): edge points on rays, cylinder
   silhouette fit, so the centre is where the disc touches the board (height-corrected, and
   chamfer-corrected when ``bevel`` is set). A candidate whose outline is plainly open after two
   of the four iterations is given up (most candidates that are not discs: half the cost).
5. Verify: enough of the outline found in every quarter (coverage), a small residual, the right
   radius, a top face that differs from the board around it. A hand, an arm, a cue or a shadow
   does not close a disc-sized circle with edges all round, so it fails here. Openings cut in the
   surface (the empty 20-hole, korona pockets) are circles too: a flat-circle fit (rim at z = 0,
   larger than a disc) or their position rules them out.
   Then a second, occlusion-aware pass (``clusters.py``, ``DetectorSettings.clusters``): discs
   touching a found disc, overhanging the 20-hole or lying in a row against a korona rim show no
   edge on the side they share, so they are refitted with those sides masked, seeded from the
   rejected candidates, around every disc found, and from an outline map.
6. Kinds: smaller first; a striker-sized ring through neighbouring discs loses to the discs.
7. Streaks: against the empty board, learned from still calls (``background.py``: started by
   ``set_background``, or with ``background.auto_start`` by the first still call), a disc-wide,
   elongated difference blob that no disc explains, where the view changed, is reported as a
   motion-blurred disc (``streaks.py``).
8. Label ``where`` (surface / hole / ditch / pocket) from the board model.

Tolerances that depend on the image (edge windows, residual, radius) scale with the millimetres
per image pixel at the disc, so the same detector runs on 4000-pixel phone photos and 480x270
fixture videos.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.background import BackgroundModel
from tracker.detect.candidates import RingFilter, peaks, ring_response
from tracker.detect.datatypes import (
    DISC,
    IN_DITCH,
    IN_HOLE,
    IN_POCKET,
    ON_SURFACE,
    STRIKER,
    Detections,
)
from tracker.detect.geometry import BoardView, camera_pose
from tracker.detect.refine import Fit, Refiner
from tracker.detect.reuse import untouched
from tracker.errors import InputError

# Crop-sized FFT ring filters kept at once (each ~0.1-1 MB).
CROP_FILTER_CACHE = 24


@dataclass(frozen=True)
class DetectorSettings:
    mm_per_px: float = 2.0  # coarse view scale (coarser when the camera itself sees less)
    min_coherence: float = 0.30  # coarse candidate: ring flux / ring gradient magnitude
    min_flux: float = 0.6  # coarse candidate: Lab units per px (noise floor)
    min_coverage: float = 0.6  # refined: fraction of rays with a consistent edge
    min_quarter_coverage: float = 0.25  # ... and in the worst quarter of the outline
    max_residual: float = 1.2  # refined: RMS edge residual, mm
    radius_tolerance: float = 0.15  # refined radius within +-15% of the nominal one
    # Size (mm) of the chamfer or rounding of the discs' top edge. At an oblique view it pulls the
    # far side's outline toward the camera by ``bevel * cot(elevation)`` (``Refiner._bevel_drop``)
    # and leaves a top-down view alone. 0 (square discs) by default; ``tracker photo`` uses 1.9
    # for real discs (see ``photo.PHOTO_BEVEL_MM`` and the report for the measurements).
    bevel: float = 0.0
    min_color_step: float = 6.0  # top face vs the board around it, weighted 8-bit Lab units
    max_candidates: int = 120
    reuse: bool = True  # keep unchanged discs from the previous call (video)
    change_level: float = 10.0  # grey levels: a coarse-view pixel changed
    refresh_frames: int = 50  # a full pass at least this often
    clusters: bool = True  # the occlusion-aware second pass for touching discs (``clusters.py``)


class DiscDetector:
    """Finds discs (and korona strikers) in BGR frames of one calibrated camera."""

    def __init__(self, calib: Calibration, game: str | None = None, *,
                 settings: DetectorSettings | None = None,
                 background: np.ndarray | None = None) -> None:
        self.calib = calib
        self.board = calib.board
        self.game = game or self.board.game
        if self.game != self.board.game:
            raise InputError(f"detector: game {self.game!r} does not match the calibrated {self.board.game} board")
        self.settings = settings or DetectorSettings()
        self.pose = camera_pose(calib)
        self.kinds: list[tuple[int, float]] = [(DISC, self.board.disc_radius)]
        if isinstance(self.board, KoronaBoard):
            self.kinds.append((STRIKER, self.board.striker_radius))
            half = self.board.half + 5.0
        else:
            half = self.board.ditch_outer_radius + 5.0
        self.thickness = float(self.board.disc_thickness)
        self.refiner = Refiner(calib, self.pose, self.thickness, bevel=self.settings.bevel)
        # The coarse view need not be finer than the camera sees the board.
        self.mm_per_px = max(self.settings.mm_per_px, 0.9 * self.refiner._mm_per_image_px(np.zeros(2)))
        self.view = BoardView.around(half, self.mm_per_px)
        self._maps = self.view.maps(calib)
        self.flat_refiner = Refiner(calib, self.pose, 0.0)  # circles painted or cut in the surface
        self._valid = self._region_mask()
        self._filters: dict[int, RingFilter] = {}
        self._ring_px: dict[int, tuple[float, float]] = {}
        self._crop_filters: OrderedDict[tuple[int, int, int], RingFilter] = OrderedDict()
        # Frame-to-frame reuse (see ``detect``).
        self._ref_grey: np.ndarray | None = None
        self._last: Detections | None = None
        self._since_full = 0
        # Widen the ring outward by the largest apparent top-face shift over the board.
        corners = np.array([[0.0, 0.0], [half, half], [-half, half], [half, -half], [-half, -half]])
        s, k = self.pose.top_shift(corners, self.thickness)
        for kind, r in self.kinds:
            extra = 0.5 * float(np.linalg.norm(s, axis=1).max()) + (float(k.max()) - 1.0) * r
            self._ring_px[kind] = (r / self.mm_per_px, extra / self.mm_per_px)
            self._filters[kind] = RingFilter.build((self.view.height, self.view.width),
                                                   r / self.mm_per_px, 1.5, extra / self.mm_per_px)
        # The empty board, learned from still frames (streaks are found against it); and the
        # Lab of an empty-board frame given to ``set_background`` (the empty 20-hole's colour).
        self.background = BackgroundModel(self._valid)
        self.background_lab: np.ndarray | None = None
        self.cluster_board_lab: np.ndarray | None = None  # the board's colour (``clusters.py``)
        if background is not None:
            self.set_background(background)

    # ------------------------------------------------------------------ helpers
    def _region_mask(self) -> np.ndarray:
        v = self.view
        u, w = np.meshgrid(np.arange(v.width), np.arange(v.height))
        xy = v.to_mm(np.stack([u.ravel(), w.ravel()], 1))
        if isinstance(self.board, CrokinoleBoard):
            ok = np.hypot(xy[:, 0], xy[:, 1]) <= self.board.ditch_outer_radius
        else:
            ok = (np.abs(xy[:, 0]) <= self.board.half) & (np.abs(xy[:, 1]) <= self.board.half)
        return ok.reshape(v.height, v.width)

    def rectify(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The coarse top-down view (BGR uint8)."""
        self._check(frame_bgr)
        return cv2.remap(frame_bgr, self._maps[0], self._maps[1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT)

    def _check(self, frame: np.ndarray) -> None:
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
            raise InputError("detector: expected a BGR image (H, W, 3)")
        w, h = self.calib.image_size
        if frame.shape[1] != w or frame.shape[0] != h:
            raise InputError(f"detector: frame is {frame.shape[1]}x{frame.shape[0]}, calibration is for {w}x{h}")

    @staticmethod
    def _lab(bgr: np.ndarray) -> np.ndarray:
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)
        return lab.astype(np.float32)

    def set_background(self, frame_bgr: np.ndarray, discs: Detections | None = None) -> None:
        """Start the empty-board model from a frame; ``discs``: the discs on it (the board under
        them is unseen until they go). With no discs the frame is also the empty-board reference
        of the 20-hole check. The model then learns from still frames (``background.py``)."""
        from tracker.detect.streaks import explained

        blurred = BackgroundModel.prepare(self._lab(self.rectify(frame_bgr)))
        has_discs = discs is not None and len(discs) > 0
        covered = explained(self, discs, self._valid.shape) if discs is not None and has_discs else None
        self.background.reset(blurred, covered)
        self.background_lab = None if has_discs else blurred

    def where_of(self, x: float, y: float, r: float) -> int:
        b = self.board
        if isinstance(b, CrokinoleBoard):
            if b.in_hole(x, y, r):
                return IN_HOLE
            return ON_SURFACE if b.on_surface(x, y) else IN_DITCH
        return IN_POCKET if b.pocket_of(x, y, r) is not None else ON_SURFACE

    # ------------------------------------------------------------------ detection
    def candidates(self, view: np.ndarray, kind: int, radius: float,
                   region: np.ndarray | None = None, lab: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Coarse centres (N, 2) in mm and their coherence (N,) in the coarse ``view`` (BGR),
        only inside ``region`` (a mask of the view) when given; the filter then runs on the
        region's bounding box only, and only that box is converted to Lab (unless the whole
        view's ``lab`` is given)."""
        st = self.settings
        valid = self._valid if region is None else self._valid & region
        y0, x0 = 0, 0
        filt = self._filters[kind]
        H, W = view.shape[:2]
        sub: np.ndarray | None = None
        if region is not None:
            ys, xs = np.nonzero(valid)
            if len(ys) == 0:
                return np.zeros((0, 2)), np.zeros(0)
            m = filt.half + 2
            y0, y1 = max(int(ys.min()) - m, 0), min(int(ys.max()) + m + 1, H)
            x0, x1 = max(int(xs.min()) - m, 0), min(int(xs.max()) + m + 1, W)
            if (y1 - y0) * (x1 - x0) < 0.5 * H * W:
                hb, wb = -(-(y1 - y0) // 32) * 32, -(-(x1 - x0) // 32) * 32
                key = (kind, hb, wb)
                if key not in self._crop_filters:
                    rp, ep = self._ring_px[kind]
                    self._crop_filters[key] = RingFilter.build((hb, wb), rp, 1.5, ep)
                    # A bounded cache (least recently used out): every crop size has its own
                    # FFT filter, and an unbounded cache grew without end over a long live match.
                    while len(self._crop_filters) > CROP_FILTER_CACHE:
                        self._crop_filters.popitem(last=False)
                self._crop_filters.move_to_end(key)
                filt = self._crop_filters[key]
                crop = lab[y0:y1, x0:x1] if lab is not None else self._lab(view[y0:y1, x0:x1])
                sub = cv2.copyMakeBorder(crop, 0, hb - (y1 - y0), 0, wb - (x1 - x0), cv2.BORDER_REPLICATE)
                valid = np.pad(valid[y0:y1, x0:x1], ((0, hb - (y1 - y0)), (0, wb - (x1 - x0))))
            else:
                y0 = x0 = 0
        if sub is None:
            sub = lab if lab is not None else self._lab(view)
        rr = ring_response(sub, filt)
        ok = valid & (rr.coherence >= st.min_coherence) & (rr.score >= st.min_flux)
        uv = peaks(rr.score, 0.9 * radius / self.mm_per_px, 0.0, ok, st.max_candidates)
        coh = rr.coherence[np.clip(np.round(uv[:, 1]).astype(int), 0, sub.shape[0] - 1),
                           np.clip(np.round(uv[:, 0]).astype(int), 0, sub.shape[1] - 1)]
        return self.view.to_mm(uv + np.array([x0, y0])), coh

    def _changed(self, view: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray]:
        """Where the view changed since the last detection: the changed pixels themselves, and
        the same dilated by a disc (where a disc could have gone); both None for a full pass
        (first frame, periodic refresh, reuse off). Also the view's grey image."""
        grey = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
        st = self.settings
        if self._ref_grey is None or self._last is None or not st.reuse or self._since_full >= st.refresh_frames:
            return None, None, grey
        moved = ((cv2.absdiff(grey, self._ref_grey) > st.change_level) & self._valid).astype(np.uint8)
        moved = cv2.morphologyEx(moved, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        r = max(rad for _, rad in self.kinds)
        k = 2 * int(np.ceil(1.6 * r / self.mm_per_px)) + 1
        region = cv2.dilate(moved, np.ones((k, k), np.uint8))  # square: separable, fast
        return moved.astype(bool), region.astype(bool), grey

    def _holes(self) -> list[tuple[np.ndarray, float]]:
        """Circular openings cut in the surface: the crokinole 20-hole, the korona pockets."""
        b = self.board
        if isinstance(b, CrokinoleBoard):
            return [(np.zeros(2), b.hole_radius)]
        return [(np.asarray(c, float), b.pocket_radius) for c in b.pocket_centres().values()]

    def _is_empty_hole(self, frame: np.ndarray, guess: np.ndarray, fit: Fit, radius: float) -> bool:
        """An empty hole or pocket is a dark circle whose rim lies on the surface, somewhat larger
        than a disc. It looks like one when the fitted rim (as seen, z = 0) is centred on it and
        larger than a disc, or when a flat-circle fit says so. At low resolution a disc sunk in
        the 20-hole has the same outline, so the colour decides: a disc shows its face, unlike
        the empty hole in the background frame (or, without one, unlike a hole's darkness)."""
        for centre, hole in self._holes():
            if np.hypot(*(guess - centre)) > hole + 12.0:
                continue
            T = fit.top_centre if fit.top_centre is not None else fit.centre
            looks = bool(np.hypot(*(T - centre)) < max(5.0, fit.mm_per_px) and fit.top_radius > 0.5 * (hole + radius))
            if not looks:
                flat = self.flat_refiner.refine(frame, guess, hole, with_colors=False)
                looks = bool(np.hypot(*(flat.centre - centre)) < max(5.0, fit.mm_per_px)
                             and flat.radius > 0.5 * (hole + radius)
                             and flat.coverage >= 0.6 and flat.residual <= fit.residual + 0.15)
            if looks and not self._disc_shows_in_hole(fit, centre):
                return True
        return False

    def _disc_shows_in_hole(self, fit: Fit, centre: np.ndarray) -> bool:
        if fit.color is None or not isinstance(self.board, CrokinoleBoard):
            return False
        w = np.array([1.0, 1.6, 1.6])
        if self.background_lab is not None:
            u, v = np.round(self.view.to_px(centre[None])[0]).astype(int)
            empty = self.background_lab[v, u]
            return float(np.linalg.norm((fit.color - empty) * w)) > 20.0
        # No background: an empty hole is much darker than the board around it.
        return fit.surround is not None and float(fit.color[0]) > float(fit.surround[0]) - 25.0

    def _accept(self, fit: Fit, radius: float, residual_scale: float = 1.0) -> bool:
        """The refined fit's outline, residual, radius and place (``residual_scale``: a looser
        residual for fits with neighbours masked, whose remaining rays border them)."""
        st = self.settings
        if fit.coverage < st.min_coverage or fit.quarter_coverage < st.min_quarter_coverage:
            return False
        # At low resolution (a disc a few pixels across) the fit is only good to a pixel or so.
        if fit.residual > residual_scale * max(st.max_residual, 0.5 * fit.mm_per_px):
            return False
        # (Dark discs at low resolution look larger: their shadow merges with them.)
        if abs(fit.radius - radius) > max(st.radius_tolerance * radius, 1.2 * fit.mm_per_px):
            return False
        return self.place_ok(fit.centre, radius, fit.mm_per_px)

    def place_ok(self, centre: np.ndarray, radius: float, mm_per_px: float) -> bool:
        """Whether a disc of ``radius`` can rest with its centre at ``centre`` (board geometry
        only: not over a peg; korona: on the playing area, not over a pocket or in a corner)."""
        if isinstance(self.board, CrokinoleBoard):
            # A disc cannot stand over a peg (a small bright peg head at low resolution can look
            # like a disc).
            cb = self.board
            pegs = np.asarray(cb.peg_positions())
            if np.hypot(*(pegs - centre).T).min() < 0.75 * (radius + cb.peg_diameter / 2):
                return False
        if isinstance(self.board, KoronaBoard):
            # A disc lies wholly on the playing area (or over a pocket, which is inside it).
            lim = self.board.half - radius + max(2.0, mm_per_px)
            if abs(centre[0]) > lim or abs(centre[1]) > lim:
                return False
            # Nothing stays centred over a pocket or in the corner behind it: it falls in. (A
            # disc at a pocket's mouth, its centre near the edge, is still found.) This also
            # rejects the empty pockets, dark circles about a striker's size.
            b = self.board
            c = b.half - b.pocket_inset + 0.3 * b.pocket_radius
            if abs(centre[0]) > c and abs(centre[1]) > c:
                return False
            for px, py in b.pocket_centres().values():
                if np.hypot(centre[0] - px, centre[1] - py) < 0.5 * b.pocket_radius:
                    return False
        return True

    def _accept_colors(self, fit: Fit) -> bool:
        st = self.settings
        # Edges all round but the inside the same colour as the outside: a patch of board framed
        # by something else (fingers, a neighbour's shadow), not a disc.
        if fit.surround is not None and fit.color is not None:
            dc = (fit.color - fit.surround) * np.array([1.0, 1.6, 1.6])
            step = float(np.linalg.norm(dc))
            if step < st.min_color_step:
                return False
            # Weak on both counts (an outline barely closed in its worst quarter and a face
            # barely different from the board) is a patch of board framed by a line and the
            # blur of a disc passing (crokinole_2p_round, shot 20: quarter coverage 0.25, step
            # 6.9, kept for good afterwards because nothing changes there).
            if fit.quarter_coverage < 0.35 and step < 2 * st.min_color_step:
                return False
        return True

    def detect(self, frame_bgr: np.ndarray) -> Detections:
        """All discs in the frame (see the module docstring for the stages).

        Successive calls reuse work: discs found earlier whose surroundings have not changed in
        the coarse view are kept without refitting, and candidates are searched only where the
        view changed (a full pass every ``refresh_frames`` calls). A still frame costs a remap and
        a difference. Call ``reset()`` after a cut or a camera move.
        """
        view = self.rectify(frame_bgr)
        moved, region, grey = self._changed(view)
        if region is not None and not region.any():
            self._since_full += 1
            assert self._last is not None
            return self._with_streaks(self._last[np.arange(len(self._last))], view, still=True)
        # The whole view's Lab only when it is all searched.
        lab = self._lab(view) if region is None else None
        kept = Detections.empty()
        if region is not None and self._last is not None and len(self._last):
            assert moved is not None
            kept = self._last[untouched(self._last, moved, self.view, self.pose, self.thickness)]
            self._since_full += 1
        else:
            self._since_full = 0
        parts: list[Detections] = [kept]
        taken: list[tuple[np.ndarray, float]] = [(p, float(r)) for p, r in zip(kept.xy, kept.radius, strict=True)]
        # Smaller kinds first; overlaps between kinds are settled afterwards by confidence.
        for kind, radius in sorted(self.kinds, key=lambda kr: kr[1]):
            centres, coh = self.candidates(view, kind, radius, region, lab)
            fits: list[tuple[Fit, float]] = []
            rejected: list[tuple[np.ndarray, float, Fit]] = []  # candidate, coherence, its fit
            for c, q in zip(centres, coh, strict=True):
                if any(np.hypot(*(c - p)) < 1.6 * min(radius, pr) for p, pr in taken):
                    continue
                fit = self.refiner.refine(frame_bgr, c, radius, with_colors=False,
                                          give_up_below=0.6 * self.settings.min_coverage)
                if not self._accept(fit, radius):
                    rejected.append((c, float(q), fit))
                    continue
                if not self._accept_colors(self.refiner.add_colors(frame_bgr, fit)):
                    continue
                if not self._is_empty_hole(frame_bgr, c, fit, radius):
                    fits.append((fit, float(q)))
            fits.sort(key=lambda fq: -(fq[0].coverage + fq[1]))
            accepted: list[tuple[Fit, float]] = []
            for fit, q in fits:
                if any(np.hypot(*(fit.centre - p)) < 1.6 * min(radius, pr) for p, pr in taken):
                    continue
                taken.append((fit.centre, radius))
                accepted.append((fit, q))
            if self.settings.clusters:
                from tracker.detect.clusters import ClusterPass

                lab_v = lab if lab is not None else self._lab(view)
                sources = [(f.centre, radius) for f, _ in accepted]
                accepted += ClusterPass(self, frame_bgr, lab_v, kind, radius, taken, region).run(rejected, sources)
            xy, rad, col, conf, wh, sur = [], [], [], [], [], []
            for fit, q in accepted:
                xy.append(fit.centre)
                rad.append(fit.radius)
                assert fit.color is not None and fit.surround is not None
                col.append(_cie(fit.color))
                sur.append(_cie(fit.surround))
                conf.append(float(np.clip(0.5 * fit.coverage + 0.5 * min(q / 0.6, 1.0), 0, 1)))
                wh.append(self.where_of(float(fit.centre[0]), float(fit.centre[1]), radius))
            if xy:
                parts.append(Detections(xy=np.array(xy), radius=np.array(rad), color=np.array(col),
                                        confidence=np.array(conf), kind=np.full(len(xy), kind),
                                        where=np.array(wh), surround=np.array(sur)))
        dets = self._drop_strikers_over_discs(Detections.merge(parts))
        self._ref_grey, self._last = grey, dets
        return self._with_streaks(dets, view, lab, moved)

    def _with_streaks(self, dets: Detections, view: np.ndarray, lab: np.ndarray | None = None,
                      moved: np.ndarray | None = None, still: bool = False) -> Detections:
        """Streaks of fast discs added to ``dets`` (``moved``: the view's pixels that changed
        since the last call, None on a full pass); on a still call (nothing changed since the
        last one) the empty-board model learns from the view instead (``background.py``)."""
        from tracker.detect.streaks import explained, find_streaks

        if still:
            blurred = BackgroundModel.prepare(self._lab(view) if lab is None else lab)
            self.background.update(blurred, explained(self, dets, self._valid.shape))
            self.background.previous_xy, self.background.previous_streaks = dets.xy.copy(), []
            return dets
        return find_streaks(self, view, dets, moved, lab)

    def _drop_strikers_over_discs(self, dets: Detections) -> Detections:
        """Nothing overlaps a striker. A striker-sized ring drawn through neighbouring discs is
        dropped when a disc at least as confident sits inside it; otherwise the discs found
        inside a striker (its groove, its shading) are."""
        strikers = np.nonzero(dets.kind == STRIKER)[0]
        if len(strikers) == 0 or not np.any(dets.kind == DISC):
            return dets
        keep = np.ones(len(dets), bool)
        discs = np.nonzero(dets.kind == DISC)[0]
        rs = max(r for k, r in self.kinds if k == STRIKER)
        for i in strikers:
            d = np.hypot(*(dets.xy[discs] - dets.xy[i]).T)
            inside = discs[(d < 0.8 * rs) & keep[discs]]
            if len(inside) == 0:
                continue
            if dets.confidence[inside].max() >= dets.confidence[i] - 0.05:
                keep[i] = False
            else:
                keep[inside] = False
        return dets[keep]

    def reset(self) -> None:
        """Forget the previous frames: the next call is a full pass."""
        self._ref_grey, self._last, self._since_full = None, None, 0


def _cie(lab8: np.ndarray) -> np.ndarray:
    """OpenCV 8-bit-scale Lab -> CIE Lab."""
    return np.asarray(lab8, float) * np.array([100 / 255, 1, 1]) - np.array([0, 128, 128])
