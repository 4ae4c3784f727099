"""A sliding crokinole disc does not turn back unless it bounced (``backwards``): a far detection
behind it is not its own. A function of the :class:`tracker.track.Tracker` (``tk``), for its wide
second stage (kept apart from :mod:`tracker.track.blows`, whose blows it is not)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track.association import BIG
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker


def backwards(tk: Tracker, rows: Sequence[Track], cand: list[int], dets: Detections, dcols: list[int]) -> np.ndarray:
    """BIG for a moving disc and a far detection behind where it was last seen: a sliding
    disc does not turn back unless it bounced, and in the middle of a crokinole board only
    a peg can turn it back (a disc it hits takes its forward motion, equal masses). Without
    this, a disc lost in blur for a few frames took a stray detection far behind it (in the
    ditch by the shooter) and was declared off the board while it slid into the hole.

    Also BIG, while nothing moves, for a disc waiting on the shooting line (a flick unseen,
    ``prediction.flicked_unseen``) and a detection outward of its place or more than three
    radii from it: a shot goes in, and a short flick stops near (a hand's find by the line, or
    the disc's own flight further in, is not its stopping place; crokinole_2p_round at 55.9 s)."""
    out = np.zeros((len(cand), len(dcols)))
    if not isinstance(tk.board, CrokinoleBoard) or not len(dcols):
        return out
    board = tk.board
    still = not any(r.state == "moving" for r in rows)
    for a, i in enumerate(cand):
        tr = rows[i]
        if tr.state == "rest" and still:  # a short flick unseen (``prediction.flicked_unseen``)
            q = tr.settled_xy
            if board.waits_on_shooting_line(float(q[0]), float(q[1]), tr.radius):
                p = dets.xy[dcols]
                out_ = np.hypot(*p.T) > float(np.hypot(*q)) - tr.radius  # shots go in
                far = np.hypot(*(p - q).T) > 3 * tr.radius
                out[a, out_ | far] = BIG
            continue
        if tr.state != "moving" or tr.speed < 1e-6:
            continue
        last = tr.last_sighting()
        if last is None:
            continue
        p0 = np.array([last.x, last.y])
        u = tr.v / tr.speed
        along = (dets.xy[dcols] - p0) @ u
        if not np.any(along < -2 * tr.radius):
            continue
        gap = max(tk._t_now - last.t, 1e-3)
        reach = p0 + tr.v * gap if tk._t_now else tr.xy
        # a peg in its way may have sent it back: on its coast, or on the heading it was last seen
        # going (a forecast bounce off a peg turns ``tr.v``, but the disc may have passed the peg:
        # c2h_9802 at 15.0 s, s3 passed 0.6 mm clear of one its coast bounced off)
        ways = [reach, p0 + seen_velocity(tr) * gap]
        if len(tk._pegs) and min(segment_distance(q, p0, b) for q in tk._pegs for b in ways) < tr.radius + tk._peg_r + 5.0:
            continue
        out[a, along < -2 * tr.radius] = BIG
    return out


def seen_velocity(tr: Track) -> np.ndarray:
    """The velocity (mm/s) between ``tr``'s last two sightings, else its present one."""
    seen = tr.sightings(2)
    if len(seen) < 2 or seen[1].t - seen[0].t < 1e-6:
        return tr.v
    return np.array([seen[1].x - seen[0].x, seen[1].y - seen[0].y]) / (seen[1].t - seen[0].t)
