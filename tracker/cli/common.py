"""Argument helpers shared by the commands: games, board profiles, player counts, sizes, output folders."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.errors import InputError
from tracker.outdir import make_output_folder

if TYPE_CHECKING:
    from tracker.boards import CrokinoleBoard, KoronaBoard

GAMES = ("crokinole", "korona")


def players_type(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"players must be 2, 3 or 4, not {text!r}") from None
    if n not in (2, 3, 4):
        raise argparse.ArgumentTypeError(f"players must be 2, 3 or 4, not {n}")
    return n


def number_type(name: str, cast: type[int] | type[float] = int, lo: float | None = None,
                hi: float | None = None):  # type: ignore[no-untyped-def]
    """An argparse type for a number in [lo, hi] whose errors name the option."""
    what = "a whole number" if cast is int else "a number"

    def parse(text: str) -> int | float:
        try:
            v = cast(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be {what}, not {text!r}") from None
        if lo is not None and hi is not None and not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be between {lo:g} and {hi:g}, not {text}")
        if lo is not None and v < lo:
            raise argparse.ArgumentTypeError(f"{name} must be at least {lo:g}, not {text}")
        return v

    return parse


def size_type(text: str) -> tuple[int, int]:
    """``1280x720`` -> (1280, 720)."""
    parts = text.lower().split("x")
    try:
        w, h = (int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, not {text!r}") from None
    if not (64 <= w <= 7680 and 64 <= h <= 4320):
        raise argparse.ArgumentTypeError(f"size {text!r} is out of range (64x64 to 7680x4320)")
    return w, h


def add_game(parser: argparse.ArgumentParser, required: bool = True) -> None:
    parser.add_argument("--game", choices=GAMES, required=required, help="which game is played")


BOARD_HELP = ("board profile: a JSON file of the board's figures (SPEC section 2), or a built-in name "
              "(carrom); default: the game's standard board")


def add_board(parser: argparse.ArgumentParser) -> None:
    """``--board PROFILE``, read by :func:`board_profile`."""
    parser.add_argument("--board", metavar="PROFILE", default=None, help=BOARD_HELP)


def board_profile(profile: str | None, game: str) -> CrokinoleBoard | KoronaBoard | None:
    """The board model of ``--board PROFILE`` for ``game``, or None (the game's default board).

    A missing file, one that is not a profile (``boards.load_profile``) or a profile of the other
    game is an :class:`InputError` naming the profile (exit status 2)."""
    if not profile:
        return None
    from tracker.boards import load_profile

    board = load_profile(profile)
    if board.game != game:
        raise InputError(f"--board {profile} is a {board.game} board, not {game}")
    return board


def output_dir(path: str | Path) -> Path:
    """Create (if needed) and check an output folder is writable, or raise a clear error."""
    p = Path(path)
    make_output_folder(p)
    return p


def existing_file(path: str | Path, what: str = "file") -> Path:
    p = Path(path)
    if not p.exists():
        raise InputError(f"{what} {p} does not exist")
    if not p.is_file():
        raise InputError(f"{what} {p} is not a file")
    return p
