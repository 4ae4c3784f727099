"""``DiscDetector``: every disc in a frame, in board millimetres.

Pipeline per frame (each stage cheap, the expensive one only where a disc is likely):

1. Rectify the board region to a top-down view at a modest scale (``mm_per_px``, default 2, never
   finer than the camera sees), with remap tables computed once per calibration.
2. Reuse: compare with the view of the previous call; discs with no changed pixel on their own
   silhouette are kept as they were (a neighbour sliding past does not force a refit), and the
   search below runs only on boxes around the changed region's parts (``boxes.py``; a full
   pass every ``refresh_frames`` calls, or on the next call after ``refresh()``, which the
   pipeline asks for once the board settles; with ``periodic`` off, only then: the pipeline may
   count frames of the video instead, ``stillness.FullPasses``). A still frame costs a remap and
   a difference. Full passes keep the untouched discs too, so full and incremental passes agree:
   a disc found at rest by either stays found until the picture at its place changes (a full
   pass only adds).
3. Coarse candidates: the fixed-radius four-quadrant ring filter of ``candidates.py`` (one radius
   per kind: disc, korona striker), peaks above a coherence and strength floor.
4. Refine each candidate in the original image (``refine.py``): edge points on rays, cylinder
   silhouette fit, so the centre is where the disc touches the board (height-corrected; the top
   edge's chamfer is allowed for in the reported centres only, ``chamfer.py``, refitted once the
   disc holds still, ``deferred.py``; the fits' projections: ``geometry.FastProjection``). A candidate
   whose outline is plainly open after two of the four iterations is given up (most candidates
   that are not discs: half the cost).
5. Verify (``verify.py``): enough of the outline found in every quarter (coverage), a small
   residual, the right radius, a top face that differs from the board around it (weak outline
   and weak face together are a patch of board framed by lines and shadows). A hand, an arm, a
   cue or a shadow does not close a disc-sized circle with edges all round, so it fails here.
   Openings cut in the surface (the empty 20-hole, korona pockets) are circles too: a flat-circle fit (rim at z = 0,
   larger than a disc) or their position rules them out; so are circles painted on a korona-family board (carrom
   base circles, the centre circle: ``marks.py``), unless the empty board's picture shows a disc on them.
   (Stages 3-5 for one kind of disc: ``fitpass.py``.) Then a second, occlusion-aware pass (``clusters.py``, ``DetectorSettings.clusters``): discs
   touching a found disc, overhanging the 20-hole or lying in a row against a korona rim show no
   edge on the side they share, so they are refitted with those sides masked, seeded from the
   rejected candidates, around every disc found, and from an outline map.
6. Kinds: smaller first; a striker-sized ring through neighbouring discs loses to the discs.
   Korona, on full passes: the rows of discs laid against the rim are completed from the discs
   found in them (``rows.py``: touching discs sit ``2 r`` apart on a known line).
7. Streaks: against the empty board, learned from still calls (``background.py``: started by
   ``set_background``, or with ``background.auto_start`` by the first still call), a disc-wide,
   elongated difference blob that no disc explains, where the view changed, is reported as a
   motion-blurred disc (``streaks.py``).
8. Label ``where`` (surface / hole / ditch / pocket) from the board model.
9. Korona, opt-in (``rim_snap_mm``): a disc reported within a few millimetres of a rim line is reported
   on it (``rim_line.py``: fits against a rim are pulled inward; only the reported centres move).

Tolerances that depend on the image (edge windows, residual, radius) scale with the millimetres
per image pixel at the disc, so the same detector runs on 4000-pixel phone photos and 480x270
fixture videos.
"""

