"""The ``tracker`` command line: a thin layer over library functions.

Each command lives in its own module ``tracker.cli.<name>`` with ``add_parser(subparsers)`` (which
sets ``func`` to a ``run(args) -> int``). Modules import their heavy dependencies inside ``run`` so
``tracker --help`` stays fast. A :class:`tracker.errors.TrackerError` becomes one line on stderr and
exit status 2; so does an argparse usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tracker import __version__
from tracker.errors import TrackerError

# In the order of the data flow; each names a module in this package.
COMMANDS: tuple[str, ...] = (
    "synth",
    "calibrate",
    "review",
    "photo",
    "rules",
    "corona",
    "live",
    "serve",
    "bench",
)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tracker", description="Watches a tabletop disc game through one camera and keeps score.")
    parser.add_argument("--version", action="version", version=f"tracker {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"tracker.cli.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"tracker.cli.{name}":
                continue  # command not built yet
            raise
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except TrackerError as e:
        sys.stderr.write(f"tracker {args.command}: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"tracker {args.command}: interrupted\n")
        return 130
