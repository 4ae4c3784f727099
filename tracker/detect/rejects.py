"""Candidates already turned down where the picture has not changed since: not refitted.

Most ring-filter candidates are no disc: pegs, line crossings, the empty 20-hole, the ditch's
corners, on every pass, at the same places. Each costs a full-resolution fit (3-4 ms at
1280x720), so a full pass over a board with a handful of discs spent most of its time refitting
the pegs; and the pipeline asks for a full pass each time the board settles.

A fit depends only on the image within its reach (its rays end at 1.55 disc radii, the surround
colour is sampled out to 1.7), so when no coarse-view pixel within that reach has changed since
a candidate was turned down, the same candidate would be turned down again for the same reason.
The memory keeps, per turned-down candidate, its place, its kind, the fit and why it failed, and
the call it was made on; a per-pixel stamp of the last call that changed each coarse-view pixel
(the detector's own change mask, the one its reuse of discs at rest already trusts) says whether
anything changed within reach since. This is the same reasoning as the reuse of discs at rest
(``reuse.py``), for the candidates that were not discs. Entries also expire after ``max_age``
calls, so a slow drift below the change threshold is looked at again now and then.

The failure reason is kept so the detector can replay the outcome exactly: a fit that failed
the outline test goes back to the second pass's rejected list (``clusters.py`` retries the
nearly accepted ones), a fit that failed the colour or empty-hole test is simply dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    reason: str  # "outline" (failed ``_accept``), "colour", "hole"; "seed", "grow" (``clusters.py``)
    call: int  # the call it was made on
    reach: float = REACH  # disc radii around ``xy`` that the outcome depends on


class RejectMemory:
    """Turned-down candidates of one detector, and the stamp of the last change per pixel."""

    def __init__(self, view: BoardView, max_age: int = 50) -> None:
        self.view = view
        self.max_age = max_age
        self.call = 0
        self.stamp = np.zeros((view.height, view.width), np.int32)
        self.items: list[Rejection] = []

    def clear(self) -> None:
        self.items = []

    def advance(self, moved: np.ndarray | None) -> None:
        """Start a detector call; ``moved``: the coarse-view pixels changed since the previous
        call (None when unknown, e.g. the first call after a reset: everything is forgotten)."""
        self.call += 1
        if moved is None:
            self.items = []
            return
        self.stamp[moved] = self.call
        self.items = [it for it in self.items if self.call - it.call <= self.max_age
                      and self._unchanged(it.xy, it.reach * it.radius, it.call)]

    def _unchanged(self, xy: np.ndarray, reach_mm: float, since: int) -> bool:
        v = self.view
        u, w = v.to_px(xy[None])[0]
        m = int(np.ceil(reach_mm / v.mm_per_px)) + 2
        iu, iw = int(round(u)), int(round(w))
        win = self.stamp[max(iw - m, 0): iw + m + 1, max(iu - m, 0): iu + m + 1]
        return win.size > 0 and int(win.max()) <= since

    def recall(self, xy: np.ndarray, kind: int) -> Rejection | None:
        """The rejection standing at ``xy`` for ``kind`` (same place; ``advance`` dropped those
        with a change within reach since); None when the candidate must be fitted."""
        tol = SAME_PLACE_PX * self.view.mm_per_px
        for it in self.items:
            if it.kind == kind and abs(it.xy[0] - xy[0]) <= tol and abs(it.xy[1] - xy[1]) <= tol:
                return it
        return None

    def note(self, xy: np.ndarray, kind: int, radius: float, fit: Fit | None, reason: str,
             reach: float = REACH) -> None:
        """A candidate of ``kind`` (nominal ``radius``) turned down on this call; its outcome
        depends on the picture within ``reach`` radii."""
        self.items.append(Rejection(np.asarray(xy, float).copy(), kind, radius, fit, reason, self.call, reach))