from __future__ import annotations

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect import strikers, verify
from tracker.detect.background import BackgroundModel
from tracker.detect.candidates import CropFilters, Spectra, search
from tracker.detect.chamfer import GAME_BEVEL_MM, ChamferCorrection
from tracker.detect.change_mask import changed, still
from tracker.detect.change_noise import ChangeNoise, held_through_noise
from tracker.detect.datatypes import (
    DISC,
    IN_DITCH,
    IN_HOLE,
    IN_POCKET,
    ON_SURFACE,
    STRIKER,
    Detections,
)
from tracker.detect.deferred import DeferredChamfer
from tracker.detect.fitpass import fit_kind
from tracker.detect.geometry import BoardView, FastProjection, camera_pose
from tracker.detect.lost import LostDiscs
from tracker.detect.marks import painted_mark
from tracker.detect.priors import confirm
from tracker.detect.reach import drop_reaching
from tracker.detect.refine import Fit, Refiner
from tracker.detect.rejects import RejectMemory
from tracker.detect.reuse import held_reference, untouched
from tracker.detect.rim_line import on_rim_lines
from tracker.detect.ring_filter import kind_rings
from tracker.detect.row_memory import RowMemory
from tracker.detect.rows import held_places
from tracker.detect.salient import earlier_background, edge_salience
from tracker.detect.settings import DetectorSettings
from tracker.detect.twenty_hole import (
    empty_hole_colour,
    empty_hole_finds,
    hole_picture,
    relearn_hole,
    sunk_in_hole,
    sunk_reported,
)
from tracker.detect.view_colours import ViewColours, lab_of
from tracker.errors import InputError

