"""Where a korona disc at rest is reported: refitted on the settled frame, apart from the tracking.

The tracker follows the detector's centres, and a shot's ends are its rest anchors (the mean of
those centres since the disc stopped). Korona discs at rest were reported off (full reviews of
the korona dev matches, median mm at rest, by kind: ``bench_review.py --kinds``): against a rim
1.8 (the outer side shows no edge of its own, and the square-edged circle settles inward), in
the open 1.3 (the renderer's discs have a 2 mm chamfer the edge fits do not model: they sit
toward the camera), strikers found as their top's groove (a disc-sized ring) several mm off.
The fixes in the detector (``rim_line.py``, ``rim_lean``, ``chamfer.REGION_MODEL`` for korona)
move the detections the tracker associates with, and its identities and shots suffered; so
here the detections stay as they are and only what a shot reports moves.

When a shot is judged (every disc has rested ``ShotSegmenter.settle`` on top of the tracker's
rest time), each korona disc it lists at a place is fitted once more on that frame, from that
place, with what cannot show masked (``Refiner.refine``'s ``occluders``: the other discs at rest
beside it; ``bounds``: the rim):

* a striker (the shot's striker, a track of the striker's kind, or a disc's find centred on a
  striker-sized outline: its groove): its outline chosen as a whole (``strikers.fit_options``'
  consensus) at its own size, not the groove's ring, then the region model from that outline
  (``STRIKER_MODEL``: the square-edged outline sits toward the camera);
* a disc: the edge fit, then the region model (``chamfer.ChamferCorrection.modelled``,
  ``silhouette.py``: the disc's whole picture, chamfer and shadow included), where the picture
  is fine enough for it (1280x720; not the 480x270-640x360 fixtures);
* a disc then within ``SNAP_MM`` of a rim line (refitted or not) is put on it.

A refit replaces the place when the detector would accept it (``verify.accept``), it lies within
``REACH`` radii of the place (the same disc) and it does not push into a neighbour
(``OVERLAP_MM``); otherwise the place stays (a disc in the open: placed by the region model from
its anchor where that holds, ``ANCHOR_MODEL``). Then a row against a rim whose members were not
all refitted is moved along the rim as one piece (``rim_rows.py``). Only the shot log's ends (and what the rules make of
them) change: no identity, shot or event does. ``bench_review.py --dets`` replays decode the
video alongside and refit as the review does (``benchmarks/replay_frames.py``; ``--anchors``: not).

Full reviews, median/p95 mm at rest, before -> after (events, rounds, switches identical on all):
k2e_9505 1.81/6.52 -> 0.38/3.07, k2e_9605 0.90/4.52 -> 0.82/4.24, k2e_9705 0.74/5.93 -> 0.36/5.93,
k2e_9805 1.17/2.28 -> 0.29/1.20, k2e_9911 0.76/2.03 -> 0.62/1.40, k2e_9923 1.52/3.62 -> 0.73/1.61,
k4h_9306 1.61/9.21 -> 0.80/9.21, k4h_9506 1.99/3.19 -> 0.51/2.43, k4h_9606 2.85/4.63 -> 1.31/4.42,
k4h_9706 1.44/2.48 -> 0.53/2.46, k4h_9806 1.76/2.67 -> 0.83/2.67, k4h_9912 1.60/4.12 -> 0.71/4.18,
k4h_9924 1.91/6.65 -> 2.14/7.06 (9 places; its strikers on the hard camera refit either way);
korona_2p_game 2.66/6.87 -> 1.42/5.56, korona_4p_part 1.81/6.95 -> 1.26/3.29, korona_ru_part
4.72/7.25 -> 2.18/5.45, korona_overshot 0.17 -> 0.34, korona_pocket 0.61 -> 0.78 (one striker
each); crokinole c2e_9501 and c4h_9503 the same. By kind over the 13 korona dev matches
(``--kinds``): against a rim alone 1.84 -> 0.25, in a row on a rim 2.27 -> 0.24, in the open
1.30 -> 0.59, strikers 0.95 -> 0.86; all 1.45/4.45 -> 0.61/4.39. Refitting only the strikers
found as their groove (not those found at their size) lost most of the strikers' gain
(replayed: korona_2p_game 1.42 -> 2.66, korona_ru_part 2.18 -> 4.72, k2e_9505 p95 3.07 -> 6.52).

What is left (session 18, replays with frames = full reviews; 332 ends over 11 dev matches and
the 3 part/game fixtures): the easy camera's ends are within the targets but for a few (k2e
median 0.17-0.62 mm); the hard camera's are not (k4h 0.51-2.15 median, p95 2.4-7.4). There,
by what the refit did: a disc refitted 0.4 median (p95 2.6), a striker 1.0 (2.6), a refit the
detector would not accept (then the anchor, or the rim snap) 2.4 (9.4). The error does not fall
with the time the disc has rested (the settled frame shows it at rest: no creep is left in
it), so the detector's creep refits cannot bring it down; it is the fits' bias on the noisy,
oblique picture. Seen: discs alone against a far rim (k4h_9912's east rim at 19.7 s) whose edge
fit sits 3 mm along the rim from the truth from any start, and whose region model is right
along the rim but puts the disc 2-4 mm past the rim line, so that its move (> ``chamfer.
MODEL_MAX_MOVE_MM``) throws it away. Tried, not kept (replays, median/p95 mm over the k4h
matches unless said): the model's centre put back on the rim line before the move check
(k4h_9912 p95 3.76 -> 3.28, k4h_9606 1.30/4.42 -> 1.44/4.58); the model refitted with the centre
held on the line where it went past (``SilhouetteFitter`` with a held coordinate: cushion p95
3.80 -> 3.24, k4h_9606 median 1.30 -> 1.54); the refit on the per-pixel median (or mean) of the
frames since the last disc stopped (up to 15: all 0.98/4.02 -> 1.25/3.92, mean 0.96/3.96: the
sensor noise is not what limits it); a looser acceptance (coverage 0.45, no quarter: all the
same, k4h_9506 p95 2.43 -> 4.54); discs whose track moved again by the time the shot is judged
refitted too (k4h_9606 1.30 -> 1.05 median, two discs 3.9 -> 0.9 and 2.3, but k4h_9966's
striker 2.5 -> 5.6); the model with no shadow history (each fit searching the light afresh:
k2e_9505 p95 1.29 -> 0.96, k2e_9911 0.62 -> 0.49 but k2e_9941 0.36 -> 0.64, k4h_9606 1.30 ->
1.58). The last shows the model's history (``ChamferCorrection``'s shadow median and memory)
moves single ends by a few tenths either way: a change of a few tenths on one match is noise.
"""

