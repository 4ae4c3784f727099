"""Korona, stage 2: a resting disc does not jump to a detection beyond another disc resting across
its straight way there; the disc across the way, struck by it and unseen in its place this frame,
may take it instead (``TrackerConfig.korona_passed_on``, off: see its figures). A function of the
:class:`tracker.track.tracker.Tracker` (``tk``), called from its ``update``.

korona_2p_game at 14.2 s (10 fps): south's striker drove the row s6-s7 east along the north rim;
s7 (resting 47 mm short of s8) struck s8, neither seen in flight. No mover came near s8, so
stage 2 did not let it jump; s7, a row-mate of a struck disc, took s8's find 95 mm east, through
s8's place. s8's track, lost where it rested, was called off the board (with this on, no longer;
its pocket 21 s later is still missed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.detect.datatypes import Detections
from tracker.track.association import BIG
from tracker.track.blows import rest_of
from tracker.track.datatypes import Track
from tracker.track.ghost_course import GRAZE_MM

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker

# s: a disc across the way blocks it only when seen this recently (at rest: it was there as the blow
# came, three frames at 10 fps); one lost longer may have left unseen before
SEEN_S = 0.35


def across(rows: Sequence[Track], i: int, resting: list[int], q: np.ndarray) -> int | None:
    """The first of ``resting`` (row indices) whose disc lies across the straight run of
    ``rows[i]`` from where it rests to ``q``: its centre between the two along the run and
    within two radii less ``GRAZE_MM`` of the line (the run would have struck it), or None."""
    p = rest_of(rows[i])
    run = q - p
    n = float(np.hypot(*run))
    if n < 1e-6:
        return None
    u = run / n
    best: tuple[float, int] | None = None
    for m in resting:
        if m == i:
            continue
        w = rest_of(rows[m]) - p
        along = float(w @ u)
        if 0.0 < along < n and abs(float(w[0] * u[1] - w[1] * u[0])) < rows[i].radius + rows[m].radius - GRAZE_MM \
                and (best is None or along < best[0]):
            best = (along, m)
    return None if best is None else best[1]


def passed_on(tk: Tracker, rows: Sequence[Track], cand: list[int], wide: np.ndarray, dets: Detections,
              dcols: list[int], used_t: set[int]) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Stage 2's candidates, their gates and a (candidates x ``dcols``) penalty: BIG for a resting
    candidate and a detection beyond a disc resting across its way there (seen within
    ``SEEN_S``); that disc, unmatched this frame, joins the candidates with the striking one's
    gate."""
    resting = [i for i, tr in enumerate(rows) if tr.state == "rest" and tr not in tk._tentative]
    there = [m for m in resting if tk._t_now - rows[m].last_seen <= SEEN_S]
    cand, wide = list(cand), np.asarray(wide, float)
    blocked: list[tuple[int, int]] = []
    k = 0
    while k < len(cand):
        i = cand[k]
        if rows[i].state == "rest" and rows[i] not in tk._tentative:
            for b, j in enumerate(dcols):
                q = dets.xy[j].astype(float)
                if float(np.hypot(*(q - rest_of(rows[i])))) > wide[k]:
                    continue  # out of its reach anyway
                m = across(rows, i, there, q)
                if m is None:
                    continue
                blocked.append((k, b))
                if m not in cand and m not in used_t and rows[m].id not in tk._ghosts:
                    cand.append(m)
                    wide = np.append(wide, wide[k])
        k += 1
    out = np.zeros((len(cand), len(dcols)))
    for a, b in blocked:
        out[a, b] = BIG
    return cand, wide, out