# Calls a turned-down candidate stays turned down while nothing changes within its reach
# (``rejects.py``). Longer than ``refresh_frames``: at 50 the memory ran out on every periodic full
# pass, which then refitted every peg and line crossing of the board again (a full pass's fits were
# 95% failures on a 1280x720 match).
REJECT_MAX_AGE = 200


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
        st = self.settings
        self.bevel = float(GAME_BEVEL_MM.get(self.game, 0.0) if st.bevel is None else st.bevel)
        fast = FastProjection.of(calib)  # the fits' many projections, without cv2.projectPoints
        # (the disc fits' edge bar only: the chamfer's refits and the flat fits of the 20-hole keep theirs)
        self.refiner = Refiner(fast, self.pose, self.thickness, bevel=self.bevel if st.bevel_in_fit else 0.0,
                               salience=edge_salience(self.game, st.edge_salience), enough=(st.min_coverage, st.min_quarter_coverage))
        # Video: the chamfer allowed for in the reported centres only (``chamfer.py``).
        # (The refit waits until the disc holds still: ``deferred.py``.)
        self.chamfer = DeferredChamfer(ChamferCorrection(Refiner(fast, self.pose, self.thickness, bevel=self.bevel),
                                                         self.pose, self.bevel, st.min_coverage),
                                        # the creep refits: with the chamfer's, or asked for (``creep_refits``)
                                        self.refiner if self.bevel > 0.0 or st.creep_refits else None) \
            if (self.bevel > 0.0 or ChamferCorrection.modelling(self.game) or st.creep_refits) and not st.bevel_in_fit else None
        # The coarse view need not be finer than the camera sees the board.
        self.mm_per_px = max(self.settings.mm_per_px, 0.9 * self.refiner._mm_per_image_px(np.zeros(2)))
        self.view = BoardView.around(half, self.mm_per_px)
        self._maps = self.view.maps(calib)
        self.flat_refiner = Refiner(fast, self.pose, 0.0)  # circles painted or cut in the surface
        self._valid = self._region_mask()
        # Candidates turned down where the picture has not changed since (``rejects.py``).
        self.rejects = RejectMemory(self.view, max_age=REJECT_MAX_AGE)
        self._crop_filters = CropFilters()  # (``candidates.search``)
        self._view_spectra: tuple[np.ndarray, tuple[int, int], Spectra] | None = None  # (``search``)
        self.colours = ViewColours()  # this call's view in Lab, and blurred (``view_colours.py``)
        # the searched region, its valid part and that part's connected parts (``search``; None
        # when the valid part is half the view or more: the whole view is searched)
        self._region_parts: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None
        # Frame-to-frame reuse (see ``detect``).
        self._ref_grey: np.ndarray | None = None
        self._last: Detections | None = None
        # Korona strikers fitted again once at rest (``strikers.settle``): their centres as bytes.
        self._settled: set[bytes] = set()
        self._since_full = 0
        self._force_full = False  # ``refresh()``: the next call is a full pass
        self.changed = True  # the last call's view differed from the one before (``detect``)
        self.current_view: np.ndarray | None = None  # this call's coarse view (``marks.py``)
        # This call's changed pixels of the view (``_changed``; None: first call or reuse off).
        self.moved: np.ndarray | None = None
        # A full pass every ``refresh_frames`` calls; False: only when asked (``refresh``; the
        # pipeline counts frames instead, ``stillness.FullPasses``).
        self.periodic = True
        self.lost = LostDiscs(self.view, self.pose, self.thickness, self.settings.change_level)
        self.noise = ChangeNoise(self.settings.change_noise_sigmas)  # (``_changed``)
        self.row_memory = RowMemory()  # korona: the resting row discs between full passes (``row_memory.py``)
        # The coarse search's ring per kind of disc (``ring_filter.kind_rings``).
        self._ring_px, self._filters = kind_rings(self.view, self.pose, self.thickness, half, self.kinds)
        # The empty board, learned from still frames (streaks are found against it); and the
        # colour (8-bit Lab, blurred as the model's) of the empty 20-hole, from the frame given
        # to ``set_background`` when nothing lay over the hole (``verify.is_empty_hole``).
        self.background = BackgroundModel(self._valid)
        self.earlier_background: BackgroundModel | None = None  # (``carry_over``)
        self.hole_lab: np.ndarray | None = None
        # ... and the empty hole's picture, the same view's box around it (``twenty_hole.covering_disc``)
        self.hole_picture: np.ndarray | None = None
        self.cluster_board_lab: np.ndarray | None = None  # the board's colour (``clusters.py``)
        # Discs at rest before the camera was knocked, for the first call (``priors.py``).
        self.priors: Detections | None = None
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

    def set_background(self, frame_bgr: np.ndarray, discs: Detections | None = None) -> None:
        """Start the empty-board model from a frame; ``discs``: the discs found on it (the board
        under them is unseen until they go). The model then learns from still frames
        (``background.py``). With nothing over the 20-hole, the frame also gives the empty
        hole's colour (``hole_lab``, the 20-hole check's reference); a find centred on the hole
        and as dark as an empty hole is taken for it (``twenty_hole.empty_hole_finds``) and dropped."""
        from tracker.detect.streaks import explained

        blurred = BackgroundModel.prepare(lab_of(self.rectify(frame_bgr)))
        if discs is not None and len(discs):
            ghost = empty_hole_finds(self, discs)
            if ghost.any() and self._last is not None and len(self._last):
                # The same finds, kept by the detector at their centres before the chamfer's move
                # (which can take them past the test's reach: seed 6001 at 480x270, drawn at
                # true size, reported 7.3 mm from the centre, kept at 9.1 and found again for
                # good): the kept finds within a disc's radius of a ghost (no two discs are
                # nearer than that).
                d = np.hypot(*(self._last.xy[:, None] - discs.xy[ghost][None]).transpose(2, 0, 1))
                self._last = self._last[~(d.min(axis=1) < self.board.disc_radius)]
            discs = discs[~ghost]
        has_discs = discs is not None and len(discs) > 0
        covered = explained(self, discs, self._valid.shape) if discs is not None and has_discs else None
        self.background.reset(blurred, covered)
        if (lab := empty_hole_colour(self, blurred, discs)) is not None:
            self.hole_lab = lab
            self.hole_picture = hole_picture(self, blurred)

    def carry_over(self, old: DiscDetector, resting: Detections | None = None) -> None:
        """What a new fit of the same board keeps from the detector it replaces (the camera was
        knocked): the empty 20-hole's colour, a place on the board, seen as before; and the
        discs at rest before the knock (``resting``, board mm; crokinole), to be confirmed on the
        first call (``priors.py``)."""
        if self.hole_lab is None:
            self.hole_lab = old.hole_lab
        self.earlier_background = earlier_background(old, self._valid.shape)
        self.priors = resting if isinstance(self.board, CrokinoleBoard) and resting is not None and len(resting) else None

    def relearn_hole(self, frame_bgr: np.ndarray) -> None:
        """After a new fit of the board: the empty 20-hole's colour taken again from this frame
        where it shows an empty hole (``twenty_hole.relearn_hole``)."""
        relearn_hole(self, frame_bgr)

    def where_of(self, x: float, y: float, r: float) -> int:
        b = self.board
        if isinstance(b, CrokinoleBoard):
            if b.in_hole(x, y, r) or b.tips_into_hole(x, y, r) or sunk_in_hole(self, x, y, r):
                return IN_HOLE
            return ON_SURFACE if b.on_surface(x, y) else IN_DITCH
        return IN_POCKET if b.pocket_of(x, y, r) is not None else ON_SURFACE

    # ------------------------------------------------------------------ detection
    def candidates(self, view: np.ndarray, kind: int, radius: float,
                   region: np.ndarray | None = None, lab: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Coarse centres (N, 2) in mm and their coherence (N,) (``candidates.search``)."""
        return search(self, view, kind, radius, region, lab)

    def _changed(self, view: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray]:
        return changed(self, view)

    # ------------------------------------------------------------------ verification (``verify.py``)
    def _holes(self) -> list[tuple[np.ndarray, float]]:
        return verify.holes(self)

    def _is_empty_hole(self, frame: np.ndarray, guess: np.ndarray, fit: Fit, radius: float) -> bool:
        return verify.is_empty_hole(self, frame, guess, fit, radius)

    def _accept(self, fit: Fit, radius: float, residual_scale: float = 1.0) -> bool:
        return verify.accept(self, fit, radius, residual_scale)

    def place_ok(self, centre: np.ndarray, radius: float, mm_per_px: float) -> bool:
        return verify.place_ok(self, centre, radius, mm_per_px)

    def _accept_colors(self, fit: Fit) -> bool:
        return verify.accept_colors(self, fit)

    def is_painted_mark(self, fit: Fit) -> bool:
        return painted_mark(self, fit)

    def detect(self, frame_bgr: np.ndarray) -> Detections:
        """All discs in the frame (see the module docstring for the stages).

        Successive calls reuse work: discs found earlier whose surroundings have not changed in
        the coarse view are kept without refitting, and candidates are searched only where the
        view changed (a full pass every ``refresh_frames`` calls). A still frame costs a remap and
        a difference. Call ``reset()`` after a cut or a camera move.
        """
        view = self.rectify(frame_bgr)
        self.current_view = view
        moved, region, grey = self._changed(view)
        # Whether the view changed since the last call (the pipeline's cue that the board may
        # not have settled yet).
        self.changed = moved is None or bool(moved.any())
        self.moved = moved
        if region is not None and not region.any():  # nothing changed near anything (``change_mask.still``)
            return self._with_streaks(still(self, frame_bgr, view, grey), view, still=True)
        self.rejects.advance(moved)
        full = region is None
        self._force_full = False
        self._since_full = 0 if full else self._since_full + 1
        # The whole view's Lab only when it is all searched.
        lab = self.colours.lab(view) if full else None
        # Discs found before with no changed pixel on their silhouette stand as they were, on a
        # full pass too: a disc found at rest by any pass stays found until the picture at its
        # place changes, so a full pass cannot lose what the incremental ones found (a full
        # pass searches afresh only where no kept disc is). Refitting the changed ones where
        # they were, before any candidate, was tried and left out: a hand about to flick or a
        # knock then kept a disc "at rest" for a frame or two, enough to swap tracks
        # (crokinole_2p_round went from exact to 60 for B).
        kept = Detections.empty()
        if moved is not None and self._last is not None and len(self._last):
            keep = untouched(self._last, moved, self.view, self.pose, self.thickness)
            kept = self._last[held_places(self, self._last, moved, keep)]  # korona: ``row_hold``
            kept = strikers.settle(self, frame_bgr, kept, self._settled)
        if self.chamfer is not None:
            self.chamfer.begin(frame_bgr, kept, self._last)
        unrefitted = kept
        taken: list[tuple[np.ndarray, float]] = [(p, float(r)) for p, r in zip(kept.xy, kept.radius, strict=True)]
        # Resting discs lost under a passing hand, back where their place looks as it did (``lost.py``).
        if self.settings.reuse and self.settings.restore_lost and len(self.lost):
            kept = Detections.merge([kept, self.lost.restore(grey, taken)])
        parts: list[Detections] = [kept]
        # Smaller kinds first; overlaps between kinds are settled afterwards by confidence.
        for kind, radius in sorted(self.kinds, key=lambda kr: kr[1]):
            found = fit_kind(self, frame_bgr, view, lab, kind, radius, region, kept, taken)
            found = drop_reaching(self, view, found)  # fingertips of a hand reaching in (``reach.py``)
            if len(found):
                parts.append(found)
        dets = strikers.striker_grooves(self, strikers.drop_strikers_over_discs(self, Detections.merge(parts)))
        if full and self.settings.rows and isinstance(self.board, KoronaBoard):
            from tracker.detect.rows import row_fill

            assert lab is not None
            board_lab = self.cluster_board_lab if self.cluster_board_lab is not None else \
                np.median(lab[self._valid], axis=0)
            dets = Detections.merge([dets, row_fill(self, lab, dets, board_lab, self.settings.row_memory)])
            self.row_memory.board_lab = board_lab
        if self.settings.rows and self.settings.row_memory and isinstance(self.board, KoronaBoard):
            dets = self.row_memory.keep(self, view, lab, dets, full, grey)
        if full and self.priors is not None:
            dets = Detections.merge([dets, confirm(self, frame_bgr, self.priors, dets)])
            self.priors = None
        if self.noise.hold_discs and self.noise.real is not None and moved is not None:
            dets = held_through_noise(self, dets, moved)
        if self.settings.reuse and self.settings.restore_lost and self._last is not None and self._ref_grey is not None:
            self.lost.note(self._last, dets, self._ref_grey)
        self._ref_grey = held_reference(grey, self._ref_grey, unrefitted, self.view, self.pose, self.thickness) \
            if self.settings.creep_pixels > 0 else grey
        self._last = dets
        return self._with_streaks(dets, view, lab, moved)

    def _with_streaks(self, dets: Detections, view: np.ndarray, lab: np.ndarray | None = None,
                      moved: np.ndarray | None = None, still: bool = False) -> Detections:
        """Streaks of fast discs added to ``dets`` (``moved``: the view's pixels that changed
        since the last call, None on a full pass); on a still call (nothing changed since the
        last one) the empty-board model learns from the view instead (``background.py``)."""
        from tracker.detect.streaks import explained, find_streaks

        if still:
            blurred = BackgroundModel.prepare(lab_of(view) if lab is None else lab)
            self.background.update(blurred, explained(self, dets, self._valid.shape))
            self.background.previous_xy, self.background.previous_streaks = dets.xy.copy(), []
            return self._chamfered(dets, len(dets))
        return self._chamfered(find_streaks(self, view, dets, moved, lab), len(dets))

    def _chamfered(self, dets: Detections, n: int) -> Detections:
        """The first ``n`` of ``dets`` (the discs) at their chamfer-corrected centres (``chamfer.py``),
        korona discs against a rim on its line (``rim_line.py``)."""
        dets = dets if self.chamfer is None else self.chamfer.apply(dets, n)
        if self.settings.sunk_reported:  # (crokinole: the 20-hole's verdict at the centre reported)
            dets = sunk_reported(self, dets, n)
        return on_rim_lines(self.board, dets, n, self.settings.rim_snap_mm)

    def refresh(self) -> None:
        """Make the next call a full pass (the discs found before still stand where the picture
        did not change). The pipeline asks for one when the board settles after motion: the
        incremental passes search only where the picture changed, so a disc set down while
        the frames were skipped as still is found here."""
        self._force_full = True

    def reset(self) -> None:
        """Forget the previous frames: the next call is a full pass."""
        self._ref_grey, self._last, self._since_full = None, None, 0
        self._settled = set()
        self._force_full = False
        self.lost.clear()
        self.row_memory.clear()