from __future__ import annotations

import weakref
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.chamfer import MODEL_COARSE_MM_PER_PX, MODEL_MAX_MOVE_MM, ChamferCorrection
from tracker.detect.datatypes import STRIKER
from tracker.detect.fitpass import CONCENTRIC
from tracker.detect.refine import Fit
from tracker.detect.strikers import STRIKER_FIT
from tracker.infer.datatypes import End, ShotRecord
from tracker.pipeline import rest_model, rest_search, rest_unseen, rim_rows
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector
    from tracker.detect.silhouette import ModelFit

# A refit further than this share of its radius from the anchor found something else.
REACH = 0.35
# A refit that makes the disc overlap a neighbour at rest by this much more than its anchor did
# took the neighbour's edges for its own.
OVERLAP_MM = 0.5
# A disc reported within this of a rim line (mm, inward) is reported on it (``on_rim_line``): the
# region model still leaves discs against a rim 0.5-2 mm inward on the hard camera's far rims
# (replayed korona dev reviews, median/p95 mm at rest, 0 -> 2: k4h_9506 0.84/2.88 -> 0.51/2.43,
# k4h_9912 1.17/4.18 -> 0.69/4.18, k4h_9706 1.20/2.48 -> 0.71/2.48, k2e_9805 0.27/1.76 ->
# 0.29/1.20; none worse).
SNAP_MM = 2.0
# The coarsest picture (mm a pixel at the disc) where a disc's place is refitted: edge fit, then
# the region model (its outline's size held where coarser than ``chamfer.MODEL_COARSE_MM_PER_PX``).
# The detector's own model stops at 3.6 (``chamfer.py``); here a disc seen coarser was left at its
# anchor (snapped to a rim line), the edge fit alone being no better there. Unbounded: replayed
# reviews (``bench_review.py --dets``), median/p95 mm at rest, 3.6 -> unbounded: korona_4p_part
# (480x270, 3.6-4.4 mm a pixel) 1.27/3.29 -> 1.00/2.87, korona_ru_part 2.38/5.52 -> 1.35/5.52,
# korona_2p_game 1.41/5.65 -> 1.38/5.65; the 11 korona dev matches (1280x720: no disc seen that
# coarse) identical, as are korona_overshot and korona_pocket (640x360; their ends are strikers,
# which never take the model). The edge fit alone there instead (no model): 1.35/3.45, 2.38/5.70,
# 1.32/5.65: the model, not the refit, makes the gain.
MODEL_MM_PER_PX = float("inf")
# A striker's refit (its outline chosen as a whole, square-edged) is fitted once more by the region
# model (``silhouette.py``: its whole picture, chamfer, side wall and cast shadow), from that
# outline at its size, where the picture is as fine as the detector fits korona discs by the model
# (``chamfer.MODEL_COARSE_MM_PER_PX``; the detector's own model is off for strikers:
# ``chamfer.MODEL_STRIKERS``, measured on the coarser fixtures). The square-edged outline sat
# toward the camera: replays of 6 k4h dev matches, 38 striker refits, 1.37 mm along the camera's
# line of sight (median; across it 0.01), about what the 2 mm chamfer the renderer draws makes of
# it (1.45 mm at their distance from the camera's foot), but from -0.5 to -2.4 mm match by match,
# so no fixed shift serves (``chamfer.ChamferCorrection.shifted`` at 2 mm, replayed: the k4h
# strikers' median 1.17 -> 1.05 mm, five matches of 12 worse). Replays (``bench_review.py --dets``,
# median/p95 mm at rest, off -> on; events, rounds and switches identical): the 12 k4h dev
# matches' strikers 1.17/3.88 -> 0.45/3.64, all their ends 1.12/6.70 -> 0.75/6.70 (k4h_9924
# 2.14 -> 1.08, k4h_9306 0.80 -> 0.31, k4h_10106 1.67 -> 1.26, none worse); the 12 k2e dev
# matches each better (k2e_9911 0.54/1.32 -> 0.39/1.09, k2e_9941 0.58/2.05 -> 0.42/1.85);
# korona_overshot 0.34 -> 0.28, korona_pocket 0.78 -> 0.63, the other three fixtures the same.
# The model's fit stands where it moved the centre at most ``chamfer.MODEL_MAX_MOVE_MM`` and
# explains the picture: its robust RMS residual per pixel at most ``STRIKER_MODEL_RMS`` (8-bit
# colour units; the k4h strikers' fits 12-26, median 16; of the four above 30, two put the
# striker worse, k4h_10006's N on its striking line 0.53 -> 1.59 mm and S by the south rim
# 1.42 -> 2.08, which the model does not draw; without the bar k4h_10006 went 1.03 -> 1.11).
STRIKER_MODEL = True
STRIKER_MODEL_RMS = 30.0
# A korona disc in the open (a radius or more in from the rim lines) whose edge refit the detector
# would not accept is placed by the region model fitted from its anchor (``anchor_modelled``),
# held to the same bars as the striker's (``chamfer.MODEL_MAX_MOVE_MM``, ``STRIKER_MODEL_RMS``,
# ``OVERLAP_MM``); else it stays at its anchor. Such anchors sat 2.6 mm toward the camera (median
# over 17 such ends of 7 k4h dev matches: the detector's square-edged fits). Replays, on top of
# ``STRIKER_MODEL``, median/p95 mm at rest, off -> on (events identical): k4h 0.75/6.70 ->
# 0.71/6.70 (k4h_9506 0.55/2.68 -> 0.49/1.94, k4h_9996 0.78 -> 0.70, k4h_10106 1.26 -> 1.17,
# k4h_9924 p95 5.96 -> 5.70, k4h_10006 1.02 -> 1.00; the rest the same); the 12 k2e dev matches and
# the 5 korona fixtures the same.
ANCHOR_MODEL = True


