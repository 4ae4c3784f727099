"""The SPEC section 4 summary of a crokinole game, built from the engine's state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.crokinole.datatypes import DiscAt

if TYPE_CHECKING:
    from tracker.rules.crokinole.engine import CrokinoleEngine


def _disc(engine: CrokinoleEngine, d: DiscAt) -> dict[str, Any]:
    return {
        "team": d.side,
        "seat": d.seat,
        "disc": d.disc,
        "x_mm": round(d.x, 2),
        "y_mm": round(d.y, 2),
        "points": engine.board.zone(d.x, d.y),
    }


def summary(engine: CrokinoleEngine) -> dict[str, Any]:
    """``{"game", "players", "rounds": [...], "totals", "winner"}`` plus the rules in force.

    ``rounds`` holds finished rounds only; a round still in progress (a log that stops mid-round)
    is reported apart as ``current_round`` so that ``totals`` is always the sum of ``awarded``.
    With ``rounds`` set (championship play) ``awarded`` and ``totals`` are championship points and
    ``points_total`` sums the counted points.
    """
    rules = engine.rules
    rounds = [
        {
            "index": r.index,
            "lead": r.lead,
            "shots": r.shots,
            "twenties": dict(r.twenties),
            "discs": [_disc(engine, d) for d in r.discs],
            "points": dict(r.points),
            "awarded": dict(r.awarded),
            "ended_by": r.ended_by,
        }
        for r in engine.rounds
    ]
    out: dict[str, Any] = {
        "game": "crokinole",
        "players": rules.players,
        "rules": {
            "scoring": "championship" if rules.rounds is not None else rules.scoring,
            "target": None if rules.rounds is not None else rules.target,
            "rounds": rules.rounds,
            "no_opponent_rule": rules.no_opponent_rule,
            "discs_per_player": rules.discs_per_player,
        },
        "sides": {s: [seat for seat in engine.seats if engine.side_of_seat(seat) == s] for s in engine.sides},
        "rounds": rounds,
        "totals": dict(engine.totals),
        "points_total": {s: sum(r.points[s] for r in engine.rounds) for s in engine.sides},
        "twenties_total": {s: sum(r.twenties[s] for r in engine.rounds) for s in engine.sides},
        "winner": engine.winner,
        "game_over": engine.game_over,
    }
    if engine.shots_in_round and not engine.game_over:
        out["current_round"] = {
            "index": engine.round_index,
            "lead": engine.lead,
            "shots": engine.shots_in_round,
            "twenties": {s: len(v) for s, v in engine.twenties.items()},
            "discs": [_disc(engine, d) for d in sorted(engine.on_board.values(), key=lambda d: d.disc)],
            "points": engine.round_points(),
            "turn": engine.turn,
        }
    return out
