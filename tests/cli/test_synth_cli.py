"""``tracker synth`` from the command line: outputs, determinism, and bad input (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.cli import main


def test_writes_every_file_and_is_deterministic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for name, extra in (("a", []), ("b", ["--no-video"])):
        out = tmp_path / name
        rc = main(["synth", "--game", "crokinole", "--seed", "7", "--out", str(out), "--size", "96x64",
                   "--fps", "3", "--max-shots", "1", "--bump", "off", *extra])
        assert rc == 0
        outs.append(out)
    for f in ("video.mp4", "truth.json", "shots.jsonl", "events.jsonl", "frames.jsonl"):
        assert (outs[0] / f).stat().st_size > 0, f
    assert (outs[0] / "frames.jsonl").read_bytes() == (outs[1] / "frames.jsonl").read_bytes()
    assert (outs[0] / "shots.jsonl").read_bytes() == (outs[1] / "shots.jsonl").read_bytes()
    truth = json.loads((outs[0] / "truth.json").read_text())
    assert truth["game"] == "crokinole" and truth["players"] == 2
    import cv2

    cap = cv2.VideoCapture(str(outs[0] / "video.mp4"))
    n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    ok, frame = cap.read()
    assert ok and frame.shape == (64, 96, 3)
    frames = (outs[0] / "frames.jsonl").read_text().splitlines()
    assert n == len(frames)


def test_truth_only_korona(tmp_path: Path) -> None:
    rc = main(["synth", "--game", "korona", "--players", "3", "--seed", "1", "--out", str(tmp_path),
               "--no-video", "--max-shots", "3"])
    assert rc == 0
    first = json.loads((tmp_path / "shots.jsonl").read_text().splitlines()[0])
    assert set(first["setup"]["strikers"]) == {"south", "west", "north"}
    assert not (tmp_path / "video.mp4").exists()


def test_russian_variant(tmp_path: Path) -> None:
    rc = main(["synth", "--game", "korona", "--variant", "ru", "--seed", "3", "--out", str(tmp_path),
               "--no-video", "--max-shots", "2"])
    assert rc == 0
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert truth["game"] == "korona" and truth["variant"] == "ru"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--game", "chess"], "invalid choice"),
        (["--game", "crokinole", "--players", "5"], "players must be 2, 3 or 4"),
        (["--game", "korona", "--players", "1"], "players must be 2, 3 or 4"),
        (["--game", "crokinole", "--size", "big"], "size must look like"),
        (["--game", "crokinole", "--size", "10x10"], "out of range"),
        (["--game", "crokinole", "--fps", "0"], "fps must be between"),
        (["--game", "crokinole", "--rounds", "0"], "rounds must be at least 1"),
        (["--game", "crokinole", "--seed", "x"], "seed must be a whole number"),
        (["--game", "crokinole", "--discs", "8"], "--discs is for korona"),
        (["--game", "crokinole", "--variant", "ru"], "--variant is for korona"),
        (["--game", "korona", "--variant", "se"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv: list[str], words: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        code = main(["synth", *argv, "--out", str(tmp_path / "o"), "--no-video"])
        raise SystemExit(code)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert words in err
    assert len(err.splitlines()) == 1
    assert "Traceback" not in err


def test_unwritable_output_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    rc = main(["synth", "--game", "crokinole", "--out", str(blocker / "sub"), "--no-video"])
    assert rc == 2
    err = capsys.readouterr().err.strip()
    assert "cannot create output folder" in err and len(err.splitlines()) == 1
