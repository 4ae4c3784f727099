"""Discs at rest found by what they change on the empty board: a crokinole disc whose outline
shows too weakly for the fits' checks (``verify.accept``: coverage all round and in the worst
quarter) in some looks, found where the view differs from the board's own empty picture
(``background.py``) by a disc-shaped blob that stays.

Cases (1280x720 dev matches): c2h_9932's black disc n1 at rest over the 20-hole's edge under the
hard preset's glare spot (its outline's coverage 0.42, worst quarter 0.17 from its true place:
never found at rest, the review kept it where it slid 22 mm away, and false fouls followed);
c2h_9802's cream disc on the light board on a quadrant line, its long shadow leaving a worst
quarter of 0.08-0.17 (missed 2.7 s). Seen against the empty board's picture each is a plain
disc-sized blob.

On a still call, where an unexplained difference has stayed for ``STALE_LOOK`` of the model's
still updates (``stale_discs``), and, with ``DetectorSettings.rest_blobs_full``, on every full
pass (the pipeline asks for one once the board settles, and now and then), with the empty board
learned: the view's difference from it (``BackgroundModel.difference``) above
``BLOB_LEVEL`` of the model's threshold and ``BLOB_NOISE`` of the view's median difference, minus what the discs found on this call explain (their
silhouettes and shadows, ``streaks.explained``), split into connected parts. A part of about a
disc's silhouette's area (``AREA``) that did not change since the last call (``MOVED_MAX``), away
from the board's edge (what reaches in from outside: a hand resting on the rail), is refitted from
its centre (``refine.py``) and taken for a disc when the fit is a disc's shape and place
(``verify.shape_ok``: residual, radius, not over a peg), shows some outline (``MIN_COVERAGE``),
rests on the surface (not in the 20-hole), lies within ``NEAR`` of a radius of the part's centre,
its silhouette explains the part (``EXPLAINS``: the share of the part within the fit's
silhouette and shadow, and of the silhouette that is part), and its face differs from the board
around it as the fits' colour check wants of a weak outline (``verify.accept_colors``). A missed
disc is absorbed by the model after ``BackgroundModel.absorb_after`` still updates (under a second
of still frames); found before that, it is a disc the model is told of and no longer absorbs.

Not found this way yet: c2h_9802's cream disc s4 (its blob merged with its long shadow, 3 times a
disc's area, then explained at 0.62 by the refit) and its s3 over the hole's edge (the refit's
outline 0.25-0.29, the blob's centre 9 mm off, pulled by the hole's change); c4h_9921's blue s1
over the hole's edge (its blob is its shadow). The test's still: tests/detect/test_rest_blobs.py.

Used with ``DetectorSettings.rest_blobs`` (crokinole), off by default: its measurement there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect import verify
from tracker.detect.background import GRID, BackgroundModel, silhouettes
from tracker.detect.blob_fit import RegionFinder, region_fit
from tracker.detect.datatypes import DISC, IN_HOLE, ON_SURFACE, Detections
from tracker.detect.refine import Fit
from tracker.detect.streaks import MIN_DIFF, SHADOW_MM, explained

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

# A blob pixel differs from the empty board by this many of the model's thresholds
# (``BackgroundModel.threshold`` of the streak finder's floor).
BLOB_LEVEL = 2.0
# ... and this many times the view's median difference from it (the model's own noise figure is
# learned between still frames, often the same picture: c2h_9932's video noise is 8 against it)
BLOB_NOISE = 4.0
# The blob's area, as a share of a disc's silhouette there (foot, top face and the band between).
AREA = (0.5, 2.2)
MOVED_MAX = 0.05  # share of the blob's pixels that changed since the last call: it stays
MIN_COVERAGE = 0.3  # the refit's outline share (the fits' own bar: ``DetectorSettings.min_coverage``)
NEAR = 0.5  # disc radii between the refit's centre and the blob's
# The share of the blob inside the refit's silhouette and shadow, and of the silhouette that is blob.
EXPLAINS = (0.7, 0.6)
# ... for a disc placed by its region (``blob_fit.py``): its shadow reaches past ``near``, and the
# blob holds its shadow but little of its face (c4h_9921's n2: 0.36-0.49 of its silhouette); the
# region fit's own share of the change explained judged it
REGION_EXPLAINS = (0.5, 0.25)
# A region fit's outline refit (``_polished``) is kept within this of the region's place
POLISH_MM = 3.0
RIM_PX = 2  # view pixels of the board's edge band a blob may not touch (``BackgroundModel.rim``)


def resting_blobs(det: DiscDetector, frame: np.ndarray, lab: np.ndarray,
                  taken: list[tuple[np.ndarray, float]], radius: float,
                  only: np.ndarray | None = None) -> list[Fit]:
    """The discs at rest that no find of this call explains, each found by its blob (module
    notes); ``lab``: the whole view's Lab; ``taken``: the discs found so far (extended in
    place); ``only``: the view's pixels a blob must reach (None: anywhere)."""
    from tracker.detect.fitpass import blocked

    model = det.background
    if not isinstance(det.board, CrokinoleBoard) or not model.ready or model.updates == 0:
        return []
    diff = model.difference(BackgroundModel.prepare(lab))
    shape = diff.shape
    found = Detections(xy=np.array([p for p, _ in taken]).reshape(-1, 2),
                       radius=np.array([r for _, r in taken], float))
    seen = model.valid & model.known
    grid = diff[::GRID, ::GRID][seen[::GRID, ::GRID]]
    if len(grid) < 20:
        return []
    level = max(BLOB_LEVEL * model.threshold(MIN_DIFF), BLOB_NOISE * float(np.median(grid)))
    mask = (diff > level) & seen
    if len(found):
        mask &= ~explained(det, found, shape)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask.view(np.uint8), connectivity=8)
    if n <= 1:
        return []
    moved = det.moved
    out: list[Fit] = []
    regions = RegionFinder(det, lab, _at_rest_on_surface(det, found), radius) if det.settings.blob_regions else None
    for i in range(1, n):
        area = int(stats[i, cv2.CC_STAT_AREA])
        c_mm = det.view.to_mm(cents[i][None])[0]
        sil = _silhouette(det, c_mm[None], radius, shape, 0.0)
        if not AREA[0] * sil.sum() <= area <= AREA[1] * sil.sum():
            _trace("area", c_mm, area / max(int(sil.sum()), 1))
            continue
        x, y, w, h = stats[i, :4]
        part = labels[y:y + h, x:x + w] == i
        if only is not None and not (only[y:y + h, x:x + w] & part).any():
            continue
        if (model.rim[y:y + h, x:x + w] & part).any():
            _trace("rim", c_mm)
            continue
        if moved is not None and float(moved[y:y + h, x:x + w][part].mean()) > MOVED_MAX:
            _trace("moved", c_mm, float(moved[y:y + h, x:x + w][part].mean()))
            continue
        if blocked(c_mm, radius, taken):
            _trace("blocked", c_mm)
            continue
        fit: Fit | None = None
        if det.settings.rest_blobs:  # (``blob_regions`` alone: the region fits only)
            edge = det.refiner.refine(frame, c_mm, radius, with_colors=False)
            if edge.coverage < MIN_COVERAGE or not verify.shape_ok(det, edge, radius) or \
                    float(np.hypot(*(edge.centre - c_mm))) > NEAR * radius:
                _trace("fit", c_mm, edge.coverage, edge.residual, edge.radius)
            else:
                fit = _explains(det, frame, edge, labels == i, area, taken, radius, False)
        if fit is None and regions is not None:
            # no outline that explains it: placed by the picture of its change (``blob_fit.py``)
            placed = regions.place(c_mm, level)
            if placed is not None:
                _trace("region", placed.centre, placed.explained, placed.face)
                fit = _explains(det, frame, _polished(det, frame, placed.centre, radius), labels == i, area, taken,
                                radius, True)
        if fit is None:
            continue
        _trace("found", fit.centre, fit.coverage)
        taken.append((fit.centre, radius))
        out.append(fit)
    return out


