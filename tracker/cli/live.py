"""``tracker live``: score a live camera (or a file played at its own rate) and serve the scoreboard.

``--board PROFILE`` (a board profile JSON or a built-in name such as ``carrom``, as for ``tracker
calibrate``) gives the board's figures; a missing or malformed profile, or one of the other game,
is refused (exit status 2) before the camera is opened.
"""

from __future__ import annotations

import argparse
import secrets
import sys

from tracker.cli.common import add_board, add_game, board_profile, players_type
from tracker.cli.serve import add_server_options, open_store, serve


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("live", help="run the pipeline on a live camera and serve the live scoreboard",
                       description=__doc__)
    p.add_argument("--camera", required=True,
                   help="camera index (0), stream URL (rtsp://..., http://...) or a video file played in real time")
    add_game(p)
    p.add_argument("--players", type=players_type, default=2)
    p.add_argument("--variant", choices=("fi", "ru"), help="korona rules variant (default fi)")
    add_board(p)
    p.add_argument("--fast", action="store_true", help="play a file as fast as it can be processed")
    p.add_argument("--paused", action="store_true",
                   help="start paused (a referee resumes from the page or POST /api/live/resume)")
    add_server_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tracker.app.live import LiveSession
    from tracker.app.processor import PipelineProcessor
    from tracker.app.server import create_app

    board = board_profile(args.board, args.game)
    store = open_store(args.db)
    token = args.token or secrets.token_urlsafe(16)
    processor = PipelineProcessor(args.game, args.players, variant=args.variant, board=board)
    session = LiveSession(store, args.camera, args.game, args.players, processor,
                          variant=args.variant, realtime=not args.fast)
    app = create_app(store, token=token, live=session)
    what = "resumed" if session.resumed else "started"
    print(f"{what} match {session.match_id} on camera {args.camera}; scoreboard on "
          f"http://{args.host}:{args.port}/  (database {store.path})", file=sys.stderr)
    print(f"referee token: {token}", file=sys.stderr, flush=True)
    if args.paused:
        session.source.pause()
    session.start()
    try:
        serve(app, args.host, args.port)
    finally:
        session.stop()
    return 0
