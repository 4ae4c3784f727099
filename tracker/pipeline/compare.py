"""Comparing a review's outputs with a rendered match's truth (summary, events, shot log).

Used by the benchmark and the end-to-end tests. Rounds (crokinole) or games (korona) are compared
on what a scorekeeper writes down: per round the points, the points awarded and the 20s; per
korona game the discs pocketed, fouls and the winner; plus the round in play when the video ends.
Events are matched by type and disc within a time window, after mapping the review's disc names to
the truth's (they may differ for the same physical disc).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

ROUND_KEYS = {"crokinole": ("points", "awarded", "twenties"), "korona": ("pocketed", "fouls", "winner")}


def round_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    game = summary.get("game", "crokinole")
    keys = ROUND_KEYS.get(game, ROUND_KEYS["crokinole"])
    rows = [{k: r.get(k) for k in keys} for r in summary.get("rounds", [])]
    cur = summary.get("current_round")
    if cur and (cur.get("shots") or cur.get("points") or cur.get("pocketed")):
        rows.append({k: cur.get(k) for k in keys if k in cur})
    return rows


def rounds_exact(mine: dict[str, Any], truth: dict[str, Any]) -> tuple[int, int]:
    """(rounds scored exactly, rounds in the truth)."""
    a, b = round_rows(mine), round_rows(truth)
    ok = sum(1 for i, r in enumerate(b) if i < len(a) and a[i] == r)
    return ok, len(b)


@dataclass
class Match:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    def __iadd__(self, other: Match) -> Match:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        return self


def pair_events(mine: Iterable[dict[str, Any]], truth: Iterable[dict[str, Any]], etype: str,
                window: float = 1.5, key: str | None = None) -> list[tuple[int, int]]:
    """Greedy one-to-one pairs (index among ``mine``'s events of ``etype``, index among the
    truth's), nearest in time within ``window`` (and the same ``key`` field if given), in the
    truth's order."""
    a = [e for e in mine if e.get("type") == etype]
    b = [e for e in truth if e.get("type") == etype]
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for j, e in enumerate(b):
        best, best_dt = None, window
        for i, f in enumerate(a):
            if i in used:
                continue
            if key is not None and f.get(key) != e.get(key):
                continue
            dt = abs(float(f["t"]) - float(e["t"]))
            if dt <= best_dt:
                best, best_dt = i, dt
        if best is not None:
            used.add(best)
            pairs.append((best, j))
    return pairs


def match_events(mine: Iterable[dict[str, Any]], truth: Iterable[dict[str, Any]], etype: str,
                 window: float = 1.5, key: str | None = None) -> Match:
    """Greedy one-to-one matching of events of ``etype`` by time (and ``key`` field if given)."""
    a = [e for e in mine if e.get("type") == etype]
    b = [e for e in truth if e.get("type") == etype]
    n = len(pair_events(a, b, etype, window, key))
    return Match(tp=n, fp=len(a) - n, fn=len(b) - n)
