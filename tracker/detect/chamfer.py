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
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker.detect.datatypes import Detections
from tracker.detect.geometry import CameraPose
from tracker.detect.refine import Fit, Refiner

# Chamfer of the discs' top edge by game, mm (``DetectorSettings.bevel``). Crokinole: measured on
# the labelled real photos (``photo.PHOTO_BEVEL_MM``); in video, with true calibration, it took
# the rendered fixtures' median from 1.74 to 1.60 mm on the hard camera (crokinole_4p_part) and
# 0.99 to 0.94 on the easy one (crokinole_2p_round), and the 1280x720 renders' from 1.00 to 0.56
# (hard camera, ``bench_detect.py --quick``). Korona: 0, nothing measured on real discs, and on the rendered korona_4p_part
# the correction made the median worse (1.92 -> 2.18 mm).
GAME_BEVEL_MM = {"crokinole": 1.9, "korona": 0.0}


class ChamferCorrection:
    """Chamfer-corrected centres for the discs a ``DiscDetector`` accepts."""

    def __init__(self, refiner: Refiner, pose: CameraPose, bevel: float, min_coverage: float) -> None:
        self.refiner = refiner  # a ``Refiner`` with ``bevel`` set
        self.pose = pose
        self.bevel = bevel
        self.min_coverage = min_coverage
        # Square-edged centre (bytes) -> corrected centre, for the discs of the last call.
        self._of: dict[bytes, np.ndarray] = {}

    def note(self, frame: np.ndarray, fit: Fit, radius: float) -> None:
        """Fit an accepted disc again with the chamfer modelled (from its centre, the same
        neighbours masked) and remember where it put it. Kept only when that fit holds together
        (enough outline, not gone elsewhere)."""
        occ, bounds = fit.masks
        again = self.refiner.refine(frame, fit.centre, radius, with_colors=False, occluders=occ,
                                    bounds=bounds, start_at=fit.centre)
        moved = float(np.hypot(*(again.centre - fit.centre)))
        # The chamfer shifts the top circle toward the camera by ``bevel * |P - C| / C_z`` (to
        # first order: ``_bevel_drop`` is linear in the direction), and the contact point moves
        # back by about as much or less (near-side bottom edges do not move). A refit that moved
        # much farther found other edges (a blurred or a touching disc).
        C = self.pose.centre
        expected = self.bevel * float(np.hypot(*(fit.centre - C[:2]))) / max(float(C[2]), 1.0)
        ok = again.coverage >= max(self.min_coverage, 0.8 * fit.coverage) and \
            moved <= 1.5 * expected + 0.25 and bool(np.all(np.isfinite(again.centre)))
        # Otherwise the first-order shift (``shifted``): leaving the square-edged centre made a
        # disc's reported place alternate by half a millimetre between refits that held and
        # refits that did not (a third of crokinole_4p_part's detections fell back).
        got = again.centre if ok else self.shifted(fit.centre)
        self._of[np.asarray(fit.centre, float).tobytes()] = np.asarray(got, float)

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
