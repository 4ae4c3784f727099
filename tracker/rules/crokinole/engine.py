"""The crokinole referee: takes shot-log entries one at a time and returns an Outcome for each.

``CrokinoleEngine.apply(entry)`` is the whole contract (RulesEngine protocol). Every ruling is
delegated to a predicate of :mod:`tracker.rules.crokinole.predicates`; this class only keeps the
state (discs on the board, ditch, 20s, turn, round, totals) and orders the rulings of one shot:

1. must-hit: with an opponent disc on the board, the shot must strike one, else the shot disc and
   every own/partner disc it struck go to the ditch (and a 20 they made does not count); a line
   marked ``unseen`` (a shot the vision side missed, logged from where its disc was later found
   at rest) is not judged on it;
2. resting places: into the hole -> a 20 for the disc's owner; off the surface -> ditch;
3. no-opponent rule (optional): with no opponent disc on the board, the shot disc must stop in the
   15 zone or touching the 15 line, else it is removed (not judged on an ``unseen`` line either:
   its disc was found lying there, so nobody removed it);
4. shooting line: every disc resting on or outside it is removed.

The log is what was observed, so the engine follows it rather than refusing it: a shot out of
turn is played as observed, with a note. Only a seat that does not play in this game is an input
error. State is rebuilt exactly by replaying the same entries into a fresh engine.

Decision kinds: ``hit`` (a valid shot and what it struck), ``stays`` (the no-opponent rule was
met), ``removed`` (a :class:`Removal` with ``cause`` foul / shooting_line / no_opponent_rule /
off_board), ``twenty``, ``round_end`` (a :class:`RoundScore` with points and awarded per side),
``game_end`` (a :class:`GameEnd`), and ``note`` (something the log shows that breaks no scoring
rule: a shot out of turn, a disc shot from the wrong quadrant, an id played twice).
Actions: ``lift_out`` (put the disc in the ditch) and ``set_aside`` (a 20 out of the hole).
"""

from __future__ import annotations

from typing import Any

from tracker.boards.crokinole import CrokinoleBoard
from tracker.errors import InputError
from tracker.rules.crokinole import predicates as P
from tracker.rules.crokinole import scoring
from tracker.rules.crokinole.datatypes import (
    DiscAt,
    GameEnd,
    Removal,
    RoundRecord,
    RoundScore,
    Rules,
    Scoring,
)
from tracker.rules.crokinole.report import summary
from tracker.rules.datatypes import Action, Decision, Outcome
from tracker.seats import Seat, next_seat, seats_for, team_of
from tracker.shotlog import Entry, RoundEnd, Shot

DISCS_PER_PLAYER = {2: 12, 3: 8, 4: 6}


