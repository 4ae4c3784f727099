"""replay(), engine_for() and the events made from outcomes (SPEC section 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.errors import TrackerError
from tracker.rules import engine_for, outcome_event_dicts, outcome_events, replay
from tracker.rules.crokinole import CrokinoleEngine
from tracker.shotlog import parse_shot_log

GOLDEN = Path(__file__).parent / "golden"


def load(name: str):  # type: ignore[no-untyped-def]
    return parse_shot_log((GOLDEN / name).read_text().splitlines())


def test_engine_for_crokinole_passes_options() -> None:
    engine = engine_for("crokinole", 4, scoring="simple", target=50)
    assert isinstance(engine, CrokinoleEngine)
    assert engine.rules.players == 4 and engine.rules.scoring == "simple" and engine.rules.target == 50


def test_engine_for_refuses_unknown_game_and_crokinole_variant() -> None:
    with pytest.raises(TrackerError, match="carrom"):
        engine_for("carrom", 2)
    with pytest.raises(TrackerError, match="variant"):
        engine_for("crokinole", 2, variant="ru")


def test_replay_gives_one_outcome_per_entry_in_order() -> None:
    entries = load("crokinole_2p_round_A70_B50_A_awarded_20.jsonl")
    outcomes = replay(CrokinoleEngine(2), entries)
    assert [o.index for o in outcomes] == list(range(len(entries)))
    assert outcomes[-1].round_over and not outcomes[-1].game_over


def test_golden_2p_round_events() -> None:
    """The golden round as events: the removals with their SPEC reason codes, the 20s, the end."""
    outcomes = replay(CrokinoleEngine(2), load("crokinole_2p_round_A70_B50_A_awarded_20.jsonl"))
    events = [e for i, o in enumerate(outcomes) for e in outcome_events(o, t=float(i), frame=i * 30)]
    removed = {(e.data["disc"], e.data["reason"]) for e in events if e.type == "removed"}
    assert removed == {
        ("s1", "foul"), ("n1", "no_opponent_rule"), ("n0", "shooting_line"), ("n5", "foul"),
        ("s6", "shooting_line"), ("s7", "foul"), ("n10", "foul"), ("n3", "shooting_line"),
    }
    twenties = [(e.data["seat"], e.data["disc"]) for e in events if e.type == "twenty"]
    assert twenties == [("south", "s3"), ("north", "n4"), ("south", "s9")]
    ends = [e for e in events if e.type == "round_end"]
    assert len(ends) == 1
    assert ends[0].data["points"] == {"A": 70, "B": 50} and ends[0].data["awarded"] == {"A": 20, "B": 0}
    assert ends[0].t == 23.0 and ends[0].frame == 690
    assert not [e for e in events if e.type == "game_end"]


def test_game_end_event_and_dicts() -> None:
    outcomes = replay(CrokinoleEngine(4, rounds=3), load("crokinole_4p_championship_3_rounds_A_wins_4_2.jsonl"))
    last = outcome_event_dicts(outcomes[-1], t=12.5, frame=375)
    assert [d["type"] for d in last] == ["round_end", "game_end"]
    assert last[1]["winner"] == "A" and last[1]["t"] == 12.5 and last[1]["frame"] == 375
    assert last[0]["awarded"] == {"A": 2, "B": 0}


def test_shot_flags_for_the_shot_event() -> None:
    from tracker.rules import shot_flags

    outcomes = replay(CrokinoleEngine(2), load("crokinole_2p_round_A70_B50_A_awarded_20.jsonl"))
    assert shot_flags(outcomes[0]) == (None, None)  # nothing to hit on an empty board
    assert shot_flags(outcomes[1]) == (True, None)  # n0 hit s0
    hit, foul = shot_flags(outcomes[2])  # s1 missed n0
    assert hit is False and foul is not None and foul.startswith("foul: no opponent disc hit")


def test_korona_finished_games_become_game_end_events() -> None:
    golden = Path(__file__).parent / "golden"
    for name, winner in (("korona_fi_2p_south_wins_after_failed_equalising_turn.jsonl", "south"),
                         ("korona_fi_2p_draw_by_equalising_turn.jsonl", None)):
        entries = parse_shot_log((golden / name).read_text().splitlines())
        engine = engine_for("korona", 2)
        ends = [e for out in replay(engine, entries) for e in outcome_events(out, 0.0, 0)
                if e.type == "game_end"]
        assert [e.data["winner"] for e in ends] == [winner], name
