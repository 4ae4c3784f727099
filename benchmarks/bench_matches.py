"""Benchmark of ``tracker review`` on rendered matches that no development run looked at.

    python benchmarks/bench_matches.py [--seeds 9901-9906] [--cache DIR] [--quick] [--explain]

The fixtures (``bench_review.py``) are small and were looked at while the code was written, so they
flatter it. This renders a set of matches from seeds (``tracker synth``, 1280x720 at 30 fps, 8
shots each), once, into ``--cache`` (reused when present), then reviews each with the detector and
prints the ``bench_review`` table: rounds exact, shot/20/pocket/removal recall and precision,
position error at rest, identity switches.

Seeds are taken six at a time, in this order of set-ups, so a set of six covers both games, both
presets and 2 and 4 players:

    crokinole 2p easy, crokinole 2p hard, crokinole 4p hard, crokinole 4p easy,
    korona 2p easy, korona 4p hard

Each session that reports held-out figures should pick seeds nobody has used (the notes say which
were used: 7101-7104, 7201, 7401, 7500-7511, 7701, 8801-8806, 9901-9906, 9201-9206,
9301-9306, 9401-9406, 9501-9506, 9601-9606, 9701-9706, 8902-8909, 9801-9806, 9911-9916,
9921-9926, 9931-9936, 9941-9946, 9951-9956, 9961-9966, 9971-9976, 9981-9986,
9991-9996, 10001-10006, 10101-10106, 10201-10212 and 10301-10312 so far). Rendering takes about 2 min a match on one core and
reviewing about 1 min; ``--quick`` renders 640x360 at 30 fps with 4 shots.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_review  # noqa: E402

SETUPS = [  # (short name, game, players, preset)
    ("c2e", "crokinole", 2, "easy"),
    ("c2h", "crokinole", 2, "hard"),
    ("c4h", "crokinole", 4, "hard"),
    ("c4e", "crokinole", 4, "easy"),
    ("k2e", "korona", 2, "easy"),
    ("k4h", "korona", 4, "hard"),
]


def seed_list(text: str) -> list[int]:
    """``"9901-9906"`` or ``"9901,9903"`` (or both mixed) as a list of seeds."""
    seeds: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise argparse.ArgumentTypeError(f"--seeds: {part!r} is not a seed or a range A-B") from None
        if b < a:
            raise argparse.ArgumentTypeError(f"--seeds: range {part!r} runs backwards")
        seeds += range(a, b + 1)
    return seeds


def render(seed: int, slot: int, cache: Path, size: str, shots: int) -> Path:
    """The match for ``seed`` in ``cache`` (rendered now unless a finished copy is there)."""
    name, game, players, preset = SETUPS[slot % len(SETUPS)]
    out = cache / f"{name}_{seed}"
    if (out / "video.mp4").exists() and (out / "truth.json").exists():
        return out
    cmd = [sys.executable, "-m", "tracker", "synth", "--game", game, "--players", str(players),
           "--preset", preset, "--seed", str(seed), "--size", size, "--fps", "30",
           "--max-shots", str(shots), "--out", str(out)]
    print(f"  rendering {out.name} ...", file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=HERE.parent)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=seed_list, default=seed_list("9901-9906"),
                    help="seeds, e.g. 9901-9906 (six at a time cover every set-up)")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/tracker-bench-matches"),
                    help="where rendered matches are kept and reused")
    ap.add_argument("--quick", action="store_true", help="640x360, 4 shots a match")
    ap.add_argument("--explain", action="store_true", help="print the shots of matches not scored exactly")
    args = ap.parse_args()
    size, shots = ("640x360", 4) if args.quick else ("1280x720", 8)
    cache = args.cache / size
    cache.mkdir(parents=True, exist_ok=True)
    bench_review.EXPLAIN = args.explain
    rows = []
    for slot, seed in enumerate(args.seeds):
        folder = render(seed, slot, cache, size, shots)
        res, dt, frames = bench_review.review_folder(folder)
        print(f"  reviewed {folder.name}: {frames} frames in {dt:.1f} s", file=sys.stderr, flush=True)
        rows.append((folder.name, res))
    bench_review.table(rows, f"tracker review on rendered matches, seeds {args.seeds[0]}..{args.seeds[-1]} ({size})")


if __name__ == "__main__":
    main()
