"""Korona engine flow: starting games (line shot, loser starts), the match, restarts, bad input."""

from __future__ import annotations

import math

import pytest

from tests.rules.test_korona_situations import ONE_EACH, STRIKERS, sh
from tracker.boards.korona import KoronaBoard
from tracker.errors import InputError
from tracker.rules.korona import KoronaEngine, line_shot_winner, standard_setup
from tracker.shotlog import Entry, RoundEnd, Setup, Shot, dump_shot_log, parse_shot_log

P = "pocket:"


def one_each(**extra: object) -> Setup:
    return Setup(discs=dict(ONE_EACH), strikers=STRIKERS, **extra)  # type: ignore[arg-type]


def test_standard_setup_rows_touch_far_rim_and_each_other() -> None:
    """fi 2.2: a row against the rim, discs touching, ends equally far from the side rims."""
    b = KoronaBoard()
    s = standard_setup(2, 8, b)
    south = sorted(at for owner, at in s.discs.values() if owner == "south")
    assert len(south) == 8
    assert all(math.isclose(y, b.half - b.disc_radius) for _, y in south)  # far (north) rim
    xs = [x for x, _ in south]
    assert all(math.isclose(x1 - x0, b.disc_diameter) for x0, x1 in zip(xs, xs[1:], strict=False))
    assert math.isclose(xs[0], -xs[-1])
    s4 = standard_setup(4, 16, b)
    assert len(s4.discs) == 64
    west = [at for owner, at in s4.discs.values() if owner == "west"]
    assert all(math.isclose(x, b.half - b.disc_radius) for x, _ in west)  # east rim


def test_line_shot_closest_to_centre_wins() -> None:
    assert line_shot_winner({"south": (30.0, 40.0), "north": (10.0, 0.0)})[0] == "north"
    with pytest.raises(InputError, match="repeat the line shot"):
        line_shot_winner({"south": (30.0, 40.0), "north": (50.0, 0.0)})


def test_line_shot_winner_chooses_in_fi_but_starts_in_ru() -> None:
    stops = {"south": (5.0, 0.0), "north": (60.0, 0.0)}
    fi = KoronaEngine(variant="fi")
    out = fi.apply(one_each(line_shot=stops, starter="north"))
    assert fi.turn == "north" and "south wins it and chooses north" in out.decisions[-1].reason
    ru = KoronaEngine(variant="ru")
    ru.apply(one_each(line_shot=stops, starter="north"))
    assert ru.turn == "south"


def test_loser_starts_next_game_and_match_ends() -> None:
    """fi 2.3: the loser of a game starts the next; a match of N games."""
    e = KoronaEngine(games=2)
    e.apply(one_each())
    e.apply(sh("south"))
    out = e.apply(sh("north", ("N", "n1"), end={"n1": P + "se"}))
    assert out.round_over and not out.game_over
    out = e.apply(one_each())
    assert e.turn == "south" and "south lost game 1 and starts" in out.decisions[-1].reason
    e.apply(sh("south", ("S", "s1"), end={"s1": P + "nw"}))
    out = e.apply(sh("north"))
    assert out.round_over and out.game_over
    summary = e.summary()
    assert summary["totals"] == {"south": 1, "north": 1}
    assert summary["winner"] is None
    assert [r["winner"] for r in summary["rounds"]] == ["north", "south"]
    assert summary["rounds"][1]["pocketed"] == {"south": 1, "north": 0}
    with pytest.raises(InputError, match="match of 2 games is over"):
        e.apply(one_each())


def test_restart_during_game_is_abandoned_and_same_starter() -> None:
    """fi 2.8 deadlock: a new setup line mid-game restarts it; the game does not count."""
    e = KoronaEngine(starter="north")
    e.apply(one_each())
    e.apply(sh("north"))
    out = e.apply(one_each())
    assert out.decisions[0].kind == "game_abandoned"
    assert e.turn == "north"
    s = e.summary()
    assert s["rounds"][0]["abandoned"] is True and s["rounds"][0]["winner"] is None
    assert s["totals"] == {"south": 0, "north": 0}


def test_round_end_closes_game_fewest_left_wins() -> None:
    e = KoronaEngine()
    e.apply(Setup(discs={**ONE_EACH, "s2": ("south", (100.0, 100.0)), "n2": ("north", (100.0, -100.0))},
                  strikers=STRIKERS))
    e.apply(sh("south", ("S", "s1"), end={"s1": P + "nw"}))
    out = e.apply(RoundEnd())
    assert out.round_over and e.summary()["rounds"][0]["winner"] == "south"


def test_placed_moves_pending_disc() -> None:
    e = KoronaEngine()
    e.apply(Setup(discs={**ONE_EACH, "s2": ("south", (100.0, 100.0)), "n2": ("north", (100.0, -100.0))},
                  strikers=STRIKERS))
    out = e.apply(sh("south", ("S", "s1"), end={"s1": "off"}))
    assert out.actions[0].kind == "place_in_centre_circle" and out.actions[0].by == "north"
    e.apply(sh("north", placed={"s1": (30.0, -40.0)}))
    assert e.table is not None and e.table.discs["s1"].at == (30.0, -40.0)
    with pytest.raises(InputError, match="not due to be placed"):
        e.apply(sh("south", placed={"s2": (0.0, 0.0)}))


@pytest.mark.parametrize(
    ("shot", "message"),
    [
        (sh("west"), "west does not play in this 2-player game"),
        (Shot(seat="south", disc="X"), "must be south's striker 'S'"),
        (sh("south", ("S", "zz")), "unknown disc 'zz'"),
        (sh("south", ("S", "rim:up")), "is not a rim"),
        (sh("south", end={"s1": "hole"}), "korona has no 'hole'"),
        (sh("south", end={"s1": (900.0, 0.0)}), "outside the playing area"),
        (sh("south", ref=("cheating",)), "unknown referee input 'cheating'"),
    ],
)
def test_bad_shots_are_refused_with_the_line(shot: Shot, message: str) -> None:
    e = KoronaEngine()
    e.apply(one_each())
    with pytest.raises(InputError, match=message):
        e.apply(shot)
    assert e.turn == "south"  # a refused line changes nothing


