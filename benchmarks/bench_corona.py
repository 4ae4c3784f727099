"""Corona best-plan solver: speed over random positions, and exactness against enumeration.

    .venv/bin/python benchmarks/bench_corona.py [--positions 2000] [--seed 1] [--check 5]

Positions are drawn uniformly: 6 carriers on fields 0..11, 6 dice 1..6. A second family has the
carriers on 6 different fields and 6 different dice - the most assignments (720) and the hardest
case for both methods. Wall-clock times vary with the load on the machine, so the table reports
the CPU time of the process (median, 95th percentile, worst), which a busy machine disturbs less,
next to wall time (median, worst). ``--check N`` also compares N random positions with the brute
force (518,400 plans each: about a second apiece).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tracker.rules.corona.model import VARIANTS, points_table  # noqa: E402
from tracker.rules.corona.solver import brute_force, solve  # noqa: E402
from tracker.rules.corona.states import solve_states  # noqa: E402

Solver = Callable[[Sequence[int], Sequence[int], Sequence[int]], tuple[int, list[tuple[int, int]]]]


def uniform(rng: random.Random) -> tuple[list[int], list[int]]:
    return [rng.randrange(12) for _ in range(6)], [rng.randint(1, 6) for _ in range(6)]


def distinct(rng: random.Random) -> tuple[list[int], list[int]]:
    dice = [1, 2, 3, 4, 5, 6]
    rng.shuffle(dice)
    return rng.sample(range(12), 6), dice


def timings(
    solver: Solver, positions: list[tuple[list[int], list[int]]], table: tuple[int, ...]
) -> tuple[list[float], list[float]]:
    """Per-position milliseconds: CPU time of this process (robust to a busy machine) and wall."""
    cpu, wall = [], []
    for origins, dice in positions:
        c0, w0 = time.process_time(), time.perf_counter()
        solver(origins, dice, table)
        cpu.append((time.process_time() - c0) * 1e3)
        wall.append((time.perf_counter() - w0) * 1e3)
    return sorted(cpu), sorted(wall)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--positions", type=int, default=2000, help="random positions per family")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", type=int, default=3, help="positions also checked by brute force")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    families = {
        "uniform": [uniform(rng) for _ in range(args.positions)],
        "distinct": [distinct(rng) for _ in range(args.positions)],
    }
    state_n = max(1, args.positions // 10)  # the slower general method: fewer positions

    print(f"Corona best plan, ms per position ({args.positions} positions per family; "
          f"state search on {state_n})")
    print(f"{'method':<14} {'variant':<11} {'family':<9} {'cpu med':>8} {'cpu p95':>8} {'cpu max':>8}"
          f" {'wall med':>9} {'wall max':>9}")
    for variant in ("standard", "empty-zero"):
        table = points_table(variant)
        for fam, positions in families.items():
            for name, solver, subset in (("branch+bound", solve, positions),
                                         ("state search", solve_states, positions[:state_n])):
                cpu, wall = timings(solver, subset, table)
                p95 = cpu[int(0.95 * (len(cpu) - 1))]
                print(f"{name:<14} {variant:<11} {fam:<9} {statistics.median(cpu):8.2f} {p95:8.2f}"
                      f" {cpu[-1]:8.2f} {statistics.median(wall):9.2f} {wall[-1]:9.2f}")

    # Exactness: both methods agree everywhere; the brute force agrees on a sample.
    mismatches = 0
    for variant in VARIANTS:
        table = points_table(variant)
        for origins, dice in families["uniform"][:200] + families["distinct"][:200]:
            if solve(origins, dice, table)[0] != solve_states(origins, dice, table)[0]:
                mismatches += 1
    print(f"\nbranch+bound vs state search, 400 positions x {len(VARIANTS)} variants: {mismatches} mismatches")
    checked = 0
    for origins, dice in families["distinct"][: args.check]:
        table = points_table("standard")
        assert solve(origins, dice, table)[0] == brute_force(origins, dice, table), (origins, dice)
        checked += 1
    print(f"brute force (518,400 plans each) agrees on {checked} of {checked} positions")
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
