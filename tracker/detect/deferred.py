"""The chamfer refit of a disc, deferred until the disc holds still (``chamfer.py`` for the refit).

``ChamferCorrection.note`` fits every accepted disc a second time with its top edge's chamfer
modelled: a whole ``Refiner.refine``, 5 ms at 1280x720, a seventh of the detector's time, mostly
spent on discs that are sliding (refitted on every frame, each fit good for one frame only) or
under a hand. Where a disc lies is only read to the tenth of a millimetre once it rests, and a
resting disc is the one the detector keeps unchanged on the next call (``reuse.untouched``: no
changed pixel on its silhouette). So:

* a disc fitted on this call is reported at the chamfer's first-order shift of its centre
  (``ChamferCorrection.shifted``, microseconds; the same fallback ``note`` uses when its refit
  does not hold), and remembered as pending;
* on the next call that keeps it unchanged, it is refitted with the chamfer on that frame (its
  pixels are the same as when it was fitted, up to noise) and reported there from then on,
  exactly as ``note`` would have had it;
* but a disc fitted within ``SETTLED_MM`` of where the last call had one is settling, or at rest
  under a passing shadow: it is refitted at once. (Deferring those too put the end of a shot at
  the first-order centre when the shot ended on that very frame, and the first-order shift
  over-corrects at oblique views: the shot-end p95 of a hard 1280x720 match went 2.1 -> 2.9 mm.)

* and the first call (or the first after ``reset``) refits every disc at once: a single
  frame's detections are the corrected ones.
* A disc fitted in motion may still creep after its last fit: its last millimetre or two moves
  too few of the coarse view's pixels for the detector to see (``reuse.untouched``: a light disc
  on a light board), and the fit made as it crept was kept for good (c2e_9501 at 14.3 s: s3,
  fitted 1.9 mm short of where it stopped and reported there from then on; c4h_9403 at 14.9 s,
  s2 4.2 mm; such discs were most of the crokinole matches' error at rest). Given a ``square``
  refiner (the detector's own), every disc fitted on a call after the first is fitted again,
  square-edged, from its centre on each of the next ``CREEP_CALLS`` calls that keep it, and, where that fit holds (``_holds``), chamfer-refitted from there: only what is
  reported moves, as with the chamfer (the detector's own centre, its reuse and its decisions
  stay as they were).

A moving disc never pays for the refit. Korona (no chamfer) defers only the region model's fits
here, with no creep refits unless ``DetectorSettings.creep_refits`` asks for them; ``tracker
photo`` (the chamfer inside the one fit) does not use this.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker.detect.chamfer import ChamferCorrection
from tracker.detect.datatypes import Detections
from tracker.detect.refine import Fit, Refiner

# A disc fitted within this of a disc of the last call is settling (or at rest under a passing
# shadow), not sliding: its refit is made at once. At 30 fps a disc moving 90 mm/s or less. (1 mm
# left the shot-end p95 of seed 7401 (hard) at 2.90 mm, against 2.08 without deferring; 3 mm: 2.23.)
SETTLED_MM = 3.0
# Calls that keep a disc fitted in motion on which it is fitted again for its creep (``square``),
# and how far (in radii) from that fit the creep may have taken it. Every one of them is needed:
# on a noisy camera the creep refits (each a square fit, a chamfer fit and a region-model fit)
# are a fifth of the CPU time (c4h_9503: 371 of them, 3.6 s of 18), but refitting only on the
# first and the last of the calls (c4h_9503 24.9 -> 21.8 ms a frame), or stopping once a refit
# found the disc within 0.2 mm of the one before (25.6 -> 23.0) or of its fit (-> 22.4), lost
# crokinole_foul's round: s1, knocked 8 mm by n1 at 5.1 s, was seen to move only through the
# refits between, so n1's shot hit no opponent disc and was called a foul; and positions at
# rest moved (c4e_9504 median 0.21 -> 0.33 mm) (full reviews of 6 crokinole dev matches and the
# 6 crokinole fixtures).
CREEP_CALLS = 5
CREEP_RADII = 0.35


class DeferredChamfer:
    """``ChamferCorrection`` with the refit postponed to the first call that keeps the disc."""

    def __init__(self, chamfer: ChamferCorrection, square: Refiner | None = None) -> None:
        self.chamfer = chamfer
        self.square = square  # the detector's square-edged refiner: settling discs' creep refits
        # settling discs' square centre (bytes) -> their fit and the keeping calls left to refit on
        self._settling: dict[bytes, tuple[Fit, float, int]] = {}
        self._pending: dict[bytes, tuple[Fit, float]] = {}  # square-edged centre -> its fit
        self._new: dict[bytes, tuple[Fit, float]] = {}  # fitted on the current call
        self._new_settling: dict[bytes, tuple[Fit, float, int]] = {}  # settling, fitted on this call
        self.refits = 0  # chamfer refits made (diagnostics)
        self._frame: np.ndarray | None = None
        self._first = True  # the first call (or the first after a reset): every fit refitted at once
        self._previous = np.zeros((0, 2))

    def begin(self, frame: np.ndarray, kept: Detections, previous: Detections | None = None) -> None:
        """At the start of a call: refit the pending discs the call keeps unchanged, on ``frame``.
        ``previous``: the discs of the last call (a disc fitted now within ``SETTLED_MM`` of one
        of them is settling, and is refitted at once)."""
        self._frame = frame
        self._first = previous is None
        self._previous = np.zeros((0, 2)) if previous is None else previous.xy
        for xy in kept.xy:
            key = np.asarray(xy, float).tobytes()
            got = self._pending.pop(key, None)
            if got is not None:
                self.chamfer.note(frame, got[0], got[1])
                self.refits += 1
            creep = self._settling.pop(key, None)
            if creep is not None and self.square is not None:
                self._creep(frame, key, *creep)
        self._new = {}

    def _creep(self, frame: np.ndarray, key: bytes, fit: Fit, radius: float, left: int) -> None:
        """Fit a settling disc kept by this call again where it lies now (see the module doc)."""
        assert self.square is not None
        occ, bounds = fit.masks
        again = self.square.refine(frame, fit.centre, radius, with_colors=False, occluders=occ, bounds=bounds,
                                   start_at=fit.centre)
        if _holds(again, fit, radius):
            self.chamfer.note(frame, again, radius, key=key)
            self.refits += 1
        if left > 1:
            self._settling[key] = (fit, radius, left - 1)

    def accepted(self, fit: Fit, radius: float) -> None:
        """A disc fitted on this call: refitted now if it is settling (the last call had a disc
        within ``SETTLED_MM``) or if this is the first call (a single photo-like frame, or the
        first of a video: nothing says what moves), else when a call keeps it."""
        prev = self._previous
        settling = self._first or (len(prev) > 0 and float(np.hypot(*(prev - fit.centre).T).min()) <= SETTLED_MM)
        key = np.asarray(fit.centre, float).tobytes()
        if not self._first:  # (it may creep on after this fit: ``_creep``)
            self._new_settling[key] = (fit, radius, CREEP_CALLS)
        if settling and self._frame is not None:
            self.chamfer.note(self._frame, fit, radius)
            self.refits += 1
            return
        self._new[key] = (fit, radius)

    def apply(self, dets: Detections, n: int) -> Detections:
        """``dets`` with the first ``n`` (the discs) at their corrected centres: the refit where
        one was made, the first-order shift for discs still pending."""
        out = self.chamfer.apply(dets, n)
        if n == 0:
            self._pending, self._settling, self._new_settling = {}, {}, {}
            return out
        self._pending.update(self._new)
        self._settling.update(self._new_settling)
        self._new, self._new_settling = {}, {}
        keys = [np.asarray(xy, float).tobytes() for xy in dets.xy[:n]]
        self._pending = {k: self._pending[k] for k in keys if k in self._pending}
        self._settling = {k: self._settling[k] for k in keys if k in self._settling}
        if not self._pending:
            return out
        xy = out.xy.copy()
        for i, k in enumerate(keys):
            if k in self._pending:
                xy[i] = self.chamfer.shifted(dets.xy[i])
        return replace(out, xy=xy)


def _holds(again: Fit, fit: Fit, radius: float) -> bool:
    """Whether a creep refit found the same disc: as much outline as its first fit (80%), its
    size, within ``CREEP_RADII`` of it."""
    return bool(np.all(np.isfinite(again.centre))) and again.coverage >= 0.8 * fit.coverage \
        and again.quarter_coverage >= 0.8 * fit.quarter_coverage \
        and abs(again.radius - radius) <= 0.15 * radius \
        and float(np.hypot(*(again.centre - fit.centre))) <= CREEP_RADII * radius
