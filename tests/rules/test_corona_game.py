"""The Corona game of chips against the rulebook (shared/rules/corona-dice-game.txt).

Sections cited: "Before the Game", "The Flow of a Play Round", "End Game".
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.errors import InputError
from tracker.rules.corona.actions import (
    Bid,
    CloseBidding,
    CoronaAction,
    PlayOut,
    Setup,
    TimeUp,
    action_from_json,
    action_to_json,
)
from tracker.rules.corona.game import (
    CoronaGame,
    end_reasons,
    estimate_is_legal,
    replay,
    start_chips,
)
from tracker.rules.corona.model import Position
from tracker.rules.corona.solver import best_plan
from tracker.rules.datatypes import Outcome

CARRIERS, DICE = (0, 0, 3, 5, 7, 7), (1, 2, 3, 4, 5, 6)
BEST = best_plan(Position.of(CARRIERS, DICE))  # 14 points (checked against brute force elsewhere)
WORSE = ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6))  # scores less than the best


def kinds(out: Outcome) -> list[str]:
    return [d.kind for d in out.decisions]


def play_round(game: CoronaGame, bids: list[tuple[str, int]], moves: tuple[tuple[int, int], ...] = BEST.moves) -> Outcome:
    game.apply(Setup(CARRIERS, DICE))
    for who, est in bids:
        game.apply(Bid(who, est))
    out = game.apply(CloseBidding())
    if game.phase == "play":
        out = game.apply(PlayOut(moves))
    return out


def test_each_player_starts_with_twice_the_players_plus_two_chips() -> None:
    # "With 5 players E.G. each player receives 12 chips (2 x 5 + 2)."
    assert start_chips(5) == 12
    game = CoronaGame(["a", "b", "c", "d", "e"])
    assert set(game.summary()["chips"].values()) == {12}


def test_each_new_estimate_must_be_higher_than_the_previous() -> None:
    game = CoronaGame(["ann", "bob", "cy"])
    game.apply(Setup(CARRIERS, DICE))
    assert kinds(game.apply(Bid("ann", 10))) == ["estimate"]
    same = game.apply(Bid("bob", 10))
    assert kinds(same) == ["rejected"]
    assert "must be higher than 10 (ann)" in same.decisions[0].reason
    assert kinds(game.apply(Bid("cy", 9))) == ["rejected"]
    assert kinds(game.apply(Bid("bob", 12))) == ["estimate"]
    # "a player can also make several estimates"
    assert kinds(game.apply(Bid("ann", 13))) == ["estimate"]
    assert game.summary()["estimate"] == {"player": "ann", "points": 13}
    out = game.apply(CloseBidding())
    assert out.next_seat == "ann"


def test_reaching_the_estimate_collects_a_chip_from_each_fellow_player() -> None:
    # "if the player achieves his estimate or exceeded it, he receives a chip from each fellow player."
    game = CoronaGame(["ann", "bob", "cy"])
    out = play_round(game, [("bob", 14)])  # exactly achieved
    assert "success" in kinds(out)
    assert game.chips == {"ann": 7, "bob": 10, "cy": 7}


def test_missing_the_estimate_pays_each_fellow_and_bars_the_next_estimate() -> None:
    # "if he did not achieve his estimate, he must pay a chip to each fellow player. Additionally
    # he may not offer an estimate in the next round."
    game = CoronaGame(["ann", "bob", "cy", "dee"])
    out = play_round(game, [("bob", 15)])  # best possible is 14
    failure = next(d for d in out.decisions if d.kind == "failure")
    assert failure.seat == "bob" and failure.points == 14
    assert "best possible 14" in out.decisions[0].reason
    assert game.chips == {"ann": 11, "bob": 7, "cy": 11, "dee": 11}
    # round 2: bob is barred
    setup = game.apply(Setup(CARRIERS, DICE))
    assert "barred" in kinds(setup)
    barred = game.apply(Bid("bob", 3))
    assert kinds(barred) == ["rejected"] and "may not estimate this round" in barred.decisions[0].reason
    game.apply(Bid("cy", 3))
    game.apply(CloseBidding())
    game.apply(PlayOut(BEST.moves))
    # round 3: bob may estimate again
    game.apply(Setup(CARRIERS, DICE))
    assert kinds(game.apply(Bid("bob", 3))) == ["estimate"]


def test_master_role_passes_to_the_player_on_the_left() -> None:
    # "In the following rounds this role is passed on in each case to the player to the left."
    game = CoronaGame(["ann", "bob", "cy"], first_master="bob")
    masters = [game.master]
    for _ in range(2):
        out = play_round(game, [("ann", 6)])
        assert not out.game_over
        masters.append(game.master)
    assert masters == ["bob", "cy", "ann"]
    out = play_round(game, [("ann", 6)])
    assert out.game_over  # bob, cy and ann have each been master once


def test_game_ends_when_every_player_has_been_master_once_and_most_chips_wins() -> None:
    game = CoronaGame(["ann", "bob"])
    play_round(game, [("ann", 14)])  # ann +1
    assert game.phase == "setup"
    out = play_round(game, [("bob", 20)])  # bob fails: ann +1
    assert out.game_over and out.round_over
    s = game.summary()
    assert s["chips"] == {"ann": 8, "bob": 4}
    assert s["winners"] == ["ann"]
    assert s["end_reasons"] == ["every player has been master of the stars once"]
    assert "Winner: ann with 8 chips" in out.decisions[-1].reason
    assert kinds(game.apply(Setup(CARRIERS, DICE))) == ["rejected"]


def test_game_ends_when_a_player_has_no_more_chips_and_a_poor_loser_pays_what_he_has() -> None:
    # 6 players start with 14. "f" fails in rounds 1, 3, 5 and others succeed in rounds 2 and 4:
    # 14 - 5 - 1 - 5 - 1 = 2 before round 5, so f pays only 2 of 5 chips, to a and b (his left).
    players = ["a", "b", "c", "d", "e", "f"]
    game = CoronaGame(players)
    total = sum(game.chips.values())
    for r in range(1, 6):
        out = play_round(game, [("f", 30)] if r % 2 else [("a", 6)])
        assert sum(game.chips.values()) == total
    assert game.chips["f"] == 0
    assert out.game_over
    assert "f has no more chips" in game.reasons
    failure = next(d for d in out.decisions if d.kind == "failure")
    assert "had only 2, paid to a, b" in failure.reason


def test_game_ends_when_a_player_doubles_the_start_capital() -> None:
    players = ["a", "b", "c", "d", "e", "f"]
    game = CoronaGame(players)
    for _ in range(3):
        out = play_round(game, [("c", 14)])  # +5 each round: 14 -> 29 >= 28
    assert game.chips["c"] == 29
    assert out.game_over
    assert game.reasons == ["c doubled the start capital (29 chips, started with 14)"]
    assert game.summary()["winners"] == ["c"]


def test_time_up_between_rounds_ends_the_game_at_once() -> None:
    game = CoronaGame(["ann", "bob", "cy"])
    play_round(game, [("ann", 14)])
    out = game.apply(TimeUp())
    assert out.game_over and not out.round_over
    assert game.reasons == ["the agreed game duration has expired"]


def test_time_up_during_a_round_ends_the_game_after_that_round() -> None:
    game = CoronaGame(["ann", "bob", "cy"])
    game.apply(Setup(CARRIERS, DICE))
    game.apply(Bid("cy", 14))
    mid = game.apply(TimeUp())
    assert kinds(mid) == ["time_up"] and not mid.game_over
    game.apply(CloseBidding())
    out = game.apply(PlayOut(BEST.moves))
    assert out.game_over
    assert game.chips == {"ann": 7, "bob": 7, "cy": 10}


def test_a_round_without_estimates_passes_without_play() -> None:
    game = CoronaGame(["ann", "bob", "cy"])
    game.apply(Setup(CARRIERS, DICE))
    out = game.apply(CloseBidding())
    assert kinds(out) == ["no_estimate", "master"]
    assert game.master == "bob" and game.phase == "setup"
    assert set(game.chips.values()) == {8}


def test_actions_out_of_turn_are_rejected_without_changing_anything() -> None:
    game = CoronaGame(["ann", "bob"])
    before = game.summary()
    assert kinds(game.apply(Bid("ann", 5))) == ["rejected"]  # nothing set up yet
    assert kinds(game.apply(CloseBidding())) == ["rejected"]
    assert kinds(game.apply(PlayOut(BEST.moves))) == ["rejected"]
    assert game.summary() == before
    game.apply(Setup(CARRIERS, DICE))
    assert kinds(game.apply(Setup(CARRIERS, DICE))) == ["rejected"]
    assert kinds(game.apply(PlayOut(BEST.moves))) == ["rejected"]  # still estimating


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Bid("zed", 5), "unknown player 'zed'"),
        (Bid("ann", 0), "whole number of points >= 1"),
        (PlayOut(((0, 1),)), "expected 6 moves"),
        (PlayOut((("x", 1),) * 6), "carrier, die"),  # type: ignore[arg-type]
    ],
)
def test_malformed_actions_raise_input_errors(action: Bid | PlayOut, message: str) -> None:
    game = CoronaGame(["ann", "bob"])
    game.apply(Setup(CARRIERS, DICE))
    game.apply(Bid("ann", 5))
    if isinstance(action, PlayOut):
        game.apply(CloseBidding())
    with pytest.raises(InputError, match=message):
        game.apply(action)


def test_games_need_two_distinct_players() -> None:
    with pytest.raises(InputError, match="at least 2 players"):
        CoronaGame(["solo"])
    with pytest.raises(InputError, match="names must differ"):
        CoronaGame(["ann", "ann"])
    with pytest.raises(InputError, match="unknown player 'zed'"):
        CoronaGame(["ann", "bob"], first_master="zed")
    with pytest.raises(InputError, match="unknown variant"):
        CoronaGame(["ann", "bob"], variant="x")
    with pytest.raises(InputError, match="expected 6 fields"):
        CoronaGame(["ann", "bob"]).apply(Setup((1, 2), DICE))


def test_rule_predicates() -> None:
    assert estimate_is_legal("ann", 5, None, None) == (True, "ann estimates 5")
    assert not estimate_is_legal("ann", 5, ("bob", 5), None)[0]
    assert not estimate_is_legal("ann", 9, ("bob", 5), "ann")[0]
    chips = {"a": 0, "b": 12, "c": 6}
    assert end_reasons(chips, 6, set(), False) == ["a has no more chips",
                                                    "b doubled the start capital (12 chips, started with 6)"]
    assert end_reasons({"a": 5, "b": 7}, 6, {"a"}, False) == []
    assert end_reasons({"a": 5, "b": 7}, 6, {"a", "b"}, True)[1] == "the agreed game duration has expired"


# -- random games --------------------------------------------------------------------------------

names = ["p0", "p1", "p2", "p3", "p4", "p5", "p6"]
junk = st.one_of(
    st.builds(Setup, st.just(CARRIERS), st.just(DICE)),
    st.builds(Bid, st.sampled_from(names), st.integers(1, 25)),
    st.just(CloseBidding()),
    st.sampled_from([PlayOut(BEST.moves), PlayOut(WORSE)]),
)
# A round as played: set up, some estimates (low ones get rejected), hourglass, play out; with
# stray actions mixed in that the engine must reject.
a_round = st.tuples(
    st.lists(st.builds(Bid, st.sampled_from(names), st.integers(6, 20)), max_size=5),
    st.sampled_from([PlayOut(BEST.moves), PlayOut(WORSE)]),
    st.lists(junk, max_size=2),
).map(lambda r: [Setup(CARRIERS, DICE), *r[0], CloseBidding(), r[1], *r[2]])


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.lists(a_round, max_size=8), st.booleans())
def test_random_games_conserve_chips_and_end_in_time(
    n: int, rounds: list[list[CoronaAction]], time_up: bool
) -> None:
    players = names[:n]
    game = CoronaGame(players)
    total = n * start_chips(n)
    for a in [a for r in rounds for a in r] + ([TimeUp()] if time_up else []):
        if isinstance(a, Bid) and a.player not in players:
            continue
        before = game.summary()
        out = game.apply(a)
        if "rejected" in kinds(out):
            assert game.summary() == before
        assert sum(game.chips.values()) == total
        assert min(game.chips.values()) >= 0
        assert game.round <= n  # each player is master at most once
    # Play on with nobody estimating: the game must end within the rounds the rules leave.
    left = 1 if time_up else n - len(game.masters)
    for _ in range(left):
        if game.phase == "over":
            break
        for a in (Setup(CARRIERS, DICE), CloseBidding(), PlayOut(BEST.moves)):
            if game.phase != "over":
                game.apply(a)
    s = game.summary()
    assert s["game_over"]
    if s["game_over"]:
        assert s["end_reasons"] and s["winners"]
        assert all(s["chips"][w] == max(s["chips"].values()) for w in s["winners"])


def test_replay_rebuilds_the_same_state() -> None:
    actions: list[CoronaAction] = [Setup(CARRIERS, DICE), Bid("ann", 10), Bid("bob", 15), CloseBidding(), PlayOut(BEST.moves)]
    game, outs = replay(["ann", "bob", "cy"], actions)
    again, outs2 = replay(["ann", "bob", "cy"], actions)
    assert outs == outs2 and game.summary() == again.summary()
    assert game.chips == {"ann": 9, "bob": 6, "cy": 9}
    assert [o.index for o in outs] == [0, 1, 2, 3, 4]


def test_actions_round_trip_through_json() -> None:
    actions: list[CoronaAction] = [Setup(CARRIERS, DICE), Bid("ann", 10), CloseBidding(),
                                   PlayOut(BEST.moves), TimeUp()]
    for a in actions:
        assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a
    with pytest.raises(InputError, match="play: moves must be"):
        action_from_json({"action": "play", "moves": [[1, 2, 3]]})
    with pytest.raises(InputError, match="die must be a whole number"):
        action_from_json({"action": "play", "moves": [[1, "2"]]})
    with pytest.raises(InputError, match="JSON object"):
        action_from_json(["bid"])
