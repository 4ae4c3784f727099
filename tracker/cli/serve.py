"""``tracker serve``: the web app (scoreboard, review uploads, match history, corrections)."""

from __future__ import annotations

import argparse
import secrets
import sys


def add_server_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--db", help="match database file (default: $TRACKER_DB or the user data folder)")
    p.add_argument("--token", help="referee token (default: a new random token, printed at start-up)")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="the web app: review videos, browse matches, correct calls")
    add_server_options(p)
    p.set_defaults(func=run)


def open_store(db: str | None):  # type: ignore[no-untyped-def]
    from tracker.app.store import Store, default_db_path
    from tracker.errors import InputError

    path = db or default_db_path()
    try:
        return Store(path)
    except Exception as e:  # sqlite3.Error, OSError
        raise InputError(f"cannot open the match database {path}: {e}") from None


def serve(app, host: str, port: int) -> None:  # type: ignore[no-untyped-def]
    import socket

    import uvicorn

    from tracker.errors import InputError

    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError as e:
            raise InputError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=3)


def run(args: argparse.Namespace) -> int:
    from tracker.app.server import create_app

    store = open_store(args.db)
    token = args.token or secrets.token_urlsafe(16)
    app = create_app(store, token=token)
    print(f"tracker web app on http://{args.host}:{args.port}/  (database {store.path})", file=sys.stderr)
    print(f"referee token: {token}", file=sys.stderr, flush=True)
    serve(app, args.host, args.port)
    return 0