def _polished(det: DiscDetector, frame: np.ndarray, centre: np.ndarray, radius: float) -> Fit:
    """A region fit's place (``blob_fit.py``, good to 1-3 mm) refitted by its outline where one
    shows from there (a dark disc on dark wood: its edge fit from the blob's centre had wandered;
    a disc of the board's colour shows none, and keeps the region's place)."""
    edge = det.refiner.refine(frame, centre, radius, with_colors=False, start_at=centre)
    if edge.coverage >= MIN_COVERAGE and verify.shape_ok(det, edge, radius) and \
            float(np.hypot(*(edge.centre - centre))) <= POLISH_MM:
        _trace("polished", edge.centre, edge.coverage)
        return edge
    return region_fit(det, centre, radius, edge.mm_per_px)


def _explains(det: DiscDetector, frame: np.ndarray, fit: Fit, blob: np.ndarray, area: int,
              taken: list[tuple[np.ndarray, float]], radius: float, by_region: bool) -> Fit | None:
    """``fit`` with its colours when it is a disc at rest that explains its ``blob`` (of ``area``
    view pixels) and is not taken nor in the 20-hole; else None (``resting_blobs``)."""
    from tracker.detect.fitpass import blocked

    if blocked(fit.centre, radius, taken):
        return None
    if det.where_of(float(fit.centre[0]), float(fit.centre[1]), radius) == IN_HOLE:
        return None
    shape = blob.shape
    own = _silhouette(det, fit.centre[None], radius, shape, 0.0)
    near = _silhouette(det, fit.centre[None], radius, shape, SHADOW_MM)
    # (a region fit's shadow, learned, may reach past ``near``: ``blob_fit.EXPLAINED`` judged it)
    need = REGION_EXPLAINS if by_region else EXPLAINS
    if float((blob & near).sum()) < need[0] * area or float((blob & own).sum()) < need[1] * float(own.sum()):
        _trace("explain", fit.centre, float((blob & near).sum()) / area, float((blob & own).sum()) / float(own.sum()))
        return None
    # a face unlike the board around it, as the fits' own colour check wants of a weak outline
    # (a disc of the board's colour shows a blob of its shadow and shading, off its place:
    # c4h_9921's blue n2 on the blue board, the blob's centre 10 mm from the disc's); a region
    # fit's face was judged against the empty board instead (``blob_fit.BlobFit.ok``)
    fit = det.refiner.add_colors(frame, fit)
    if not by_region and not det._accept_colors(fit):
        _trace("colour", fit.centre)
        return None
    return fit


