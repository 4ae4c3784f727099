"""Two discs cannot overlap: a mover is never seen on a resting disc's place unless it hit
that disc. Korona (``TrackerConfig.no_overlap``) and crokinole (``crokinole_no_overlap``).

A detection a radius or less from where a disc rests, seen there a frame ago, is that disc
(nudged, or a little blurred) unless a mover's run this frame reaches it (a head-on hit: the
mover stops about where the struck disc lay, and the struck disc's detection lies further on).
A mover heading elsewhere, whose own detection is missing this frame, took such a find and the
resting disc, unmatched, lost its name to it.

k2e_9971 at 37.50 s: s8 glanced off s7 (resting against the north rim) and ran on east-south-
east unseen; s7, nudged 6.6 mm south, was refused its own detection by the tight gate of a
disc beside a mover (``blows.tighten_near_movers``), and s8's track took it 28 mm behind its
forecast, back into s7's place; the two discs' names swapped.

Replays (--dets), off -> on (``TrackerConfig.no_overlap``): k2e_9971 switches 50 -> 25 per 100
shots; the other 13 korona dev matches and the 5 korona fixtures the same. Without the mover's
two conditions (seen the frame before, not a ghost; the find behind it) korona_4p_part lost a
shot and a pocket (its 10 fps blows into rows).

Crokinole: the mover may also have been unseen the frame before (``MOVER_FRAMES``): the detector
does not part a disc from the one it is touching, so a mover is often lost just as it strikes.
c2h_10208 at 19.40 s: south's s4 (seen last at 19.33 s, its blurred find 10 mm off, so its
forecast missed n3) struck n3 beside the peg at 19.34 s, was unseen for three frames, and glanced
off north; n3, knocked 11 mm south-east, was refused its find by the tight gate beside a mover
and s4's track took it, 37 mm behind its forecast; the two names swapped (at the round's end
s4's 15 counted for north and n3's 5 for south: 40-30 read 30-40). Replays (--dets), off -> on: c2h_10208 rounds 0/1 -> 1/1, switches
12.5 -> 0 per 100 shots; with the mover seen the frame before (korona's) it stays 0/1. The next
frame's find, 19 mm from n3's place, is n3's by ``prediction.leaving`` (in the match by a margin
of 2 mm without it; the scene rebuilt in tests/track/test_crokinole_overlap.py needs both).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, Detections
from tracker.track.association import BIG, first_contact
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker

ON_PLACE = 1.0  # radii from a resting disc's place within which a find is that disc's
SEEN_FRAMES = 1.5  # frames since the resting disc was last seen there (and korona's mover)
MOVER_FRAMES = 2.5  # crokinole: frames since the mover was last seen (lost for one as it strikes)
OVERLAP_MM = 5.0  # overlap of two discs' places at rest beyond detector error


def mover_on_rest_place(tk: Tracker, rows: Sequence[Track], dets: Detections, dt: float) -> np.ndarray:
    """(T, D): BIG for a moving disc seen the frame before (crokinole: within ``MOVER_FRAMES``;
    not a ghost knocked away unseen, whose course is a guess) and a disc detection behind it
    (against its run) within ``ON_PLACE`` radii of the place of another disc resting there (seen
    within ``SEEN_FRAMES`` frames) that the mover's run this frame does not reach
    (``association.first_contact``)."""
    out = np.zeros((len(rows), len(dets)))
    korona = isinstance(tk.board, KoronaBoard)
    if not len(dets) or not (tk.cfg.no_overlap if korona else tk.cfg.crokinole_no_overlap):
        return out
    mover_frames = SEEN_FRAMES if korona else MOVER_FRAMES
    t = tk._t_now
    rest = [tr for tr in rows if tr.state == "rest" and tr.kind == DISC and tr not in tk._tentative
            and t - tr.last_seen <= SEEN_FRAMES * dt]
    if not rest:
        return out
    discs = dets.kind == DISC
    for i, m in enumerate(rows):
        if (m.state != "moving" or m.kind != DISC or m in tk._tentative or m.id in tk._ghosts
                or t - m.last_seen > mover_frames * dt or m.speed < 1e-6):
            continue
        back = (dets.xy - m.xy) @ m.v < 0.0  # behind where it was seen: against its run
        for b in rest:
            q = b.settled_xy
            on = discs & back & (np.hypot(dets.xy[:, 0] - q[0], dets.xy[:, 1] - q[1]) <= ON_PLACE * b.radius)
            if not on.any() or first_contact(m.xy, m.v, q, m.radius + b.radius, dt) is not None:
                continue
            out[i, on] = BIG
    return out



def pushed_aside(tk: Tracker, t: float) -> None:
    """Korona (``TrackerConfig.push_aside``): a resting disc unseen now whose place another
    disc, seen at rest now, overlaps by more than ``OVERLAP_MM`` was pushed aside unseen: it
    lies at least in contact, along the line of their centres.

    k2e_9941 after 21.8 s: n1, knocked 30 mm east along the north rim unseen (never found
    again), stayed a resting track 10 mm from n2 seen at rest, and took n2's detection when n2
    was next struck (31.97 s). Off by default. Replays (--dets), with ``rebound_blocked``, off ->
    on: k2e_9941 switches 12.5 -> 0 with pockets P 100% (rest 0.37/2.43 -> 0.35/2.41 mm),
    k4h_9966 switches 12.5 -> 0 (p95 5.35 -> 3.35 mm), k4h_9972 p95 6.81 -> 4.83 mm, k4h_9924
    7.37 -> 7.06 mm; but k4h_9912 switches 0 -> 12.5, k2e_9911 median 0.54 -> 0.61 mm,
    korona_4p_part switches 10 -> 30, shots R 100 -> 90%, pockets R 50 -> 33% (its 10 fps blows
    into rows: the pushed place is only the least move, and a row of such guesses misleads the next blow)."""
    seen = [o for o in tk.tracks if o.state == "rest" and o.kind == DISC and o.last_seen >= t - 1e-9
            and not o.occluded]
    if not seen or not isinstance(tk.board, KoronaBoard):
        return
    for tr in tk.tracks:
        if tr.state != "rest" or tr.kind != DISC or tr.last_seen >= t - 1e-9:
            continue
        q = tr.settled_xy
        for o in seen:
            w = q - o.settled_xy
            d = float(np.hypot(*w))
            touch = tr.radius + o.radius
            if 1e-6 < d < touch - OVERLAP_MM:
                z = _beside(tk.board, o.settled_xy, w / d, touch, tr.radius)
                tr.xy, tr.anchor, tr.anchor_n = z.copy(), z.copy(), 1
                q = z


def _beside(board: KoronaBoard, c: np.ndarray, u: np.ndarray, touch: float, radius: float) -> np.ndarray:
    """The place in contact with a disc at ``c`` along ``u`` from it, within the rims: pushed
    into a rim, along it instead (the side ``u`` leans to)."""
    lim = board.half - radius
    z = c + u * touch
    for k in (0, 1):
        if abs(float(z[k])) > lim:
            z[k] = np.sign(z[k]) * lim
            j = 1 - k
            along = float(np.sqrt(max(touch * touch - (z[k] - c[k]) ** 2, 0.0)))
            z[j] = c[j] + (np.sign(u[j]) if abs(float(u[j])) > 1e-9 else 1.0) * along
    return z
