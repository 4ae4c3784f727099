"""KoronaEngine: referees a korona match from its shot log (Finnish rulebook or Russian variant).

The engine owns what is common to both rulebooks: games started by setup lines, whose turn it is,
the end of a game, the match of N games and the summary. What a shot means is the variant judge's
business (:mod:`.finnish`, :mod:`.russian`), composed of small pure predicates; the course of a
game (equalising turns, who lost) is in :mod:`.games`.

Inspectable state: ``table`` (every disc with owner and position or pocket), ``turn``,
``pocketed()``, ``fouls()``, ``won`` (games won per seat), ``pending`` (the actions of the last
shot), ``debts`` (Russian penalty pawns owed), ``history`` (every game), ``state()`` (all of it).

Turns, games and the match (Finnish rulebook 2.3-2.5, 2.9):
- The turn passes clockwise; "the opponent" (who places discs back) is the next player in turn.
  A shot by another player than the one whose turn it is is played as observed, with a note, and
  play goes on from him (neither rulebook penalises it; an observer that missed a pocket would
  otherwise lose every later shot); in an equalising turn only its players may shoot.
- A game ends when a player has pocketed all his discs and the players after him who have had one
  turn fewer (those before the starter comes round again) have had their equalising turn. With two
  players this is the rulebook's rule: only the non-starter gets an equalising turn. A player
  whose discs are all gone has no shot left, so his turn ends. Every player who has pocketed all
  his discs when the game ends shares it: one is the winner, more is a draw.
- Russian variant: "whoever pockets all his pawns first wins": no equalising turn; a player who
  owes penalty pawns has not finished (the debt is paid from the pawns he pockets).
- The loser of a game starts the next. With 3-4 players the loser is the one with most discs left
  (ties: the first clockwise after the winner); after a draw the starter moves one seat clockwise.
- A setup line during an unfinished game restarts it (deadlock, rule 2.8): the game is recorded
  as abandoned, does not count, and the same player starts again.
- A ``round_end`` line closes a game early: the player with fewest discs left wins (tie: draw).

``Outcome.round_over`` is set when a game ends (korona games are the summary's rounds);
``Outcome.game_over`` when the match of ``games`` games is complete.

Hand placements: actions (a disc into the centre circle, a penalty pawn) are applied at once at a
default spot, so the state is always complete; a later shot's ``placed`` moves them to where the
players actually put them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tracker.boards.korona import KoronaBoard
from tracker.errors import InputError
from tracker.rules.datatypes import Action, Decision, Outcome
from tracker.rules.korona.datatypes import Context, Observation, Verdict, observe
from tracker.rules.korona.finnish import REFEREE_FI, judge_fi
from tracker.rules.korona.games import Game, end_turn, loser_of
from tracker.rules.korona.russian import REFEREE_RU, judge_ru
from tracker.rules.korona.setup import line_shot_winner
from tracker.rules.korona.table import Table
from tracker.seats import Seat, next_seat, opposite, seats_for
from tracker.shotlog import Entry, RoundEnd, Setup, Shot

Judge = Callable[[Table, Shot, Observation, Context], Verdict]


class KoronaEngine:
    """Referee of a korona match; implements :class:`tracker.rules.datatypes.RulesEngine`."""

    def __init__(
        self,
        players: int = 2,
        variant: str = "fi",
        discs_per_player: int = 8,
        games: int | None = None,
        board: KoronaBoard | None = None,
        starter: str | None = None,
    ) -> None:
        if players not in (2, 3, 4):
            raise InputError(f"korona: players must be 2, 3 or 4, got {players!r}")
        if variant not in ("fi", "ru"):
            raise InputError(f"korona: variant must be 'fi' (Finnish rulebook) or 'ru', got {variant!r}")
        if discs_per_player not in (8, 16):
            raise InputError(f"korona: discs_per_player must be 8 or 16, got {discs_per_player!r}")
        if games is not None and (not isinstance(games, int) or games < 1):
            raise InputError(f"korona: games must be a positive number, got {games!r}")
        self.seats: tuple[Seat, ...] = seats_for("korona", players)
        if starter is not None and starter not in self.seats:
            raise InputError(f"korona: starter must be one of {', '.join(self.seats)}, got {starter!r}")
        self.players = players
        self.variant = variant
        self.discs_per_player = discs_per_player
        self.games = games
        self.board = board or KoronaBoard()
        self.starter: Seat | None = starter  # type: ignore[assignment]
        self._judge: Judge = judge_fi if variant == "fi" else judge_ru
        self._referee = REFEREE_FI if variant == "fi" else REFEREE_RU
        self.table: Table | None = None
        self.strikers: dict[str, str] = {}
        self.turn: Seat | None = None
        self.history: list[Game] = []
        self.won: dict[str, int] = {s: 0 for s in self.seats}
        self.debts: dict[str, int] = {s: 0 for s in self.seats}
        self.pending: list[Action] = []
        self.applied = 0

    # ------------------------------------------------------------------ inspection
    @property
    def game(self) -> Game | None:
        return self.history[-1] if self.history else None

    @property
    def match_over(self) -> bool:
        return self.games is not None and self._counted() >= self.games

    def pocketed(self) -> dict[str, int]:
        t = self.table
        return {s: (t.count_pocketed(s) if t else 0) for s in self.seats}

    def fouls(self) -> dict[str, int]:
        """Fouls per seat in the current game."""
        g = self.game
        return {s: (g.fouls.get(s, 0) if g else 0) for s in self.seats}

    def state(self) -> dict[str, Any]:
        """Everything that decides the future of the match, as plain comparable data."""
        g = self.game
        return {
            "turn": self.turn,
            "table": self.table.snapshot() if self.table else None,
            "games": [(x.index, x.starter, x.shots, dict(x.fouls), list(x.finishers), x.equalisers,
                       x.over, x.abandoned, x.winner) for x in self.history],
            "current": g.index if g else None,
            "won": dict(self.won),
            "debts": dict(self.debts),
            "pending": list(self.pending),
        }

    # ------------------------------------------------------------------ protocol
    def apply(self, entry: Entry) -> Outcome:
        index = self.applied
        line = entry.line or index + 1
        if isinstance(entry, Setup):
            out = self._setup(entry, index, line)
        elif isinstance(entry, Shot):
            out = self._shot(entry, index, line)
        elif isinstance(entry, RoundEnd):
            out = self._round_end(index)
        else:
            raise InputError(f"shot log line {line}: not a korona entry")
        self.applied += 1
        return out

    def summary(self) -> dict[str, Any]:
        rounds = []
        for g in self.history:
            final = g.final if g.final is not None else self._final()
            r: dict[str, Any] = {
                "index": g.index,
                "shots": g.shots,
                "starter": g.starter,
                "pocketed": final["pocketed"],
                "fouls": {s: g.fouls.get(s, 0) for s in self.seats},
                "winner": g.winner,
                "over": g.over,
                "discs": final["discs"],
            }
            if g.abandoned:
                r["abandoned"] = True
            if self.variant == "ru":
                r["debts"] = final["debts"]
            rounds.append(r)
        best = max(self.won.values())
        leaders = [s for s, n in self.won.items() if n == best]
        return {
            "game": "korona",
            "variant": self.variant,
            "players": self.players,
            "rounds": rounds,
            "totals": dict(self.won),
            "winner": leaders[0] if best > 0 and len(leaders) == 1 else None,
        }

    # ------------------------------------------------------------------ entries
    def _setup(self, s: Setup, index: int, line: int) -> Outcome:
        if self.match_over:
            raise InputError(f"shot log line {line}: the match of {self.games} games is over")
        counts: dict[str, int] = {seat: 0 for seat in self.seats}
        for did, (owner, at) in s.discs.items():
            if owner not in self.seats:
                raise InputError(f"shot log line {line}: disc {did} belongs to {owner}, who does not play "
                                 f"with {self.players} players ({', '.join(self.seats)})")
            if not self.board.on_surface(*at):
                raise InputError(f"shot log line {line}: disc {did} at {list(at)} is off the playing area")
            counts[owner] += 1
        if len(set(counts.values())) != 1 or 0 in counts.values():
            raise InputError(f"shot log line {line}: every player needs the same number of discs, got "
                             + ", ".join(f"{k} {v}" for k, v in counts.items()))
        strikers = {str(seat): s.strikers.get(seat, seat[0].upper()) for seat in self.seats}
        clash = set(strikers.values()) & set(s.discs)
        if clash:
            raise InputError(f"shot log line {line}: {sorted(clash)[0]!r} is both a striker and a target disc")
        dec: list[Decision] = []
        g = self.game
        if g is not None and not g.over:
            g.over, g.abandoned, g.final = True, True, self._final()
            dec.append(Decision("game_abandoned", f"game {g.index + 1} restarted before its end "
                                "(deadlock, rule 2.8): it does not count"))
        starter, why = self._starter(s)
        if counts[starter] != self.discs_per_player:
            dec.append(Decision("note", f"{counts[starter]} discs each (expected {self.discs_per_player})"))
        n = self._counted()
        self.history.append(Game(index=len(self.history), starter=starter))
        self.table = Table(self.board, dict(s.discs))  # type: ignore[arg-type]
        self.strikers = strikers
        self.debts = {seat: 0 for seat in self.seats}
        self.pending = []
        self.turn = starter
        dec.append(Decision("game_start", f"game {n + 1} starts: {why}", seat=starter))
        return Outcome(index, None, tuple(dec), (), next_seat=starter)

    def _starter(self, s: Setup) -> tuple[Seat, str]:
        done = [g for g in self.history if g.over]
        if done and done[-1].abandoned:
            return done[-1].starter, f"{done[-1].starter} starts again"
        if done:
            last = done[-1]
            loser = loser_of(last, self.seats)
            if last.winner is None:
                return loser, f"game {self._counted()} was drawn: {loser} starts"
            return loser, f"{loser} lost game {self._counted()} and starts (rule 2.3)"
        if self.starter is not None:
            return self.starter, f"{self.starter} starts (given)"
        if s.line_shot:
            winner, words = line_shot_winner(s.line_shot)
            if s.starter is not None and self.variant == "fi":
                return s.starter, f"{words}: {winner} wins it and chooses {s.starter} to start"  # type: ignore[return-value]
            return winner, f"{words}: {winner} wins it and starts"
        if s.starter is not None:
            return s.starter, f"{s.starter} starts (named in the setup line)"  # type: ignore[return-value]
        return self.seats[0], f"no line shot in the log: {self.seats[0]} starts (assumed)"

    def _shot(self, shot: Shot, index: int, line: int) -> Outcome:
        g, t = self.game, self.table
        if g is None or t is None:
            raise InputError(f"shot log line {line}: a korona shot log starts with a setup line")
        if g.over:
            raise InputError(f"shot log line {line}: game {self._counted()} is over; expected a setup line")
        late = self._out_of_turn(shot, g, line)
        if shot.disc != self.strikers[shot.seat]:
            raise InputError(f"shot log line {line}: 'disc' must be {shot.seat}'s striker "
                             f"{self.strikers[shot.seat]!r}, got {shot.disc!r}")
        bad = [r for r in shot.referee if r not in self._referee]
        if bad:
            raise InputError(f"shot log line {line}: unknown referee input {bad[0]!r} "
                             f"(expected {', '.join(self._referee)})")
        undo = self._placed(shot, t, line)
        try:
            obs = observe(t, shot, self.strikers, line)
        except InputError:
            for did, at in undo.items():  # a refused line leaves the state as it was
                t.move(did, at)
            raise
        seat: Seat = shot.seat  # type: ignore[assignment]
        self.turn = seat  # (the same seat, or one that shot out of turn: ``_out_of_turn``)
        ctx = Context(seat, shot.disc, next_seat(seat, self.seats), line)
        v = self._judge(t, shot, obs, ctx)
        g.shots += 1
        if v.foul:
            g.fouls[seat] = g.fouls.get(seat, 0) + 1
        dec = ([late] if late else []) + list(v.decisions)
        acts = list(v.actions)
        if self.variant == "ru":
            self.debts[seat] += v.debt
            acts += self._pay_debts(t, dec)
        self.pending = acts
        if v.ends_game:
            self._finish(g, [v.winner] if v.winner else [], dec)
            return self._outcome(index, seat, dec, acts)
        done = [s for s in self.seats if t.count_on_table(s) == 0 and self.debts[s] == 0]
        new = [s for s in done if s not in g.finishers]
        for s in new:
            g.finishers.append(s)
            dec.append(Decision("finished", f"{s} has pocketed all discs", seat=s))
        if self.variant == "ru" and done:
            self._finish(g, done, dec)
            return self._outcome(index, seat, dec, acts)
        if v.turn_continues and not new:
            noun = "disc" if self.variant == "fi" else "pawn"
            dec.append(Decision("turn", f"{seat} pocketed an own {noun} and shoots again", seat=seat))
            return self._outcome(index, seat, dec, acts)
        nxt = end_turn(g, seat, self.seats)
        if nxt is None:
            self._finish(g, g.finishers, dec)
        else:
            self._say_turn(dec, seat, nxt, g)
            self.turn = nxt
        return self._outcome(index, seat, dec, acts)

    def _round_end(self, index: int) -> Outcome:
        g, t = self.game, self.table
        if g is None or t is None or g.over:
            return Outcome(index, None, (Decision("note", "round_end: no game in progress"),))
        left = {s: t.count_on_table(s) for s in self.seats}
        fewest = min(left.values())
        best = [s for s in self.seats if left[s] == fewest]
        dec = [Decision("game_closed", "round_end closes the game early: "
                        + ", ".join(f"{s} has {n} left" for s, n in left.items()))]
        self._finish(g, best, dec)
        return self._outcome(index, None, dec, [])

    # ------------------------------------------------------------------ helpers
    def _out_of_turn(self, shot: Shot, g: Game, line: int) -> Decision | None:
        """A shot by a player whose turn the rules did not expect is played as observed, and the
        turn is his from then on: the shot happened, and the usual cause is an earlier pocket
        or foul the observer missed (a camera, or a scorer's slip), after which refusing every
        later shot of that player would lose the rest of the game. The note says so. A seat
        that does not play, or a player shooting after his game is done (an equalising turn
        that is not his), is refused."""
        if shot.seat == self.turn:
            return None
        if shot.seat not in self.seats:
            raise InputError(f"shot log line {line}: {shot.seat} does not play in this "
                             f"{len(self.seats)}-player game")
        if g.equalisers is not None and shot.seat not in g.equalisers:
            raise InputError(f"shot log line {line}: {shot.seat} shot but it is {self.turn}'s "
                             "equalising turn")
        return Decision("note", f"out of turn: {shot.seat} shot, {self.turn} was to shoot; played as "
                        "observed (a pocket or foul before it may have been missed)", seat=shot.seat)

    def _placed(self, shot: Shot, t: Table, line: int) -> dict[str, tuple[float, float]]:
        """Move the discs just put back by hand to where they were put; returns their old spots."""
        due = {a.disc for a in self.pending}
        for did, at in shot.placed.items():
            if did not in due:
                raise InputError(f"shot log line {line}: placed.{did}: {did} was not due to be placed by hand")
            if not self.board.on_surface(*at):
                raise InputError(f"shot log line {line}: placed.{did}: {list(at)} is off the playing area")
        undo = {did: t.discs[did].at for did in shot.placed if t.discs[did].at is not None}
        for did, at in shot.placed.items():
            t.move(did, at)
        return undo  # type: ignore[return-value]

    def _pay_debts(self, t: Table, dec: list[Decision]) -> list[Action]:
        acts: list[Action] = []
        for s in self.seats:
            while self.debts[s] > 0 and t.pocketed(s):
                did = t.pocketed(s)[-1]
                at = t.penalty_spot(s)
                t.put_back(did, at)
                self.debts[s] -= 1
                acts.append(Action("place_penalty", did, f"{s} pays a penalty pawn owed", at=at, by=s))
                dec.append(Decision("debt_paid", f"{s} now has a pocketed pawn: owed penalty pawn {did} goes "
                                    f"on {opposite(s)}'s rim zone", discs=(did,), seat=s))
        return acts

    def _say_turn(self, dec: list[Decision], seat: Seat, nxt: Seat, g: Game) -> None:
        tail = f"turn passes to {nxt}"
        if g.equalisers:
            tail += " for an equalising turn (rule 2.5)"
        for i, d in enumerate(dec):
            if d.kind in ("foul", "unsuccessful"):
                dec[i] = Decision(d.kind, f"{d.reason}; {tail}", d.discs, d.seat, d.points)
                return
        dec.append(Decision("turn", tail, seat=nxt))

    def _finish(self, g: Game, winners: list[Seat], dec: list[Decision]) -> None:
        g.over = True
        g.winner = winners[0] if len(winners) == 1 else None
        g.final = self._final()
        self.turn = None
        n = self._counted()
        if g.winner is not None:
            self.won[g.winner] += 1
            dec.append(Decision("game_over", f"game {n} over: {g.winner} wins", seat=g.winner))
        else:
            who = " and ".join(winners) if winners else "nobody"
            dec.append(Decision("game_over", f"game {n} over: a draw ({who} finished)"))
        if self.match_over:
            dec.append(Decision("match_over", f"match of {self.games} games over: "
                                + ", ".join(f"{s} {w}" for s, w in self.won.items())))

    def _final(self) -> dict[str, Any]:
        t = self.table
        assert t is not None
        return {
            "pocketed": {s: t.count_pocketed(s) for s in self.seats},
            "left": {s: t.count_on_table(s) for s in self.seats},
            "debts": dict(self.debts),
            "discs": [{"id": d.id, "seat": d.owner, "x_mm": d.at[0], "y_mm": d.at[1]}
                      for d in t.on_table() if d.at is not None],
        }

    def _counted(self) -> int:
        return sum(1 for g in self.history if g.over and not g.abandoned)

    def _outcome(self, index: int, seat: Seat | None, dec: list[Decision], acts: list[Action]) -> Outcome:
        g = self.game
        over = bool(g and g.over)
        return Outcome(index, seat, tuple(dec), tuple(acts), next_seat=self.turn, round_over=over,
                       game_over=over and self.match_over)
