"""A crokinole shot disc first seen only as it struck a disc at rest (``judge``'s fallback).

A dark disc on a dark board may be missed waiting on the shooting line and in flight, and first
found at the very moment it strikes a disc at rest, already stopping against it (a frame may hold
most of its run). ``flicked_unseen`` needs three sightings in flight to run its line back to the
shooting line; here there are one or two, the last as it strikes. The struck disc, never flicked from where shots start, was then
taken for the shot disc: its owner's shot, a foul ("no opponent disc hit"), itself and the real
shot disc to the ditch, and the removals the true shot made (a disc knocked past the shooting
line) never judged (c4h_9951 at 17.3 s: west's w2, black on a dark board, first seen touching
north's n1 as n1 set off; n1 stopped outside the shooting line).

The shot disc then is a disc first seen during the episode, touching the place where the
struck disc rested in the frames it set off in, having run at it (never outside the shooting
line); the struck disc sets off away from it. It came along its own run when it was seen before
the blow, else along the line the struck disc took (a hit pushes along the line of centres, and a
flick aims the disc at its target): back along that line, it left the shooting line there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.infer.ends import peak_speed
from tracker.track.association import leaves_circle
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.infer.segmenter import ShotSegmenter

# Seconds between the shot disc's first sighting and the struck disc's setting off (two frames at
# 30 fps, one at 15: both are seen in the same frame or the next)
STRUCK_WITHIN_S = 0.07
# mm beyond touching (twice the radius) that the two may be apart when first seen: the shot disc
# checked but not quite stopped, or its centre found a little off in the blur
TOUCH_SLACK_MM = 4.0


def struck_by_unseen(seg: ShotSegmenter, movers: list[Track], candidates: list[Track],
                     paths: dict[int, np.ndarray], starts: dict[int, float]) -> tuple[Track, tuple[float, float], float] | None:
    """(the shot disc, where it left the shooting line, when) for a shot whose disc was first
    seen as it struck a disc at rest (see the module doc), or None. ``candidates``: the discs
    that rested before the episode (none of them seen flicked from where shots start);
    ``starts``: when each mover set off."""
    board = seg.board
    if not isinstance(board, CrokinoleBoard):
        return None
    found: list[tuple[float, Track, tuple[float, float], float]] = []
    for tr in movers:
        p = paths.get(tr.id)
        # (a track born during the episode: one there before is among the candidates)
        if p is None or tr.born < seg._t0 - 1e-6 or tr in candidates or seg.unlike_a_disc(tr) or tr.leaving:
            continue
        for c in candidates:
            hit = _strike(board, seg, tr, p, c, paths.get(c.id), starts.get(c.id, float("inf")))
            if hit is not None:
                found.append((hit[0], tr, hit[1], hit[2]))
    if not found:
        return None
    _, tr, at, t = min(found, key=lambda f: f[0])
    return tr, at, t


def _strike(board: CrokinoleBoard, seg: ShotSegmenter, tr: Track, p: np.ndarray, c: Track, pc: np.ndarray | None,
            t1: float) -> tuple[float, tuple[float, float], float] | None:
    """(gap, where it left the shooting line, when) if ``tr`` (sightings ``p``, rows t, x, y),
    first seen in flight, struck ``c`` (path ``pc``, set off at ``t1``) at rest; else None."""
    if pc is None or peak_speed(pc) < seg.shot_speed:
        return None
    rest = np.asarray(seg._before[c.id], float)
    # its sighting as ``c`` set off, and its sightings before (in flight, inside the line)
    k = int(np.searchsorted(p[:, 0], t1 + STRUCK_WITHIN_S, side="right")) - 1
    if k < 0 or p[k, 0] < t1 - STRUCK_WITHIN_S:
        return None
    q = p[k, 1:].astype(float)
    gap = float(np.hypot(*(rest - q)))
    if gap > tr.radius + c.radius + TOUCH_SLACK_MM or \
            any(float(np.hypot(*p[j, 1:])) >= board.shooting_line_radius for j in range(k + 1)):
        return None
    moved = pc[pc[:, 0] >= t1 - 1e-6]
    if len(moved) < 2:
        return None
    u = moved[1, 1:] - rest  # the struck disc's way (its first stretch)
    n = float(np.hypot(*u))
    if n < 1.0 or float((rest - q) @ u) <= 0.0:  # it set off away from the shot disc
        return None
    way = q - p[0, 1:] if k > 0 else u / n  # its own run when seen before, else the struck disc's way
    m = float(np.hypot(*way))
    if m < 1.0 or float((rest - q) @ way) <= 0.0:  # it ran at the struck disc
        return None
    way = way / m
    q0 = p[0, 1:].astype(float)
    s = leaves_circle(q0, -way, board.shooting_line_radius)
    if s is None:
        return None
    at = q0 - way * s
    speed = max(peak_speed(p[: k + 1]), peak_speed(pc), seg.shot_speed)
    return gap, (float(at[0]), float(at[1])), float(p[0, 0]) - s / speed
