"""``tracker rules``: golden shot logs through the command, and its errors (SPEC section 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tracker.cli import main

GOLDEN = Path(__file__).parents[1] / "rules" / "golden"
ROUND = GOLDEN / "crokinole_2p_round_A70_B50_A_awarded_20.jsonl"
CHAMP = GOLDEN / "crokinole_4p_championship_3_rounds_A_wins_4_2.jsonl"


def test_golden_round_through_a_subprocess() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tracker", "rules", "--game", "crokinole", str(ROUND)],
        capture_output=True, text=True, cwd=Path(__file__).parents[2], timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["game"] == "crokinole" and summary["players"] == 2
    (r,) = summary["rounds"]
    assert r["index"] == 0 and r["shots"] == 24
    assert r["points"] == {"A": 70, "B": 50} and r["awarded"] == {"A": 20, "B": 0}
    assert r["twenties"] == {"A": 2, "B": 1}
    assert {(d["disc"], d["team"], d["points"]) for d in r["discs"]} == {
        ("s8", "A", 10), ("s10", "A", 15), ("s11", "A", 5),
        ("n6", "B", 5), ("n8", "B", 15), ("n11", "B", 10),
    }
    assert summary["totals"] == {"A": 20, "B": 0} and summary["winner"] is None
    lines = proc.stderr.splitlines()
    assert "shot 3 (line 3, south): foul: no opponent disc hit; s1 to the ditch" in lines
    assert "shot 7 (line 7, south): 20 for south (s3)" in lines
    assert lines[-1] == "shot 24 (line 24, north): round 1: A 70, B 50 -> A awarded 20"


def test_golden_championship_via_main(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["rules", "--game", "crokinole", "--players", "4", "--rounds", "3", str(CHAMP)])
    out, err = capsys.readouterr()
    assert rc == 0
    summary = json.loads(out)
    assert [r["awarded"] for r in summary["rounds"]] == [{"A": 2, "B": 0}, {"A": 0, "B": 2}, {"A": 2, "B": 0}]
    assert summary["totals"] == {"A": 4, "B": 2} and summary["winner"] == "A"
    assert "game over: A (south+north) wins (A 4, B 2)" in err


def test_options_change_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    """Simple scoring and the no-opponent rule switched off, on the same log."""
    rc = main(["rules", "--game", "crokinole", "--scoring", "simple", "--no-opponent-rule", "off", str(ROUND)])
    summary = json.loads(capsys.readouterr().out)
    assert rc == 0
    # n1 (10 zone, shot 4) now stays until knocked... it is never struck, so B gains 10.
    assert summary["rounds"][0]["points"] == {"A": 70, "B": 60}
    assert summary["rounds"][0]["awarded"] == {"A": 70, "B": 60}


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO('{"seat": "south", "disc": "s1", "end": {"s1": "hole"}}\n'))
    assert main(["rules", "--game", "crokinole", "-"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["current_round"]["twenties"] == {"A": 1, "B": 0}
    assert "20 for south (s1)" in err


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"seat": "south", "disc": "s1"}\n{"seat": "north", "disc": 5}\n', "line 2: field 'disc'"),
        ('{"seat": "south", "disc": "s1", "end": {"s1": [1]}}\n', "line 1: field 'end.s1'"),
        ("not json\n", "line 1: not valid JSON"),
        ('{"seat": "west", "disc": "w1"}\n', "line 1: field 'seat'"),
    ],
)
def test_bad_line_is_one_error_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    f = tmp_path / "shots.jsonl"
    f.write_text(content)
    assert main(["rules", "--game", "crokinole", str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err


def test_missing_file_and_bad_option_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--game", "crokinole", str(tmp_path / "none.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["rules", "--game", "crokinole", "--no-opponent-rule", "maybe", str(ROUND)])
    assert e.value.code == 2


def test_board_profile_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A measured board with a smaller shooting line removes a disc the default board keeps."""
    log = tmp_path / "shots.jsonl"
    log.write_text('{"seat": "south", "disc": "s1", "end": {"s1": [0, 112]}}\n')
    prof = tmp_path / "board.json"
    prof.write_text(json.dumps({"game": "crokinole", "fifteen_line_radius": 90.0}))
    assert main(["rules", "--game", "crokinole", str(log)]) == 0
    assert json.loads(capsys.readouterr().out)["current_round"]["points"] == {"A": 10, "B": 0}
    assert main(["rules", "--game", "crokinole", "--board", str(prof), str(log)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["current_round"]["points"] == {"A": 0, "B": 0}
    assert "outside the 15 line" in err


GOLDEN_TABLE = {
    "crokinole_2p_round_A70_B50_A_awarded_20.jsonl": (
        [], {"A": 70, "B": 50}, {"A": 20, "B": 0}, None),
    "crokinole_3p_round_west30_north10_south0_west_awarded_20.jsonl": (
        ["--players", "3"], {"south": 0, "west": 30, "north": 10}, {"south": 0, "west": 20, "north": 0}, None),
    "crokinole_4p_championship_3_rounds_A_wins_4_2.jsonl": (
        ["--players", "4", "--rounds", "3"], {"A": 35, "B": 0}, {"A": 2, "B": 0}, "A"),
}


def test_every_crokinole_golden_log_is_in_the_table() -> None:
    assert {p.name for p in GOLDEN.glob("crokinole_*.jsonl")} == set(GOLDEN_TABLE)


@pytest.mark.parametrize("name", sorted(GOLDEN_TABLE))
def test_golden_log_gives_the_outcome_its_name_states(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    args, points, awarded, winner = GOLDEN_TABLE[name]
    assert main(["rules", "--game", "crokinole", *args, str(GOLDEN / name)]) == 0
    summary = json.loads(capsys.readouterr().out)
    last = summary["rounds"][-1]
    assert last["points"] == points and last["awarded"] == awarded
    assert summary["winner"] == winner
    assert summary["totals"] == {s: sum(r["awarded"][s] for r in summary["rounds"]) for s in summary["totals"]}
