"""Rules engines: referee and score a shot log (SPEC section 4b), one entry at a time.

``engine_for(game, players, variant, **options)`` looks a game up; engines are imported lazily so
that a game whose engine is not installed fails with one clear error and the others still work.
Every engine follows ``tracker.rules.datatypes.RulesEngine``: ``apply(entry) -> Outcome`` and
``summary() -> dict``.
"""

from __future__ import annotations

from typing import Any

from tracker.errors import TrackerError
from tracker.rules.datatypes import RulesEngine
from tracker.rules.replay import outcome_event_dicts, outcome_events, replay, shot_flags

__all__ = ["engine_for", "replay", "outcome_events", "outcome_event_dicts", "shot_flags", "RulesEngine"]


def engine_for(game: str, players: int, variant: str | None = None, **options: Any) -> RulesEngine:
    """The rules engine of ``game`` for ``players`` players, configured by ``options``.

    crokinole: options of ``CrokinoleEngine`` (board, scoring, target, rounds, no_opponent_rule,
    first_seat, discs_per_player); ``variant`` must be None. korona: ``variant`` "fi" (default)
    or "ru", options of ``KoronaEngine`` (e.g. discs_per_player).
    """
    if game == "crokinole":
        if variant not in (None, "", "standard"):
            raise TrackerError(f"crokinole has no variant {variant!r}")
        from tracker.rules.crokinole import CrokinoleEngine

        return CrokinoleEngine(players, **options)
    if game == "korona":
        try:
            from tracker.rules.korona import KoronaEngine  # type: ignore[attr-defined]
        except ImportError as e:
            raise TrackerError(
                "the korona rules engine is not available yet "
                f"(tracker.rules.korona.KoronaEngine cannot be imported: {e})"
            ) from None
        return KoronaEngine(players, variant=variant or "fi", **options)  # type: ignore[no-any-return]
    raise TrackerError(f"no rules engine for game {game!r}: expected crokinole or korona")
