"""The Corona best-plan solver is exact: it matches plain enumeration of every plan."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.rules.corona.model import VARIANTS, Position, points_table, score_plan
from tracker.rules.corona.solver import best_plan, brute_force, solve
from tracker.rules.corona.states import solve_states

STANDARD = points_table("standard")


def _check_plan(origins: list[int], dice: list[int], table: tuple[int, ...], score: int,
                moves: list[tuple[int, int]]) -> None:
    """The moves give every carrier one of the dice and replay to the reported score."""
    assert sorted(c for c, _ in moves) == list(range(len(origins)))
    assert sorted(d for _, d in moves) == sorted(dice)
    occ = [0] * 12
    for f in origins:
        occ[f] += 1
    total = 0
    for c, d in moves:
        a, b = origins[c], (origins[c] + d) % 12
        total += table[occ[b]]
        occ[a] -= 1
        occ[b] += 1
    assert total == score


def test_six_carriers_converging_on_one_empty_field_score_twenty_one() -> None:
    # Carriers on 0..5 with dice 6..1 can all reach field 6: 1+2+3+4+5+6 (rulebook's counting).
    plan = best_plan(Position.of((0, 1, 2, 3, 4, 5), (1, 2, 3, 4, 5, 6)))
    assert plan.score == 21
    assert {s.end for s in plan.steps} == {6}


def test_best_plan_moves_arrivals_before_departures() -> None:
    # Carrier 1 on field 2 must wait for carrier 0 (0 -> 2) before leaving: the rulebook's
    # warning about order. Best: 0->2 meets carrier 1 (2), 2->3 (1), four carriers 5->6
    # (1+2+3+4) = 13; giving the 2 to carrier 1 instead makes only 12.
    pos = Position.of((0, 2, 5, 5, 5, 5), (2, 1, 1, 1, 1, 1))
    plan = best_plan(pos)
    assert plan.score == 13 == brute_force(pos.carriers, pos.dice, STANDARD)
    assert (0, 2) in plan.moves
    order = [s.carrier for s in plan.steps]
    assert order.index(0) < order.index(1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_cli_example_matches_full_enumeration(variant: str) -> None:
    # 6 different dice: all 518,400 plans are enumerated by the brute force.
    pos = Position.of((0, 0, 3, 5, 7, 7), (1, 2, 3, 4, 5, 6))
    table = points_table(variant)
    plan = best_plan(pos, variant)
    assert plan.score == brute_force(pos.carriers, pos.dice, table)
    assert plan.score == {"standard": 14, "empty-zero": 13, "others": 8}[variant]
    assert score_plan(pos, plan.moves, variant).score == plan.score


def test_cyclic_assignment_needs_the_order_search() -> None:
    # Carriers on 0 and 6 with sixes swap fields: each wants to arrive before the other leaves, a
    # cycle, so the bound is not reachable and the subset search decides.
    origins, dice = [0, 6, 1, 1, 1, 1], [6, 6, 6, 6, 6, 6]
    score, moves = solve(origins, dice, STANDARD)
    assert score == brute_force(origins, dice, STANDARD)
    _check_plan(origins, dice, STANDARD, score, moves)


positions = st.integers(min_value=1, max_value=5).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 11), min_size=n, max_size=n),
        st.lists(st.integers(1, 6), min_size=n, max_size=n),
    )
)
tables = st.sampled_from([points_table(v) for v in VARIANTS] + [(3, 0, 5, 1, 2, 4), (0, 0, 1, 1, 2, 9)])


@settings(max_examples=60, deadline=None)
@given(positions, tables)
def test_solver_matches_brute_force_on_random_small_positions(
    position: tuple[list[int], list[int]], table: tuple[int, ...]
) -> None:
    origins, dice = position
    score, moves = solve(origins, dice, table)
    assert score == brute_force(origins, dice, table)
    _check_plan(origins, dice, table, score, moves)


six = st.tuples(
    st.lists(st.integers(0, 11), min_size=6, max_size=6),
    st.lists(st.integers(1, 6), min_size=6, max_size=6),
)


@settings(max_examples=60, deadline=None)
@given(six, st.sampled_from(VARIANTS))
def test_branch_and_bound_matches_state_search_on_full_positions(
    position: tuple[list[int], list[int]], variant: str
) -> None:
    # Two independent exact methods on full six-carrier positions.
    origins, dice = position
    table = points_table(variant)
    score, moves = solve(origins, dice, table)
    assert score == solve_states(origins, dice, table)[0]
    _check_plan(origins, dice, table, score, moves)


@settings(max_examples=8, deadline=None)
@given(
    st.lists(st.integers(0, 11), min_size=6, max_size=6),
    st.lists(st.integers(1, 3), min_size=6, max_size=6),
)
def test_solver_matches_brute_force_on_six_carriers_with_repeated_dice(
    origins: list[int], dice: list[int]
) -> None:
    # Few distinct faces keep the enumeration small enough for a test.
    assert solve(origins, dice, STANDARD)[0] == brute_force(origins, dice, STANDARD)


@settings(max_examples=40, deadline=None)
@given(six)
def test_variant_scores_relate_as_the_rules_say(position: tuple[list[int], list[int]]) -> None:
    pos = Position.of(*position)
    std = best_plan(pos, "standard").score
    # "others" is the standard score minus one point per move, for every plan.
    assert best_plan(pos, "others").score == std - 6
    # Only landings on empty fields lose their point, and there are at most six of them.
    assert std - 6 <= best_plan(pos, "empty-zero").score <= std
    assert 6 <= std <= 36