_MODELS: weakref.WeakKeyDictionary[DiscDetector, ChamferCorrection] = weakref.WeakKeyDictionary()


def region_model(det: DiscDetector) -> ChamferCorrection:
    """The region model (``chamfer.ChamferCorrection.modelled``, ``silhouette.py``) for ``det``'s
    calibration, made once per detector."""
    cc = _MODELS.get(det)
    if cc is None:
        cc = _MODELS[det] = ChamferCorrection(det.refiner, det.pose, 0.0, det.settings.min_coverage, model=True)
        cc.max_mm_per_px = MODEL_MM_PER_PX
    return cc


def _neighbours(tracks: list[Track], tid: int, at: np.ndarray, radius: float, det: DiscDetector,
                margin: float) -> np.ndarray:
    """Circles (x, y, r) of the other discs at rest near ``at`` whose outlines may cover this one's
    (each as its silhouette: bottom circle and top face, as ``clusters.occluders`` takes them)."""
    rows = [(tr.position(), tr.radius) for tr in tracks
            if tr.id != tid and tr.state == "rest"
            and float(np.hypot(*(np.asarray(tr.position()) - at))) < radius + 2.6 * tr.radius + 30.0]
    if not rows:
        return np.zeros((0, 3))
    P = np.array([p for p, _ in rows])
    R = np.array([r for _, r in rows])
    s, k = det.pose.top_shift(P, det.thickness)
    return np.concatenate([P + 0.5 * s, (k * R + 0.5 * np.linalg.norm(s, axis=1) + margin)[:, None]], 1)


