"""Resuming a match after a restart: the stored shot log is replayed into the rules engine, and
the discs found at rest after the restart take the names of the discs the rules know at those
places, so the shot log keeps one id per physical disc across the crash."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from tracker.shotlog import Entry, Setup, Shot

if TYPE_CHECKING:
    from tracker.pipeline.pipeline import Pipeline
    from tracker.track import Track

CLAIM_MM = 12.0  # a resting disc this close to where the rules left a disc is that disc


def known_positions(engine: Any) -> dict[str, tuple[float, float]]:
    """Where the rules engine believes every disc on the playing surface rests."""
    out: dict[str, tuple[float, float]] = {}
    on_board = getattr(engine, "on_board", None)
    if isinstance(on_board, dict):  # crokinole
        for name, d in on_board.items():
            out[name] = (float(d.x), float(d.y))
    table = getattr(engine, "table", None)
    if table is not None and hasattr(table, "discs"):  # korona
        for name, d in table.discs.items():
            if d.pocket is None and d.at is not None:
                out[name] = (float(d.at[0]), float(d.at[1]))
    return out


def name_counts(entries: list[Entry]) -> Counter[str]:
    """The highest number used so far in each seat's disc names (``s7`` -> south: 7)."""
    seat_of = {"s": "south", "w": "west", "n": "north", "e": "east"}
    counts: Counter[str] = Counter()
    names: list[str] = []
    for e in entries:
        if isinstance(e, Shot):
            names.append(e.disc)
            names.extend(e.end)
        elif isinstance(e, Setup):
            names.extend(e.discs)
    for name in names:
        m = re.fullmatch(r"([swne])(\d+)", name)
        if m:
            seat = seat_of[m.group(1)]
            counts[seat] = max(counts[seat], int(m.group(2)))
    return counts


def claim(positions: dict[str, tuple[float, float]], xy: tuple[float, float]) -> str | None:
    """The known disc nearest ``xy`` within CLAIM_MM (removed from ``positions``), or None."""
    best, best_d = None, CLAIM_MM
    for name, (x, y) in positions.items():
        d = math.hypot(x - xy[0], y - xy[1])
        if d <= best_d:
            best, best_d = name, d
    if best is not None:
        del positions[best]
    return best


def resume(p: Pipeline, entries: list[Entry]) -> None:
    """Continue ``p``'s match from its stored shot log: the log is replayed into the rules engine
    (so turn, removals and scores go on from there); discs found at rest afterwards take the
    names of the discs the rules left at those places (``claim_resting``), and new discs are
    numbered after the names already used (``apply_counts``)."""
    for entry in entries:
        p.outcomes.append(p.engine.apply(entry))
        p.entries.append(entry)
        p.entry_t.append(0.0)
    if p.game == "korona" and any(isinstance(e, Setup) for e in entries):
        p._need_setup = bool(p.outcomes and (p.outcomes[-1].round_over or p.outcomes[-1].game_over))
    p._resume_at = known_positions(p.engine)
    p._resume_counts = name_counts(entries)
    if hasattr(p, "namer"):
        apply_counts(p)


def apply_counts(p: Pipeline) -> None:
    """The namer numbers new discs after the names the resumed log used."""
    counts = p._resume_counts
    if counts:
        p.namer._count.update(counts)
        p._resume_counts = None


def claim_resting(p: Pipeline, tracks: list[Track]) -> None:
    """Discs settled at rest (3 sightings) and not yet named take the name of the disc the
    rules left within ``CLAIM_MM`` of them."""
    for tr in tracks:
        if tr.state == "rest" and tr.hits >= 3 and tr.id not in p.namer.names:
            name = claim(p._resume_at, (float(tr.xy[0]), float(tr.xy[1])))
            if name is not None:
                p.namer.names[tr.id] = name
