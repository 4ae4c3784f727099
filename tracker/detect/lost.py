"""Resting discs hidden for a while (a hand or an arm passing over them), restored when uncovered.

Incremental detection (``reuse.py``) keeps a disc only while no pixel of its silhouette changes;
the moment a hand passes over it, it must be found afresh by the candidate search. In a korona
setup the discs lie in rows against the rim: each shows no edge on the sides it shares with its
neighbours, and only the full pass's row completion (``rows.py``) finds them. So a hand sweeping
over a row lost the whole row until the next full pass, seconds later, and the shots in between
were judged against a board short of discs (issue #5).

Here each disc that was in the previous detection and is not in the current one is remembered
with the coarse grey view of its silhouette as it was last seen (the previous call's view, where
its fit stood). On later calls, when the picture at that place matches the remembered one again
-- almost no silhouette pixel differs by more than the change level -- nothing has moved there:
the disc is restored at its old centre, bit for bit, without a new search. A disc knocked away
leaves bare board (a different picture), a hand still over it differs too, so neither is
restored. A memory is forgotten when its disc is restored, after ``ttl`` calls (a disc gone for
good) and by the detector's ``reset()``; while a disc covers its place it is kept but not used.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker.detect.datatypes import DISC, Detections
from tracker.detect.geometry import BoardView, CameraPose
from tracker.detect.reuse import silhouettes


@dataclass
class _Memory:
    row: Detections  # the disc, one row, as last detected
    u0: int
    v0: int
    inside: np.ndarray  # (h, w) bool: the silhouette within the window
    patch: np.ndarray  # (h, w) float32: the grey view there when last seen
    age: int = 0


class LostDiscs:
    """Discs that vanished from the detections, with the picture of their place when last seen."""

    def __init__(self, view: BoardView, pose: CameraPose, thickness: float, change_level: float, *,
                 max_changed: float = 0.03, ttl: int = 600, capacity: int = 128) -> None:
        self.view, self.pose, self.thickness = view, pose, thickness
        self.change_level = change_level
        self.max_changed = max_changed  # fraction of silhouette pixels allowed to differ
        self.ttl, self.capacity = ttl, capacity
        self.memories: list[_Memory] = []
        self._older = np.zeros((0, 2))  # centres of the detection before ``previous`` (``note``)

    def __len__(self) -> int:
        return len(self.memories)

    def clear(self) -> None:
        self.memories = []
        self._older = np.zeros((0, 2))

    def still(self, dets: Detections) -> None:
        """A call that changed nothing: ``dets`` stand as they were (they are at rest)."""
        self._older = dets.xy.copy()

    def _windows(self, dets: Detections, shape: tuple[int, int]) -> list[tuple[int, int, np.ndarray] | None]:
        """Per disc: the window (u0, v0, silhouette mask) of its silhouette in the view, as
        ``reuse.untouched`` judges it, clipped to the view (None when under 2 px of it is inside)."""
        return [(u0, v0, mask) if min(mask.shape) >= 2 else None
                for u0, v0, mask, _ in silhouettes(dets, self.view, self.pose, self.thickness, shape)]

    def _same(self, mem: _Memory, grey: np.ndarray) -> bool:
        """Whether the place of ``mem`` looks in ``grey`` as it did when the disc was last seen."""
        h, w = mem.inside.shape
        now = grey[mem.v0 : mem.v0 + h, mem.u0 : mem.u0 + w].astype(np.float32)
        diff = np.abs(now - mem.patch)[mem.inside]
        return float(np.mean(diff > self.change_level)) <= self.max_changed

    def note(self, previous: Detections, current: Detections, previous_grey: np.ndarray) -> None:
        """Remember the resting discs of ``previous`` (the same fit as in the detection before it:
        a moving disc is never remembered) that ``current`` does not hold as they were (the
        same fit), with ``previous_grey`` (the view they were detected in); age the memories. A
        disc refitted a fraction of a millimetre away (beside a hand) is remembered too: its
        earlier fit is the one seen with nothing over it. A memory that a
        disc of ``current`` covers is kept all the same (``restore`` skips it while the place is
        taken): a disc fitted beside a hand that still hides part of it can be lost again when
        the hand goes, and the picture to come back to is the one from before the hand."""
        for mem in self.memories:
            mem.age += 1
        keep = [m for m in self.memories if m.age <= self.ttl]
        older = Detections(xy=self._older, radius=np.ones(len(self._older)))
        self._older = previous.xy.copy()
        gone = [i for i in range(len(previous)) if previous.kind[i] == DISC and _at(previous.xy[i], older) and not _at(previous.xy[i], current)
                and not any(_at(previous.xy[i], m.row) for m in keep)]
        if gone:
            rows = previous[np.array(gone)]
            for j, win in enumerate(self._windows(rows, previous_grey.shape[:2])):
                if win is None:
                    continue
                u0, v0, inside = win
                h, w = inside.shape
                patch = previous_grey[v0 : v0 + h, u0 : u0 + w].astype(np.float32)
                keep.append(_Memory(rows[np.array([j])], u0, v0, inside, patch))
        self.memories = keep[-self.capacity :]

    def restore(self, grey: np.ndarray, taken: list[tuple[np.ndarray, float]]) -> Detections:
        """The remembered discs whose place looks again as it did when they were last seen (and
        is not taken by a disc in ``taken``); they are forgotten here (they are detections again)."""
        back: list[Detections] = []
        keep: list[_Memory] = []
        for mem in self.memories:
            same = self._same(mem, grey)
            c, r = mem.row.xy[0], float(mem.row.radius[0])
            if same and not any(np.hypot(*(c - p)) < 1.6 * min(r, pr) for p, pr in taken):
                back.append(mem.row)
                taken.append((c, r))
            else:
                keep.append(mem)
        self.memories = keep
        return Detections.merge(back) if back else Detections.empty()


def _at(centre: np.ndarray, dets: Detections) -> bool:
    """Whether ``dets`` holds a disc at exactly ``centre`` (the same fit, reused)."""
    return len(dets) > 0 and bool(np.any(np.hypot(*(dets.xy - centre).T) < 1e-3))