def fit_masks(det: DiscDetector, tracks: list[Track], tid: int, at: np.ndarray,
              radius: float) -> tuple[np.ndarray, float]:
    """The occluders (``_neighbours``, with a margin of the picture's scale there) and the rim's
    bounds (mm from the centre) that a refit of disc ``tid`` of ``radius`` at ``at`` is fitted
    within."""
    board = det.board
    assert isinstance(board, KoronaBoard)
    px = det.refiner._mm_per_image_px(at)
    return _neighbours(tracks, tid, at, radius, det, max(1.5, 0.75 * px)), board.half - max(2.0, 1.5 * px)


def model_holds(m: ModelFit, rms: float, max_move: float = float("inf")) -> bool:
    """Whether the region model's fit ``m`` stands: finite, explaining the picture (its robust
    RMS residual not over ``rms``) and moved no more than ``max_move`` mm."""
    return bool(np.all(np.isfinite(m.centre))) and not (m.moved > max_move or m.rms > rms)


def refit(det: DiscDetector, frame: np.ndarray, tracks: list[Track], tr: Track, at_xy: tuple[float, float],
          striker: bool) -> tuple[float, float] | None:
    """The place of the disc ``tr``, reported at ``at_xy``, fitted on ``frame``; None when no fit
    the detector would accept lies near ``at_xy``. A striker is fitted at its track's size when
    that is larger than the board model's (the renderer draws them larger: 26-30 mm against 25,
    ``verify.STRIKER_LARGER``), at the model's when the track is its groove's disc-sized ring."""
    board = det.board
    assert isinstance(board, KoronaBoard)
    at = np.asarray(at_xy, float)
    radius = max(tr.radius, board.striker_radius) if striker else board.disc_radius
    occ, bounds = fit_masks(det, tracks, tr.id, at, radius)
    if striker:
        fit = det.refiner.refine(frame, at, radius, with_colors=False, occluders=occ, bounds=bounds, start_at=at,
                                 consensus=True, consensus_at=1 if det.settings.striker_any_size else 2)
    else:
        fit = det.refiner.refine(frame, at, radius, with_colors=False, occluders=occ, bounds=bounds, start_at=at)
    if not det._accept(fit, radius, residual_scale=1.5 if fit.visible < 1.0 else 1.0):
        return None
    if striker and fit.radius < STRIKER_FIT * board.striker_radius:
        return None  # a ring round a disc with its shading, not a striker's outline
    if float(np.hypot(*(fit.centre - at))) > REACH * radius:
        return None
    centre = striker_modelled(det, frame, fit) if striker else fit.centre
    if not striker:
        model = region_model(det)
        if fit.mm_per_px > model.max_mm_per_px:
            return None  # too coarse a picture for the region model: the edge fit alone is no better
        centre = model.modelled(frame, fit.centre, radius, fit)
        if float(np.hypot(*(centre - at))) > REACH * radius:
            return None
    if rest_unseen.overlap(tracks, tr, centre, radius) > max(OVERLAP_MM, rest_unseen.overlap(tracks, tr, at, radius) + OVERLAP_MM):
        return None  # pushed into a neighbour: its edges were taken for this disc's
    line = board.half - radius  # (no disc overlaps the rim)
    x, y = (float(np.clip(v, -line, line)) for v in centre)
    return on_rim_line(board, (x, y)) if not striker else (x, y)


