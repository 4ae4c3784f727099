"""The game of Corona as a state machine: rounds, estimates, chips, the master, the end.

Rulebook sections (``shared/rules/corona-dice-game.txt``) and how each is read:

* **Before the Game**: every player starts with ``2n + 2`` chips (5 players: 12). The first
  "master of the stars" is chosen; afterwards the role passes "to the player to the left". Players
  are given in seating order going left (clockwise seen from above), so the next master is the next
  name in the list.
* **Flow of a round**: the master sets up (:class:`Setup`); estimates are called in any order,
  a player may call several, "each new estimate must be higher than the previous" (:class:`Bid`);
  when the hourglass stops (:class:`CloseBidding`) the highest estimate plays it out
  (:class:`PlayOut`). Reaching or beating the estimate "receives a chip from each fellow player";
  missing it "must pay a chip to each fellow player" and "may not offer an estimate in the next
  round".
* **End Game**, checked after every round: each player has been master once; the agreed duration
  has expired (:class:`TimeUp`); a player has no more chips; a player's start capital is doubled.
  The most chips wins (equal most: shared win).

Where the rulebook is silent the engine decides, and says so in the reason: a round with no
estimate passes without play; a loser who cannot pay everybody pays what he has, to the players on
his left first (chips are never created or destroyed); time running out in the middle of a round
ends the game after that round.

Rule violations (a low or barred estimate, an action out of turn) are *rejected*: the outcome
carries a ``rejected`` decision with the reason and the state does not change. Values that cannot
describe a real table (an unknown player, seven carriers, a die showing 9, a plan that moves a
carrier twice) raise :class:`tracker.errors.InputError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from tracker.errors import InputError
from tracker.rules.corona.actions import Bid, CloseBidding, CoronaAction, PlayOut, Setup, TimeUp
from tracker.rules.corona.model import Position, points_table, score_plan
from tracker.rules.corona.solver import best_plan
from tracker.rules.datatypes import Decision, Outcome

Phase = Literal["setup", "bidding", "play", "over"]


def start_chips(players: int) -> int:
    """Twice the number of players plus 2 (rulebook, "Before the Game")."""
    return 2 * players + 2


def estimate_is_legal(
    player: str, estimate: int, highest: tuple[str, int] | None, barred: str | None
) -> tuple[bool, str]:
    """May ``player`` call ``estimate`` now? ``(legal, reason)``."""
    if player == barred:
        return False, f"{player} may not estimate this round: they missed their estimate last round"
    if highest is not None and estimate <= highest[1]:
        return False, f"estimate {estimate} by {player} rejected: must be higher than {highest[1]} ({highest[0]})"
    return True, f"{player} estimates {estimate}"


def end_reasons(
    chips: dict[str, int], start: int, masters: set[str], time_up: bool
) -> list[str]:
    """Every end condition of the rulebook that holds now (empty: play on)."""
    reasons = []
    if masters >= set(chips):
        reasons.append("every player has been master of the stars once")
    if time_up:
        reasons.append("the agreed game duration has expired")
    reasons += [f"{p} has no more chips" for p, c in chips.items() if c <= 0]
    reasons += [
        f"{p} doubled the start capital ({c} chips, started with {start})"
        for p, c in chips.items()
        if c >= 2 * start
    ]
    return reasons


def winners(chips: dict[str, int]) -> tuple[str, ...]:
    """The players holding the most chips (several on a tie)."""
    most = max(chips.values())
    return tuple(p for p, c in chips.items() if c == most)


class CoronaGame:
    """One game of Corona. Feed it actions with :meth:`apply`; read :meth:`summary`.

    Pure: no clock, no I/O. The same actions always give the same outcomes, so a game is rebuilt
    by replaying its actions (:func:`replay`).
    """

    def __init__(self, players: Sequence[str], first_master: str | None = None, variant: str = "standard"):
        names = tuple(players)
        if len(names) < 2:
            raise InputError(f"players: Corona needs at least 2 players, got {len(names)}")
        if any(not isinstance(p, str) or not p.strip() for p in names):
            raise InputError("players: every player needs a non-empty name")
        if len(set(names)) != len(names):
            raise InputError(f"players: names must differ, got {', '.join(names)}")
        points_table(variant)  # validates the variant name
        self.players = names
        self.variant = variant
        self.start = start_chips(len(names))
        self.chips = {p: self.start for p in names}
        if first_master is None:
            first_master = names[0]
        self._check_player(first_master, "first master")
        self.master = first_master
        self.round = 1
        self.phase: Phase = "setup"
        self.position: Position | None = None
        self.highest: tuple[str, int] | None = None
        self.barred: str | None = None  # may not estimate in the current round
        self._bar_next: str | None = None
        self.masters: set[str] = set()
        self.time_up = False
        self.reasons: list[str] = []
        self._index = 0

    # -- the one entry point -------------------------------------------------------------------

    def apply(self, action: CoronaAction) -> Outcome:
        """Apply one action and say what it decided (``rejected`` decisions change nothing)."""
        if self.phase == "over":
            return self._reject(None, f"the game is over ({'; '.join(self.reasons)})")
        if isinstance(action, TimeUp):
            return self._time_up()
        if isinstance(action, Setup):
            return self._setup(action)
        if isinstance(action, Bid):
            return self._bid(action)
        if isinstance(action, CloseBidding):
            return self._close()
        if isinstance(action, PlayOut):
            return self._play(action)
        raise InputError(f"unknown Corona action {action!r}")

    # -- actions -------------------------------------------------------------------------------

    def _setup(self, a: Setup) -> Outcome:
        if self.phase != "setup":
            return self._reject(self.master, f"round {self.round} is already set up")
        self.position = Position.of(a.carriers, a.dice)
        self.phase, self.highest = "bidding", None
        why = (f"round {self.round}: {self.master}, master of the stars, set the carriers on fields "
               f"{_csv(self.position.carriers)} and threw {_csv(self.position.dice)}")
        decisions = [Decision("setup", why, seat=self.master)]
        if self.barred:
            decisions.append(Decision("barred", f"{self.barred} may not estimate this round", seat=self.barred))
        return self._out(self.master, decisions, next_seat=None)

    def _bid(self, a: Bid) -> Outcome:
        self._check_player(a.player, "bid")
        if isinstance(a.estimate, bool) or not isinstance(a.estimate, int) or a.estimate < 1:
            raise InputError(f"bid: an estimate is a whole number of points >= 1, not {a.estimate!r}")
        if self.phase != "bidding":
            return self._reject(a.player, f"estimate by {a.player} rejected: no round is being estimated")
        legal, why = estimate_is_legal(a.player, a.estimate, self.highest, self.barred)
        if not legal:
            return self._reject(a.player, why)
        self.highest = (a.player, a.estimate)
        return self._out(a.player, [Decision("estimate", why, seat=a.player, points=a.estimate)], None)

    def _close(self) -> Outcome:
        if self.phase != "bidding":
            return self._reject(None, "the hourglass is not running: no round is being estimated")
        if self.highest is None:
            d = Decision("no_estimate", f"round {self.round}: nobody estimated, the round passes without play")
            return self._end_round([d], actor=None)
        self.phase = "play"
        who, est = self.highest
        d = Decision("highest", f"{who} has the highest estimate, {est}, and plays it out", seat=who, points=est)
        return self._out(None, [d], next_seat=who)

    def _play(self, a: PlayOut) -> Outcome:
        if self.phase != "play" or self.highest is None or self.position is None:
            return self._reject(None, "no estimate is waiting to be played out")
        who, est = self.highest
        plan = score_plan(self.position, _pairs(a.moves), self.variant)
        best = best_plan(self.position, self.variant).score
        steps = ", ".join(f"{s.carrier}:{s.start}->{s.end}+{s.points}" for s in plan.steps)
        decisions = [Decision("played", f"{who} scored {plan.score} ({steps}); best possible {best}",
                              seat=who, points=plan.score)]
        fellows = self._left_of(who)
        if plan.score >= est:
            for p in fellows:
                self.chips[p] -= 1
            self.chips[who] += len(fellows)
            decisions.append(Decision(
                "success",
                f"{who} reached the estimate {est} with {plan.score}: receives a chip from each of "
                f"{len(fellows)} fellow players",
                seat=who, points=plan.score))
        else:
            paid = fellows[: self.chips[who]]
            for p in paid:
                self.chips[p] += 1
            self.chips[who] -= len(paid)
            short = "" if len(paid) == len(fellows) else (
                f" (had only {len(paid)}, paid to {', '.join(paid) or 'nobody'})")
            decisions.append(Decision(
                "failure",
                f"{who} missed the estimate {est} with {plan.score}: pays a chip to each fellow player"
                f"{short} and may not estimate next round",
                seat=who, points=plan.score))
            self._bar_next = who
        return self._end_round(decisions, actor=who)

    def _time_up(self) -> Outcome:
        self.time_up = True
        if self.phase == "setup":
            return self._end_round([], actor=None, round_played=False)
        d = Decision("time_up", "the agreed game duration has expired: the game ends after this round")
        return self._out(None, [d], next_seat=self._expected())

    # -- bookkeeping ---------------------------------------------------------------------------

    def _end_round(self, decisions: list[Decision], actor: str | None, round_played: bool = True) -> Outcome:
        if round_played:
            self.masters.add(self.master)
        self.reasons = end_reasons(self.chips, self.start, self.masters, self.time_up)
        if self.reasons:
            self.phase = "over"
            won = winners(self.chips)
            decisions.append(Decision(
                "game_over",
                f"game over: {'; '.join(self.reasons)}. Winner{'s' if len(won) > 1 else ''}: "
                f"{', '.join(won)} with {self.chips[won[0]]} chips"))
            return self._out(actor, decisions, next_seat=None, round_over=round_played, game_over=True)
        old = self.master
        self.master = self.players[(self.players.index(old) + 1) % len(self.players)]
        self.round += 1
        self.phase, self.position, self.highest = "setup", None, None
        self.barred, self._bar_next = self._bar_next, None
        decisions.append(Decision("master", f"{self.master} is now master of the stars (from {old})",
                                  seat=self.master))
        return self._out(actor, decisions, next_seat=self.master, round_over=True)

    def _left_of(self, player: str) -> list[str]:
        """The other players, starting with the one on ``player``'s left."""
        i = self.players.index(player)
        return [self.players[(i + k) % len(self.players)] for k in range(1, len(self.players))]

    def _expected(self) -> str | None:
        if self.phase == "setup":
            return self.master
        if self.phase == "play" and self.highest:
            return self.highest[0]
        return None

    def _check_player(self, name: str, what: str) -> None:
        if name not in self.players:
            raise InputError(f"{what}: unknown player {name!r} (players: {', '.join(self.players)})")

    def _reject(self, seat: str | None, reason: str) -> Outcome:
        return self._out(seat, [Decision("rejected", reason, seat=seat)], next_seat=self._expected())

    def _out(self, seat: str | None, decisions: list[Decision], next_seat: str | None,
             round_over: bool = False, game_over: bool = False) -> Outcome:
        out = Outcome(self._index, seat, tuple(decisions), (), next_seat, round_over, game_over)
        self._index += 1
        return out

    def summary(self) -> dict[str, Any]:
        """JSON-friendly state: chips, master, round, phase, the standing estimate, the end."""
        return {
            "game": "corona",
            "variant": self.variant,
            "players": list(self.players),
            "start_chips": self.start,
            "chips": dict(self.chips),
            "round": self.round,
            "master": self.master,
            "phase": self.phase,
            "position": None if self.position is None else {
                "carriers": list(self.position.carriers), "dice": list(self.position.dice)},
            "estimate": None if self.highest is None else {"player": self.highest[0], "points": self.highest[1]},
            "barred": self.barred,
            "game_over": self.phase == "over",
            "end_reasons": list(self.reasons),
            "winners": list(winners(self.chips)) if self.phase == "over" else [],
        }


def replay(players: Sequence[str], actions: Iterable[CoronaAction], **kwargs: Any) -> tuple[CoronaGame, list[Outcome]]:
    """A fresh game with every action applied in order: the state and each outcome."""
    game = CoronaGame(players, **kwargs)
    return game, [game.apply(a) for a in actions]


def _pairs(moves: Iterable[Any]) -> list[tuple[int, int]]:
    out = []
    for m in moves:
        try:
            c, d = m
            out.append((int(c), int(d)))
        except (TypeError, ValueError):
            raise InputError(f"plan: each move is a (carrier, die) pair, not {m!r}") from None
    return out


def _csv(values: Iterable[int]) -> str:
    return ",".join(str(v) for v in values)
