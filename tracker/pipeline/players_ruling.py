"""Crokinole: a foul call the players did not carry out, withdrawn when the camera could not rule
out the hit.

The must-hit rule turns on one contact: a shot that touches no opponent disc (with opponents on
the board) sends the shot disc, and every own disc it struck, to the ditch. A glancing touch moves
the struck disc a fraction of a millimetre and bends the shot disc's path by a degree: the contact
can go unseen, and the rules then call a foul that never happened, and score the round without
discs that stay on the board.

The players are the other witness: after a foul they lift the fouled discs off. When every disc
the call named is still on the board as the next shot is judged (``referee.judge``), and the
shot's record shows a disc of the shooter's side passing an opponent disc within ``DOUBT`` of
touching it (edge to edge, along its path between samples), the players' ruling is taken: the
closest such pass is added to the shot's line as a contact, the rules engine replays the corrected
log (so the score is always "the log, replayed"), and a ``corrected`` event says what changed::

    {"type": "corrected", "t": ..., "frame": ..., "line": 7, "add_contacts": [["s4", "n1"]],
     "was": "foul", "removed": ["s4", "s2"], "gap_mm": 1.8, "t_call": 20.52}

``removed`` are the discs whose ``removed`` (foul) events at ``t_call`` the correction withdraws
(``withdraw.standing`` leaves them out). When no pass came that close, the call stands: the discs
are reported ``not_removed`` as before, for the referee to see.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from tracker import events as ev
from tracker.errors import TrackerError
from tracker.rules import engine_for
from tracker.shotlog import Shot
from tracker.track import Track
from tracker.track.blows import distance_along

if TYPE_CHECKING:
    from tracker.infer import ShotRecord
    from tracker.pipeline.pipeline import FrameResult, Pipeline
    from tracker.rules.base import Outcome

# How near (a share of the disc radius, edge to edge) a disc of the shooter's side must have
# passed an opponent disc for the camera to be unable to rule a touch out: a moving disc is
# measured a few millimetres off (motion blur, 30 samples a second), a resting one to a fraction.
DOUBT = 0.25
# A fouled disc given up as lifted is still there when a track rests this near (a share of its
# radius) to where it lay.
IN_PLACE = 0.5


@dataclass(frozen=True)
class DoubtfulFoul:
    """A foul call (the log line ``line``, called at ``t_call``) and the closest pass the camera
    saw of a disc of the shooter's side by an opponent disc (``mover`` by ``other``, ``gap`` mm
    apart edge to edge)."""

    line: int
    t_call: float
    fouled: tuple[str, ...]
    mover: str
    other: str
    gap: float


def closest_pass(movers: Iterable[tuple[str, Track]], opponents: dict[str, tuple[float, float]],
                 t0: float, t1: float) -> tuple[str, str, float] | None:
    """The closest approach, edge to edge (mm), of a moving disc (its track's path between
    ``t0`` and ``t1``) to an opponent disc resting at its place: (mover, opponent, gap)."""
    best: tuple[str, str, float] | None = None
    for name, tr in movers:
        pts = [np.array([s.x, s.y]) for s in tr.path if t0 <= s.t <= t1]
        if not pts:
            continue
        for other, at in opponents.items():
            gap = distance_along(pts, at) - 2.0 * tr.radius
            if best is None or gap < best[2]:
                best = (name, other, gap)
    return best


def doubtful_foul(p: Pipeline, rec: ShotRecord, shot: Shot, out: Outcome,
                  tracks: dict[int, Track]) -> DoubtfulFoul | None:
    """After a shot the rules called a foul (no opponent disc hit): the closest pass of a disc of
    the shooter's side by an opponent disc, if it came within ``DOUBT`` of a touch."""
    fouled = next((tuple(d.discs) for d in out.decisions
                   if d.kind == "removed" and getattr(d, "cause", None) == "foul"), ())
    if not fouled or p.game != "crokinole":
        return None
    engine = p.engine
    side = engine.side_of_seat(shot.seat)  # type: ignore[attr-defined]
    ids = p.namer.ids()
    movers = [(name, tracks[ids[name]]) for name in dict.fromkeys((shot.disc, *shot.end))
              if name in ids and ids[name] in tracks and engine.side_of_disc(name) in (None, side)]  # type: ignore[attr-defined]
    opponents = {p.namer.name(tid): xy for tid, xy in rec.before.items()
                 if tid in p.namer.names and engine.side_of_disc(p.namer.name(tid)) not in (None, side)}  # type: ignore[attr-defined]
    near = closest_pass(movers, opponents, rec.t_start, rec.t_end)
    if near is None or near[2] > DOUBT * p.board.disc_radius:
        return None
    return DoubtfulFoul(len(p.entries) - 1, p.entry_t[-1], fouled, near[0], near[1], near[2])


