"""Korona: rim discs a shot may have knocked away unseen, and where they went.

Discs stand in rows against the rims. At 10 fps a struck rim disc leaves in one frame (over the
rim, down a pocket), and the rest of its row shuffles into its place; but the detector also loses
rim discs for long spells (rows are found on its full passes only, and dropped while the striker
or a hand is near). Both look alike while the disc is unseen: it is covered where it rested, or
the tracker has called it off from the course a forecast blow gave it (``fate.off_unseen``). What
tells them apart is what follows: a disc only lost is found where it lay by the detector's full
pass once the board settles; one knocked away never is. So the segmenter waits a moment for it
(:func:`rim_unseen`) and only then judges what is still unseen (:func:`knocked_out_unseen`).

Pure functions on tracks and the board model: they never look at pixels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.infer.datatypes import End
from tracker.infer.ends import reached
from tracker.track.datatypes import Track
from tracker.track.fate import off_unseen


def rim_gone(board: CrokinoleBoard | KoronaBoard, tr: Track, tracks: Sequence[Track],
             before: Mapping[int, tuple[float, float]], moved: set[int], t0: float) -> bool:
    """Whether ``tr``, a disc that rested against a rim before the shot (``before``, the shot
    started at ``t0``), is unseen since during it (covered where it rested, or called off from
    its unseen course alone) and a mover's path (one of ``moved``, seen or forecast) came near
    where it rested: knocked over the rim or into a pocket between frames, or only lost by the
    detector. A disc nothing reached was knocked nowhere (korona_4p_part at 27 s: two east rim
    discs 100 mm from any mover)."""
    if not isinstance(board, KoronaBoard) or tr.kind == STRIKER or tr.id not in before:
        return False
    covered = tr.state == "rest" and tr.occluded
    if not (covered or off_unseen(tr)) or tr.last_seen < t0:
        return False
    x, y = before[tr.id]
    if max(abs(x), abs(y)) < board.half - 3 * tr.radius:
        return False
    movers = [o for o in tracks if o.id in moved and o.id != tr.id]
    return reached(movers, (x, y), tr.radius, t0, tr.radius)


def rim_unseen(board: CrokinoleBoard | KoronaBoard, tracks: Sequence[Track],
               before: Mapping[int, tuple[float, float]], moved: set[int], t0: float) -> bool:
    """Whether a rim disc the shot may have knocked away is unseen (:func:`rim_gone`): the shot
    waits (``ShotSegmenter.rim_wait``) for the detector's full pass to find it in place, which the
    tracker then takes for it (covered: its own rest gate; called off: ``lifecycle.revive``). A
    disc that went over the rim or down a pocket is not seen again, and is judged so. Judged at
    once, a row the detector lost was called off (k2e_9905 at 4.5 s, two south row discs found
    in place 0.3 s later)."""
    return any(rim_gone(board, tr, tracks, before, moved, t0) for tr in tracks)


def knocked_out_unseen(board: CrokinoleBoard | KoronaBoard, tracks: Sequence[Track], ends: Mapping[int, End],
                       shooter: int, before: Mapping[int, tuple[float, float]], moved: set[int], t0: float,
                       now: float) -> dict[int, End]:
    """The ends of the rim discs still unseen when the shot is judged at ``now``, covered where
    they rested since it struck them (:func:`rim_gone`), for long enough that it is no missed
    detection: knocked over the rim or into a pocket between frames. The nearest pocket when
    the disc lay by one, else off the board."""
    if not isinstance(board, KoronaBoard):
        return {}
    out: dict[int, End] = {}
    for tr in tracks:
        if tr.id in ends or tr.id == shooter:
            continue
        if not (tr.state == "rest" and tr.occluded and now - tr.last_seen >= 0.25):
            continue
        if not rim_gone(board, tr, tracks, before, moved, t0):
            continue
        x, y = before[tr.id]
        c = board.pocket_centres()
        near = min(c, key=lambda k: np.hypot(x - c[k][0], y - c[k][1]))
        by_pocket = np.hypot(x - c[near][0], y - c[near][1]) < board.pocket_radius + 3 * tr.radius
        out[tr.id] = f"pocket:{near}" if by_pocket else "off"
    return out
