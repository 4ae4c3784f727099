"""Crokinole shots the vision side missed, logged when a later shot strikes their disc.

A disc whose wait on the shooting line and whose flight were both missed (red discs on a red
board: c2h_9202) is first seen at rest, and no shot brought it on: the rules do not know it, so
a later shot that strikes it was called a foul ("no opponent disc hit"). It was shot all the
same: when a shot strikes such a disc (``Namer.adopted``), its shot is logged first, marked
``unseen``, from where the disc rested (no start, no contacts), at the time the disc was first
seen; the rules then know the disc and its owner (and do not judge the unseen shot's must-hit).

A video that begins (or cuts back in) in the middle of a round shows discs at rest that were shot
before it (ricochet.mp4, triple.mp4): they are logged the same way, as unseen shots, before the
first shot seen in that view, each its colour's side's (``on_board_at_start``). Before, they were
never credited: the rules ignored their moves and they scored for no one.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tracker import events as ev
from tracker.boards import CrokinoleBoard
from tracker.detect.color import lab_distance
from tracker.infer import ShotRecord
from tracker.infer.naming import BOARD_LAB
from tracker.rules import outcome_events, shot_flags
from tracker.shotlog import Shot
from tracker.track import Track

if TYPE_CHECKING:
    from tracker.pipeline.pipeline import FrameResult, Pipeline

# A disc first seen this soon after a view began (s) was there when it began; one first seen
# later came in since (triple.mp4 at 2.7 s: the shooter's fingers by the line, at rest a moment).
VIEW_SLACK_S = 0.5


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
    log_unseen(p, seat, name, at, t, f"{name}'s shot was not seen; logged from where it rested when "
               f"{p.namer.name(rec.disc)}'s shot struck it", res)


def on_board_at_start(p: Pipeline, rec: ShotRecord, tracks: dict[int, Track], res: FrameResult) -> None:
    """Before the shot ``rec`` is logged: the discs at rest in a scoring zone (not in the hole,
    clear of the shooting line) that were on the board when the camera's view began -- a fit of
    the board: at the video's start, or after a cut -- before any shot was seen in that
    view, and that nobody was seen shooting, are logged as unseen shots (the video began, or cut
    back in, in the middle of a round: ricochet.mp4). Each takes its owner by colour
    (``p.namer.owners``, from ``colours.crokinole_owners``: only when the board shows two
    colours, the shot disc's and another); a disc of no known owner, that looks like the board
    around it (a painted mark), or that lies where a disc the rules know lies and no named track
    stands for (that disc, its track lost and found again, or moved by a new fit) is left out.
    Their order alternates the sides as far as the counts allow, ending with the side that does
    not shoot ``rec`` (so that shot is in turn)."""
    board = p.board
    if p.game != "crokinole" or not isinstance(board, CrokinoleBoard):
        return
    fits = [(e.t, bool(e.data.get("settled"))) for e in p.events if e.type == "calibrated"]
    # (a fit once the bumped camera came to rest is the same view: ``camera.settle_refit``)
    views = [t for t, settled in fits if not settled]
    if not views:  # tracking fed with detections on a known board: no view began
        return
    seen = [t for e, t in zip(p.entries, p.entry_t, strict=True) if isinstance(e, Shot) and not e.unseen]
    # the discs the rules know on the board that no named track at rest before the shot stands for
    carried = {p.namer.names[t] for t in rec.before if t in p.namer.names}
    known = [d for k, d in getattr(p.engine, "on_board", {}).items() if k not in carried]
    found: list[tuple[str, int, tuple[float, float], float]] = []
    for tid, at in rec.before.items():
        tr = tracks.get(tid)
        seat = p.namer.owners.get(tid)
        if tr is None or tid == rec.disc or tid in p.namer.names or seat is None or tr.kind != 0 \
                or tr.state == "lifted" \
                or tr.born > rec.t_start or board.zone(at[0], at[1], tr.radius) not in (5, 10, 15) \
                or (tr.surround_n > 0 and lab_distance(tr.color, tr.surround) < BOARD_LAB):
            continue
        if max([f for f in fits if f[0] <= tr.born + 1e-6], default=fits[0])[1]:
            continue  # first seen once the bumped camera settled: the view began before, without it
        view = max([v for v in views if v <= tr.born + 1e-6], default=views[0])
        if tr.born > view + VIEW_SLACK_S or any(view <= t <= tr.born for t in seen):
            continue  # first seen well after the view began, or once play was seen in it
        if any(math.hypot(d.x - at[0], d.y - at[1]) < 2 * tr.radius for d in known):
            continue
        found.append((seat, tid, at, tr.born))
    shooter = p.namer.seat_of_start(rec.start, None)
    mine = [f for f in found if f[0] == shooter or (len(p.namer.seats) == 4 and f[0] in _partner(shooter))]
    theirs = [f for f in found if f not in mine]
    order: list[tuple[str, int, tuple[float, float], float]] = []
    while mine or theirs:  # built backwards from the shot: theirs, mine, theirs, ...
        for side in (theirs, mine):
            if side:
                order.append(side.pop())
    for seat, tid, at, born in reversed(order):
        name = p.namer._new_name(seat, tid)
        log_unseen(p, seat, name, at, min(born, rec.t_start),
                   f"{name} was on the board when the view began; logged as {seat}'s by its colour", res)


def _partner(seat: str) -> tuple[str, ...]:
    return {"south": ("north",), "north": ("south",), "east": ("west",), "west": ("east",)}.get(seat, ())


def log_unseen(p: Pipeline, seat: str, name: str, at: tuple[float, float], t: float, why: str,
               res: FrameResult) -> None:
    """Log an unseen shot of ``seat``'s disc ``name`` that came to rest at ``at``, at time ``t``."""
    frame = p._frame_of(t)
    shot = Shot(seat=seat, disc=name, end={name: (round(at[0], 2), round(at[1], 2))}, unseen=True)
    out = p._apply(shot, res, t, frame)
    if out is None:
        return
    p.warnings.append(f"t = {t:.2f} s: {why}")
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
