"""``tracker rules``: referee and score a shot log with no video (SPEC section 3).

The summary JSON goes to stdout and every decision, with its reason, to stderr, one line each,
prefixed with the shot number, so ``tracker rules shots.jsonl > summary.json`` keeps the rulings
on the terminal. A malformed log line is refused by ``tracker.shotlog`` with the line number and
field (exit 2).
"""

from __future__ import annotations

import argparse
import sys

from tracker.cli.common import add_board, add_game, board_profile, players_type


def _on_off(text: str) -> bool:
    if text.lower() in ("on", "yes", "true", "1"):
        return True
    if text.lower() in ("off", "no", "false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected on or off, not {text!r}")


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {n}")
    return n


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "rules",
        help="referee and score a shot log (no video)",
        description="Referees and scores a shot log (shots.jsonl, SPEC 4b). Writes the summary JSON "
        "to stdout and each decision with its reason to stderr.",
    )
    add_game(p)
    p.add_argument("shots", metavar="SHOTS.jsonl", help="the shot log, or - for stdin")
    p.add_argument("--players", type=players_type, default=2, help="2, 3 or 4 (default 2)")
    p.add_argument("--variant", choices=("fi", "ru"), default=None, help="korona rulebook (default fi)")
    p.add_argument("--scoring", choices=("differential", "simple"), default="differential",
                   help="crokinole round scoring (default differential)")
    p.add_argument("--target", type=_positive, default=100, help="crokinole: points to win (default 100)")
    p.add_argument("--rounds", type=_positive, default=None,
                   help="crokinole: a fixed number of rounds with championship points (2/1/0); "
                   "korona: the number of games")
    p.add_argument("--no-opponent-rule", type=_on_off, default=True, metavar="on|off",
                   help="crokinole: with no opponent disc on the board the shot must reach the 15 line "
                   "(default on)")
    p.add_argument("--first-seat", choices=("south", "west", "north", "east"), default=None,
                   help="seat expected to start (default south; the log's first shot decides)")
    add_board(p)
    p.add_argument("--discs", type=int, choices=(8, 16), default=None,
                   help="korona: target discs per player (8 or 16)")
    p.set_defaults(func=run)


def _read_lines(path: str) -> list[str]:
    from tracker.cli.common import existing_file
    from tracker.errors import InputError

    if path == "-":
        return sys.stdin.read().splitlines()
    p = existing_file(path, "shot log")
    try:
        return p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"shot log {p}: cannot read ({e})") from None


def _options(args: argparse.Namespace) -> dict:
    if args.game == "crokinole":
        opts: dict = {
            "scoring": args.scoring,
            "target": args.target,
            "rounds": args.rounds,
            "no_opponent_rule": args.no_opponent_rule,
            "first_seat": args.first_seat or "south",
        }
        if args.board:
            opts["board"] = board_profile(args.board, args.game)
        return opts
    opts = {}
    if args.discs is not None:
        opts["discs_per_player"] = args.discs
    if args.first_seat is not None:
        opts["starter"] = args.first_seat
    if args.rounds is not None:
        opts["games"] = args.rounds  # korona: rounds are games (SPEC section 4)
    if args.board:
        opts["board"] = board_profile(args.board, args.game)
    return opts


def run(args: argparse.Namespace) -> int:
    import json

    from tracker.rules import engine_for
    from tracker.shotlog import Shot, parse_shot_log

    options = _options(args)  # (a bad --board is named before the log is read)
    entries = parse_shot_log(_read_lines(args.shots))
    engine = engine_for(args.game, args.players, args.variant, **options)
    shot_no = 0
    for entry in entries:
        outcome = engine.apply(entry)
        if isinstance(entry, Shot):
            shot_no += 1
            prefix = f"shot {shot_no} (line {entry.line}, {entry.seat})"
        else:
            prefix = f"line {entry.line}"
        for d in outcome.decisions:
            sys.stderr.write(f"{prefix}: {d.reason}\n")
    sys.stdout.write(json.dumps(engine.summary(), indent=2) + "\n")
    return 0
