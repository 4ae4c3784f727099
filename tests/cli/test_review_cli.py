"""``tracker review`` from the command line: bad input gives one clear line and exit 2, and a
small rendered fixture is reviewed end to end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tracker.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "videos"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as e:  # argparse usage errors
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_missing_video(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["review", str(tmp_path / "nope.mp4"), "--game", "crokinole"], capsys)
    assert code == 2
    assert err.count("\n") == 1 and "does not exist" in err


def test_not_a_video(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.mp4"
    bad.write_text("this is not a video\n")
    code, _, err = run(["review", str(bad), "--game", "crokinole", "--out", str(tmp_path / "o")], capsys)
    assert code == 2
    assert err.count("\n") == 1 and "notes.mp4" in err and "Traceback" not in err


def test_bad_game_and_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["review", "x.mp4", "--game", "chess"], capsys)
    assert code == 2 and "invalid choice" in err
    code, _, err = run(["review", "x.mp4", "--game", "crokinole", "--players", "5"], capsys)
    assert code == 2 and "players must be 2, 3 or 4" in err


def _write_video(path: Path, frames: list[np.ndarray], fps: float = 10.0) -> None:
    import cv2

    h, w = frames[0].shape[:2]
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, (w, h))
    for f in frames:
        vw.write(f)
    vw.release()


def test_video_with_no_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(0)
    frames = [np.full((120, 160, 3), 90, np.uint8) + rng.integers(0, 8, (120, 160, 3), dtype=np.uint8)
              for _ in range(12)]
    video = tmp_path / "wall.mp4"
    _write_video(video, frames)
    code, _, err = run(["review", str(video), "--game", "crokinole", "--out", str(tmp_path / "o")], capsys)
    assert code == 2
    assert err.count("\n") == 1 and "no crokinole board found" in err


def test_truncated_mp4_without_index_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = FIXTURES / "crokinole_twenty" / "video.mp4"
    if not src.exists():
        pytest.skip("fixture crokinole_twenty not generated")
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(src.read_bytes()[:40000])  # the mp4 index (moov) is at the end: lost
    code, _, err = run(["review", str(cut), "--game", "crokinole", "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and err.count("\n") == 1 and "truncated" in err


def test_truncated_avi_is_scored_as_far_as_it_goes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The 20 is shot in the first 60% of the clip: it is scored, and the cut is reported."""
    import cv2

    src = FIXTURES / "crokinole_twenty" / "video.mp4"
    if not src.exists():
        pytest.skip("fixture crokinole_twenty not generated")
    cap = cv2.VideoCapture(str(src))
    frames = []
    while True:
        ok, f = cap.read()
        if not ok:
            break
        frames.append(f)
    avi = tmp_path / "whole.avi"
    h, w = frames[0].shape[:2]
    vw = cv2.VideoWriter(str(avi), cv2.VideoWriter.fourcc(*"MJPG"), 15.0, (w, h))
    for f in frames:
        vw.write(f)
    vw.release()
    data = avi.read_bytes()
    cut = tmp_path / "cut.avi"
    cut.write_bytes(data[: len(data) * 6 // 10])
    code, out, err = run(["review", str(cut), "--game", "crokinole", "--out", str(tmp_path / "o")], capsys)
    assert code == 0, err
    assert "stopped at frame" in err and f"of {len(frames)}" in err
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["current_round"]["twenties"] == {"A": 1, "B": 0}


@pytest.mark.slow
def test_review_of_a_fixture_matches_its_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = FIXTURES / "crokinole_twenty"
    if not (folder / "video.mp4").exists():
        pytest.skip("fixture crokinole_twenty not generated")
    video = tmp_path / "twenty.mp4"
    shutil.copy(folder / "video.mp4", video)
    code, out, err = run(["review", str(video), "--game", "crokinole", "--out", str(tmp_path / "o"),
                          "--annotate"], capsys)
    assert code == 0, err
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    truth = json.loads((folder / "truth.json").read_text())
    from tracker.pipeline.compare import round_rows

    assert round_rows(summary) == round_rows(truth)
    assert (tmp_path / "o" / "annotated.mp4").stat().st_size > 0
    assert "total" in out


def _some_frames(src: Path, dest: Path, start: int, n: int) -> Path:
    import cv2

    from tests.video_frames import read_frames

    frames = read_frames(src, n, start)
    h, w = frames[0].shape[:2]
    vw = cv2.VideoWriter(str(dest), cv2.VideoWriter.fourcc(*"FFV1"), 10.0, (w, h))  # lossless
    for f in frames:
        vw.write(f)
    vw.release()
    return dest


@pytest.mark.parametrize(("fixture", "game", "other"), [("crokinole_twenty", "korona", "crokinole"),
                                                        ("korona_pocket", "crokinole", "korona")])
def test_a_game_that_does_not_match_the_board(fixture: str, game: str, other: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The other game's board: one line naming the game that fits, exit 2, no traceback. (The
    whole crokinole_twenty video with --game korona raised an IndexError in the korona fit's rim
    search at its frame 32, which these few frames do not reproduce: see
    tests/calibration/test_peak_search.py.)"""
    src = FIXTURES / fixture / "video.mp4"
    if not src.exists():
        pytest.skip(f"fixture {fixture} not generated")
    video = _some_frames(src, tmp_path / "clip.avi", 32, 4)
    code, _, err = run(["review", str(video), "--game", game, "--out", str(tmp_path / "o")], capsys)
    assert code == 2, err
    assert err.count("\n") == 1 and f"no {game} board found" in err and f"try --game {other}" in err


@pytest.mark.parametrize("ext", [".png", ".jpg"])
def test_a_still_image_is_pointed_at_tracker_photo(ext: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """OpenCV opens a PNG or JPEG as a one-frame video: the review of a photo of a board scored
    nothing and exited 0. It is refused, naming `tracker photo`, and nothing is written."""
    import cv2

    from tests.detect.drawing import LIGHT, DrawnDisc, render

    shot = render([DrawnDisc(0.0, -150.0, LIGHT)], (640, 480), tilt_deg=10.0, seed=4)
    image = tmp_path / f"round{ext}"
    cv2.imwrite(str(image), shot.image)
    out = tmp_path / "o"
    code, stdout, err = run(["review", str(image), "--game", "crokinole", "--out", str(out)], capsys)
    assert code == 2, err
    assert err.count("\n") == 1 and "still image" in err and f"tracker photo {image}" in err
    assert not out.exists() and stdout == ""
    code, _, err = run(["review", str(image), "--game", "korona", "--out", str(out)], capsys)
    assert code == 2 and "still image" in err and "tracker photo" not in err


def test_a_video_that_cannot_be_read_leaves_no_output_folder(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.mp4"
    bad.write_text("this is not a video\n")
    out = tmp_path / "a" / "o"
    code, _, err = run(["review", str(bad), "--game", "crokinole", "--out", str(out)], capsys)
    assert code == 2 and "cannot be read" in err
    assert not (tmp_path / "a").exists()


def test_no_board_with_annotate_leaves_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A review that scores nothing takes its output folder away again, with the annotated
    video it had begun; a folder that was there before stays, and so do its other files."""
    rng = np.random.default_rng(1)
    frames = [np.full((120, 160, 3), 90, np.uint8) + rng.integers(0, 8, (120, 160, 3), dtype=np.uint8)
              for _ in range(12)]
    video = tmp_path / "wall.mp4"
    _write_video(video, frames)
    out = tmp_path / "o"
    code, _, err = run(["review", str(video), "--game", "crokinole", "--out", str(out), "--annotate"], capsys)
    assert code == 2 and "no crokinole board found" in err
    assert not out.exists()
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    code, _, _ = run(["review", str(video), "--game", "crokinole", "--out", str(out), "--annotate"], capsys)
    assert code == 2
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]


def test_variant_is_for_korona(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["review", str(tmp_path / "x.mp4"), "--game", "crokinole", "--variant", "ru"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--variant is for korona" in err


@pytest.mark.parametrize("out", ["file", "file/sub"])
def test_an_output_folder_that_cannot_be_made(out: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("in the way")
    video = tmp_path / "wall.mp4"
    _write_video(video, [np.full((120, 160, 3), 90, np.uint8)] * 3)
    code, _, err = run(["review", str(video), "--game", "crokinole", "--out", str(tmp_path / out)], capsys)
    assert code == 2 and err.count("\n") == 1 and "cannot create output folder" in err


def test_an_output_file_that_is_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder named summary.json in the output folder: one line before the review, not a
    traceback after it."""
    video = tmp_path / "wall.mp4"
    _write_video(video, [np.full((120, 160, 3), 90, np.uint8)] * 3)
    out = tmp_path / "o"
    (out / "summary.json").mkdir(parents=True)
    code, _, err = run(["review", str(video), "--game", "crokinole", "--out", str(out)], capsys)
    assert code == 2 and err.count("\n") == 1 and "summary.json" in err and "Traceback" not in err
    assert sorted(p.name for p in out.iterdir()) == ["summary.json"]
