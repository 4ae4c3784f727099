"""Round and game flow of the crokinole engine: turns, leads, round ends, game ends (rulebooks)."""

from __future__ import annotations

import pytest

from tracker.errors import InputError
from tracker.rules.crokinole import CrokinoleEngine
from tracker.rules.datatypes import Outcome
from tracker.shotlog import RoundEnd, Setup, Shot


def full_round(engine: CrokinoleEngine, twenties: dict[str, int]) -> list[Outcome]:
    """Every seat shoots all its discs in turn; the first ``twenties[seat]`` go in the hole, the
    rest off the board (so no disc ever rests on the board and every round is easy to score)."""
    shot_count: dict[str, int] = dict.fromkeys(engine.seats, 0)
    outcomes = []
    start_round = len(engine.rounds)
    while len(engine.rounds) == start_round and not engine.game_over:
        seat = engine.turn
        k = shot_count[seat]
        shot_count[seat] += 1
        end = "hole" if k < twenties.get(seat, 0) else "off"
        outcomes.append(engine.apply(Shot(seat=seat, disc=f"{seat[0]}{k}", end={f"{seat[0]}{k}": end})))
    return outcomes


def notes(outcomes: list[Outcome]) -> list[str]:
    return [d.reason for o in outcomes for d in o.decisions if d.kind == "note"]


def test_two_player_round_is_24_shots_alternating_and_ends_itself() -> None:
    """NL "Setup" (12 discs each), "Play" (clockwise); EN 4: a round lasts until 12 discs each."""
    engine = CrokinoleEngine(2)
    outcomes = full_round(engine, {"south": 2})
    assert len(outcomes) == 24
    assert [o.seat for o in outcomes[:4]] == ["south", "north", "south", "north"]
    assert outcomes[-1].round_over and not any(o.round_over for o in outcomes[:-1])
    assert notes(outcomes) == []
    assert engine.rounds[0].points == {"A": 40, "B": 0}
    assert engine.rounds[0].awarded == {"A": 40, "B": 0}


def test_next_round_led_by_player_left_of_previous_lead_2p() -> None:
    """NL "Next round": the person to the left of the previous round's lead shooter starts."""
    engine = CrokinoleEngine(2)
    full_round(engine, {})
    assert engine.lead == "north" and engine.turn == "north"
    full_round(engine, {})
    assert engine.lead == "south"
    assert [r.lead for r in engine.rounds] == ["south", "north"]


def test_four_players_partnerships_six_discs_each_lead_rotates_clockwise() -> None:
    """NL "Setup": partnerships, 6 discs each, partners opposite; play clockwise."""
    engine = CrokinoleEngine(4)
    outcomes = full_round(engine, {"south": 1, "north": 1, "west": 1})
    assert len(outcomes) == 24
    assert [o.seat for o in outcomes[:5]] == ["south", "west", "north", "east", "south"]
    assert engine.rounds[0].points == {"A": 40, "B": 20}
    assert engine.rounds[0].awarded == {"A": 20, "B": 0}
    assert engine.lead == "west"


def test_three_players_eight_discs_each_own_sides() -> None:
    engine = CrokinoleEngine(3)
    outcomes = full_round(engine, {"west": 1})
    assert len(outcomes) == 24
    assert engine.rounds[0].points == {"south": 0, "west": 20, "north": 0}
    assert engine.lead == "west"


def test_game_to_100_differential() -> None:
    """EN 7 / NL "Winning": the first to 100 wins; the game stops there."""
    engine = CrokinoleEngine(2)
    for _ in range(4):
        full_round(engine, {"south": 1})
        assert not engine.game_over
    out = full_round(engine, {"south": 1})
    assert engine.game_over and engine.winner == "A" and engine.totals == {"A": 100, "B": 0}
    assert out[-1].game_over and any(d.kind == "game_end" for d in out[-1].decisions)
    ignored = engine.apply(Shot(seat="north", disc="n0", end={"n0": "hole"}))
    assert ignored.game_over and ignored.decisions[0].kind == "note"
    assert engine.totals == {"A": 100, "B": 0}


def test_target_option() -> None:
    engine = CrokinoleEngine(2, target=30)
    full_round(engine, {"north": 2})
    assert engine.game_over and engine.winner == "B"


def test_simple_scoring_both_pass_target_higher_total_wins_equal_plays_on() -> None:
    engine = CrokinoleEngine(2, scoring="simple")
    for _ in range(5):
        full_round(engine, {"south": 1, "north": 1})
    assert engine.totals == {"A": 100, "B": 100} and not engine.game_over
    out = full_round(engine, {"south": 2, "north": 1})
    assert engine.game_over and engine.winner == "A" and engine.totals == {"A": 140, "B": 120}
    assert out[-1].game_over


def test_championship_fixed_rounds_draw() -> None:
    """EN 7: 2 points a round won, 1 a tie; after the fixed rounds the totals decide."""
    engine = CrokinoleEngine(2, rounds=2)
    full_round(engine, {"south": 3})
    full_round(engine, {"north": 1})
    assert engine.game_over and engine.winner is None and engine.totals == {"A": 2, "B": 2}


