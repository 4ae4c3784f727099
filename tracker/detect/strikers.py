"""Korona strikers: how their outline is fitted (``fit_options``), and against the discs found
with them (``DiscDetector``'s last step).

A striker (50 mm) and a target disc (25 mm) found at one place are one thing: a striker whose
groove (a disc-sized ring on its top) was fitted as a disc, or a disc whose shading was fitted as
a striker-sized ring. ``drop_strikers_over_discs`` and ``striker_grooves`` decide which, from the
fits' sizes and confidences.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.detect.fitpass import CONCENTRIC
from tracker.detect.reuse import untouched

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

# A striker-sized ring fitted to under this share of a striker's radius round a disc-sized find at
# its centre is not a striker's outline (the find its groove) but the outline of a disc with its
# shading, shadow, blur or neighbours (a disc at 640x360 and below fits 19-20 mm, a disc 13-16 mm).
# On the korona fixtures a striker at rest fitted 23.9-27.3 mm there (25 mm strikers), a ring round
# a disc at rest 20.4-22.0 mm (at 0.85, korona_4p_part's e6 against the west rim at 23.3 s was
# taken for the striker: a false identity switch).
STRIKER_FIT = 0.92


# With ``DetectorSettings.striker_any_size``, the iteration before which a striker's outline is
# chosen as a whole (``Refiner.refine``'s ``consensus_at``): the first, not the third as for a disc. The first two iterations hold the
# radius at the board model's; a striker drawn or made larger than that (the renderer's are fitted
# at 26-30 mm against 25, ``verify.STRIKER_LARGER``) shows its outline outside the second
# iteration's 3 mm windows, its outline read open there and the fit was given up before the
# consensus could size it (k4h_9506 at 26.6 s, the striker resting below the north line: 25.00 mm,
# 31-35% of its rays, on each try of a full pass).
CONSENSUS_AT = 1


def fit_options(det: DiscDetector, kind: int, at: np.ndarray | None = None) -> dict[str, Any]:
    """The extra ``Refiner.refine`` arguments for fitting a thing of ``kind`` at ``at``: for a
    korona striker at rest (``DetectorSettings.striker_consensus``), the one outline its edges
    follow best all round is chosen before the two narrow iterations (``consensus.py``); nothing
    for a disc.

    A striker is as tall as a disc and twice as wide, so a ray across its outline meets, within
    the fit's first windows, its groove, the top rim, on the near side the side wall's foot,
    its shadow's edge and often the striking line it lies on. Per ray the widest windows take
    one or another, and the circle through that mix settled millimetres off, where its own
    rim then lay outside the narrow windows: the rays there found only the edge's tail and
    failed the salience test, and the outline read open. k4h_9506 (hard preset) at 5 s: the
    striker resting below the north striking line was fitted 3.5 mm off with 54% of its rays
    (60% needed); chosen as a whole, 0.6 mm off and 98% closed. A lower salience threshold only
    let the mixed circles through; each ray's texture read off the board's paint and outside the
    outline (tried: the striking line and the striker's groove and side wall left out of it) found
    no striker the consensus did not, and placed them worse (k4h_9306 p95 3.4 -> 5.5 mm).

    Only where no pixel of a striker there changed since the last call (``reuse.untouched``;
    the first call counts as still), as ``fitpass.at_rest`` does for grooves: everywhere, the
    strikers were also seen while a hand set them down or took them up, and the tracking made
    shots and swaps of that (reviews off -> everywhere: korona_4p_part shots 100%/100% ->
    90%/82%, switches 0 -> 40 per 100 shots; pockets k4h_9306 100%/75% -> 67%/50%,
    korona_2p_game 80%/100% -> 60%/75%, korona_ru_part 75%/75% -> 50%/67%; though the
    positions at rest were better on every match, korona_4p_part p95 7.03 -> 3.60 mm).

    Reviews (``bench_review.py``, detector runs), off -> at rest: k4h_9506 shots 0%/0% ->
    25%/100%, pockets 0%/100% -> 67%/100%, positions none -> 2.03/2.56 mm; korona_ru_part
    pockets 75%/75% -> 75%/100%, median/p95 3.86/8.10 -> 3.79/8.01 mm; k2e_9505, k4h_9306,
    korona_2p_game, korona_4p_part, korona_overshot, korona_pocket and the dev matches k2e_9305
    and k2e_9405 the same (the last two lost their rounds to a salience test lowered to 2x)."""
    if kind != STRIKER or not isinstance(det.board, KoronaBoard) or not det.settings.striker_consensus:
        return {}
    if at is not None and det.moved is not None:
        one = Detections(xy=np.asarray(at, float)[None], radius=np.array([det.board.striker_radius]))
        if not untouched(one, det.moved, det.view, det.pose, det.thickness)[0]:
            return {}
    return {"consensus": True, "consensus_at": CONSENSUS_AT if det.settings.striker_any_size else 2}


# A striker refitted once it rests (``settle``) is taken to that fit only when the fit found the
# same striker: within this share of its radius of where it was kept, its size within
# ``verify.accept``'s tolerance.
SETTLE_RADII = 0.35


def settle(det: DiscDetector, frame_bgr: np.ndarray, kept: Detections, settled: set[bytes]) -> Detections:
    """``kept`` (the discs a call keeps unchanged) with each korona striker not fitted at rest
    before fitted once more, now that it rests, with its outline chosen as a whole
    (``fit_options``); ``settled`` (centres as bytes) holds the strikers so fitted, and is
    updated in place.

    A striker is fitted on every call while it slides, and once a call sees no changed pixel on
    its silhouette it is kept as last fitted (``reuse.untouched``): that last fit was made while
    it still crept, by the plain per-ray fit (``fit_options`` asks the consensus only at rest),
    and stood for as long as the striker rested. korona_2p_game: the strikers fed to the tracking
    at rest were 3.7/7.0 mm off (median/p95, fitted 24-26 mm), where the consensus fit of the
    same still frames put them 1.5 mm off (29 mm: the renderer draws them larger)."""
    if not isinstance(det.board, KoronaBoard) or not det.settings.settle_strikers or not len(kept):
        return kept
    xy, radius = kept.xy.copy(), kept.radius.copy()
    rs = det.board.striker_radius
    for i in np.nonzero(kept.kind == STRIKER)[0]:
        key = xy[i].tobytes()
        if key in settled:
            continue
        fit = det.refiner.refine(frame_bgr, xy[i], rs, with_colors=False, consensus=True)
        if det._accept(fit, rs) and float(np.hypot(*(fit.centre - xy[i]))) <= SETTLE_RADII * rs:
            xy[i], radius[i] = fit.centre, fit.radius
        settled.add(xy[i].tobytes())
    keep = {p.tobytes() for p in xy[kept.kind == STRIKER]}
    settled.intersection_update(keep)
    return replace(kept, xy=xy, radius=radius)


def drop_strikers_over_discs(det: DiscDetector, dets: Detections) -> Detections:
    """Nothing overlaps a striker. A disc and a striker found concentric (``fitpass.
    CONCENTRIC``) are one thing: a striker, its groove taken for a disc, when the striker's
    fit has a striker's size (``STRIKER_FIT``) and about the disc's confidence; a disc, its
    outline and shading taken for a striker, when the fit is smaller. Otherwise a striker-sized ring
    drawn through neighbouring discs is dropped when a disc at least as confident sits
    inside it; else the discs found inside a striker (its shading) are."""
    strikers = np.nonzero(dets.kind == STRIKER)[0]
    if len(strikers) == 0 or not np.any(dets.kind == DISC):
        return dets
    keep = np.ones(len(dets), bool)
    discs = np.nonzero(dets.kind == DISC)[0]
    rs = max(r for k, r in det.kinds if k == STRIKER)
    groove = CONCENTRIC * det.board.disc_radius
    for i in strikers:
        d = np.hypot(*(dets.xy[discs] - dets.xy[i]).T)
        centred = discs[(d < groove) & keep[discs]] if det.settings.groove_strikers else discs[:0]
        if len(centred):  # one thing, two fits: the striker's size decides which
            if dets.radius[i] < STRIKER_FIT * rs:
                keep[i] = False  # a disc's outline with its shading
                continue
            if dets.confidence[i] >= dets.confidence[centred].max() - 0.05:
                keep[centred] = False  # the striker's groove
        inside = discs[(d < 0.8 * rs) & keep[discs]]
        if len(inside) == 0:
            continue
        if dets.confidence[inside].max() >= dets.confidence[i] - 0.05:
            keep[i] = False
        else:
            keep[inside] = False
    return dets[keep]


def striker_grooves(det: DiscDetector, dets: Detections) -> Detections:
    """A disc-sized find centred (``fitpass.CONCENTRIC``) where the last call found a striker
    that this call did not find is that striker's groove, the striker's own outline hidden
    (a hand coming over it): reported as the striker, where it was (``groove_strikers``).
    k2e_9905 at 5.6 s: the resting striker, read as its groove once the hand reached it, was
    a new disc, carried off by the tracker towards a pocket: a false shot."""
    last = det._last
    if not det.settings.groove_strikers or last is None or not np.any(last.kind == STRIKER):
        return dets
    xy, kind, radius = dets.xy.copy(), dets.kind.copy(), dets.radius.copy()
    rs = max(r for k, r in det.kinds if k == STRIKER)
    now = dets.xy[dets.kind == STRIKER]
    for p, r in zip(last.xy[last.kind == STRIKER], last.radius[last.kind == STRIKER], strict=True):
        if len(now) and float(np.hypot(*(now - p).T).min()) < rs:
            continue  # found again
        d = np.where(kind == DISC, np.hypot(*(xy - p).T), np.inf)
        i = int(np.argmin(d)) if len(d) else -1
        if i >= 0 and d[i] < CONCENTRIC * det.board.disc_radius:
            xy[i], kind[i], radius[i] = p, STRIKER, r
    return replace(dets, xy=xy, kind=kind, radius=radius)
