"""``tracker synth``: render a synthetic match with its ground truth.

A thin layer over :mod:`tracker.sim`: plays the match (physics, players, rules), renders it and
writes ``video.mp4``, ``truth.json``, ``shots.jsonl``, ``events.jsonl`` and ``frames.jsonl``.
"""

from __future__ import annotations

import argparse

from tracker.cli.common import add_game, number_type, players_type, size_type
from tracker.errors import InputError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="render a synthetic match with its ground truth",
                       description="Play a synthetic match (physics, simulated players, the rules) "
                       "and write video.mp4, truth.json, shots.jsonl, events.jsonl and frames.jsonl.")
    add_game(p)
    p.add_argument("--players", type=players_type, default=2, help="2, 3 or 4 (default 2)")
    p.add_argument("--seed", type=number_type("seed", int, lo=0), default=0, help="random seed (same seed, same match)")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--preset", choices=("easy", "hard"), default="easy", help="camera, look and player error")
    p.add_argument("--rounds", type=number_type("rounds", int, lo=1), default=1,
                   help="crokinole rounds / korona games to play (default 1)")
    p.add_argument("--size", type=size_type, default=(1280, 720), help="video size WxH (default 1280x720)")
    p.add_argument("--fps", type=number_type("fps", float, 1.0, 240.0), default=30.0, help="frames per second (default 30)")
    p.add_argument("--max-shots", type=number_type("max-shots", int, lo=1), default=None,
                   help="stop after this many shots (a clip of part of a round)")
    p.add_argument("--bump", choices=("auto", "on", "off"), default="auto",
                   help="knock the camera part way through (auto: by chance, per preset)")
    p.add_argument("--discs", type=int, choices=(8, 16), default=None, help="korona discs per player")
    p.add_argument("--variant", choices=("fi", "ru"), default=None,
                   help="korona rules: fi (Finnish rulebook, default) or ru (Russian variant)")
    p.add_argument("--no-video", action="store_true", help="write the truth files only")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tracker.cli.common import output_dir

    out = output_dir(args.out)
    if args.game == "crokinole" and args.discs is not None:
        raise InputError("--discs is for korona (crokinole uses the rulebook's discs per player)")
    if args.game == "crokinole" and args.variant is not None:
        raise InputError("--variant is for korona (fi or ru); crokinole has no variants")
    from tracker.sim.match import MatchConfig, run_match
    from tracker.sim.output import terminal_progress, write_match

    cfg = MatchConfig(
        game=args.game,
        players=args.players,
        seed=args.seed,
        preset=args.preset,
        rounds=args.rounds,
        discs_per_player=args.discs,
        max_shots=args.max_shots,
        camera_bump={"auto": None, "on": True, "off": False}[args.bump],
        size=args.size,
        variant=args.variant,
    )
    match = run_match(cfg)
    figures = write_match(match, out, args.fps, video=not args.no_video,
                          progress=terminal_progress(f"synth {args.game} seed {args.seed}"))
    print(f"{out}: {figures['frames']} frames, {figures['duration_s']:.1f} s, "
          f"{len(match.entries)} log lines")
    return 0
