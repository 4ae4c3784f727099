"""Resuming a match after a restart: the stored shot log is replayed into the rules engine, and
the discs found at rest after the restart take the names of the discs the rules know at those
places, so the shot log keeps one id per physical disc across the crash."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

from tracker.shotlog import Entry, Setup, Shot

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
