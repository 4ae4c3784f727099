"""Korona: the board fitted again after the camera moved (``Tracker.rebase``).

Since the bump the discs were measured through the old fit: the resting ones a few mm off, and
those the bump shifted by more than ``move_mm`` read as moving, a frame or two along the bump's
way. The nearest-first pairing of resting tracks alone gave a row's detections to stale tracks
beside it: k4h_9912 at 20.73 s, the bump set south's row along the north rim "moving" 10-15 mm
east; left out, their detections went to stale tracks (false finds' tracks 22-28 mm away) and the
named discs lay unseen on their old places, each beside a nameless double.

So every track in play takes part, a mover of the bump (all its sightings since it left its
rest place within ``reach`` radii of it, ``Tracker._bumped_only``) at that rest place, and the
pairs are the least total distance (Hungarian, within ``reach`` radii): a row shifted as a whole
keeps its order. A paired resting disc, or bump mover, rests at its detection from now on.

Off by default (``TrackerConfig.rebase_movers``). Replays (--dets), off -> on: right on
k4h_9912's refit, but the named discs it keeps are then shuffled by the next shot's blow into
their row (23.2 s: pushes both ways, finds missing, a false find's stale track), where before
the nameless doubles took the shuffle: switches 0 -> 25 per 100 shots (12.5 with
``row_order.WITH_PUSH``); the other 13 korona dev matches and 5 fixtures the same.
Session 24, with ``hidden_blows.SELDOM_FOUND`` and the rim's bare-level fix (``rim.NEAR_BARE``):
k4h_10206's bump (20.73 s) no longer gives s3's detection to a false find's stale track, and its
nw pocket is found (pockets 0/0 -> 100/50, the round still lost to a contact never seen), but
k4h_9912 switches 0 -> 37.5; the other 5 korona dev matches the same. Still off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.detect.datatypes import Detections
from tracker.track.association import assign
from tracker.track.datatypes import Sample, Track

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker


def rebase_korona(tk: Tracker, dets: Detections, t: float, reach: float) -> list[int]:
    """Pair the tracks in play with ``dets`` jointly and rest the paired ones (a resting disc,
    or a mover of the bump) at their detections. Returns the ids moved."""
    live = [tr for tr in tk.tracks if tr.state in ("rest", "moving")]
    if not any(tr.state == "rest" for tr in live) or not len(dets):
        return []
    bumped = [tr.state == "moving" and tr.rest_xy is not None and tk._bumped_only(tr, reach) for tr in live]
    ref = np.array([tr.rest_xy if b else tr.position() for tr, b in zip(live, bumped, strict=True)], float)
    d = np.hypot(ref[:, None, 0] - dets.xy[None, :, 0], ref[:, None, 1] - dets.xy[None, :, 1])
    kinds = np.array([tr.kind for tr in live])
    d = np.where(kinds[:, None] == dets.kind[None, :], d, 1e9)
    limit = np.array([reach * tr.radius for tr in live])
    moved: list[int] = []
    for i, j in assign(d, limit):
        tr = live[i]
        if tr.state != "rest" and not bumped[i]:
            continue
        z = dets.xy[j].astype(float)
        if tr.state != "rest":
            tr.state, tr.rest_xy, tr.rest_since, tr.occluded = "rest", None, t, False
        rest_at(tr, z, t)
        moved.append(tr.id)
    return moved


def rest_at(tr: Track, z: np.ndarray, t: float) -> None:
    """Rest ``tr`` at detection ``z`` from ``t`` on, its place anchored there anew (a new board fit)."""
    tr.xy, tr.anchor, tr.anchor_n = z.copy(), z.copy(), 1
    tr.v = np.zeros(2)
    tr.displaced_frames = 0
    tr.path = [Sample(t, float(z[0]), float(z[1]), True)]
