"""Crokinole shots the vision side missed, logged when a later shot strikes their disc.

A disc whose wait on the shooting line and whose flight were both missed (red discs on a red
board: c2h_9202) is first seen at rest, and no shot brought it on: the rules do not know it, so
a later shot that strikes it was called a foul ("no opponent disc hit"). It was shot all the
same: when a shot strikes such a disc (``Namer.adopted``), its shot is logged first, marked
``unseen``, from where the disc rested (no start, no contacts), at the time the disc was first
seen; the rules then know the disc and its owner (and do not judge the unseen shot's must-hit).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tracker import events as ev
from tracker.infer import ShotRecord
from tracker.rules import outcome_events, shot_flags
from tracker.shotlog import Shot
from tracker.track import Track

if TYPE_CHECKING:
    from tracker.pipeline.pipeline import FrameResult, Pipeline


def missed_shot(p: Pipeline, tid: int, name: str, rec: ShotRecord, tracks: dict[int, Track],
                res: FrameResult) -> None:
    """Log the unseen shot of track ``tid`` (named ``name``), struck by the shot ``rec`` (see
    the module doc). Only a disc first seen once this round's play was under way: one there
    before its first shot was seen was set out by hand (or the video began in the middle of a
    round); and none lying where a disc the rules know lies (that disc, its track lost and
    found again)."""
    seat = p._name_owner(name)
    at = rec.before[tid]
    tr = tracks.get(tid)
    if seat is None or tr is None or not round_began_before(p, tr.born):
        return
    board = getattr(p.engine, "on_board", {})
    if any(math.hypot(d.x - at[0], d.y - at[1]) < 2 * tr.radius for d in board.values()):
        return
    t = min(tr.born, rec.t_start)
    frame = p._frame_of(t)
    shot = Shot(seat=seat, disc=name, end={name: (round(at[0], 2), round(at[1], 2))}, unseen=True)
    out = p._apply(shot, res, t, frame)
    if out is None:
        return
    p.warnings.append(f"t = {t:.2f} s: {name}'s shot was not seen; logged from where it rested when "
                      f"{p.namer.name(rec.disc)}'s shot struck it")
    hit, foul = shot_flags(out)
    p._emit(ev.shot(t, frame, seat, name, round(t, 3), round(t, 3), hit, foul), res)
    for e in outcome_events(out, t, frame):
        p._emit(e, res)


def round_began_before(p: Pipeline, t: float) -> bool:
    """Was a shot of the round in play started before ``t``?"""
    began: float | None = None
    for e in p.events:
        if e.type == "round_end":
            began = None
        elif e.type == "shot" and began is None:
            began = float(e.data.get("t_start", e.t))
    return began is not None and began < t
