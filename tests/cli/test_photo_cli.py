"""`tracker photo` on small drawn photos with a known score, and on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.detect.drawing import DARK, LIGHT, DrawnDisc, render
from tracker.cli import main

# Light: 10 (edge at 165.9 mm) + 5 + a 20 in the hole; dark: 10 + 15. One light disc in the ditch.
DISCS = [DrawnDisc(0.0, -150.0, LIGHT), DrawnDisc(250.0, -100.0, LIGHT), DrawnDisc(0.0, 0.0, LIGHT),
         DrawnDisc(120.0, 90.0, DARK), DrawnDisc(-60.0, -40.0, DARK), DrawnDisc(-355.0, 30.0, LIGHT)]


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("photo")
    shot = render(DISCS, (640, 480), tilt_deg=25.0, seed=11)
    img = d / "round.png"
    cv2.imwrite(str(img), shot.image)
    calib = d / "calib.json"
    calib.write_text(json.dumps(shot.calib.to_json()))
    return img, calib


def _check(out: Path) -> dict:
    data = json.loads((out / "photo.json").read_text())
    light, dark = data["teams"]
    assert (light["points"], light["twenties"], light["discs"]) == (35, 1, 2)
    assert (dark["points"], dark["twenties"], dark["discs"]) == (25, 0, 2)
    assert int(light["color"][1:3], 16) > int(dark["color"][1:3], 16)  # lighter first
    assert data["ditch_discs"] == 1
    assert len(data["discs"]) == 5
    assert all({"x_mm", "y_mm", "team", "points"} <= set(d) for d in data["discs"])
    assert cv2.imread(str(out / "overlay.png")) is not None
    return data


def test_scores_a_drawn_round_with_given_calibration(photo: tuple[Path, Path], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    img, calib = photo
    assert main(["photo", str(img), "--game", "crokinole", "--calib", str(calib), "--out", str(tmp_path)]) == 0
    data = _check(tmp_path)
    assert data["calibration"]["rms_mm"] == 0.0
    assert "35 points" in capsys.readouterr().out


def test_scores_a_drawn_round_finding_the_board(photo: tuple[Path, Path], tmp_path: Path) -> None:
    img, _ = photo
    assert main(["photo", str(img), "--game", "crokinole", "--out", str(tmp_path)]) == 0
    data = _check(tmp_path)
    assert 0.0 < data["calibration"]["rms_mm"] < 2.0


def test_empty_board_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shot = render([], (640, 480), tilt_deg=10.0, seed=12)
    img = tmp_path / "empty.png"
    cv2.imwrite(str(img), shot.image)
    assert main(["photo", str(img), "--game", "crokinole", "--out", str(tmp_path / "o")]) == 0
    assert "no discs on the playing surface" in capsys.readouterr().out


def test_bad_input_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.jpg"
    assert main(["photo", str(missing), "--game", "crokinole"]) == 2
    assert "does not exist" in capsys.readouterr().err
    junk = tmp_path / "junk.jpg"
    junk.write_text("not an image")
    assert main(["photo", str(junk), "--game", "crokinole"]) == 2
    assert "cannot be read" in capsys.readouterr().err
    noboard = tmp_path / "grey.png"
    cv2.imwrite(str(noboard), np.full((240, 320, 3), 128, np.uint8))
    assert main(["photo", str(noboard), "--game", "crokinole", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tracker photo:") and err.count("\n") == 1
    with pytest.raises(SystemExit) as e:
        main(["photo", str(noboard)])
    assert e.value.code == 2


def test_calibration_for_another_image_size_is_refused(photo: tuple[Path, Path], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    img, calib = photo
    small = tmp_path / "small.png"
    original = cv2.imread(str(img))
    assert original is not None
    cv2.imwrite(str(small), cv2.resize(original, (320, 240)))
    assert main(["photo", str(small), "--game", "crokinole", "--calib", str(calib)]) == 2
    assert "is for 640x480 images" in capsys.readouterr().err
