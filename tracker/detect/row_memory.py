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
  measure) and its picture (the grey view over its silhouette, ``MAX_CHANGED``) as when it was
  remembered: the disc is still there and is reported as it was; its colour but another picture:
  it was nudged along its row (or is half covered), and is not reported on that look;
* on a full pass (most come once the board has settled: no hand over it), anything but its
  colour: the disc has gone, the place is forgotten, and its own report, kept since by the reuse
  of unchanged discs, is dropped;
* on an incremental pass, the board (``EMPTY`` times nearer the board's colour than the
  disc's; or a hand as light as the board): not reported on that look, remembered;
* anything else on an incremental pass (a hand or an arm over it): covered, it is reported as it
  was, until a full look says otherwise -- but not for a light row against the far rim (its
  colour test is weak: the board in the rim's shadow falls between its colour and the board's).

A disc that moved, or a striker moving fast, in beside a remembered place (a detection within
``MOVED_REACH`` that no detection of the look before was near) is evidence that the row was
struck: the place is not reported again before it is seen at rest at its place again, and a
full pass not holding it forgets it. A full pass that finds a disc beside a place's own report
drops the report (the find stands for it).

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
from tracker.detect.reuse import silhouettes
from tracker.detect.rows import DISTINCT_ROW, ON_LINE, W, _lab_at
from tracker.detect.view_colours import lab_of

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

EMPTY = 1.5  # the place shows the board when this many times nearer the board's colour than its disc's
SAME_PLACE = 1.0  # mm: a disc found this near where it was on the look before is at rest
MOVED_REACH = 3.0  # of r: a newly seen disc this near a remembered place may have come from it
FOLLOW = 0.5  # of r: a disc at rest this near a remembered place is that place's disc, refitted
MAX_CHANGED = 0.3  # a place whose silhouette has more pixels than this changed no longer looks the same
NEW = 1.5  # of r: a striker farther than this from every detection of the look before moves fast
NEW_DISC = 0.5  # of r: a disc this far from every detection of the look before has moved


@dataclass
class _Place:
    row: Detections  # the disc, one row, as last reported
    colour: np.ndarray  # 8-bit Lab at the place when it was remembered
    nearer: float  # the row colour test's factor (``rows.py``: light rows must look twice as near)
    u0: int  # the coarse view's window over its silhouette (``reuse.silhouettes``) ...
    v0: int
    inside: np.ndarray  # ... the silhouette in it
    patch: np.ndarray  # ... and the grey view there when it was remembered
    struck: bool = False  # a disc was seen moving in beside it since it was last seen at rest

    def same(self, grey: np.ndarray, level: float) -> bool:
        """Whether its place looks in ``grey`` about as when it was remembered (a disc nudged a
        few millimetres along its row moves its outline and the gaps beside it)."""
        h, w = self.inside.shape
        now = grey[self.v0:self.v0 + h, self.u0:self.u0 + w].astype(np.float32)
        return float(np.mean((np.abs(now - self.patch) > level)[self.inside])) <= MAX_CHANGED


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
             full: bool, grey: np.ndarray) -> Detections:
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
            if full and len(own) and np.any((d >= 1e-6) & (d < 1.8 * r)):
                drop[own] = True  # a full pass found a disc beside it: that find stands for it
                continue
            if len(d) and float(d.min()) < 1.8 * r and not (full and len(own)):
                kept.append(p)  # held by this pass (the same disc or one beside it)
                continue
            if p.struck and not len(own):
                if not full:
                    kept.append(p)  # not reported again before the next full look
                continue
            if lab is None:
                lab = lab_of(view)
            col = _lab_at(det, lab, c)
            if col is None:
                continue
            to_board = float(np.linalg.norm((col - self.board_lab) * W))
            to_disc = float(np.linalg.norm((col - p.colour) * W))
            bare = to_board * EMPTY / p.nearer < to_disc
            shows = to_disc < p.nearer * to_board
            if full and not shows:
                drop[own] = True  # not its colour on a full look: the disc has gone
                continue
            kept.append(p)
            if len(own):
                continue
            if shows:
                if p.same(grey, det.settings.change_level):
                    back.append(p.row)  # its colour and its picture: still there
                # (its colour, not its picture: nudged along its row, or half covered)
            elif not bare and p.nearer == 1.0:
                back.append(p.row)  # covered (a hand, an arm): it stays until a full look
        if drop.any():
            dets = dets[~drop]
        out = Detections.merge([dets, *back]) if back else dets
        self.places = kept
        self._remember(det, view, lab, out, r, grey)
        self._previous = out.xy.copy()
        return out

    def still(self, det: DiscDetector, view: np.ndarray, dets: Detections, grey: np.ndarray) -> None:
        """A call that changed nothing (``dets`` stand as they were, at rest): their row discs
        are remembered."""
        if isinstance(det.board, KoronaBoard) and self.board_lab is not None:
            self._previous = dets.xy.copy()
            self._remember(det, view, None, dets, float(det.board.disc_radius), grey)

    def _remember(self, det: DiscDetector, view: np.ndarray, lab: np.ndarray | None, dets: Detections,
                  r: float, grey: np.ndarray) -> None:
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
                if d[j] < FOLLOW * r and d[j] == 0.0:  # its own report, or the fit it follows
                    self.places[j].struck = False
                    continue
                if d[j] < FOLLOW * r:  # refitted at rest beside its place: the latest fit stands,
                    self.places.pop(j)  # its picture taken again
                    held = np.delete(held, j, axis=0)
                elif d[j] < 1.8 * r:
                    continue  # a place remembered beside it: the first one stands
            if lab is None:
                lab = lab_of(view)
            col = _lab_at(det, lab, c)
            if col is None:
                continue
            nearer = 1.0 if float(np.linalg.norm((col - self.board_lab) * W)) >= DISTINCT_ROW else 0.5
            one = dets[np.array([i])]
            u0, v0, inside, _ = silhouettes(one, det.view, det.pose, det.thickness, grey.shape[:2])[0]
            if min(inside.shape) < 2:
                continue
            h, w = inside.shape
            patch = grey[v0:v0 + h, u0:u0 + w].astype(np.float32)
            self.places.append(_Place(one, col, nearer, u0, v0, inside, patch))
            held = np.vstack([held, c[None]])


def _new(dets: Detections, previous: np.ndarray, r: float) -> np.ndarray:
    """Centres of the discs and strikers of ``dets`` that no detection of the look before was
    near: a disc that moved, a striker moving fast (a hand sets a striker down far slower)."""
    xy = dets.xy
    if not len(xy) or not len(previous):
        return xy
    d = np.hypot(*(xy[:, None, :] - previous[None, :, :]).transpose(2, 0, 1)).min(axis=1)
    return xy[d > np.where(dets.kind == DISC, NEW_DISC, NEW) * r]