class CrokinoleEngine:
    """Referee and scorer of one crokinole game. See the module docstring for the order of rulings.

    ``players``: 2 (south v north), 3 (south, west, north, each their own side, 8 discs each) or
    4 (team A = south+north, team B = west+east, 6 discs each). ``rounds`` switches from "first to
    ``target``" to a fixed number of rounds with championship points (2 win, 1 tie, 0 loss).
    """

    def __init__(
        self,
        players: int = 2,
        board: CrokinoleBoard | None = None,
        scoring: Scoring = "differential",
        target: int = 100,
        rounds: int | None = None,
        no_opponent_rule: bool = True,
        first_seat: str = "south",
        discs_per_player: int | None = None,
    ) -> None:
        if players not in (2, 3, 4):
            raise InputError(f"crokinole: players must be 2, 3 or 4, not {players!r}")
        if scoring not in ("differential", "simple"):
            raise InputError(f"crokinole: scoring must be differential or simple, not {scoring!r}")
        if not isinstance(target, int) or target <= 0:
            raise InputError(f"crokinole: target must be a positive number of points, not {target!r}")
        if rounds is not None and (not isinstance(rounds, int) or rounds <= 0):
            raise InputError(f"crokinole: rounds must be a positive number, not {rounds!r}")
        self.seats: tuple[Seat, ...] = seats_for("crokinole", players)
        if first_seat not in self.seats:
            raise InputError(f"crokinole: first_seat must be one of {', '.join(self.seats)}, not {first_seat!r}")
        dpp = DISCS_PER_PLAYER[players] if discs_per_player is None else discs_per_player
        if not isinstance(dpp, int) or dpp <= 0:
            raise InputError(f"crokinole: discs_per_player must be a positive number, not {dpp!r}")
        self.rules = Rules(players, scoring, target, rounds, no_opponent_rule, first_seat, dpp)
        self.board = board or CrokinoleBoard()
        self.sides: tuple[str, ...] = tuple(dict.fromkeys(self.side_of_seat(s) for s in self.seats))
        self.owner: dict[str, str] = {}  # disc id -> seat that first shot it (all game)
        self.totals: dict[str, int] = dict.fromkeys(self.sides, 0)
        self.rounds: list[RoundRecord] = []
        self.winner: str | None = None
        self.game_over = False
        self.entries_applied = 0
        self._new_round(lead=first_seat)

    # ------------------------------------------------------------------ sides
    def side_of_seat(self, seat: str) -> str:
        return team_of(seat, "crokinole", self.rules.players)  # type: ignore[arg-type]

    def side_of_disc(self, disc: str) -> str | None:
        seat = self.owner.get(disc)
        return None if seat is None else self.side_of_seat(seat)

    # ------------------------------------------------------------------ state
    def _new_round(self, lead: str) -> None:
        self.round_index = len(self.rounds)
        self.lead: str = lead
        self.lead_fixed = False  # becomes True at the round's first shot
        self.turn: str = lead
        self.on_board: dict[str, DiscAt] = {}
        self.ditch: list[str] = []
        self.twenties: dict[str, list[str]] = {s: [] for s in self.sides}
        self.shots_by_seat: dict[str, int] = dict.fromkeys(self.seats, 0)
        self.shots_in_round = 0

    def round_points(self) -> dict[str, int]:
        """Points each side would count if the round ended now."""
        pts = {s: 20 * len(self.twenties[s]) for s in self.sides}
        for d in self.on_board.values():
            pts[d.side] += self.board.zone(d.x, d.y)
        return pts

    def state(self) -> dict[str, Any]:
        """Everything the engine knows, as plain data (replaying the log rebuilds it exactly)."""
        return {
            "round_index": self.round_index,
            "lead": self.lead,
            "turn": self.turn,
            "on_board": {k: (v.seat, v.x, v.y) for k, v in sorted(self.on_board.items())},
            "ditch": list(self.ditch),
            "twenties": {k: list(v) for k, v in self.twenties.items()},
            "shots_by_seat": dict(self.shots_by_seat),
            "round_points": self.round_points(),
            "rounds": [(r.points, r.awarded) for r in self.rounds],
            "totals": dict(self.totals),
            "winner": self.winner,
            "game_over": self.game_over,
        }

    def place(self, disc: str, seat: str, at: tuple[float, float]) -> None:
        """Put a disc of ``seat`` at rest on the board without a shot.

        For rulebook situations in tests and for a referee's correction; it counts no shot and
        makes no ruling (a disc placed on the shooting line stays until the next shot).
        """
        if seat not in self.seats:
            raise InputError(f"crokinole: seat {seat!r} does not play ({', '.join(self.seats)})")
        self.owner.setdefault(disc, seat)
        owner = self.owner[disc]
        self.on_board[disc] = DiscAt(disc, owner, self.side_of_seat(owner), float(at[0]), float(at[1]))

    # ------------------------------------------------------------------ protocol
    def apply(self, entry: Entry) -> Outcome:
        index = self.entries_applied
        self.entries_applied += 1
        if self.game_over:
            return Outcome(index, getattr(entry, "seat", None), (
                Decision("note", f"the game is over ({self._winner_text()}); entry ignored"),),
                next_seat=None, round_over=False, game_over=True)
        if isinstance(entry, RoundEnd):
            return self._apply_round_end(index)
        if isinstance(entry, Shot):
            return self._apply_shot(index, entry)
        raise InputError(f"shot log line {entry.line}: a korona setup line in a crokinole log")

    def summary(self) -> dict[str, Any]:
        """The SPEC section 4 summary (see :func:`tracker.rules.crokinole.report.summary`)."""
        return summary(self)

    # ------------------------------------------------------------------ one shot
    def _apply_shot(self, index: int, shot: Shot) -> Outcome:
        if shot.seat not in self.seats:
            raise InputError(
                f"shot log line {shot.line}: field 'seat' is {shot.seat!r}, who does not play in a "
                f"{self.rules.players}-player crokinole game ({', '.join(self.seats)})"
            )
        dec: list[Decision] = []
        act: list[Action] = []
        seat, side = shot.seat, self.side_of_seat(shot.seat)
        self._check_turn(shot, dec)
        self.owner.setdefault(shot.disc, seat)
        if self.side_of_disc(shot.disc) != side:
            dec.append(Decision("note", f"disc {shot.disc} belongs to {self.owner[shot.disc]}; "
                                f"shot by {seat}, it stays {self.owner[shot.disc]}'s", seat=seat))
        ok, why = P.started_in_own_quadrant(shot.disc, seat, shot.start, self.board)
        if not ok:
            dec.append(Decision("note", why, discs=(shot.disc,), seat=seat))
        if shot.disc in self.ditch or any(shot.disc in v for v in self.twenties.values()):
            # Physically impossible (a played disc is out of play until the round ends), so an
            # id reused by the tracker: the earlier ruling stands and this shot is played anew.
            dec.append(Decision("note", f"disc {shot.disc} was already played this round; shot again",
                                discs=(shot.disc,), seat=seat))
        if shot.disc in self.on_board:
            dec.append(Decision("note", f"disc {shot.disc} was already on the board; shot again"))
            del self.on_board[shot.disc]
        before = {k: (v.x, v.y) for k, v in self.on_board.items()}

        def is_own(disc: str) -> bool:
            return disc == shot.disc or self.side_of_disc(disc) == side

        opponents_on_board = any(d.side != side for d in self.on_board.values())
        ends = {k: v for k, v in shot.end.items() if k in before or k == shot.disc}
        for k in shot.end:
            if k not in ends:
                dec.append(Decision("note", f"disc {k} is not on the board; its reported move is ignored"))
        ends.setdefault(shot.disc, shot.start if shot.start is not None else "off")

        # 1. must-hit rule
        fouled: list[str] = []
        judged, why = P.judged_on_must_hit(shot)
        if opponents_on_board and not judged:
            dec.append(Decision("note", why, discs=(shot.disc,), seat=seat))
        elif opponents_on_board:
            ok, why = P.opponent_hit(shot, is_own, before, self.owner.get)
            if ok:
                dec.append(Decision("hit", why, discs=(shot.disc,), seat=seat))
            else:
                fouled = P.fouled_discs(shot, is_own, before)
                void = [d for d in fouled if P.in_hole(ends.get(d, before.get(d, (0.0, 0.0))), self.board)]
                text = f"foul: no opponent disc hit; {_and(fouled)} to the ditch"
                if void:
                    text += f" ({_and(void)} in the hole: no 20)"
                dec.append(Removal("removed", text, discs=tuple(fouled), seat=seat, cause="foul"))
                for d in fouled:  # a disc already off the surface needs no lifting
                    end = ends.get(d, before.get(d, (0.0, 0.0)))
                    lift = P.in_hole(end, self.board) or P.on_playing_surface(end, self.board)[0]
                    self._to_ditch(d, text, act, lift=lift)
        # 2. where the other moved discs came to rest
        for disc, end in ends.items():
            if disc in fouled:
                continue
            owner = self.owner[disc]
            if P.in_hole(end, self.board):
                self.on_board.pop(disc, None)
                self.twenties[self.side_of_seat(owner)].append(disc)
                text = f"20 for {self._owner_text(owner)} ({disc})"
                dec.append(Decision("twenty", text, discs=(disc,), seat=owner, points=20))
                act.append(Action("set_aside", disc, text))
                continue
            ok, why = P.on_playing_surface(end, self.board)
            if not ok:
                text = f"disc {disc} removed: {why}"
                dec.append(Removal("removed", text, discs=(disc,), seat=owner, cause="off_board"))
                self._to_ditch(disc, text, act, lift=False)
                continue
            assert not isinstance(end, str)
            self.on_board[disc] = DiscAt(disc, owner, self.side_of_seat(owner), end[0], end[1])
        # 3. shooting line (every disc at rest), then the no-opponent rule for the shot disc
        for disc in list(self.on_board):
            ok, why = P.clear_of_shooting_line(disc, self._xy(disc), self.board,
                                               disc == shot.disc and not shot.contacts)
            if not ok:
                dec.append(Removal("removed", why, discs=(disc,), seat=self.owner[disc], cause="shooting_line"))
                self._to_ditch(disc, why, act)
        if not opponents_on_board and self.rules.no_opponent_rule and shot.disc in self.on_board and not shot.unseen:
            ok, why = P.satisfies_no_opponent_rule(shot.disc, self._xy(shot.disc), self.board)
            if ok:
                dec.append(Decision("stays", why, discs=(shot.disc,), seat=seat))
            else:
                dec.append(Removal("removed", why, discs=(shot.disc,), seat=seat, cause="no_opponent_rule"))
                self._to_ditch(shot.disc, why, act)

        self.shots_by_seat[seat] += 1
        self.shots_in_round += 1
        self.turn = self._next_turn(seat)
        if all(self.shots_by_seat[s] >= self.rules.discs_per_player for s in self.seats):
            dec.extend(self._end_round("all_shot"))
            return Outcome(index, seat, tuple(dec), tuple(act), None if self.game_over else self.turn,
                           round_over=True, game_over=self.game_over)
        return Outcome(index, seat, tuple(dec), tuple(act), self.turn)

    def _check_turn(self, shot: Shot, dec: list[Decision]) -> None:
        if self.shots_in_round == 0:
            if shot.seat != self.lead:
                dec.append(Decision("note", f"{shot.seat} leads round {self.round_index + 1} "
                                    f"(expected {self.lead})", seat=shot.seat))
            self.lead = shot.seat
        elif shot.seat != self.turn:
            dec.append(Decision("note", f"out of turn: {shot.seat} shot, {self.turn} was to shoot; "
                                "played as observed", seat=shot.seat))
        if self.shots_by_seat[shot.seat] >= self.rules.discs_per_player:
            dec.append(Decision("note", f"{shot.seat} had already shot all "
                                f"{self.rules.discs_per_player} discs", seat=shot.seat))

    def _next_turn(self, seat: str) -> str:
        """Clockwise next seat with a disc left (all seats have equal discs, so normally the next)."""
        s = seat
        for _ in self.seats:
            s = next_seat(s, self.seats)  # type: ignore[arg-type]
            if self.shots_by_seat[s] < self.rules.discs_per_player:
                return s
        return next_seat(seat, self.seats)  # type: ignore[arg-type]

    def _xy(self, disc: str) -> tuple[float, float]:
        d = self.on_board[disc]
        return (d.x, d.y)

    def _to_ditch(self, disc: str, reason: str, act: list[Action], lift: bool = True) -> None:
        self.on_board.pop(disc, None)
        if disc not in self.ditch:
            self.ditch.append(disc)
        if lift:
            act.append(Action("lift_out", disc, reason))

    # ------------------------------------------------------------------ end of round / game
    def _apply_round_end(self, index: int) -> Outcome:
        if self.shots_in_round == 0 and not self.on_board and not any(self.twenties.values()):
            return Outcome(index, None, (Decision("note", "round_end line with nothing played this round; ignored"),),
                           next_seat=self.turn)
        dec = self._end_round("round_end_line")
        return Outcome(index, None, tuple(dec), (), None if self.game_over else self.turn,
                       round_over=True, game_over=self.game_over)

    def _end_round(self, ended_by: str) -> list[Decision]:
        points = self.round_points()
        championship = self.rules.rounds is not None
        awarded = scoring.award(points, self.rules.scoring, championship)
        for s, p in awarded.items():
            self.totals[s] += p
        rec = RoundRecord(
            index=self.round_index,
            lead=self.lead,
            shots=self.shots_in_round,
            twenties={s: len(v) for s, v in self.twenties.items()},
            discs=tuple(sorted(self.on_board.values(), key=lambda d: d.disc)),
            points=points,
            awarded=awarded,
            ended_by=ended_by,
        )
        self.rounds.append(rec)
        text = self._round_text(rec, championship)
        out: list[Decision] = [RoundScore("round_end", text, scores=points, awarded=awarded,
                                          round_index=rec.index)]
        if championship:
            assert self.rules.rounds is not None
            if len(self.rounds) >= self.rules.rounds:
                self.game_over, self.winner = True, scoring.championship_winner(self.totals)
        else:
            self.game_over, self.winner = scoring.game_winner(self.totals, self.rules.target)
            leaders = [s for s, p in self.totals.items() if p >= self.rules.target]
            if not self.game_over and len(leaders) > 1:
                out.append(Decision("note", f"{_and([self._side_text(s) for s in leaders])} reached "
                                    f"{self.rules.target} with equal totals; another round is played"))
        if self.game_over:
            out.append(GameEnd("game_end", f"game over: {self._winner_text()}", seat=self.winner,
                               winner=self.winner))
        lead = next_seat(self.lead, self.seats)  # type: ignore[arg-type]
        self._new_round(lead=lead)
        return out

    def _side_text(self, side: str) -> str:
        if self.rules.players == 3:
            return side
        return f"{side} ({'+'.join(s for s in self.seats if self.side_of_seat(s) == side)})"

    def _owner_text(self, seat: str) -> str:
        """``south`` with one player a side, ``A (north)`` in partnerships."""
        side = self.side_of_seat(seat)
        if sum(1 for s in self.seats if self.side_of_seat(s) == side) == 1:
            return seat
        return f"{side} ({seat})"

    def _round_text(self, rec: RoundRecord, championship: bool) -> str:
        scores = ", ".join(f"{s} {p}" for s, p in rec.points.items())
        winners = [f"{s} awarded {p}" for s, p in rec.awarded.items() if p > 0]
        unit = " championship points" if championship else ""
        verdict = ", ".join(winners) + unit if winners else "tie, nobody scores"
        return f"round {rec.index + 1}: {scores} -> {verdict}"

    def _winner_text(self) -> str:
        totals = ", ".join(f"{s} {p}" for s, p in self.totals.items())
        if self.winner is None:
            return f"draw ({totals})"
        return f"{self._side_text(self.winner)} wins ({totals})"


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
