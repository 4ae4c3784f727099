"""``--board PROFILE`` on every command that finds or judges a board (calibrate, review, photo,
live, rules): a missing, malformed or other-game profile is one line and exit status 2, the
option is in ``--help``, and the profile reaches the board fit: a carrom-sized korona board
reviewed with ``--board carrom`` is measured in the carrom board's millimetres."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tracker.cli import main

COMMANDS = ("calibrate", "review", "photo", "live", "rules")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as e:  # argparse usage errors, --help
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _argv(command: str, game: str, tmp_path: Path, board: str) -> list[str]:
    """A command line of ``command`` that would work but for its ``--board``."""
    source = str(tmp_path / "missing-source")  # the profile is checked before the source
    out = str(tmp_path / "out")
    return {
        "calibrate": ["calibrate", source, "--game", game, "--out", str(tmp_path / "calib.json")],
        "review": ["review", source, "--game", game, "--out", out],
        "photo": ["photo", source, "--game", game, "--out", out],
        "live": ["live", "--camera", source, "--game", game, "--db", str(tmp_path / "live.db")],
        "rules": ["rules", "--game", game, source],
    }[command] + ["--board", board]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_the_option(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0
    assert "--board PROFILE" in out and "carrom" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_missing_profile(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(_argv(command, "crokinole", tmp_path, str(tmp_path / "nope.json")), capsys)
    assert code == 2
    assert err.count("\n") == 1 and "nope.json: no such file" in err and "built-in profiles: carrom" in err
    assert not (tmp_path / "out").exists() and not (tmp_path / "live.db").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_malformed_profile(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "crokinole", "shooting_line_radius": "wide"}')
    code, _, err = run(_argv(command, "crokinole", tmp_path, str(bad)), capsys)
    assert code == 2
    assert err.count("\n") == 1 and "shooting_line_radius must be a number" in err and "Traceback" not in err
    bad.write_text("{not json")
    code, _, err = run(_argv(command, "crokinole", tmp_path, str(bad)), capsys)
    assert code == 2 and err.count("\n") == 1 and "not JSON" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_profile_of_the_other_game(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(_argv(command, "crokinole", tmp_path, "carrom"), capsys)
    assert code == 2
    assert err.count("\n") == 1 and "--board carrom is a korona board, not crokinole" in err
    if command != "photo":  # (photo is crokinole only)
        crok = tmp_path / "crok.json"
        crok.write_text(json.dumps({"game": "crokinole", "shooting_line_radius": 300.0}))
        code, _, err = run(_argv(command, "korona", tmp_path, str(crok)), capsys)
        assert code == 2
        assert err.count("\n") == 1 and "is a crokinole board, not korona" in err


def test_photo_refuses_board_with_calib(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["photo", str(tmp_path / "x.png"), "--game", "crokinole", "--calib",
                        str(tmp_path / "c.json"), "--board", "carrom"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--board and --calib" in err


def test_live_pipeline_takes_the_profile() -> None:
    """``tracker live`` hands the profile to its pipeline: the board fits (also a re-fit with
    another south) and the referee use it."""
    from tracker.app.processor import PipelineProcessor
    from tracker.boards import load_profile

    board = load_profile("carrom")
    proc = PipelineProcessor("korona", 2, board=board)
    assert proc.pipeline.board_hint is board
    assert proc.pipeline.engine.board is board  # type: ignore[attr-defined]


def _carrom_clip(path: Path, frames: int = 12) -> np.ndarray:
    """A still video of an empty carrom-sized korona board; returns board mm -> image px."""
    from tracker.boards import load_profile
    from tracker.calibration.synthetic import camera_homography, draw_korona_topdown, synthetic_view

    size = (640, 480)
    top, M = draw_korona_topdown(load_profile("carrom"), 1.0)  # type: ignore[arg-type]
    G = camera_homography(size, 12, 0, distance_mm=1900, focal_px=700)
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), 10.0, size)
    for i in range(frames):
        vw.write(synthetic_view(top, M, G, size, noise=2.0, seed=i))
    vw.release()
    return G


def _corner_mm(events: Path, G: np.ndarray, half: float) -> float:
    """Where the review's board fit puts the true playing-area corners: mean |x|, |y| in mm."""
    ev = [json.loads(line) for line in events.read_text().splitlines()]
    H = np.asarray(next(e for e in ev if e["type"] == "calibrated")["homography"])
    corners = np.array([[[half, half]], [[-half, half]], [[-half, -half]], [[half, -half]]], np.float64)
    px = cv2.perspectiveTransform(corners, G)
    mm = cv2.perspectiveTransform(px, H).reshape(-1, 2)
    return float(np.abs(mm).mean())


def test_review_fits_the_board_on_the_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A carrom board (740 mm playing area) reviewed as korona: with ``--board carrom`` its
    corners are at the carrom half (370 mm); with the korona default they are read as the
    default's (425 mm), so the profile is what the fit measured against."""
    from tracker.boards import KoronaBoard, load_profile

    carrom = load_profile("carrom")
    assert isinstance(carrom, KoronaBoard)
    video = tmp_path / "carrom.mp4"
    G = _carrom_clip(video)
    code, _, err = run(["review", str(video), "--game", "korona", "--board", "carrom",
                        "--out", str(tmp_path / "c")], capsys)
    assert code == 0, err
    assert _corner_mm(tmp_path / "c" / "events.jsonl", G, carrom.half) == pytest.approx(carrom.half, abs=4.0)
    code, _, err = run(["review", str(video), "--game", "korona", "--out", str(tmp_path / "k")], capsys)
    if code == 0:  # (the default profile may also refuse the board: either way it is not carrom's)
        seen = _corner_mm(tmp_path / "k" / "events.jsonl", G, carrom.half)
        assert abs(seen - carrom.half) > 20.0
