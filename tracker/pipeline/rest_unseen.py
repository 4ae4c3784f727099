"""Where a crokinole disc the detector lost at rest is reported: fitted on the settled frame.

A crokinole disc that comes to rest touching a peg or another disc can go unreported for the
rest of the round: while it still crept, its outline was fitted and turned down (the peg's
column or the neighbour hides part of its rim: coverage 0.5-0.6 against ``min_coverage``), and
the detector's memory of turned-down candidates (``rejects.py``) keeps it turned down while the
picture there does not change, which, the disc being at rest, is for good (c2h_9914 n4, seen
in a trace of the review: turned down once at 22.6 s, cov 0.54, never fitted again; a fit on
the settled frame from a fresh start finds it 0.4 mm from the truth). Its place at rest is then
the tracker's forecast of where it slid to (11 mm off there; 40 mm off on c2h_9986).

When a shot is judged (``rest_places.refit_ends``), each crokinole disc at rest that no
detection backs (its track has no sighting since it came to rest) is fitted on that frame from
a few starts around its forecast place, with its neighbours at rest, the pegs (their standing
silhouettes), the 20-hole and the ditch masked; a fit the detector would accept (``verify.accept``, the
residual loosened as for masked fits) that lies within ``REACH`` disc radii of the forecast and
pushes into no neighbour is reported, at its chamfer-corrected centre (the detector's own
correction, ``chamfer.ChamferCorrection.note``). Only the shot log's ends (and what the rules
make of them) change: no identity, shot or event does. A disc with no such fit near its forecast
is sought where the board changed since the last shot was judged (``rest_search.py``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.chamfer import GAME_BEVEL_MM, ChamferCorrection
from tracker.detect.ditch import ditch_circle
from tracker.detect.refine import Fit, Refiner
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

# On: crokinole discs lost at rest refitted on the settled frame (module docstring).
ON = True
# Sightings at rest that make a place (the rest anchor, their mean) stand without a refit.
MIN_SIGHTINGS = 2
# A fit further than this many disc radii from the forecast place found another thing.
REACH = 1.5
# Starts: the forecast, and points this share of a disc radius around it.
START_RING = 0.4
START_COUNT = 6
# The coarsest picture (mm a pixel at the disc) where a lost disc is refitted: coarser, the edge
# fit is no better than the single find it would replace (crokinole_4p_part, 480x270, 3.7 mm a
# pixel: w1 at the shooting line 2.4 -> 5.3 mm off; crokinole_foul, 640x360, 2.7 mm a pixel:
# median 2.35 -> 2.03 mm).
MAX_MM_PER_PX = 3.3
# A fit that overlaps a neighbour at rest by more than this (mm) took the neighbour's edges.
OVERLAP_MM = 1.0

_CHAMFER: weakref.WeakKeyDictionary[DiscDetector, ChamferCorrection] = weakref.WeakKeyDictionary()


def chamfer_correction(det: DiscDetector) -> ChamferCorrection:
    """The detector's chamfer correction, made once per detector (its own state apart)."""
    cc = _CHAMFER.get(det)
    if cc is None:
        bevel = GAME_BEVEL_MM.get(det.game, 0.0)
        cc = _CHAMFER[det] = ChamferCorrection(Refiner(det.refiner.calib, det.pose, det.thickness, bevel=bevel),
                                               det.pose, bevel, det.settings.min_coverage,
                                               model=ChamferCorrection.modelling(det.game))
    return cc


def unseen(tr: Track) -> bool:
    """A disc at rest whose place no more than one sighting since it came to rest backs (its
    rest anchor is then a forecast, or a single find, often made while it still crept)."""
    return tr.state == "rest" and tr.anchor_n < MIN_SIGHTINGS


def occluders(det: DiscDetector, tracks: list[Track], tr: Track, at: np.ndarray, margin: float) -> np.ndarray:
    """Circles (x, y, r) mm where this disc's rim cannot show: the other discs at rest (their
    silhouettes), the pegs standing (base to head as one circle), the 20-hole and the ditch."""
    b = det.board
    assert isinstance(b, CrokinoleBoard)
    R = b.disc_radius
    near = 2.6 * R + 30.0 + REACH * R
    rows = [(np.asarray(o.position()), o.radius) for o in tracks if o.id != tr.id and o.state == "rest"]
    rows = [(p, r) for p, r in rows if float(np.hypot(*(p - at))) < near]
    out = [np.zeros((0, 3))]
    if rows:
        P = np.array([p for p, _ in rows])
        Rn = np.array([r for _, r in rows])
        s, k = det.pose.top_shift(P, det.thickness)
        out.append(np.concatenate([P + 0.5 * s, (k * Rn + 0.5 * np.linalg.norm(s, axis=1) + margin)[:, None]], 1))
    pegs = np.asarray(b.peg_positions(), float).reshape(-1, 2)
    pegs = pegs[np.hypot(*(pegs - at).T) < near]
    if len(pegs):
        pr = b.peg_diameter / 2 + 1.0
        s, k = det.pose.top_shift(pegs, b.peg_height)
        out.append(np.concatenate([pegs + 0.5 * s, (k * pr + 0.5 * np.linalg.norm(s, axis=1) + margin)[:, None]], 1))
    if float(np.hypot(*at)) > b.hole_radius:
        out.append(np.array([[0.0, 0.0, b.hole_radius + margin]]))
    out.append(ditch_circle(b, at, R, margin))
    return np.concatenate(out)