def striker_modelled(det: DiscDetector, frame: np.ndarray, fit: Fit) -> np.ndarray:
    """A striker's outline ``fit`` fitted once more by the region model (``STRIKER_MODEL``), with
    the fit's masks; the outline's centre where the picture is too coarse for the model
    (``chamfer.MODEL_COARSE_MM_PER_PX``), or where its fit moved too far or does not explain the
    picture."""
    model = region_model(det).model
    if not STRIKER_MODEL or model is None or fit.mm_per_px > MODEL_COARSE_MM_PER_PX["korona"]:
        return fit.centre
    occ, bounds = fit.masks
    m = model.fit(frame, fit.centre, float(fit.radius), occluders=occ, bounds=bounds)
    if m is None or not model_holds(m, STRIKER_MODEL_RMS, MODEL_MAX_MOVE_MM):
        return fit.centre
    return np.asarray(m.centre, float)


def anchor_modelled(det: DiscDetector, frame: np.ndarray, tracks: list[Track], tr: Track,
                    at_xy: tuple[float, float]) -> tuple[float, float] | None:
    """A disc in the open whose edge refit the detector would not accept, placed by the region
    model from its anchor (``ANCHOR_MODEL``); None where it lies near a rim, or the model's fit
    moved too far, does not explain the picture or pushes into a neighbour."""
    board = det.board
    assert isinstance(board, KoronaBoard)
    model = region_model(det).model
    at = np.asarray(at_xy, float)
    r = board.disc_radius
    if model is None or board.half - r - float(np.max(np.abs(at))) < r:
        return None
    occ, bounds = fit_masks(det, tracks, tr.id, at, r)
    m = model.fit(frame, at, r, occluders=occ, bounds=bounds)
    if m is None or not model_holds(m, STRIKER_MODEL_RMS, MODEL_MAX_MOVE_MM):
        return None
    centre = np.asarray(m.centre, float)
    if rest_unseen.overlap(tracks, tr, centre, r) > max(OVERLAP_MM, rest_unseen.overlap(tracks, tr, at, r) + OVERLAP_MM):
        return None
    return float(centre[0]), float(centre[1])


def on_rim_line(board: KoronaBoard, xy: tuple[float, float]) -> tuple[float, float]:
    """A disc's place within ``SNAP_MM`` of a rim line put on it (for each rim it is near)."""
    line = board.half - board.disc_radius
    x, y = xy
    if SNAP_MM > 0:
        x = float(np.sign(x) * line) if line - abs(x) < SNAP_MM else x
        y = float(np.sign(y) * line) if line - abs(y) < SNAP_MM else y
    return x, y


