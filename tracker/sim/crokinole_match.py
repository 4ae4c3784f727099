"""The crokinole loop of the match script: rounds of shots until the rounds (or the game) end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.seats import next_seat
from tracker.sim import choreography as ch
from tracker.sim.players import CrokinolePlayer, perturb

if TYPE_CHECKING:
    from tracker.sim.match import Director

DISCS_PER_PLAYER = {2: 12, 3: 8, 4: 6}


def play_crokinole(d: Director) -> None:
    from tracker.sim.match import foul_and_hit

    cfg, m = d.cfg, d.m
    assert cfg.game == "crokinole"
    rules = getattr(m.engine, "rules", None)
    dpp = int(getattr(rules, "discs_per_player", DISCS_PER_PLAYER[cfg.players]))
    players: dict[str, CrokinolePlayer] = {s: CrokinolePlayer(s, d.board, d.params, d.skill, d.rng) for s in d.seats}  # type: ignore[arg-type]
    expected = cfg.max_shots or dpp * len(d.seats) * cfg.rounds
    shot_in_round: dict[str, int] = dict.fromkeys(d.seats, 0)
    turn: str = getattr(m.engine, "turn", d.seats[0])
    rounds_done = 0
    while True:
        seat = turn
        shot_in_round[seat] += 1
        did = f"{seat[0]}{shot_in_round[seat]}"
        if did not in d.table.discs:
            d.new_disc(did, seat)
        plan = d.planner(m, seat, did) if d.planner else None
        if plan is None:
            raw = players[seat].plan(d.table.on_surface(), d.opponents_of(seat))
            plan = perturb(raw, d.skill, d.rng)
        _, entry, t_shot, t_end = d.shoot(seat, did, plan)
        out = d.apply(entry)
        foul, hit = foul_and_hit(out)
        d.after_outcome(out, seat, t_shot, t_end, entry, foul, hit)
        d.maybe_bump(expected)
        if out.round_over:
            rounds_done += 1
            if out.game_over or rounds_done >= cfg.rounds:
                break
            d.t = ch.sweep_clear(m.timeline, d.board, d.hands, seat, d.t + 0.6) + 0.3
            for disc in d.table.discs.values():
                disc.state = "off"
            shot_in_round = dict.fromkeys(d.seats, 0)
        if cfg.max_shots is not None and d.shots >= cfg.max_shots:
            break
        turn = out.next_seat or next_seat(seat, d.seats)  # type: ignore[arg-type]
