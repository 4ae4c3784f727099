"""``tracker bench``: speed and accuracy on the bundled fixtures, one table per area.

Each benchmark is a script ``benchmarks/bench_<area>.py`` in the source tree (they read fixtures
and, where present, the real footage in ``../shared/real``). This command runs them one after
another in fresh interpreters so one area's memory and imports do not skew another's figures.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from tracker.errors import InputError


def benchmarks_dir() -> Path:
    here = Path(__file__).resolve().parents[2] / "benchmarks"
    if not here.is_dir():
        raise InputError(
            "benchmarks/ not found: run `tracker bench` from an editable install of the source tree"
        )
    return here


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="speed and accuracy on the bundled fixtures; prints tables")
    p.add_argument("areas", nargs="*", help="only these areas (e.g. calibration render review)")
    p.add_argument("--quick", action="store_true", help="fewer samples: a smoke run")
    p.add_argument("--list", action="store_true", help="list the benchmark areas and exit")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    folder = benchmarks_dir()
    scripts = {p.stem.removeprefix("bench_"): p for p in sorted(folder.glob("bench_*.py"))}
    if args.list:
        print("\n".join(scripts))
        return 0
    unknown = [a for a in args.areas if a not in scripts]
    if unknown:
        raise InputError(f"unknown benchmark area {unknown[0]!r}; known: {', '.join(scripts)}")
    chosen = args.areas or list(scripts)
    failed = []
    for area in chosen:
        print(f"\n== {area} ==", flush=True)
        # --quick goes to the benchmarks that have a shorter run; the others are short already
        quick = args.quick and "--quick" in scripts[area].read_text()
        cmd = [sys.executable, str(scripts[area])] + (["--quick"] if quick else [])
        if subprocess.run(cmd, cwd=folder.parent).returncode != 0:
            failed.append(area)
    if failed:
        print(f"\nbenchmarks failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
