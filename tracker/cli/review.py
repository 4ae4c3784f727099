"""``tracker review VIDEO --game crokinole|korona [--players N] [--out DIR] [--annotate] [--board PROFILE]``.

Scores a recorded match: finds the board, follows every disc, cuts the video into shots, writes
what it saw as a shot log and lets the rules engine referee it. Writes ``events.jsonl``,
``shots.jsonl`` and ``summary.json`` (SPEC section 4) to DIR (default
``./tracker-out/<video name>/``), with ``--annotate`` also ``annotated.mp4``, and prints the
score table. A damaged video is scored as far as it could be read, and the command says where it
stopped. A still image, an unreadable video or one with no board is one line and exit status 2,
with nothing written (a photo of a crokinole round is scored by ``tracker photo``).

``--board PROFILE`` (a board profile JSON, or a built-in name such as ``carrom``) gives the board's
figures, as for ``tracker calibrate``: the board is fitted and the discs are sized and scored on
it. A missing or malformed profile, or one of the other game, is refused (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracker.cli.common import add_board, add_game, board_profile, existing_file, players_type
from tracker.errors import InputError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("review", help="score a recorded match from its video", description=__doc__)
    p.add_argument("video", metavar="VIDEO", help="the video file (mp4, avi, mov, ...)")
    add_game(p)
    p.add_argument("--players", type=players_type, default=2, help="2, 3 or 4 (default 2)")
    p.add_argument("--out", help="output folder (default ./tracker-out/<video name>/)")
    p.add_argument("--annotate", action="store_true", help="also write annotated.mp4")
    p.add_argument("--south", choices=("top", "left", "right", "bottom"),
                   help="which image edge the south seat is at (default bottom)")
    p.add_argument("--variant", choices=("fi", "ru"), help="korona rulebook (default fi)")
    add_board(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tracker.pipeline.review import progress_bar, review_video, score_table

    if args.variant is not None and args.game != "korona":
        raise InputError("--variant is for korona (fi or ru); crokinole has no variants")
    board = board_profile(args.board, args.game)
    video = existing_file(args.video, "video")
    out = Path(args.out or Path("tracker-out") / video.stem)  # made by review_video once the video opens
    rules = {"variant": args.variant} if args.variant else None
    bar = progress_bar()
    result = review_video(video, args.game, args.players, out, annotate=args.annotate,
                          south=args.south, rules=rules, progress=bar, board=board)
    if bar is not None:
        sys.stderr.write("\n")
    print(score_table(result.summary))
    for w in result.warnings:
        sys.stderr.write(f"tracker review: {w}\n")
    if result.stopped_early:
        sys.stderr.write(f"tracker review: {video}: the video is damaged and stopped at {result.stopped_early}; "
                         f"scored what was readable\n")
    print(f"wrote {out}/events.jsonl, shots.jsonl, summary.json" + (", annotated.mp4" if args.annotate else ""))
    return 0
