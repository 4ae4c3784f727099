"""Korona: a pocket or off call withdrawn when its disc is seen on the board again.

The detector loses rim rows for seconds (a row is dropped the frame the striker starts, and found
again only by a later full pass), so a rim disc a shot reached can be unseen when the shot is
judged and be called pocketed or off (``infer.rim_gone``) though it never moved far: k4h_9206 at
32 s, two east rim discs called pocketed found in place 2.7 s later. The rules engine then counts
the pocket, and refuses every later shot that moves the disc ("not on the table").

When such a disc is seen at rest on the playing surface after the call, the call is withdrawn in
the shot log itself: the line that called it gets the place where the disc is seen as its end,
the rules engine replays the corrected log (so the score is always "the log, replayed"), and a
``corrected`` event says which line changed and how::

    {"type": "corrected", "t": ..., "frame": ..., "line": 5, "disc": "w4",
     "was": "pocket:ne", "end": [410.2, 9.1], "t_call": 33.57}

``line`` is the index of the entry in ``shots.jsonl`` (the setup is line 0); ``t_call`` the time
of the withdrawn ``pocketed`` / ``off_board`` event (:func:`standing` drops it for a reader that
wants the calls as they stand).
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tracker import events as ev
from tracker.boards import KoronaBoard
from tracker.errors import TrackerError
from tracker.infer import ShotRecord
from tracker.pipeline.resume import known_positions
from tracker.rules import engine_for
from tracker.shotlog import Entry, Setup, Shot
from tracker.track import Track

if TYPE_CHECKING:
    from tracker.pipeline.pipeline import FrameResult, Pipeline

# Seconds a disc must be seen at rest, after the shot that called it gone, before the call is
# withdrawn: several looks of the detector, not one false find at its place.
SEEN_FOR = 0.3
# Radii from where the disc was last seen before the call that it is found again, and stays (a
# track born since the call, which took the name when the pipeline paired it to the lost disc
# (``identity.reconcile``), from where it was found): a disc only lost by the detector is found
# in its place. A track that turns up elsewhere, or moves later, may have taken another disc's
# detections while unseen (k4h_8806 at 36 s: a disc truly pocketed at 28.4 s, its track taken
# by a struck neighbour passing its place), so it withdraws nothing.
IN_PLACE = 2.0


@dataclass(frozen=True)
class Withdrawal:
    line: int  # index of the shot-log entry whose end is corrected
    disc: str
    was: str  # the end withdrawn: "pocket:ne", "off", ...
    at: tuple[float, float]  # where the disc is seen now


def calls_gone(entries: Sequence[Entry]) -> dict[str, int]:
    """Per disc called pocketed or off in the current game (since the last setup), the index of
    the latest shot that called it so."""
    out: dict[str, int] = {}
    for i in range(len(entries) - 1, -1, -1):
        e = entries[i]
        if isinstance(e, Setup):
            break
        if isinstance(e, Shot):
            for name, end in e.end.items():
                if end == "off" or (isinstance(end, str) and end.startswith("pocket:")):
                    out.setdefault(name, i)
    return out


def seen_again(entries: Sequence[Entry], entry_t: Sequence[float], gone: dict[str, int],
               names: dict[int, str], tracks: Iterable[Track], board: KoronaBoard,
               on_table: Container[str], now: float) -> list[Withdrawal]:
    """The pocket/off calls ``gone`` (:func:`calls_gone`) whose disc (a named track, not
    ``on_table`` for the rules: a disc the rules put back, e.g. an overshot one in the centre
    circle, is not withdrawn) is at rest on the playing surface, out of the pockets, seen there
    for ``SEEN_FOR`` since the call and still seen ``now``."""
    out: list[Withdrawal] = []
    for tr in tracks:
        name = names.get(tr.id)
        if name is None or name not in gone or name in on_table or tr.state != "rest" or tr.occluded:
            continue
        i = gone[name]
        t_call = entry_t[i]
        x, y = (float(tr.xy[0]), float(tr.xy[1]))
        seen = [s for s in tr.path if s.measured and s.t > t_call]
        if not seen or seen[-1].t - seen[0].t < SEEN_FOR or now - tr.last_seen > SEEN_FOR:
            continue
        was = [s for s in tr.path if s.measured and s.t <= t_call]
        at = was[-1] if was else seen[0]  # a track born since (the name paired to it) is where found
        if any(math.hypot(s.x - at.x, s.y - at.y) > IN_PLACE * tr.radius for s in seen):
            continue  # found elsewhere, or moved since: the track may have taken another disc
        if not board.on_surface(x, y) or board.pocket_of(x, y) is not None:
            continue
        end = entries[i].end[name]  # type: ignore[union-attr]
        out.append(Withdrawal(i, name, str(end), (round(x, 2), round(y, 2))))
    return out


def withdraw(p: Pipeline, res: FrameResult, t: float, frame: int) -> None:
    """Withdraw the pipeline's pocket/off calls whose discs are seen again (:func:`seen_again`):
    correct the log lines, replay the corrected log into a fresh rules engine, and emit one
    ``corrected`` event each. A correction the rules cannot replay is left undone (said in the
    warnings)."""
    if not isinstance(p.board, KoronaBoard) or not hasattr(p, "tracker"):
        return
    gone = calls_gone(p.entries)
    if not gone:  # (every frame between shots: nothing more to do unless a call stands)
        return
    found = seen_again(p.entries, p.entry_t, gone, p.namer.names, p.tracker.tracks, p.board,
                       known_positions(p.engine), t)
    _correct(p, found, res, t, frame)


def moved_again(p: Pipeline, rec: ShotRecord, res: FrameResult) -> None:
    """Withdraw the pocket/off calls of discs the shot about to be logged (``rec``) was seen
    moving (:func:`seen_moving`), before the rules are given it: they would refuse the whole
    shot ("not on the table") and the turn order would go wrong from there (k4h_9972 at 13.4 s:
    w5, called down the se pocket by the shot before while the detector had lost it in its row,
    was struck again, seen, and west's shot was lost; the call was withdrawn only as the board
    settled after it)."""
    if not isinstance(p.board, KoronaBoard) or not hasattr(p, "tracker"):
        return
    gone = calls_gone(p.entries)
    if not gone:
        return
    found = seen_moving(p.entries, rec, gone, p.namer.names, {tr.id: tr for tr in p.tracker.tracks}, p.board,
                        known_positions(p.engine))
    _correct(p, found, res, rec.t_start, rec.frame_start)


def seen_moving(entries: Sequence[Entry], rec: ShotRecord, gone: dict[str, int], names: dict[int, str],
                tracks: Mapping[int, Track], board: KoronaBoard, on_table: Container[str]) -> list[Withdrawal]:
    """The pocket/off calls ``gone`` (:func:`calls_gone`) whose disc (a named track, not
    ``on_table`` for the rules) the shot ``rec`` moved and that was seen (a detection of its own)
    during it, having rested on the playing surface, out of the pockets, before it (where it
    rested goes into the line that called it gone)."""
    out: list[Withdrawal] = []
    for tid in rec.ends:
        name = names.get(tid)
        tr = tracks.get(tid)
        if name is None or name not in gone or name in on_table or tr is None or tid not in rec.before:
            continue
        if not any(s.measured and s.t >= rec.t_start - 1e-6 for s in tr.path):
            continue
        x, y = rec.before[tid]
        if not board.on_surface(x, y) or board.pocket_of(x, y) is not None:
            continue
        i = gone[name]
        end = entries[i].end[name]  # type: ignore[union-attr]
        out.append(Withdrawal(i, name, str(end), (round(x, 2), round(y, 2))))
    return out


def _correct(p: Pipeline, found: list[Withdrawal], res: FrameResult, t: float, frame: int) -> None:
    """Correct the log lines of the withdrawn calls ``found`` and replay them (``withdraw``)."""
    if not found:
        return
    entries = list(p.entries)
    for w in found:
        shot = entries[w.line]
        assert isinstance(shot, Shot)
        entries[w.line] = replace(shot, end={**shot.end, w.disc: w.at})
    engine = engine_for(p.game, p.players, **(p.rules or {}))
    try:
        outcomes = [engine.apply(e) for e in entries]
    except TrackerError as e:
        p.warnings.append(f"t = {t:.2f} s: a pocket/off call seen wrong could not be corrected: {e}")
        return
    p.entries[:] = entries
    p.outcomes[:] = outcomes
    p.engine = engine
    for w in found:
        p.warnings.append(f"t = {t:.2f} s: {w.disc} is on the board again: log line {w.line} corrected "
                          f"({w.was} -> {list(w.at)})")
        p._emit(ev.Event("corrected", t, frame, {"line": w.line, "disc": w.disc, "was": w.was,
                                                 "end": list(w.at), "t_call": p.entry_t[w.line]}), res)


def standing(events: Iterable[dict]) -> list[dict]:
    """SPEC 4 events (JSON) with the calls that a later ``corrected`` event withdrew left out
    (matched by disc and the call's time): ``pocketed`` / ``off_board`` calls (``withdraw``), and
    the ``removed`` events of a foul the players did not carry out (``players_ruling``)."""
    evs = list(events)
    fixes = [e for e in evs if e.get("type") == "corrected"]
    gone = {(e["disc"], round(float(e["t_call"]), 3)) for e in fixes if "disc" in e}
    fouls = {(d, round(float(e["t_call"]), 3)) for e in fixes for d in e.get("removed", ())}

    def withdrawn(e: dict) -> bool:
        key = (e.get("disc"), round(float(e.get("t", 0.0)), 3))
        if e.get("type") in ("pocketed", "off_board"):
            return key in gone
        return e.get("type") == "removed" and e.get("reason") == "foul" and key in fouls
    return [e for e in evs if not withdrawn(e)]
