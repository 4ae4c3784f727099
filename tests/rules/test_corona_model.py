"""Corona scoring against the rulebook (shared/rules/corona-dice-game.txt, "The Flow of a Play Round")."""

from __future__ import annotations

import pytest

from tracker.errors import InputError
from tracker.rules.corona.model import (
    FIELDS,
    Position,
    destination,
    points_table,
    score_plan,
)


def test_points_tables_follow_the_rulebook_and_its_translator_note() -> None:
    # "empty field - 1 point; one other carrier - 2 points; two other carriers - 3 points etc."
    assert points_table("standard") == (1, 2, 3, 4, 5, 6)
    # "[Translator's note: Some Corona versions say empty fields are worth 0 points]"
    assert points_table("empty-zero") == (0, 2, 3, 4, 5, 6)
    assert points_table("others") == (0, 1, 2, 3, 4, 5)
    with pytest.raises(InputError, match="unknown variant 'bogus'"):
        points_table("bogus")


def test_carriers_move_clockwise_round_the_ring_of_twelve_fields() -> None:
    assert FIELDS == 12
    assert destination(3, 4) == 7
    assert destination(10, 5) == 3  # past field 11 back to 0
    assert destination(11, 1) == 0


def test_three_carriers_landing_on_one_field_score_one_two_three() -> None:
    # Rulebook: "three carrier stones land on the same field: the first receives 1 point, the
    # second receives 2 points, and the third receives 3 points, hence 6 points in total."
    # Carriers 0,1,2 reach field 6; carriers 3,4,5 (on 8, 9, 10) go elsewhere, each alone.
    pos = Position.of((0, 2, 4, 8, 9, 10), (6, 4, 2, 1, 3, 5))
    plan = score_plan(pos, [(0, 6), (1, 4), (2, 2), (3, 1), (4, 3), (5, 5)])
    assert [s.end for s in plan.steps[:3]] == [6, 6, 6]
    assert [s.points for s in plan.steps[:3]] == [1, 2, 3]
    # 8->9 finds carrier 4 still on 9 (2); 9->0 empty (1); 10->3 empty (1).
    assert [s.points for s in plan.steps[3:]] == [2, 1, 1]
    assert plan.score == 6 + 4


def test_moving_a_carrier_away_before_the_others_arrive_loses_points() -> None:
    # Rulebook: "be sure that you have not moved the other pieces away from that field before
    # your other piece arrives there." Carrier 0 on field 0 joins carrier 1 on field 2.
    pos = Position.of((0, 2, 5, 5, 5, 5), (2, 1, 1, 1, 1, 1))
    arrive_first = score_plan(pos, [(0, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)])
    leave_first = score_plan(pos, [(1, 1), (0, 2), (2, 1), (3, 1), (4, 1), (5, 1)])
    # arrive first: 0->2 meets carrier 1 (2); 2->3 empty (1); four carriers 5->6: 1+2+3+4.
    assert [s.points for s in arrive_first.steps] == [2, 1, 1, 2, 3, 4]
    # leave first: 2->3 (1); 0->2 now empty (1); the rest as before.
    assert [s.points for s in leave_first.steps] == [1, 1, 1, 2, 3, 4]
    assert arrive_first.score == leave_first.score + 1


def test_carriers_not_yet_moved_count_on_the_landing_field() -> None:
    # A field "with two other carriers" is 3 points whether they moved there or started there.
    pos = Position.of((4, 4, 1, 8, 9, 10), (3, 1, 1, 1, 1, 1))
    plan = score_plan(pos, [(2, 3), (0, 1), (1, 1), (3, 1), (4, 1), (5, 1)])
    assert plan.steps[0].points == 3  # 1 -> 4 where carriers 0 and 1 still stand


def test_empty_zero_variant_only_changes_landings_on_empty_fields() -> None:
    pos = Position.of((0, 2, 4, 8, 9, 10), (6, 4, 2, 1, 3, 5))
    moves = [(0, 6), (1, 4), (2, 2), (3, 1), (4, 3), (5, 5)]
    std = score_plan(pos, moves, "standard")
    zero = score_plan(pos, moves, "empty-zero")
    assert [s.points for s in zero.steps] == [0, 2, 3, 2, 0, 0]
    assert std.score - zero.score == 3  # three landings on empty fields
    assert score_plan(pos, moves, "others").score == std.score - 6


@pytest.mark.parametrize(
    ("carriers", "dice", "message"),
    [
        ((0, 0, 3, 5, 7), (1, 2, 3, 4, 5, 6), "expected 6 fields, got 5"),
        ((0, 0, 3, 5, 7, 7), (1, 2, 3, 4, 5, 6, 1), "expected 6 values, got 7"),
        ((0, 0, 3, 5, 7, 12), (1, 2, 3, 4, 5, 6), "carrier 5 must be 0..11, not 12"),
        ((0, -1, 3, 5, 7, 7), (1, 2, 3, 4, 5, 6), "carrier 1 must be 0..11, not -1"),
        ((0, 0, 3, 5, 7, 7), (1, 2, 0, 4, 5, 6), "die 2 must show 1..6, not 0"),
        ((0, 0, 3, 5, 7, 7), (1, 2, 3, 4, 5, 7), "die 5 must show 1..6, not 7"),
    ],
)
def test_positions_are_checked(carriers: tuple[int, ...], dice: tuple[int, ...], message: str) -> None:
    with pytest.raises(InputError, match=message):
        Position.of(carriers, dice)


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ([(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)], "expected 6 moves"),
        ([(0, 1), (0, 2), (2, 3), (3, 4), (4, 5), (5, 6)], "carrier 0 moves twice"),
        ([(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (6, 6)], "carrier 6 does not exist"),
        ([(0, 1), (1, 1), (2, 3), (3, 4), (4, 5), (5, 6)], "are not the dice thrown"),
    ],
)
def test_plans_must_give_each_carrier_one_thrown_die(moves: list[tuple[int, int]], message: str) -> None:
    pos = Position.of((0, 0, 3, 5, 7, 7), (1, 2, 3, 4, 5, 6))
    with pytest.raises(InputError, match=message):
        score_plan(pos, moves)
