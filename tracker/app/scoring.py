"""Scores a stored match: the shot log plus referee corrections, replayed through the rules.

Every number the web app shows comes from here, so a correction changes the score everywhere at
once and every point can be explained by the replayed decisions.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tracker.app.store import Match, Store
from tracker.corrections import apply_corrections
from tracker.errors import TrackerError
from tracker.shotlog import Shot, parse_entry


def engine_for_match(match: Match) -> Any:
    from tracker.rules import engine_for

    options = dict(match.options)
    return engine_for(match.game, match.players, variant=match.variant, **options)


def score(store: Store, match: Match) -> dict[str, Any]:
    """``{"summary": SPEC summary, "decisions": [...], "turn": seat, "log": corrected log}``."""
    raw = store.shots(match.id)
    corrections = store.corrections(match.id)
    log = apply_corrections(raw, corrections)
    return score_log(match, log) | {"corrections": corrections}


def score_log(match: Match, log: list[dict[str, Any]]) -> dict[str, Any]:
    engine = engine_for_match(match)
    decisions: list[dict[str, Any]] = []
    after: list[dict[str, Any]] = []  # the score after each line of the log
    next_seat = None
    for i, obj in enumerate(log):
        entry = parse_entry(obj, i + 1)
        try:
            outcome = engine.apply(entry)
        except TrackerError as e:
            decisions.append({"shot": i, "kind": "error", "reason": str(e)})
            after.append(after[-1] if after else {})
            continue
        summary = engine.summary()
        after.append({"totals": summary.get("totals", {}),
                      "round": (summary.get("current_round") or {}).get("points")})
        next_seat = outcome.next_seat
        for d in outcome.decisions:
            decisions.append({"shot": i, "seat": outcome.seat, "kind": d.kind, "reason": d.reason,
                              "discs": list(d.discs), "points": d.points})
    return {"summary": engine.summary(), "decisions": decisions, "turn": next_seat, "log": log,
            "after": after}


def analytics(match: Match, log: list[dict[str, Any]], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Per player: shots, 20s, hit rate on must-hit shots, mean shot speed, rest positions."""
    per: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"shots": 0, "twenties": 0, "must_hit": 0, "hits": 0, "speeds": [], "rest": []}
    )
    for ev in events:
        if ev["type"] == "shot":
            p = per[ev["seat"]]
            p["shots"] += 1
            if ev.get("hit_opponent") is not None:
                p["must_hit"] += 1
                p["hits"] += int(bool(ev["hit_opponent"]))
            if ev.get("speed_mm_s"):
                p["speeds"].append(float(ev["speed_mm_s"]))
        elif ev["type"] == "twenty" and ev.get("seat"):
            per[ev["seat"]]["twenties"] += 1
    owner: dict[str, str] = {}
    for i, obj in enumerate(log):
        entry = parse_entry(obj, i + 1)
        if not isinstance(entry, Shot):
            continue
        owner.setdefault(entry.disc, entry.seat)
        if not any(ev["type"] == "shot" for ev in events):
            per[entry.seat]["shots"] += 1
        end = entry.end.get(entry.disc)
        if isinstance(end, tuple):
            per[entry.seat]["rest"].append([round(end[0], 1), round(end[1], 1)])
        elif end == "hole" and not any(ev["type"] == "twenty" for ev in events):
            per[entry.seat]["twenties"] += 1
    out = {}
    for seat, p in per.items():
        speeds = p.pop("speeds")
        out[seat] = p | {
            "hit_rate": (p["hits"] / p["must_hit"]) if p["must_hit"] else None,
            "mean_speed_mm_s": (sum(speeds) / len(speeds)) if speeds else None,
        }
    return out