def _resting_at(tr: Track, tracks: Iterable[Track]) -> Iterator[Track]:
    """The tracks at rest where ``tr`` lay (within ``IN_PLACE`` of its radius)."""
    return (o for o in tracks if o.alive and o.state == "rest"
            and float(np.hypot(*(o.xy - tr.xy))) < IN_PLACE * tr.radius)


def found_in_place(tr: Track | None, tracks: Iterable[Track], names: dict[int, str]) -> int | None:
    """The unnamed track at rest where ``tr`` (given up as lifted) lay, if any."""
    if tr is None or tr.state != "lifted":
        return None
    return next((o.id for o in _resting_at(tr, tracks) if o.id not in names), None)


def left_on(fouled: Sequence[str], names: dict[int, str], tracks: Iterable[Track]) -> bool:
    """Every fouled disc is still on the board: its track at rest on the surface, or, its track
    given up (a disc the rules said must leave is called lifted the moment it is unseen, a hand
    passing over it), another track at rest where it lay (within ``IN_PLACE`` of its radius)."""
    tracks = list(tracks)
    by_name = {names[tr.id]: tr for tr in tracks if tr.id in names}
    for d in fouled:
        tr = by_name.get(d)
        if tr is None:
            return False
        if tr.alive and tr.state == "rest":
            continue
        if tr.state != "lifted" or next(_resting_at(tr, tracks), None) is None:
            return False
    return True


def take_players_ruling(p: Pipeline, doubt: DoubtfulFoul, res: FrameResult, t: float,
                        frame: int) -> None:
    """Add the doubtful pass to its line as a contact, replay the log into a fresh engine, and
    keep the fouled discs in play; left undone (said in the warnings, the discs reported not
    removed) when the corrected log cannot be replayed."""
    entries = list(p.entries)
    line = entries[doubt.line]
    assert isinstance(line, Shot)
    entries[doubt.line] = replace(line, contacts=((doubt.mover, doubt.other), *line.contacts))
    engine = engine_for(p.game, p.players, **(p.rules or {}))
    try:
        outcomes = [engine.apply(e) for e in entries]
    except TrackerError as e:
        p.warnings.append(f"t = {t:.2f} s: the players' ruling on line {doubt.line} could not be taken: {e}")
        return
    p.entries[:] = entries
    p.outcomes[:] = outcomes
    p.engine = engine
    ids = p.namer.ids()
    for name in doubt.fouled:
        if name in ids:
            p._pending_lift.pop(ids[name], None)  # (not reported not removed: they stay)
            p.tracker.stay(ids[name])
            found = found_in_place(p.tracker.get(ids[name]), p.tracker.tracks, p.namer.names)
            if found is not None:  # given up as lifted: the track resting where it lay takes the name
                p.namer.names[found] = p.namer.names.pop(ids[name])
                p.tracker.retire(ids[name])
    gap = round(doubt.gap, 1)
    p.warnings.append(f"t = {t:.2f} s: foul at {doubt.t_call:.2f} s withdrawn: the players left "
                      f"{', '.join(doubt.fouled)} on the board, and {doubt.mover} passed {gap} mm "
                      f"from {doubt.other} (a touch the camera could not rule out)")
    p._emit(ev.Event("corrected", t, frame, {
        "line": doubt.line, "add_contacts": [[doubt.mover, doubt.other]], "was": "foul",
        "removed": list(doubt.fouled), "gap_mm": gap, "t_call": round(doubt.t_call, 3)}), res)
