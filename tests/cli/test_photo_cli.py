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


def test_empty_board_is_refused_and_nothing_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A finished round always leaves discs somewhere (on the board, in the hole or the ditch):
    # a photo with none is not one, and a 0 - 0 would be a silent wrong answer.
    shot = render([], (640, 480), tilt_deg=10.0, seed=12)
    img = tmp_path / "empty.png"
    cv2.imwrite(str(img), shot.image)
    assert main(["photo", str(img), "--game", "crokinole", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tracker photo: no discs found in") and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_discs_only_in_the_ditch_score_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shot = render([DrawnDisc(-355.0, 30.0, LIGHT), DrawnDisc(350.0, -60.0, DARK)], (640, 480), tilt_deg=10.0, seed=12)
    img = tmp_path / "ditch.png"
    cv2.imwrite(str(img), shot.image)
    calib = tmp_path / "calib.json"
    calib.write_text(json.dumps(shot.calib.to_json()))
    out = tmp_path / "o"
    assert main(["photo", str(img), "--game", "crokinole", "--calib", str(calib), "--out", str(out)]) == 0
    assert "no discs on the playing surface" in capsys.readouterr().out
    data = json.loads((out / "photo.json").read_text())
    assert [t["points"] for t in data["teams"]] == [0, 0] and data["ditch_discs"] == 2


@pytest.mark.parametrize("ext", ["jpg", "png"])
def test_truncated_photo_is_refused_before_decoding(photo: tuple[Path, Path], tmp_path: Path, ext: str,
                                                    capfd: pytest.CaptureFixture[str]) -> None:
    # OpenCV decodes a JPEG cut off half-way without an error (grey rows below the cut, and
    # libjpeg's own warning on stderr): it must be refused, in one line, before that.
    img, calib = photo
    original = cv2.imread(str(img))
    assert original is not None
    full = tmp_path / f"whole.{ext}"
    cv2.imwrite(str(full), original)
    data = full.read_bytes()
    cut = tmp_path / f"cut.{ext}"
    cut.write_bytes(data[: len(data) * 6 // 10])
    out = tmp_path / "o"
    assert main(["photo", str(cut), "--game", "crokinole", "--calib", str(calib), "--out", str(out)]) == 2
    err = capfd.readouterr().err
    assert err.startswith("tracker photo: image") and "truncated" in err and err.count("\n") == 1
    assert not out.exists()
    # the whole file is read and scored as the PNG it came from
    assert main(["photo", str(full), "--game", "crokinole", "--calib", str(calib), "--out", str(out)]) == 0
    _check(out)


def test_no_board_leaves_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(3)
    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), (rng.random((240, 320, 3)) * 255).astype(np.uint8))
    out = tmp_path / "o"
    assert main(["photo", str(noise), "--game", "crokinole", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tracker photo: {noise}:") and err.count("\n") == 1
    assert not out.exists()


def test_outputs_are_written_together_or_not_at_all(tmp_path: Path) -> None:
    from tracker.cli.photo import write_together
    from tracker.errors import InputError

    (tmp_path / "photo.json").write_text("old")
    write_together(tmp_path, {"photo.json": b"new", "overlay.png": b"png"})
    assert (tmp_path / "photo.json").read_text() == "new" and (tmp_path / "overlay.png").read_bytes() == b"png"
    with pytest.raises(InputError, match="cannot write"):  # the second cannot be written
        write_together(tmp_path, {"photo.json": b"newer", "no/such/overlay.png": b"x"})
    assert (tmp_path / "photo.json").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["overlay.png", "photo.json"]
    (tmp_path / "overlay.png").unlink()
    (tmp_path / "overlay.png").mkdir()  # a folder in the way: refused before anything is replaced
    with pytest.raises(InputError, match="a folder of that name"):
        write_together(tmp_path, {"photo.json": b"newest", "overlay.png": b"x"})
    assert (tmp_path / "photo.json").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["overlay.png", "photo.json"]


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


def test_a_video_is_pointed_at_tracker_review(photo: tuple[Path, Path], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    img, _ = photo
    frame = cv2.imread(str(img))
    assert frame is not None
    video = tmp_path / "round.avi"
    vw = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (frame.shape[1], frame.shape[0]))
    for _ in range(3):
        vw.write(frame)
    vw.release()
    out = tmp_path / "o"
    assert main(["photo", str(video), "--game", "crokinole", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a video" in err and f"tracker review {video}" in err
    assert not out.exists()


def test_a_korona_board_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A photo of a korona board: no crokinole board in it, and the message says what it is."""
    from tracker.boards import KoronaBoard
    from tracker.calibration.synthetic import camera_homography, draw_korona_topdown, synthetic_view

    size = (640, 480)
    top, M = draw_korona_topdown(KoronaBoard(), 1.0)
    image = synthetic_view(top, M, camera_homography(size, 10, 0, distance_mm=2000, focal_px=900), size, noise=2.0)
    path = tmp_path / "korona.png"
    cv2.imwrite(str(path), image)
    assert main(["photo", str(path), "--game", "crokinole", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "looks like a korona board" in err
    assert not (tmp_path / "o").exists()


def test_finds_all_left_out_are_named_in_the_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A photo whose only find is a disc down in the far ditch, seen nearly edge on (broadcast
    still 8v218JvUohQ), was refused with 'no discs found' while the photo plainly shows a disc:
    the refusal says what was found and why it was left out."""
    from tests.detect.test_footing import _scene, _taken_as_standing
    from tracker.detect.datatypes import ON_SURFACE, Detections
    from tracker.detect.detector import DiscDetector

    img, calib = _scene(75.0, 1)
    ghost = _taken_as_standing(calib)
    # the detector's part as on the broadcast still: the ditch disc taken as standing on the surface
    monkeypatch.setattr(DiscDetector, "detect", lambda self, frame: Detections(
        xy=ghost[None], color=np.array([[20.0, 0.0, 0.0]]), where=np.array([ON_SURFACE]),
        surround=np.array([[70.0, 5.0, 25.0]])))
    path, cpath = tmp_path / "edge_on.png", tmp_path / "calib.json"
    cv2.imwrite(str(path), img)
    cpath.write_text(json.dumps(calib.to_json()))
    assert main(["photo", str(path), "--game", "crokinole", "--calib", str(cpath), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no discs found" in err
    assert "left out a find at (0, " in err  # (by footing.py or framed.py: both see bare board there)
    assert not (tmp_path / "o").exists()