def stale_discs(det: DiscDetector, frame: np.ndarray, view: np.ndarray, last: Detections) -> Detections:
    """On a still call: the discs at rest whose blobs (``resting_blobs``) have differed from the
    empty board, unexplained, for ``STALE_LOOK`` of the model's still updates in a row, before
    the model absorbs them (``BackgroundModel.absorb_after``). Between full passes (the pipeline
    asks for one once the board settles, then every second or two) a disc missed at rest is
    otherwise absorbed, and gone from the difference, within a second of still frames
    (c2h_9932: n1 found at rest by the settling pass, lost on a later call, absorbed)."""
    from tracker.detect.fitpass import REST_BLOB_COHERENCE, detections_of

    model = det.background
    if not model.ready or not isinstance(det.board, CrokinoleBoard):
        return Detections.empty()
    looking = np.isin(model._stale, STALE_LOOK)
    if not looking.any():
        return Detections.empty()
    radius = float(det.board.disc_radius)
    taken = [(p, float(r)) for p, r in zip(last.xy, last.radius, strict=True)]
    fits = resting_blobs(det, frame, det.colours.lab(view), taken, radius, looking)
    return detections_of(det, [(f, REST_BLOB_COHERENCE) for f in fits], DISC, radius)


# Still updates in a row after which an unexplained blob is looked at (``stale_discs``).
STALE_LOOK = (4, 12)

TRACE: list[tuple[str, np.ndarray, tuple[float, ...]]] | None = None  # (debugging: each blob's outcome)


def _trace(what: str, c: np.ndarray, *figures: float) -> None:
    if TRACE is not None:
        TRACE.append((what, np.asarray(c, float).copy(), figures))


def _silhouette(det: DiscDetector, xy: np.ndarray, radius: float, shape: tuple[int, ...],
                margin: float) -> np.ndarray:
    """The view's pixels a disc of ``radius`` at ``xy`` (1, 2) hides (foot, top face and the band
    between), grown by ``margin`` mm."""
    s, k = det.pose.top_shift(xy, det.thickness)
    v = det.view
    r = (radius * k + margin) / v.mm_per_px
    return silhouettes((int(shape[0]), int(shape[1])), v.to_px(xy), v.to_px(xy + s), r)



def _at_rest_on_surface(det: DiscDetector, found: Detections) -> np.ndarray:
    """The places (N, 2) of the discs of ``found`` on the playing surface whose silhouettes did not
    change since the last call (``salient.at_rest``'s test): the shadow template's teachers."""
    from tracker.detect.reuse import untouched

    if not len(found):
        return np.zeros((0, 2))
    on = np.array([det.where_of(float(x), float(y), float(r)) == ON_SURFACE
                   for (x, y), r in zip(found.xy, found.radius, strict=True)])
    if det.moved is not None:
        on &= untouched(found, det.moved, det.view, det.pose, det.thickness)
    return np.asarray(found.xy[on], float)