def overlap(tracks: list[Track], tr: Track, at: np.ndarray, radius: float) -> float:
    """How far (mm) the disc ``tr`` (``radius``) at ``at`` would overlap the nearest other at rest."""
    return max((radius + o.radius - float(np.hypot(*(np.asarray(o.position()) - at)))
                for o in tracks if o.id != tr.id and o.state == "rest"), default=-np.inf)


def refit(det: DiscDetector, frame: np.ndarray, tracks: list[Track], tr: Track,
          at_xy: tuple[float, float]) -> tuple[float, float] | None:
    """The place of the crokinole disc ``tr`` lost at rest, forecast at ``at_xy``, fitted on
    ``frame``; None when no fit the detector would accept lies near it."""
    return fit_near(det, frame, tracks, tr, np.asarray(at_xy, float), REACH)


def _better(fit: Fit, than: Fit, ties: bool) -> bool:
    """The fit with the larger outline share; with ``ties``, of two with the same, the one with
    the smaller residual (else the first)."""
    if ties:
        return (fit.coverage, -fit.residual) > (than.coverage, -than.residual)
    return fit.coverage > than.coverage


def fit_near(det: DiscDetector, frame: np.ndarray, tracks: list[Track], tr: Track, at: np.ndarray,
             reach: float, loose: Callable[[Fit], bool] | None = None,
             rings: tuple[float, ...] = (START_RING,), ties: bool = False,
             settle: Callable[[list[Fit]], np.ndarray | None] | None = None) -> tuple[float, float] | None:
    """The chamfer-corrected centre of the best fit (by coverage) of the disc ``tr`` from starts
    around ``at`` that lies within ``reach`` disc radii of it and that the detector would accept
    (or, failing any, that ``loose`` takes), pushing into no neighbour at rest; None if none.
    ``rings``: the starts' rings round ``at``, in disc radii; ``ties``: of fits with the same
    outline share, the one with the smaller residual (``_better``); ``settle``: given the loose
    fits (none accepted), best first, the place they make, if it has one (else the best's)."""
    b = det.board
    assert isinstance(b, CrokinoleBoard)
    R = b.disc_radius
    px = det.refiner._mm_per_image_px(at)
    if px > MAX_MM_PER_PX:
        return None
    margin = max(1.5, 0.75 * px)
    occ = occluders(det, tracks, tr, at, margin)
    a = 2 * np.pi * np.arange(START_COUNT) / START_COUNT
    starts = [at] + [at + ring * R * np.array([np.cos(t), np.sin(t)]) for ring in rings for t in a]
    best = None
    loose_fits: list[Fit] = []
    for st in starts:
        fit = det.refiner.refine(frame, st, R, with_colors=False, occluders=occ, start_at=st)
        if not bool(np.all(np.isfinite(fit.centre))) or float(np.hypot(*(fit.centre - at))) > reach * R:
            continue
        if overlap(tracks, tr, fit.centre, R) > OVERLAP_MM:
            continue
        if not det._accept(fit, R, residual_scale=1.5 if fit.visible < 1.0 else 1.0) or \
                not det.place_ok(fit.centre, R, fit.mm_per_px):
            if loose is not None and loose(fit):
                loose_fits.append(fit)
            continue
        if best is None or _better(fit, best, ties):
            best = fit
    if best is None and loose_fits:
        # best first by ``_better``'s order (a stable sort: the first kept on a tie)
        ranked = sorted(loose_fits, key=lambda f: (f.coverage, -f.residual) if ties else (f.coverage,), reverse=True)
        placed = settle(ranked) if settle is not None else None
        if placed is not None:
            return None if overlap(tracks, tr, placed, R) > OVERLAP_MM else (float(placed[0]), float(placed[1]))
        best = ranked[0]
    if best is None:
        return None
    cc = chamfer_correction(det)
    cc.note(frame, best, R)
    centre = cc._of.get(np.asarray(best.centre, float).tobytes(), best.centre)
    if overlap(tracks, tr, centre, R) > OVERLAP_MM:
        return None
    return float(centre[0]), float(centre[1])
