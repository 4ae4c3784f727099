"""Korona rows against the rim kept between full passes: a resting row disc stays until it moves.

The rows of discs laid against a korona rim show almost no outline of their own (``rows.py``):
the candidate search of an incremental pass does not find them again, and only a full pass puts
them back (``rows.row_fill``). An incremental pass drops every disc with a changed pixel on its
silhouette (``reuse.untouched``), so a hand reaching over a row to set the striker down, or its
shadow, lost the whole row until the next full pass, seconds later -- often after the shot that
moved them (korona_4p_part: the shooter's row missing from 1.7 s to 4.8 s, the shot at 3.1 s).
The shots were judged on a board short of discs, the struck row discs were new tracks, and the
row's names were shuffled or called off.

Here every resting disc seen in a row place (on a rim line, found by the fits or put by the row
pass, at the same place on two looks in a row, or on a still call) is remembered with its colour
in the coarse view at that look. A remembered place that the current pass does not hold is
looked at again (the view's colour there, as ``rows.py`` reads it):

* it shows the disc's own colour (nearer it than the board's, by ``rows._row_colour``'s
  measure): the disc is still there and is reported as it was;
* on a full pass (the board has settled: no hand over it), it shows the board (``EMPTY`` times
  nearer the board's colour than the disc's): the disc has gone, the place is forgotten, and its
  own report, kept since by the reuse of unchanged discs, is dropped;
* anything else (a hand, an arm, the blur of a disc passing over it, or bare board while
  something moves: a hand as light as the board looks like it): the place stays remembered,
  unreported, until a later look settles it.

A disc or striker moving fast in beside a remembered place (a detection within ``MOVED_REACH``
that no detection of the look before was near) is evidence that the row was struck: the place is
not reported again before it is seen at rest at its place again, and a full pass not holding it
forgets it.

Opt-in (``DetectorSettings.row_memory``): the figures are in its comment there. What it still
lacks: the row pass's own wrong places (a phantom row under a light gradient, places stepped
``2 r`` past a loosely laid row's end, ``rim.py``/``rows.py``) are kept as long as the true ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, Detections
from tracker.detect.rows import DISTINCT_ROW, ON_LINE, W, _lab_at

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

EMPTY = 1.5  # the place shows the board when this many times nearer the board's colour than its disc's
SAME_PLACE = 1.0  # mm: a disc found this near where it was on the look before is at rest
MOVED_REACH = 3.0  # of r: a newly seen disc this near a remembered place may have come from it
FOLLOW = 0.5  # of r: a disc at rest this near a remembered place is that place's disc, refitted
NEW = 1.5  # of r: a disc or striker farther than this from every detection of the look before moves fast


@dataclass
class _Place:
    row: Detections  # the disc, one row, as last reported
    colour: np.ndarray  # 8-bit Lab at the place when it was remembered
    nearer: float  # the row colour test's factor (``rows.py``: light rows must look twice as near)
    struck: bool = False  # a disc was seen moving in beside it since it was last seen at rest


@dataclass
class RowMemory:
    """The resting row discs of a korona board, remembered between the detector's passes."""

    places: list[_Place] = field(default_factory=list)
    board_lab: np.ndarray | None = None  # the board's colour (8-bit Lab), from the last full pass
    _previous: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))  # the last look's centres

    def clear(self) -> None:
        self.places, self._previous = [], np.zeros((0, 2))

    def __len__(self) -> int:
        return len(self.places)

    def keep(self, det: DiscDetector, view: np.ndarray, lab: np.ndarray | None, dets: Detections,
             full: bool) -> Detections:
        """``dets`` (this pass's detections) with the remembered row discs that are still there
        (see the module docstring); the memory updated from the result. ``lab``: the coarse
        view's Lab (computed from ``view``, the coarse view, when None and a place needs a look)."""
        b = det.board
        if not isinstance(b, KoronaBoard) or self.board_lab is None:
            self._previous = dets.xy.copy()
            return dets
        r = float(b.disc_radius)
        new = _new(dets, self._previous, r)
        back: list[Detections] = []
        kept: list[_Place] = []
        drop = np.zeros(len(dets), bool)
        for p in self.places:
            c = p.row.xy[0]
            if len(new) and float(np.hypot(*(new - c).T).min()) < MOVED_REACH * r:
                p.struck = True  # a disc moving fast beside it: the row may have been struck
            d = np.hypot(*(dets.xy - c).T) if len(dets) else np.zeros(0)
            own = np.nonzero(d < 1e-6)[0]  # its own report (or the fit it follows), kept since unchanged
            if len(d) and float(d.min()) < 1.8 * r and not (full and len(own)):
                kept.append(p)  # held by this pass (the same disc or one beside it)
                continue
            if p.struck and not len(own):
                if not full:
                    kept.append(p)  # not reported again before the next full look
                continue
            if lab is None:
                lab = det._lab(view)
            col = _lab_at(det, lab, c)
            if col is None:
                continue
            to_board = float(np.linalg.norm((col - self.board_lab) * W))
            to_disc = float(np.linalg.norm((col - p.colour) * W))
            if full and to_board * EMPTY / p.nearer < to_disc:
                drop[own] = True  # bare board on a look with the board settled: the disc has gone
                continue
            kept.append(p)
            if len(own):
                continue
            if to_disc < p.nearer * to_board:
                back.append(p.row)
        if drop.any():
            dets = dets[~drop]
        out = Detections.merge([dets, *back]) if back else dets
        self.places = kept
        self._remember(det, view, lab, out, r)
        self._previous = out.xy.copy()
        return out

    def still(self, det: DiscDetector, view: np.ndarray, dets: Detections) -> None:
        """A call that changed nothing (``dets`` stand as they were, at rest): their row discs
        are remembered."""
        if isinstance(det.board, KoronaBoard) and self.board_lab is not None:
            self._previous = dets.xy.copy()
            self._remember(det, view, None, dets, float(det.board.disc_radius))

    def _remember(self, det: DiscDetector, view: np.ndarray, lab: np.ndarray | None, dets: Detections,
                  r: float) -> None:
        """Add the resting discs of ``dets`` in row places (on a rim line, where the look before
        had them too) that no place remembers; refresh the detections of those it does."""
        b = det.board
        assert isinstance(b, KoronaBoard) and self.board_lab is not None
        line = float(b.half - r)
        held = np.array([p.row.xy[0] for p in self.places]) if self.places else np.zeros((0, 2))
        for i in np.nonzero(dets.kind == DISC)[0]:
            c = dets.xy[i]
            if abs(float(np.abs(c).max()) - line) >= ON_LINE * r:
                continue
            if not len(self._previous) or float(np.hypot(*(self._previous - c).T).min()) > SAME_PLACE:
                continue  # not at rest (or first seen now)
            if len(held):
                d = np.hypot(*(held - c).T)
                j = int(np.argmin(d))
                if d[j] < FOLLOW * r:  # seen at rest at (or refitted beside) its place again: the latest fit stands
                    self.places[j].row, self.places[j].struck = dets[np.array([i])], False
                    continue
                if d[j] < 1.8 * r:
                    continue  # a place remembered beside it (a refit): the first one stands
            if lab is None:
                lab = det._lab(view)
            col = _lab_at(det, lab, c)
            if col is None:
                continue
            nearer = 1.0 if float(np.linalg.norm((col - self.board_lab) * W)) >= DISTINCT_ROW else 0.5
            self.places.append(_Place(dets[np.array([i])], col, nearer))
            held = np.vstack([held, c[None]])


def _new(dets: Detections, previous: np.ndarray, r: float) -> np.ndarray:
    """Centres of the discs and strikers of ``dets`` that no detection of the look before was
    near (moving fast: a hand sets a striker down far slower)."""
    xy = dets.xy
    if not len(xy) or not len(previous):
        return xy
    d = np.hypot(*(xy[:, None, :] - previous[None, :, :]).transpose(2, 0, 1)).min(axis=1)
    return xy[d > NEW * r]
