"""The korona loop of the match script: games of turns; a turn goes on while the player pockets.

The setup line puts every target disc in its row against the far rim (Finnish rulebook 2.2,
``tracker.rules.korona.setup.standard_setup``). Between shots the striker is taken off the
board by hand (the engine treats strikers as returned to the striking line), and put down on the
striking line again for the next shot, where the cue strikes it.

Both rule sets play the same loop: ``MatchConfig.variant`` picks the rules engine ("fi", the
Finnish rulebook, or "ru", the Russian variant) and the players' judgement (a Russian player never
plays a restricted pawn directly). The Russian start is the same setup line: each colour's pawns
in a row against the far rim ("pawns ... on the side opposite the player"). A disc that flew off
the board lies on the table where it landed until the rules' action moves it (own disc: into the
centre circle) or the game's end clears the board; a striker there is fetched for its next shot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.seats import next_seat
from tracker.shotlog import RoundEnd, Setup
from tracker.sim import choreography as ch
from tracker.sim.players import KoronaPlayer, perturb

if TYPE_CHECKING:
    from tracker.sim.match import Director

MAX_SHOTS_PER_GAME = 80  # a deadlocked game is closed by the referee (rulebook 2.8)


def _standard_setup(d: Director) -> Setup:
    from tracker.rules.korona.setup import standard_setup

    return standard_setup(d.cfg.players, d.cfg.discs_per_player or 8, d.board)  # type: ignore[arg-type]


def play_korona(d: Director, setup: Setup | None = None) -> None:
    from tracker.sim.match import foul_and_hit

    cfg, m, tl = d.cfg, d.m, d.m.timeline
    variant = cfg.variant or "fi"
    players: dict[str, KoronaPlayer] = {
        s: KoronaPlayer(s, d.board, d.params, d.skill, d.rng, variant) for s in d.seats}  # type: ignore[arg-type]
    games = 0
    while True:
        s = setup or _standard_setup(d)
        for did, (owner, at) in s.discs.items():
            disc = d.table.discs.get(did) or d.new_disc(did, owner)
            disc.x, disc.y, disc.state, disc.pocket = at[0], at[1], "surface", None
            tl.discs[did].key(d.t, at[0], at[1], 0.0, "surface")
        for seat, sid in s.strikers.items():
            if sid not in d.table.discs:
                d.new_disc(sid, seat, "striker")
        out = d.apply(s)
        d.t += 0.8
        turn = out.next_seat or d.seats[0]
        shots = 0
        expected = cfg.max_shots or 40 * cfg.rounds
        while True:
            seat = turn
            sid = s.strikers[seat]
            plan = d.planner(m, seat, sid) if d.planner else None
            if plan is None:
                own = {k for k, v in m.owner.items() if v == seat}
                plan = perturb(players[seat].plan(d.table.on_surface(), own), d.skill, d.rng)
            _, entry, t_shot, t_end = d.shoot(seat, sid, plan, place="cue")
            out = d.apply(entry)
            foul, hit = foul_and_hit(out)
            d.after_outcome(out, seat, t_shot, t_end, entry, foul, None)
            # The striker leaves the board when the turn passes; a player who shoots again
            # fetches it straight back to the striking line (place_and_cue picks it up).
            keeps_turn = out.next_seat == seat and not out.round_over
            if d.table.discs[sid].state != "off" and not keeps_turn:
                d.t = ch.lift_out(tl, d.board, d.hands, seat, sid, d.t) + 0.2
                d.table.discs[sid].state = "off"
            shots += 1
            d.maybe_bump(expected)
            stop = cfg.max_shots is not None and d.shots >= cfg.max_shots
            if not out.round_over and shots >= MAX_SHOTS_PER_GAME:
                out = d.apply(RoundEnd(line=len(m.entries) + 1))
            if out.round_over:  # the game's game_end event comes from the rules' outcome
                break
            if stop:
                break
            turn = out.next_seat or next_seat(seat, d.seats)  # type: ignore[arg-type]
        games += 1
        if out.game_over or games >= cfg.rounds or (cfg.max_shots is not None and d.shots >= cfg.max_shots):
            break
        d.t = ch.sweep_clear(tl, d.board, d.hands, d.seats[0], d.t + 0.6) + 0.3
        for disc in d.table.discs.values():
            disc.state = "off"
