"""The exact best plan for a Corona position: which die each carrier carries, and in which order.

Branch and bound over the assignments of dice to carriers, using a bound that is usually exact.

Fix an assignment: every carrier ``c`` now has a destination ``d_c``. On a field ``f`` let ``L_f``
be the carriers that start there (all of them leave at some point: every carrier moves) and
``a_f`` the carriers that arrive there. The ``i``-th arrival at ``f`` finds the ``i`` earlier
arrivals plus those of ``L_f`` that have not left yet, so with a non-decreasing points table
(every rulebook variant is) it scores at most ``points[i + |L_f|]``. Summing gives the bound

    B(assignment) = sum over fields f of  sum_{i < a_f} points[i + |L_f|]

It is reached exactly when, on every field, all arrivals come before all departures - that is,
when the precedence graph "c before e whenever c lands on e's starting field" has no cycle; then
any topological order is optimal (the rulebook's advice: do not move pieces away from a field
before the others arrive there). Only when that graph has a cycle (two carriers that must each
wait for the other) the best order for that assignment is found by a dynamic programme over the
64 subsets of moved carriers.

The search computes ``B`` for every distinct assignment (at most 720; equal dice and carriers
sharing a field are merged), visits them from the highest bound down, and stops as soon as no
remaining bound can beat the best exact score found. Exact, not heuristic. A points table that is
not non-decreasing falls back to the state search of :mod:`tracker.rules.corona.states`.

Measured (benchmarks/bench_corona.py, CPU time): 0.4 ms median on random positions, 2-2.5 ms
median and under 6 ms worst with six different fields and six different dice. In random and
adversarially searched positions at most a couple of dozen assignments needed the subset search;
the theoretical worst (all 720) would be roughly 0.3 ms each.

:func:`brute_force` enumerates every plan by plain simulation, to check both (tests, benchmark).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from tracker.rules.corona.model import FIELDS, Plan, Position, points_table, score_plan
from tracker.rules.corona.states import solve_states

Moves = list[tuple[int, int]]


def solve(
    origins: Sequence[int], dice: Sequence[int], table: Sequence[int], fields: int = FIELDS
) -> tuple[int, Moves]:
    """Best total and one best list of moves ``(carrier, die)`` for any small position.

    ``origins[i]`` is the field of carrier ``i`` (one die per carrier, dice below ``fields``);
    ``table[k]`` is the points for landing where ``k`` carriers stand. Pure and exact.
    """
    n = len(origins)
    if len(dice) != n:
        raise ValueError("one die per carrier")
    if n == 0:
        return 0, []
    if any(a > b for a, b in itertools.pairwise(table)):
        return solve_states(origins, dice, table, fields)
    top = len(table) - 1
    leaving = [0] * fields
    for f in origins:
        leaving[f] += 1
    # cum[f][a]: the bound's share of field f when a carriers arrive there.
    cum = []
    for f in range(fields):
        acc, row = 0, [0]
        for i in range(n):
            acc += table[min(i + leaving[f], top)]
            row.append(acc)
        cum.append(row)

    # Distinct assignments: carriers sharing a field take their dice in non-decreasing order.
    order = sorted(range(n), key=lambda c: (origins[c], c))
    o_sorted = [origins[c] for c in order]
    same = [i > 0 and o_sorted[i] == o_sorted[i - 1] for i in range(n)]
    candidates: list[tuple[int, tuple[int, ...]]] = []
    for arr in set(itertools.permutations(dice)):
        if any(same[i] and arr[i] < arr[i - 1] for i in range(1, n)):
            continue
        arrivals = [0] * fields
        for i in range(n):
            arrivals[(o_sorted[i] + arr[i]) % fields] += 1
        bound = 0
        for f in range(fields):
            if arrivals[f]:
                bound += cum[f][arrivals[f]]
        dice_of = [0] * n
        for i, c in enumerate(order):
            dice_of[c] = arr[i]
        candidates.append((bound, tuple(dice_of)))
    candidates.sort(key=lambda t: -t[0])

    best_score = -1
    best_moves: Moves = []
    for bound, die_of in candidates:
        if bound <= best_score:
            break
        dests = [(origins[c] + die_of[c]) % fields for c in range(n)]
        seq = _topological(origins, dests)
        if seq is not None:  # the bound is reached; nothing later can beat it
            return bound, [(c, die_of[c]) for c in seq]
        score, ordered = _best_order(origins, dests, table)
        if score > best_score:
            best_score, best_moves = score, [(c, die_of[c]) for c in ordered]
    return best_score, best_moves


def _topological(origins: Sequence[int], dests: Sequence[int]) -> list[int] | None:
    """An order with every arrival on a field before every departure from it, or None (cycle)."""
    n = len(origins)
    indegree = [sum(1 for c in range(n) if dests[c] == origins[e]) for e in range(n)]
    ready = [e for e in range(n) if indegree[e] == 0]
    seq: list[int] = []
    while ready:
        c = ready.pop()
        seq.append(c)
        for e in range(n):
            if origins[e] == dests[c]:
                indegree[e] -= 1
                if indegree[e] == 0:
                    ready.append(e)
    return seq if len(seq) == n else None


def _best_order(origins: Sequence[int], dests: Sequence[int], table: Sequence[int]) -> tuple[int, list[int]]:
    """Best order for a fixed assignment: dynamic programme over subsets of moved carriers."""
    n = len(origins)
    top = len(table) - 1
    leave_mask = [sum(1 << e for e in range(n) if origins[e] == dests[c]) for c in range(n)]
    arrive_mask = [sum(1 << e for e in range(n) if e != c and dests[e] == dests[c]) for c in range(n)]
    base = [m.bit_count() for m in leave_mask]
    full = (1 << n) - 1
    value = [-1] * (full + 1)
    came = [-1] * (full + 1)
    value[0] = 0
    for s in range(full):
        v = value[s]
        if v < 0:
            continue
        for c in range(n):
            bit = 1 << c
            if s & bit:
                continue
            here = base[c] - (s & leave_mask[c]).bit_count() + (s & arrive_mask[c]).bit_count()
            w = v + table[min(here, top)]
            if w > value[s | bit]:
                value[s | bit], came[s | bit] = w, c
    seq, s = [], full
    while s:
        c = came[s]
        seq.append(c)
        s &= ~(1 << c)
    return value[full], seq[::-1]


def best_plan(position: Position, variant: str = "standard") -> Plan:
    """The best plan for ``position`` under ``variant`` (exact); ``plan.score`` is its total."""
    table = points_table(variant)
    _, moves = solve(position.carriers, position.dice, table)
    return score_plan(position, moves, variant)


def brute_force(
    origins: Sequence[int], dice: Sequence[int], table: Sequence[int], fields: int = FIELDS
) -> int:
    """Best total by trying every order of carriers with every distinct arrangement of the dice.

    Independent of the solvers (plain simulation, no shared state). Six carriers with six
    different dice means 518,400 plans: seconds, not milliseconds.
    """
    n = len(origins)
    arrangements = set(itertools.permutations(dice))
    top = -1
    for order in itertools.permutations(range(n)):
        for arr in arrangements:
            occ = [0] * fields
            for f in origins:
                occ[f] += 1
            total = 0
            for c, d in zip(order, arr, strict=True):
                a = origins[c]
                b = (a + d) % fields
                total += table[occ[b]]
                occ[a] -= 1
                occ[b] += 1
            top = max(top, total)
    return top