def test_a_shot_out_of_turn_is_played_as_observed() -> None:
    """South starts, but north is seen shooting (say south's pocket before it was missed): the
    shot is scored, with a note, and the turn goes on from north as the rules say."""
    e = KoronaEngine()
    two = {"s2": ("south", (60.0, 150.0)), "n2": ("north", (60.0, -150.0))}
    e.apply(Setup(discs={**ONE_EACH, **two}, strikers=STRIKERS))  # type: ignore[arg-type]
    out = e.apply(sh("north", ("N", "n1"), end={"n1": P + "se"}))
    assert out.decisions[0].kind == "note" and "out of turn: north shot, south was to shoot" in out.decisions[0].reason
    assert e.pocketed()["north"] == 1 and e.turn == "north"  # an own disc pocketed: north shoots again
    out = e.apply(sh("north"))
    assert not any("out of turn" in d.reason for d in out.decisions) and e.turn == "south"


def test_a_finished_player_shooting_in_an_equalising_turn_is_refused() -> None:
    """fi 2.5: once south has pocketed all, only north's equalising turn is left to play."""
    e = KoronaEngine()
    e.apply(one_each())
    e.apply(sh("south", ("S", "s1"), end={"s1": P + "nw"}))
    assert e.turn == "north"
    with pytest.raises(InputError, match="north's equalising turn"):
        e.apply(sh("south"))


def test_pocketed_disc_cannot_move_again() -> None:
    e = KoronaEngine()
    e.apply(Setup(discs={**ONE_EACH, "s2": ("south", (100.0, 100.0)), "n2": ("north", (100.0, -100.0))},
                  strikers=STRIKERS))
    e.apply(sh("south", ("S", "s1"), end={"s1": P + "nw"}))
    with pytest.raises(InputError, match="'s1' is not on the table"):
        e.apply(sh("south", ("S", "s1")))


def test_bad_setups_and_arguments() -> None:
    with pytest.raises(InputError, match="players must be 2, 3 or 4"):
        KoronaEngine(players=5)
    with pytest.raises(InputError, match="variant"):
        KoronaEngine(variant="se")
    with pytest.raises(InputError, match="discs_per_player"):
        KoronaEngine(discs_per_player=10)
    e = KoronaEngine()
    with pytest.raises(InputError, match="starts with a setup line"):
        e.apply(sh("south"))
    with pytest.raises(InputError, match="same number of discs"):
        e.apply(Setup(discs={"s1": ("south", (0.0, 0.0))}, strikers=STRIKERS))
    with pytest.raises(InputError, match="who does not play"):
        e.apply(Setup(discs={**ONE_EACH, "e1": ("east", (0.0, 0.0))}, strikers=STRIKERS))


def test_shot_log_round_trip_with_korona_fields() -> None:
    entries: list[Entry] = [
        standard_setup(2, 8, line_shot={"south": (1.0, 2.0), "north": (30.0, 0.0)}, starter="north"),
        sh("north", ("N", "rim:south"), ("N", "n1"), end={"n1": P + "ne"}, ind=True, pocket="ne",
           called="n1", placed={}),
        sh("north", ref=("pushing",), placed={"s1": (1.0, 2.0)}),
    ]
    text = dump_shot_log(entries)
    back = parse_shot_log(text.splitlines())
    assert [b.to_json() for b in back] == [e.to_json() for e in entries]
    assert isinstance(back[0], Setup) and back[0].starter == "north"


def test_summary_schema_for_korona() -> None:
    e = KoronaEngine(variant="ru")
    e.apply(one_each())
    e.apply(sh("south", ("S", "s1"), end={"s1": P + "nw"}))
    s = e.summary()
    assert s["game"] == "korona" and s["players"] == 2
    r = s["rounds"][0]
    assert set(r) >= {"index", "shots", "pocketed", "fouls", "winner", "discs", "debts"}
    assert r["shots"] == 1 and r["winner"] == "south" and s["totals"] == {"south": 1, "north": 0}
    assert s["winner"] == "south"
    assert r["discs"] == [{"id": "n1", "seat": "north", "x_mm": 0.0, "y_mm": -150.0}]


def test_sixteen_discs_four_players() -> None:
    """fi 1.2/2.1: 8 or 16 discs a player, the same for all; a count other than agreed is noted."""
    e = KoronaEngine(players=4, discs_per_player=16)
    out = e.apply(standard_setup(4, 16))
    assert [d.kind for d in out.decisions] == ["game_start"] and e.turn == "south"
    assert e.table is not None and e.table.start_counts == {"south": 16, "west": 16, "north": 16, "east": 16}
    out = KoronaEngine(players=4, discs_per_player=16).apply(standard_setup(4, 8))
    assert out.decisions[0].kind == "note" and "expected 16" in out.decisions[0].reason


def test_refused_line_leaves_state_unchanged() -> None:
    e = KoronaEngine()
    e.apply(Setup(discs={**ONE_EACH, "s2": ("south", (100.0, 100.0)), "n2": ("north", (100.0, -100.0))},
                  strikers=STRIKERS))
    e.apply(sh("south", ("S", "s1"), end={"s1": "off"}))
    before = e.state()
    with pytest.raises(InputError, match="unknown disc 'zz'"):
        e.apply(sh("north", ("N", "zz"), placed={"s1": (30.0, -40.0)}))
    assert e.state() == before
