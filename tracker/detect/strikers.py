"""Korona strikers against the discs found with them (``DiscDetector``'s last step).

A striker (50 mm) and a target disc (25 mm) found at one place are one thing: a striker whose
groove (a disc-sized ring on its top) was fitted as a disc, or a disc whose shading was fitted as
a striker-sized ring. These functions decide which, from the fits' sizes and confidences.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.detect.fitpass import CONCENTRIC

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

# A striker-sized ring fitted to under this share of a striker's radius round a disc-sized find at
# its centre is not a striker's outline (the find its groove) but the outline of a disc with its
# shading, shadow, blur or neighbours (a disc at 640x360 and below fits 19-20 mm, a disc 13-16 mm).
# On the korona fixtures a striker at rest fitted 23.9-27.3 mm there (25 mm strikers), a ring round
# a disc at rest 20.4-22.0 mm (at 0.85, korona_4p_part's e6 against the west rim at 23.3 s was
# taken for the striker: a false identity switch).
STRIKER_FIT = 0.92


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
