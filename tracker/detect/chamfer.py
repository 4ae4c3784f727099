"""The chamfer of the discs' top edge, allowed for in video positions only.

Real discs have a chamfered or rounded top edge (``GAME_BEVEL_MM``). Seen at an angle, its lower
edge is the outline on the far side, nearer the camera than a square disc's top rim
(``Refiner._bevel_drop``), so a square-edged fit puts the disc a fraction of a millimetre toward
the camera. ``tracker photo`` models the chamfer inside its one fit. In video that was tried first
(``DetectorSettings(bevel_in_fit=True)``) and changed *which* discs were found, not only where:
the moved edge windows flipped marginal candidates (a ghost accepted in the crokinole ditch for
420 frames; korona_4p_part's shots 80% -> 40%), and those decisions feed the reuse, reject memory
and neighbour masks of later frames.

So here the detector decides everything on square-edged fits, exactly as without a chamfer, and
``ChamferCorrection`` only moves what it reports: each accepted disc is fitted once more, from its
centre, with the chamfer modelled and the same neighbours masked (``note``; where that refit does
not hold, the first-order shift ``shifted``), and the detections
returned carry that centre (``apply``). The detector keeps the square-edged centres for itself, so a
disc kept unchanged on later calls is looked up by them. (A plain first-order shift of the centre
away from the camera was tried too: it over-corrects wherever the square fit had used near-side
bottom edges or the top face's inner edge -- a light disc 40 degrees off vertical by 0.9 mm.)

Optionally (``REGION_MODEL``, or ``model=True``), the centre is fitted once more by the region
model of ``silhouette.py`` (the disc's whole picture -- top, chamfer, side wall, cast shadow --
against every pixel around it, not one edge point per ray), from the edge fits' centre
(``modelled``), for both games. Where it would move a centre farther than ``MODEL_MAX_MOVE_MM``
it has fitted something else, and the edge fits' centre stands.

On rendered still frames with the true calibration (``benchmarks/bench_rest.py --static 3``,
median/p95 mm, edge fits -> with the model):

    1280x720 easy  crokinole 0.54/1.28 -> 0.28/0.74   korona 0.62/1.76 -> 0.43/0.73
    1280x720 hard  crokinole 0.55/1.61 -> 0.62/1.29   korona 1.34/3.93 -> 0.79/1.91
    640x360  easy  crokinole 0.53/1.95 -> 0.42/0.88   korona 1.09/2.25 -> 0.53/1.57
    640x360  hard  crokinole 1.41/4.08 -> 1.52/2.91   korona 1.76/5.87 -> 0.91/5.46

End to end on the fixtures (480x270-640x360 video, the pipeline's own calibration) it did not
hold: crokinole_2p_round lost its exact round to a false shooting-line removal (removals
100%/100% -> 100%/67%) and crokinole_4p_part's positions got worse (2.30/9.36 -> 3.02/9.70 mm),
for reasons not yet found (candidates: the calibration's error against a model that draws the
ring lines where the calibration has them; the shadow direction held from the first discs; the
move limit of 1.5 px at 3-4.6 mm a pixel). With the limit at 2 mm / 0.5 px crokinole_2p_round
stays exact, but its positions are still worse than without the model (1.84/2.61 against
1.58/2.49 mm). So it fits only discs seen at ``MODEL_MAX_MM_PER_PX`` or finer (1280x720 and up:
the dev matches are at 1.2-2.1 mm a pixel, the fixtures at 2.7-4.4), with each disc's own
shadow (``HOLD_SHADOW``) and the outline's size fitted (``silhouette.FIT_SIZE``). Korona discs
are fitted by it down to a coarser picture (``MODEL_COARSE_MM_PER_PX``: the far rims of the hard
korona camera), korona strikers not at all (``MODEL_STRIKERS``), and korona gets no creep refits
with it (``DetectorSettings.creep_refits``: ``detector.py`` gives the deferral no square refiner
where there is no chamfer). It is on by default for crokinole only (``REGION_MODEL``: korona's
positions gain but its tracking loses shots and identities with it). Figures: the commit
messages that turned it on.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker.detect.datatypes import Detections
from tracker.detect.geometry import CameraPose
from tracker.detect.refine import Fit, Refiner
from tracker.detect.silhouette import FINE_MM_PER_PX, SilhouetteFitter

# Chamfer of the discs' top edge by game, mm (``DetectorSettings.bevel``). Crokinole: measured on
# the labelled real photos (``photo.PHOTO_BEVEL_MM``); in video, with true calibration, it took
# the rendered fixtures' median from 1.74 to 1.60 mm on the hard camera (crokinole_4p_part) and
# 0.99 to 0.94 on the easy one (crokinole_2p_round), and the 1280x720 renders' from 1.00 to 0.56
# (hard camera, ``bench_detect.py --quick``). Korona: 0, nothing measured on real discs, and on the rendered korona_4p_part
# the correction made the median worse (1.92 -> 2.18 mm).
GAME_BEVEL_MM = {"crokinole": 1.9, "korona": 0.0}
# The chamfer the region model (``silhouette.py``) draws, by game. Korona discs are modelled with
# the same 2 mm chamfer as the renderer's; the region model, unlike the edge refit above, does not
# get worse for it (rendered 1280x720 easy korona frames, true calibration: median/p95 0.62/1.76 mm
# from the square-edged fit, 0.43/0.73 with the model).
MODEL_BEVEL_MM = {"crokinole": 1.9, "korona": 2.0}
# Whether video positions take the region model's centre (``ChamferCorrection(model=None)``):
# True or False for every game, or per game (``{"crokinole": True}``).
# Korona is off: full reviews of the 7 korona dev matches with it on (median/p95 mm at rest,
# off -> on): k2e_9505 1.59/3.83 -> 0.80/4.56, k2e_9605 0.90/4.52 -> 0.91/3.98 (shots 75%/86% ->
# 88%/100%), k2e_9705 0.74/5.95 -> 1.13/5.95, k4h_9306 1.56/9.21 -> 0.95/8.99, k4h_9506 1.99/3.19 ->
# 1.14/2.69, k4h_9606 3.14/11.56 -> 2.48/5.04, k4h_9706 1.08/2.09 -> 1.08/2.20; but k4h_9306's
# switches went 12.5 -> 37.5 per 100 shots (shots P 89% -> 80%) and k4h_9606's shots 100%/73% ->
# 75%/55% (held to crokinole's 2.4 mm a pixel: 37.5 and 88%/64%, so not the coarser limit). The
# korona fixtures are too coarse for it (3.8-4.3 mm a pixel; 640x360 ones: strikers only) and
# unchanged. Not examined why the tracking loses: a resting disc's place moving by a millimetre
# or two a call after it stopped (the deferred model fit) upset it the same way with the creep
# refits (``DetectorSettings.creep_refits``). The places a korona shot reports are fitted by the
# model all the same, once, on the settled frame, without moving any detection (``pipeline.rest_places``).
REGION_MODEL: bool | dict[str, bool] = {"crokinole": True}
# The region model fits only discs the image shows at this many millimetres a pixel or finer
# (a disc's radius 6.6 pixels or more, where it fits the outline's size too): coarser, too few
# pixels carry its shadow and chamfer (module docstring: the fixtures at 2.7-4.4 mm a pixel).
MODEL_MAX_MM_PER_PX = FINE_MM_PER_PX
# ... but korona discs up to this coarser picture, with the outline's size fitted there too
# (``SilhouetteFitter(fine_mm_per_px=...)``): the hard korona camera sees the far rims at 2.4-2.8
# mm a pixel, where the edge fits are worst. Rendered korona still frames, true calibration,
# discs 60 mm or more inside the rims (``render.still.spread_frame``, median/max mm, edge fits ->
# model): 1280x720 hard, discs at 2.4 mm a pixel or coarser 2.33/4.29 -> 0.72/2.98 (size fitted;
# 1.54/4.22 with it held); 640x360 easy 0.73/3.41 -> 0.60/1.48.
MODEL_COARSE_MM_PER_PX = {"korona": 3.6}
# Whether a korona striker (twice a disc's radius) is fitted by the model too. Off: on the
# fixtures its resting strikers went from 0.17 to 1.21 mm (korona_overshot) and 0.61 to 1.74
# (korona_pocket), and on k2e_9505's still frames from 0.95/1.42 to 1.41/3.50 (median/worst);
# its own outline choice (``strikers.fit_options``) stands, with no creep refit either.
MODEL_STRIKERS = False
# ... and only discs the camera sees within this many degrees of straight down: from lower (a
# broadcast camera 25-30 degrees above the board) the disc's side wall and shadow fill the view
# the model draws, and on drawn frames at 60 degrees it put discs 2.6-3.2 mm off where the edge
# fits had them 1.8-2.0 mm off (at 45 and 65 degrees it did as well or better;
# ``tests/detect/test_oblique.py``). The rendered matches are seen at 40 degrees or less.
MODEL_MAX_VIEW_DEG = 50.0
# Whether the cast shadow's shift is held at the median of the discs fitted so far (else each
# fit starts from that median and fits its own). Off: at 1280x720 the shadow fitted per disc
# does better (c2h_9602, a disc by the 20-hole, 1.11/1.15 mm with the edge fits alone,
# 1.92/1.92 with the shadow held, 0.62/0.73 with it free; c4h_9503 1.08/1.83 -> 1.18/1.82;
# full reviews, the model's size held, ``silhouette.FIT_SIZE``).
HOLD_SHADOW = False
# The region model may move a centre at most this far from where the edge fits put it (mm, or
# this many image pixels where a pixel is larger): farther, it has fitted something else (a hand
# over the disc, a blurred moving disc).
MODEL_MAX_MOVE_MM = 4.0
MODEL_MAX_MOVE_PX = 1.5
# A disc whose edge fits put it within this of a start the model was fitted from lately (mm) is
# reported at that fit's centre, moved as its start moved, without fitting the model again: each
# fit costs 35 ms at 1280x720, and under a noisy picture's change mask the same resting discs are
# refitted call after call (``MODEL_MEMORY`` fits remembered).
MODEL_REUSE_MM = 0.2
MODEL_MEMORY = 64
# Whether the refit first picks the one outline the edges follow best all round
# (``Refiner.refine(consensus=True)``, ``consensus.py``): a disc ringed by its shadow shows two
# edges per ray, and the per-ray search alone mixes them (1-2 mm off on coloured discs). Only the
# reported position uses it; the detector's decisions are made on the plain fits as before. Such
# a refit may move the centre by up to ``CONSENSUS_MAX_MOVE_MM`` (the reach of its search) from
# the square-edged fit: its point is to undo that fit's mix of edges, not the chamfer alone.
# Off: on the 1280x720 dev renders it helps (commit message), but on the drawn test frames of
# ``tests/detect/test_detector.py`` (sharp edges, a shadow offset to one side) it moves light
# discs by over a millimetre (``consensus.py``, known weaknesses).
CONSENSUS = False
CONSENSUS_MAX_MOVE_MM = 2.5


class ChamferCorrection:
    """Chamfer-corrected centres for the discs a ``DiscDetector`` accepts."""

    def __init__(self, refiner: Refiner, pose: CameraPose, bevel: float, min_coverage: float,
                 model: bool | None = None) -> None:
        self.refiner = refiner  # a ``Refiner`` with ``bevel`` set
        self.pose = pose
        self.bevel = bevel
        self.min_coverage = min_coverage
        # Square-edged centre (bytes) -> corrected centre, for the discs of the last call.
        self._of: dict[bytes, np.ndarray] = {}
        # The region model (``silhouette.py``), fitted last, from the edge fits' centre.
        # (A chamfer other than the game's own was asked for -- ``DetectorSettings.bevel`` -- and
        # the model draws that one.)
        game = refiner.calib.board.game
        drawn = MODEL_BEVEL_MM.get(game, bevel) if bevel == GAME_BEVEL_MM.get(game, 0.0) else bevel
        use = self.modelling(game) if model is None else model
        self.max_mm_per_px = self.coarsest(game)
        self.model = SilhouetteFitter(refiner.calib, pose, refiner.thickness, drawn,
                                      fine_mm_per_px=max(FINE_MM_PER_PX, MODEL_COARSE_MM_PER_PX.get(game, 0.0))) if use else None
        self._shadows: list[np.ndarray] = []  # the shadow shifts fitted so far (the light's direction)
        self._fits = 0
        self._memory: list[tuple[np.ndarray, np.ndarray]] = []  # (start, centre) of the latest model fits

    @staticmethod
    def coarsest(game: str) -> float:
        """The coarsest picture (mm a pixel at the disc) where ``game``'s discs are fitted by the
        region model (``MODEL_MAX_MM_PER_PX``, ``MODEL_COARSE_MM_PER_PX``)."""
        return max(MODEL_MAX_MM_PER_PX, MODEL_COARSE_MM_PER_PX.get(game, 0.0))

    @staticmethod
    def modelling(game: str) -> bool:
        """Whether ``game``'s corrections are made with the region model by default
        (``REGION_MODEL``): a detector then wants one even with no chamfer to allow for."""
        return REGION_MODEL if isinstance(REGION_MODEL, bool) else REGION_MODEL.get(game, False)

    def note(self, frame: np.ndarray, fit: Fit, radius: float, key: bytes | None = None) -> None:
        """Fit an accepted disc again with the chamfer modelled (from its centre, the same
        neighbours masked) and remember where it put it. Kept only when that fit holds together
        (enough outline, not gone elsewhere). ``key``: the square-edged centre it is reported
        for (bytes), when not ``fit``'s own (a later fit of a kept disc: ``deferred.py``)."""
        if key is None:
            key = np.asarray(fit.centre, float).tobytes()
        if self.bevel <= 0.0 and not MODEL_STRIKERS and radius > self.refiner.calib.board.disc_radius + 1.0:
            return  # a korona striker stands where the detector fitted it
        if self.bevel <= 0.0:  # nothing to refit for: the region model alone
            self._of[key] = self.modelled(frame, fit.centre, radius, fit)
            return
        occ, bounds = fit.masks
        again = self.refiner.refine(frame, fit.centre, radius, with_colors=False, occluders=occ,
                                    bounds=bounds, start_at=fit.centre, consensus=CONSENSUS)
        moved = float(np.hypot(*(again.centre - fit.centre)))
        # The chamfer shifts the top circle toward the camera by ``bevel * |P - C| / C_z`` (to
        # first order: ``_bevel_drop`` is linear in the direction), and the contact point moves
        # back by about as much or less (near-side bottom edges do not move). A refit that moved
        # much farther found other edges (a blurred or a touching disc).
        C = self.pose.centre
        expected = self.bevel * float(np.hypot(*(fit.centre - C[:2]))) / max(float(C[2]), 1.0)
        ok = again.coverage >= max(self.min_coverage, 0.8 * fit.coverage) and \
            moved <= (CONSENSUS_MAX_MOVE_MM if CONSENSUS else 1.5 * expected + 0.25) and bool(np.all(np.isfinite(again.centre)))
        # Otherwise the first-order shift (``shifted``): leaving the square-edged centre made a
        # disc's reported place alternate by half a millimetre between refits that held and
        # refits that did not (a third of crokinole_4p_part's detections fell back).
        got = again.centre if ok else self.shifted(fit.centre)
        self._of[key] = self.modelled(frame, got, radius, fit)

    def modelled(self, frame: np.ndarray, start: np.ndarray, radius: float, fit: Fit) -> np.ndarray:
        """The region model's centre (``silhouette.py``), fitted from ``start`` with the edge
        fit's masks; ``start`` where the model moves too far, or where the image is too coarse
        for it (``MODEL_MAX_MM_PER_PX``). Once a few discs have been fitted, the shadow's shift
        starts from the median of theirs (the light is shared), and with ``HOLD_SHADOW`` is held
        there."""
        start = np.asarray(start, float)
        if self.model is None or fit.mm_per_px > self.max_mm_per_px or self.view_deg(start) > MODEL_MAX_VIEW_DEG:
            return start
        for st, centre in reversed(self._memory):
            if float(np.hypot(*(start - st))) <= MODEL_REUSE_MM:
                return centre + (start - st)
        occ, bounds = fit.masks
        self._fits += 1
        sh = np.median(np.array(self._shadows[-15:]), axis=0) if len(self._shadows) >= 5 else None
        # (every tenth fit leaves the shadow free, so the median follows a change of light)
        hold = HOLD_SHADOW and sh is not None and self._fits % 10 != 0
        m = self.model.fit(frame, start, radius, occluders=occ, bounds=bounds, shadow=sh, fix_shadow=hold)
        if m is None or not bool(np.all(np.isfinite(m.centre))):
            return start
        if m.moved > max(MODEL_MAX_MOVE_MM, MODEL_MAX_MOVE_PX * fit.mm_per_px):
            return start
        if not hold:
            self._shadows = (self._shadows + [m.shadow])[-30:]
        self._memory = (self._memory + [(start, np.asarray(m.centre, float))])[-MODEL_MEMORY:]
        return m.centre

    def view_deg(self, xy: np.ndarray) -> float:
        """The angle from straight down at which the camera sees the board point ``xy``."""
        C = self.pose.centre
        return float(np.degrees(np.arctan2(np.hypot(*(np.asarray(xy, float) - C[:2])), max(float(C[2]), 1e-9))))

    def shifted(self, P: np.ndarray) -> np.ndarray:
        """The contact point of a disc a square-edged fit put at ``P``, to first order: the
        chamfer moved the whole top circle toward the camera by ``bevel * (P - C) / C_z``, so
        ``P + (P - C) f - bevel (P - C) / C_z = T`` replaces ``P + (P - C) f = T``
        (``f = h / (C_z - h)``), a scaling about the camera's foot by
        ``(1 + f) / (1 + f - bevel / C_z)``. (It over-corrects where the fit used near-side
        bottom edges, which the chamfer does not move: oblique views.)"""
        C, h = self.pose.centre, self.refiner.thickness
        cz = float(C[2])
        if cz <= h + self.bevel + 1.0:
            return np.asarray(P, float)
        f = h / (cz - h)
        g = (1.0 + f) / (1.0 + f - self.bevel / cz)
        return np.asarray(C[:2] + (np.asarray(P, float) - C[:2]) * g)

    def apply(self, dets: Detections, n: int) -> Detections:
        """``dets`` with the first ``n`` (the discs; streaks follow them) moved to their corrected
        centres (a korona row's discs, placed from the rim's geometry rather than fitted, stay).
        Only the returned copy moves."""
        if n == 0:
            return dets
        xy = dets.xy.copy()
        known: dict[bytes, np.ndarray] = {}
        for i in range(n):
            key = np.asarray(xy[i], float).tobytes()
            got = self._of.get(key)
            if got is not None:
                known[key] = got
                xy[i] = got
        self._of = known  # only the discs that can be kept on the next call
        return replace(dets, xy=xy)
