"""Replaying a shot log through an engine, and turning outcomes into SPEC section 4 events.

Both are pure: ``replay`` feeds entries in order (the engine holds all state, so a fresh engine
and the same log always give the same outcomes), and ``outcome_events`` only reads an Outcome.
The video pipeline calls ``outcome_events`` with the time and frame at which the shot settled.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tracker import events as ev
from tracker.rules.datatypes import Outcome, RulesEngine
from tracker.shotlog import Entry


def replay(engine: RulesEngine, entries: Iterable[Entry]) -> list[Outcome]:
    """Apply every entry in order; return one Outcome per entry."""
    return [engine.apply(e) for e in entries]


def outcome_events(outcome: Outcome, t: float, frame: int) -> list[ev.Event]:
    """The ``removed``, ``twenty``, ``round_end`` and ``game_end`` events of one outcome.

    A removal decision (``kind == "removed"``) gives one ``removed`` event per disc with its
    ``cause`` as the reason code (``foul``, ``shooting_line``, ``no_opponent_rule``, ...); a disc
    that left the surface is not repeated here, the vision side already reports ``off_board``.
    """
    out: list[ev.Event] = []
    for d in outcome.decisions:
        if d.kind == "removed":
            cause = str(getattr(d, "cause", "other"))
            if cause == "off_board":
                continue
            for disc in d.discs:
                out.append(ev.removed(t, frame, disc, cause, why=d.reason))
        elif d.kind == "twenty" and d.seat is not None:
            for disc in d.discs:
                out.append(ev.twenty(t, frame, d.seat, disc))
        elif d.kind == "round_end":
            points: dict[str, int] = dict(getattr(d, "scores", {}) or {})
            awarded: dict[str, int] = dict(getattr(d, "awarded", {}) or {})
            out.append(ev.round_end(t, frame, points, awarded, why=d.reason))
        elif d.kind in ("game_end", "game_over"):  # korona names a finished game "game_over"
            out.append(ev.game_end(t, frame, getattr(d, "winner", d.seat), why=d.reason))
    return out


def shot_flags(outcome: Outcome) -> tuple[bool | None, str | None]:
    """``hit_opponent`` and ``foul`` for the SPEC ``shot`` event of this outcome.

    hit_opponent is True after a valid hit, False after a miss, None when no opponent disc was on
    the board (nothing to hit); foul is the ruling's reason, or None.
    """
    for d in outcome.decisions:
        if d.kind == "removed" and getattr(d, "cause", None) == "foul":
            return False, d.reason
    if any(d.kind == "hit" for d in outcome.decisions):
        return True, None
    return None, None


def outcome_event_dicts(outcome: Outcome, t: float, frame: int) -> list[dict[str, Any]]:
    """``outcome_events`` as JSON-ready dicts (one ``events.jsonl`` line each)."""
    return [e.to_json() for e in outcome_events(outcome, t, frame)]