def test_championship_fixed_rounds_winner() -> None:
    engine = CrokinoleEngine(4, rounds=3)
    full_round(engine, {"south": 1})
    full_round(engine, {})
    assert not engine.game_over
    full_round(engine, {"east": 2})
    assert engine.totals == {"A": 3, "B": 3} and engine.winner is None
    engine2 = CrokinoleEngine(4, rounds=3)
    for tw in ({"south": 1}, {}, {"north": 1}):
        full_round(engine2, tw)
    assert engine2.winner == "A" and engine2.totals == {"A": 5, "B": 1}


def test_round_end_line_closes_round_early_and_empty_one_is_ignored() -> None:
    """SPEC 4b: a round_end line may close a round early."""
    engine = CrokinoleEngine(2)
    engine.apply(Shot(seat="south", disc="s0", end={"s0": (0.0, 50.0)}))
    out = engine.apply(RoundEnd())
    assert out.round_over and engine.rounds[0].points == {"A": 15, "B": 0}
    assert engine.rounds[0].ended_by == "round_end_line" and engine.lead == "north"
    again = engine.apply(RoundEnd())
    assert not again.round_over and len(engine.rounds) == 1


def test_out_of_turn_shot_is_played_as_observed_with_a_note() -> None:
    engine = CrokinoleEngine(2)
    engine.apply(Shot(seat="south", disc="s0", end={"s0": (0.0, 50.0)}))
    out = engine.apply(Shot(seat="south", disc="s1", end={"s1": (0.0, -50.0)}))
    assert any("out of turn" in n for n in notes([out]))
    assert set(engine.on_board) == {"s0", "s1"} and engine.turn == "north"


def test_first_shooter_of_the_game_is_the_lead() -> None:
    """NL "Setup": the starting player is chosen at random; the log says who it was."""
    engine = CrokinoleEngine(2)
    out = engine.apply(Shot(seat="north", disc="n0", end={"n0": (0.0, 50.0)}))
    assert engine.lead == "north" and out.next_seat == "south"
    assert any("north leads round 1" in n for n in notes([out]))


def test_disc_belongs_to_first_shooter_all_game() -> None:
    engine = CrokinoleEngine(4)
    full_round(engine, {"south": 1})
    assert engine.owner["s0"] == "south"
    engine.apply(Shot(seat="west", disc="w0", end={"w0": (0.0, 50.0)}))
    assert engine.on_board["w0"].side == "B"


@pytest.mark.parametrize(
    "kwargs, word",
    [({"players": 5}, "players"), ({"scoring": "odd"}, "scoring"), ({"target": 0}, "target"),
     ({"rounds": 0}, "rounds"), ({"first_seat": "west"}, "first_seat")],
)
def test_bad_options_are_input_errors_naming_the_option(kwargs: dict, word: str) -> None:
    with pytest.raises(InputError, match=word):
        CrokinoleEngine(**kwargs)


def test_seat_not_playing_is_an_input_error_naming_the_line() -> None:
    engine = CrokinoleEngine(2)
    with pytest.raises(InputError, match="line 7.*'west'"):
        engine.apply(Shot(seat="west", disc="w0", line=7))


def test_korona_setup_line_is_refused() -> None:
    with pytest.raises(InputError, match="line 1"):
        CrokinoleEngine(2).apply(Setup(discs={}, strikers={}, line=1))


def test_start_outside_own_quadrant_is_noted_not_penalised() -> None:
    """NL "Play": the disc is placed at least 50 percent within the shooter's quadrant."""
    engine = CrokinoleEngine(2)
    out = engine.apply(Shot(seat="south", disc="s0", start=(300.0, -20.0), end={"s0": (0.0, 50.0)}))
    assert any("east's quadrant, not south's" in n for n in notes([out]))
    assert "s0" in engine.on_board
    ok = engine.apply(Shot(seat="north", disc="n0", start=(10.0, 300.0), contacts=(("n0", "s0"),),
                           end={"n0": (0.0, 60.0), "s0": "off"}))
    assert notes([ok]) == []


def test_disc_left_play_stays_out_until_round_ends() -> None:
    """EN 4: a disc that once left the playing area stays out; a reported move of it is ignored."""
    engine = CrokinoleEngine(2)
    engine.apply(Shot(seat="south", disc="s0", end={"s0": (0.0, 250.0)}))  # no-opponent rule
    assert engine.ditch == ["s0"]
    out = engine.apply(Shot(seat="north", disc="n0", end={"n0": (0.0, 50.0), "s0": (0.0, -50.0)}))
    assert "s0" not in engine.on_board and any("s0 is not on the board" in n for n in notes([out]))


def test_actions_lift_out_what_is_on_the_surface_or_in_the_hole() -> None:
    """Actions tell the players (or the simulator's hands) what to take off the board."""
    engine = CrokinoleEngine(2)
    engine.place("n0", "north", (0.0, 150.0))
    engine.place("s9", "south", (0.0, 10.0))
    out = engine.apply(Shot(seat="south", disc="s0", contacts=(("s0", "s9"),),
                            end={"s0": "off", "s9": "hole"}))  # a foul: both to the ditch
    assert [(a.kind, a.disc) for a in out.actions] == [("lift_out", "s9")]
    out = engine.apply(Shot(seat="north", disc="n1", contacts=(("n1", "peg"),), end={"n1": "hole"}))
    assert [(a.kind, a.disc) for a in out.actions] == [("set_aside", "n1")]
    assert engine.twenties == {"A": [], "B": ["n1"]}
