"""Candidates already turned down where the picture has not changed since: not refitted.

Most ring-filter candidates are no disc: pegs, line crossings, the empty 20-hole, the ditch's
corners, on every pass, at the same places. Each costs a full-resolution fit (3-4 ms at
1280x720), so a full pass over a board with a handful of discs spent most of its time refitting
the pegs; and the pipeline asks for a full pass each time the board settles.

A fit depends only on the image within its reach (its rays end at 1.55 disc radii, the surround
colour is sampled out to 1.7), so when no coarse-view pixel within that reach has changed since
a candidate was turned down, the same candidate would be turned down again for the same reason.
The memory keeps, per turned-down candidate, its place, its kind, the fit and why it failed, and
the call it was made on; each call's change (the detector's own change mask, the one its reuse
of discs at rest already trusts) drops the entries with a changed pixel within reach, so those
left saw no change since they were made. This is the same reasoning as the reuse of discs at rest
(``reuse.py``), for the candidates that were not discs. Entries also expire after ``max_age``
calls, so a slow drift below the change threshold is looked at again now and then.

The failure reason is kept so the detector can replay the outcome exactly: a fit that failed
the outline test goes back to the second pass's rejected list (``clusters.py`` retries the
nearly accepted ones), a fit that failed the colour or empty-hole test is simply dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tracker.detect.geometry import BoardView
from tracker.detect.refine import Fit

REACH = 1.8  # disc radii around a candidate that its fit reads
SAME_PLACE_PX = 0.75  # coarse-view pixels: a candidate at the same place


@dataclass
class Rejection:
    xy: np.ndarray  # (2,) mm, the candidate
    kind: int
    radius: float  # the kind's nominal radius, mm
    fit: Fit | None  # (None for a failed seed of the second pass)
    reason: str  # "outline" (failed ``_accept``), "colour", "hole", "mark" (``marks.py``); "seed", "grow" (``clusters.py``)
    call: int  # the call it was made on
    reach: float = REACH  # disc radii around ``xy`` that the outcome depends on


class RejectMemory:
    """Turned-down candidates of one detector that nothing within reach changed since."""

    def __init__(self, view: BoardView, max_age: int = 50) -> None:
        self.view = view
        self.max_age = max_age
        self.call = 0
        self.items: list[Rejection] = []
        self._arrays: tuple[np.ndarray, np.ndarray] | None = None  # items' places and kinds (``recall``)

    def clear(self) -> None:
        self.items = []
        self._arrays = None

    def advance(self, moved: np.ndarray | None) -> None:
        """Start a detector call; ``moved``: the coarse-view pixels changed since the previous
        call (None when unknown, e.g. the first call after a reset: everything is forgotten)."""
        self.call += 1
        if moved is None:
            self.items = []
            self._arrays = None
            return
        if not self.items:
            return
        # Every standing item saw no change within reach since its call up to the last one (or
        # it would have gone then), so it stands now unless a pixel within reach changed on this
        # very call: one look at this call's ``moved`` per item (a summed-area table), the same
        # outcome as keeping, per pixel, the last call that changed it and comparing its window's
        # latest with the item's call (the rule before: ``tests/detect/test_rejects.py``).
        young = np.array([self.call - it.call <= self.max_age for it in self.items]) & self._untouched(moved)
        if not young.all():
            self.items = [it for it, keep in zip(self.items, young, strict=True) if keep]
            self._arrays = None

    def _untouched(self, moved: np.ndarray) -> np.ndarray:
        """Per item: no pixel of ``moved`` within its reach (the window of ``reach`` and two
        pixels about its place; an empty window, off the view, counts as touched)."""
        v = self.view
        h, w = moved.shape
        xy = np.array([it.xy for it in self.items])
        reach = np.array([it.reach * it.radius for it in self.items])
        uv = v.to_px(xy)
        m = np.ceil(reach / v.mm_per_px).astype(int) + 2
        iu, iw = np.round(uv[:, 0]).astype(int), np.round(uv[:, 1]).astype(int)

        def bounds(i: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
            # Python's slice semantics for ``[max(i - m, 0) : i + m + 1]`` on an axis of n
            lo = np.maximum(i - m, 0)
            hi = i + m + 1
            hi = np.clip(np.where(hi < 0, hi + n, hi), 0, n)
            return np.minimum(lo, n), np.maximum(hi, np.minimum(lo, n))

        r0, r1 = bounds(iw, h)
        c0, c1 = bounds(iu, w)
        sat = cv2.integral(moved.view(np.uint8) if moved.dtype == bool else moved.astype(np.uint8))
        count = sat[r1, c1] - sat[r0, c1] - sat[r1, c0] + sat[r0, c0]
        return (count == 0) & (r1 > r0) & (c1 > c0)

    def recall(self, xy: np.ndarray, kind: int) -> Rejection | None:
        """The rejection standing at ``xy`` for ``kind`` (same place; ``advance`` dropped those
        with a change within reach since); None when the candidate must be fitted."""
        if not self.items:
            return None
        if self._arrays is None:
            self._arrays = (np.array([it.xy for it in self.items]), np.array([it.kind for it in self.items]))
        pts, kinds = self._arrays
        tol = SAME_PLACE_PX * self.view.mm_per_px
        hit = np.nonzero((kinds == kind) & (np.abs(pts[:, 0] - xy[0]) <= tol) & (np.abs(pts[:, 1] - xy[1]) <= tol))[0]
        return self.items[int(hit[0])] if len(hit) else None

    def note(self, xy: np.ndarray, kind: int, radius: float, fit: Fit | None, reason: str,
             reach: float = REACH) -> None:
        """A candidate of ``kind`` (nominal ``radius``) turned down on this call; its outcome
        depends on the picture within ``reach`` radii."""
        self.items.append(Rejection(np.asarray(xy, float).copy(), kind, radius, fit, reason, self.call, reach))
        self._arrays = None