def refit_ends(det: DiscDetector | None, frame: np.ndarray | None, rec: ShotRecord,
               tracks: list[Track], judged: rest_search.Judged | None = None) -> ShotRecord:
    """``rec`` with the places of its korona discs at rest refitted on ``frame`` (the module's
    docstring); unchanged without a frame or a detector. On a crokinole board, its discs lost at
    rest (``_crokinole_ends``; ``judged``: the board the last shot was judged on)."""
    if det is None or frame is None:
        return rec
    if isinstance(det.board, CrokinoleBoard):
        return _crokinole_ends(det, frame, rec, tracks, judged) if rest_unseen.ON else rec
    if not isinstance(det.board, KoronaBoard):
        return rec
    board = det.board
    by_id = {tr.id: tr for tr in tracks}
    ends: dict[int, End] = dict(rec.ends)
    anchors: dict[int, tuple[float, float]] = {}
    refitted: set[int] = set()
    for tid, e in rec.ends.items():
        tr = by_id.get(tid)
        if not isinstance(e, tuple) or tr is None or tr.state != "rest":
            continue
        striker = tid == rec.disc or tr.kind == STRIKER
        if not striker:
            anchors[tid] = e
        xy = refit(det, frame, tracks, tr, e, True)  # (a disc's find may be a striker's groove)
        if not striker and xy is not None and float(np.hypot(xy[0] - e[0], xy[1] - e[1])) >= CONCENTRIC * board.disc_radius:
            xy = None  # (a disc's find is a striker's groove only when centred on it)
        if xy is None and not striker:
            xy = refit(det, frame, tracks, tr, e, False)
        if xy is None and not striker and ANCHOR_MODEL:
            xy = anchor_modelled(det, frame, tracks, tr, e)
        if xy is not None and not striker:
            refitted.add(tid)
        if xy is None and not striker and SNAP_MM > 0:
            xy = on_rim_line(board, e)
        if xy is not None:
            ends[tid] = (round(xy[0], 2), round(xy[1], 2))
    if rim_rows.ON and anchors:
        discs = {t: ends[t] for t in anchors if isinstance(ends[t], tuple)}
        for t, xy in rim_rows.shift_rows(det, frame, tracks, anchors, discs, refitted).items():  # type: ignore[arg-type]
            ends[t] = (round(xy[0], 2), round(xy[1], 2))
    return replace(rec, ends=ends)


def _crokinole_ends(det: DiscDetector, frame: np.ndarray, rec: ShotRecord, tracks: list[Track],
                    judged: rest_search.Judged | None = None) -> ShotRecord:
    """``rec`` with the places of its crokinole discs lost at rest fitted on ``frame``
    (``rest_unseen.py``; where none lies near the forecast, sought by what changed since
    ``judged``: ``rest_search.py``; failing both, placed by its whole picture from the forecast:
    ``rest_model.py``); the places the detector's sightings back stay."""
    by_id = {tr.id: tr for tr in tracks}
    ends: dict[int, End] = dict(rec.ends)
    search: rest_search.Search | None = None
    for tid, e in rec.ends.items():
        tr = by_id.get(tid)
        if not isinstance(e, tuple) or tr is None or not rest_unseen.unseen(tr):
            continue
        xy = rest_unseen.refit(det, frame, tracks, tr, e)
        if xy is None and judged is not None and rest_search.ON:
            if search is None:
                search = rest_search.Search(det, judged, frame, tracks, [rec.start, *rec.before.values()])
            xy = search.find(tr, e)
            if xy is not None and rest_search.MOVE_TRACK:  # the tracker's place for it too (``rest_search``)
                tr.xy, tr.anchor = np.array(xy, float), np.array(xy, float)
        if xy is None and rest_model.ON:  # (none: its whole picture, ``rest_model``)
            xy = rest_model.place(det, frame, tracks, tr, e)
        if xy is not None:
            ends[tid] = (round(xy[0], 2), round(xy[1], 2))
    return replace(rec, ends=ends) if ends != dict(rec.ends) else rec
