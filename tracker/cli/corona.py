"""``tracker corona``: the Corona dice game - best plan, score of a plan, replay of a game log.

    tracker corona best  --carriers 0,0,3,5,7,7 --dice 1,2,3,4,5,6 [--variant empty-zero] [--json]
    tracker corona score --carriers 0,0,3,5,7,7 --dice 1,2,3,4,5,6 --plan 0:3,2:4,3:2,4:5,1:1,5:6
    tracker corona game  --players ann,bob,cy game.jsonl [--first-master bob] [--json]

The game log has one JSON action a line (see tracker.rules.corona.actions): setup, bid, close,
play, time_up; ``game`` replays it and prints every ruling with its reason and the chips.

Fields are numbered 0..11 clockwise; carrier ``i`` is the ``i``-th value of ``--carriers``; a plan
step ``c:d`` moves carrier ``c`` with the die showing ``d``. A thin layer over
:mod:`tracker.rules.corona`; lists are parsed here so a bad value is one clear line (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tracker.errors import InputError

# The scoring variants of tracker.rules.corona.model (a test keeps the two equal); not imported
# here so `tracker --help` does not load the rules package.
VARIANTS = ("standard", "empty-zero", "others")


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("corona", help="Corona dice game: best plan for carriers and dice",
                              description="Corona dice game: the best plan for carriers and dice, the score "
                                          "of a plan, or the replay of a game log.")
    sub = p.add_subparsers(dest="corona_command", metavar="{best,score,game}", parser_class=type(p))
    for name, text in (("best", "print the best plan and its score"),
                       ("score", "score a given plan step by step")):
        q = sub.add_parser(name, help=text)
        q.add_argument("--carriers", required=True, help="6 field numbers 0..11, e.g. 0,0,3,5,7,7")
        q.add_argument("--dice", required=True, help="6 dice values 1..6, e.g. 1,2,3,4,5,6")
        q.add_argument("--variant", choices=VARIANTS, default="standard",
                       help="standard: empty field 1, +1 per carrier there; empty-zero: empty "
                            "field 0 (translator's note); others: 1 per carrier already there")
        q.add_argument("--json", action="store_true", help="machine-readable output")
        if name == "score":
            q.add_argument("--plan", required=True, help="moves in order, carrier:die, e.g. 0:3,2:4,...")
    g = sub.add_parser("game", help="replay a game log (JSON lines of actions): rulings and chips")
    g.add_argument("log", help="game log: one JSON action a line")
    g.add_argument("--players", required=True, help="names in seating order going left, e.g. ann,bob,cy")
    g.add_argument("--first-master", default=None, help="first master of the stars (default: first player)")
    g.add_argument("--variant", choices=VARIANTS, default="standard", help="scoring variant")
    g.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _ints(text: str, what: str) -> list[int]:
    parts = [t.strip() for t in text.replace(" ", ",").split(",") if t.strip()]
    try:
        return [int(t) for t in parts]
    except ValueError:
        raise InputError(f"--{what}: expected comma-separated whole numbers, not {text!r}") from None


def _moves(text: str) -> list[tuple[int, int]]:
    moves = []
    for part in (t.strip() for t in text.split(",")):
        c, sep, d = part.partition(":")
        try:
            if not sep:
                raise ValueError
            moves.append((int(c), int(d)))
        except ValueError:
            raise InputError(f"--plan: each step is carrier:die like 2:4, not {part!r}") from None
    return moves


def run(args: argparse.Namespace) -> int:
    from tracker.rules.corona.model import Position, score_plan
    from tracker.rules.corona.solver import best_plan

    if not getattr(args, "corona_command", None):
        raise InputError("choose a subcommand: best, score or game (see tracker corona --help)")
    if args.corona_command == "game":
        return _game(args)
    position = Position.of(_ints(args.carriers, "carriers"), _ints(args.dice, "dice"))
    if args.corona_command == "best":
        plan = best_plan(position, args.variant)
        title = "best plan"
    else:
        plan = score_plan(position, _moves(args.plan), args.variant)
        title = "plan"
    if args.json:
        out = {"carriers": list(position.carriers), "dice": list(position.dice), **plan.to_json()}
        if args.corona_command == "score":
            out["best_score"] = best_plan(position, args.variant).score
        sys.stdout.write(json.dumps(out) + "\n")
        return 0
    lines = [f"{title} ({args.variant} scoring) for carriers {_csv(position.carriers)}, "
             f"dice {_csv(position.dice)}:",
             "step  die  carrier  from  to  points"]
    for i, s in enumerate(plan.steps, 1):
        lines.append(f"{i:>4}  {s.die:>3}  {s.carrier:>7}  {s.start:>4}  {s.end:>2}  {s.points:>6}")
    lines.append(f"score {plan.score}")
    if args.corona_command == "score":
        lines.append(f"best possible {best_plan(position, args.variant).score}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _game(args: argparse.Namespace) -> int:
    from tracker.cli.common import existing_file
    from tracker.rules.corona.actions import action_from_json
    from tracker.rules.corona.game import CoronaGame

    path = existing_file(args.log, "game log")
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    game = CoronaGame(players, first_master=args.first_master, variant=args.variant)
    outcomes = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}:{n}: not JSON ({e.msg})") from None
        try:
            outcomes.append(game.apply(action_from_json(obj)))
        except InputError as e:
            raise InputError(f"{path}:{n}: {e}") from None
    summary = game.summary()
    if args.json:
        sys.stdout.write(json.dumps({"outcomes": [o.to_json() for o in outcomes], "summary": summary}) + "\n")
        return 0
    lines = [f"{o.index:>3}  {d.reason}" for o in outcomes for d in o.decisions]
    chips = ", ".join(f"{p} {c}" for p, c in summary["chips"].items())
    lines.append(f"chips: {chips}")
    if summary["game_over"]:
        lines.append(f"winner: {', '.join(summary['winners'])}")
    else:
        lines.append(f"round {summary['round']}, master {summary['master']}, phase {summary['phase']}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _csv(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values))
