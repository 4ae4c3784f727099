"""``tracker corona`` through ``tracker.cli.main`` (output, JSON, one-line errors with exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.cli import main
from tracker.cli.corona import VARIANTS as CLI_VARIANTS
from tracker.rules.corona.model import VARIANTS, Position, score_plan

POS = ["--carriers", "0,0,3,5,7,7", "--dice", "1,2,3,4,5,6"]


def test_best_prints_every_step_and_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corona", "best", *POS]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["step", "die", "carrier", "from", "to", "points"]
    rows = [list(map(int, line.split())) for line in out[2:8]]
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5, 6]
    # the printed plan replays to the printed points and score (14, brute-force checked)
    plan = score_plan(Position.of((0, 0, 3, 5, 7, 7), (1, 2, 3, 4, 5, 6)), [(r[2], r[1]) for r in rows])
    assert [s.points for s in plan.steps] == [r[5] for r in rows]
    assert [(s.start, s.end) for s in plan.steps] == [(r[3], r[4]) for r in rows]
    assert out[8] == "score 14"


def test_best_json_with_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corona", "best", *POS, "--variant", "empty-zero", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "empty-zero" and data["score"] == 13
    assert data["carriers"] == [0, 0, 3, 5, 7, 7]
    assert sum(step["points"] for step in data["plan"]) == 13
    assert {"step", "die", "carrier", "from", "to", "points"} <= set(data["plan"][0])


def test_score_reports_a_given_plan_and_the_best(capsys: pytest.CaptureFixture[str]) -> None:
    plan = "0:1,1:2,2:3,3:4,4:5,5:6"
    assert main(["corona", "score", *POS, "--plan", plan, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # 0->1 empty 1; 0->2 empty 1; 3->6 empty 1; 5->9 empty 1; 7->0 empty 1; 7->1 meets carrier 0: 2
    assert [s["points"] for s in data["plan"]] == [1, 1, 1, 1, 1, 2]
    assert data["score"] == 7 and data["best_score"] == 14


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--carriers", "0,0,3,5,7", "--dice", "1,2,3,4,5,6"], "carriers: expected 6 fields, got 5"),
        (["--carriers", "0,0,3,5,7,7", "--dice", "1,2,3"], "dice: expected 6 values, got 3"),
        (["--carriers", "0,0,3,5,7,12", "--dice", "1,2,3,4,5,6"], "must be 0..11, not 12"),
        (["--carriers", "0,0,3,5,7,7", "--dice", "1,2,3,4,5,7"], "must show 1..6, not 7"),
        (["--carriers", "0,a,3,5,7,7", "--dice", "1,2,3,4,5,6"], "comma-separated whole numbers"),
        ([*POS, "--variant", "nope"], "invalid choice"),
        (["--dice", "1,2,3,4,5,6"], "required: --carriers"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(["corona", "best", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_bad_plan_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corona", "score", *POS, "--plan", "0:1,0:2,2:3,3:4,4:5,5:6"]) == 2
    assert capsys.readouterr().err.strip() == (
        "tracker corona: plan: carrier 0 moves twice; each carrier carries one die")
    assert main(["corona", "score", *POS, "--plan", "0-1"]) == 2
    assert "carrier:die" in capsys.readouterr().err


def test_cli_offers_the_model_variants() -> None:
    assert CLI_VARIANTS == VARIANTS


def _run(argv: list[str]) -> int:
    """Exit status of ``tracker argv``, whether returned or raised (argparse usage errors)."""
    try:
        return main(argv)
    except SystemExit as e:
        return int(e.code or 0)


GAME_LOG = [
    {"action": "setup", "carriers": [0, 0, 3, 5, 7, 7], "dice": [1, 2, 3, 4, 5, 6]},
    {"action": "bid", "player": "ann", "estimate": 12},
    {"action": "bid", "player": "bob", "estimate": 12},  # rejected: not higher
    {"action": "bid", "player": "bob", "estimate": 15},
    {"action": "close"},
    {"action": "play", "moves": [[3, 2], [4, 5], [0, 1], [1, 3], [2, 4], [5, 6]]},  # 14 < 15
    {"action": "setup", "carriers": [0, 1, 2, 3, 4, 5], "dice": [1, 2, 3, 4, 5, 6]},
    {"action": "bid", "player": "bob", "estimate": 10},  # rejected: barred after failing
    {"action": "bid", "player": "cy", "estimate": 21},
    {"action": "close"},
    {"action": "play", "moves": [[0, 6], [1, 5], [2, 4], [3, 3], [4, 2], [5, 1]]},  # 21: all on 6
]


def test_game_replays_a_log_with_reasons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(json.dumps(a) for a in GAME_LOG) + "\n")
    assert main(["corona", "game", "--players", "ann,bob,cy", str(log)]) == 0
    out = capsys.readouterr().out
    assert "estimate 12 by bob rejected: must be higher than 12 (ann)" in out
    assert "bob may not estimate this round: they missed their estimate last round" in out
    # 8 chips each; bob misses 15 with 14 (pays 2); cy reaches 21 (collects 2)
    assert "chips: ann 8, bob 5, cy 11" in out
    assert main(["corona", "game", "--players", "ann,bob,cy", str(log), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["chips"] == {"ann": 8, "bob": 5, "cy": 11}
    assert data["summary"]["master"] == "cy"
    assert [d["kind"] for d in data["outcomes"][2]["decisions"]] == ["rejected"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"action": "bid", "player": "ann"}', "game.jsonl:1: bid: missing field 'estimate'"),
        ('{"action": "jump"}', "unknown Corona action 'jump'"),
        ('{"action": ', "game.jsonl:1: not JSON"),
        ('{"action": "setup", "carriers": [0, 0], "dice": [1, 2, 3, 4, 5, 6]}', "expected 6 fields, got 2"),
        ('{"action": "bid", "player": "zed", "estimate": 3}', "unknown player 'zed'"),
    ],
)
def test_game_bad_log_is_one_line_and_exit_2(
    tmp_path: Path, line: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(line + "\n")
    assert main(["corona", "game", "--players", "ann,bob", str(log)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_game_needs_an_existing_log_and_two_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corona", "game", "--players", "ann,bob", str(tmp_path / "none.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
    log = tmp_path / "g.jsonl"
    log.write_text("")
    assert main(["corona", "game", "--players", "ann", str(log)]) == 2
    assert "at least 2 players" in capsys.readouterr().err
