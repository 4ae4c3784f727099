from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.calibration.conftest import crokinole_view
from tracker.calibration import Calibration
from tracker.calibration.geometry import apply_h, reprojection_error_mm
from tracker.cli import main


def _run(args: list[str], capsys) -> tuple[int, str, str]:
    rc = main(["calibrate", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture()
def scene(tmp_path: Path) -> tuple[Path, np.ndarray]:
    import cv2

    img, H = crokinole_view(25, 0)
    p = tmp_path / "board.png"
    cv2.imwrite(str(p), img)
    return p, H


def test_points_cli_writes_calib_and_overlay(scene, tmp_path: Path, capsys) -> None:
    path, H = scene
    G = np.linalg.inv(H)
    names = {"centre": (0, 0), "shoot_n": (0, 304.8), "shoot_e": (304.8, 0), "shoot_s": (0, -304.8),
             "shoot_w": (-304.8, 0)}
    pts = ";".join(f"{x:.3f},{y:.3f}={n}" for n, (x, y) in
                   ((n, apply_h(G, np.array([mm]))[0]) for n, mm in names.items()))
    out = tmp_path / "o" / "calib.json"
    out.parent.mkdir()
    rc, so, se = _run([str(path), "--game", "crokinole", "--points", pts, "--out", str(out)], capsys)
    assert rc == 0, se
    data = json.loads(out.read_text())
    assert set(data) >= {"homography", "image_size", "rms_mm", "board"}
    assert data["image_size"] == [640, 480]
    calib = Calibration.from_json(data)
    mean, worst = reprojection_error_mm(calib.homography, H, 330.2)
    assert mean < 0.3 and worst < 1.0
    assert (out.parent / "overlay.png").stat().st_size > 1000
    assert "rms" in so


def test_auto_cli(scene, tmp_path: Path, capsys) -> None:
    path, H = scene
    out = tmp_path / "calib.json"
    rc, _, se = _run([str(path), "--game", "crokinole", "--out", str(out), "--south", "bottom"], capsys)
    assert rc == 0, se
    calib = Calibration.from_json(json.loads(out.read_text()))
    assert reprojection_error_mm(calib.homography, H, 330.2)[0] < 0.8
    assert calib.board.game == "crokinole" and "ten_line" in calib.residuals_mm


def _bad(kind: str, tmp_path: Path) -> Path:
    import cv2

    if kind == "missing":
        return tmp_path / "nope.jpg"
    if kind == "truncated":
        ok, buf = cv2.imencode(".jpg", np.full((200, 200, 3), 128, np.uint8))
        p = tmp_path / "cut.jpg"
        p.write_bytes(buf.tobytes()[:40])
        return p
    if kind == "black":
        p = tmp_path / "black.png"
        cv2.imwrite(str(p), np.zeros((480, 640, 3), np.uint8))
        return p
    if kind == "noboard":
        p = tmp_path / "noise.png"
        cv2.imwrite(str(p), np.random.default_rng(0).integers(0, 255, (480, 640, 3), dtype=np.uint8))
        return p
    if kind == "emptyvideo":
        p = tmp_path / "empty.mp4"
        p.write_bytes(b"\x00\x00\x00\x18ftypmp42")
        return p
    raise AssertionError(kind)


@pytest.mark.parametrize("kind,msg", [
    ("missing", "does not exist"),
    ("truncated", "is truncated or damaged"),
    ("black", "blank"),
    ("noboard", "no board found"),
    ("emptyvideo", "video"),
])
def test_bad_input_one_line_exit_2_nothing_written(kind: str, msg: str, tmp_path: Path, capsys) -> None:
    src = _bad(kind, tmp_path)
    out = tmp_path / "out" / "calib.json"
    out.parent.mkdir()
    rc, _, se = _run([str(src), "--game", "crokinole", "--out", str(out)], capsys)
    assert rc == 2
    assert se.count("\n") == 1 and msg in se, se
    assert list(out.parent.iterdir()) == []


@pytest.mark.parametrize("ext", ["jpg", "png"])
def test_truncated_image_is_refused_not_decoded_with_grey_rows(ext: str, tmp_path: Path, capsys) -> None:
    # OpenCV decodes a JPEG cut off part-way without an error (flat grey rows below the cut) and
    # the board above the cut can still be fitted: the file is refused, in one line, before that,
    # by the same reader as ``tracker photo``'s
    import cv2

    from tracker.calibration.imagefile import read_image_file
    from tracker.cli.imagefile import read_photo

    assert read_photo is read_image_file
    img, _H = crokinole_view(25, 0)
    whole = tmp_path / f"whole.{ext}"
    cv2.imwrite(str(whole), img)
    data = whole.read_bytes()
    cut = tmp_path / f"cut.{ext}"
    cut.write_bytes(data[: len(data) * 6 // 10])
    out = tmp_path / "out" / "calib.json"
    out.parent.mkdir()
    rc, _, se = _run([str(cut), "--game", "crokinole", "--out", str(out)], capsys)
    assert rc == 2 and se.count("\n") == 1, se
    assert "is truncated or damaged" in se and str(cut) in se, se
    assert list(out.parent.iterdir()) == []
    # the whole file calibrates
    rc, _, se = _run([str(whole), "--game", "crokinole", "--out", str(out)], capsys)
    assert rc == 0, se


def test_bad_options(scene, tmp_path: Path, capsys) -> None:
    path, _ = scene
    rc, _, se = _run([str(path), "--game", "crokinole", "--points", "1,2=3,4"], capsys)
    assert rc == 2 and "at least 4" in se
    rc, _, se = _run([str(path), "--game", "crokinole", "--intrinsics", str(tmp_path / "none.json")], capsys)
    assert rc == 2 and "does not exist" in se
    rc, _, se = _run([str(path)], capsys)
    assert rc == 2 and "--game" in se
    # an output path that is a folder is refused before any work, and nothing is written
    folder = tmp_path / "outdir"
    folder.mkdir()
    rc, _, se = _run([str(path), "--game", "crokinole", "--out", str(folder)], capsys)
    assert rc == 2 and "is a folder" in se and se.count("\n") == 1
    assert list(folder.iterdir()) == [] and not (tmp_path / "overlay.png").exists()


def test_video_without_a_board_one_line_exit_2_nothing_written(tmp_path: Path, capsys) -> None:
    import cv2

    src = tmp_path / "noboard.avi"
    vw = cv2.VideoWriter(str(src), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (320, 240))
    rng = np.random.default_rng(1)
    for _ in range(12):
        vw.write(rng.integers(0, 255, (240, 320, 3), dtype=np.uint8))
    vw.release()
    out = tmp_path / "out" / "calib.json"
    out.parent.mkdir()
    rc, _, se = _run([str(src), "--game", "crokinole", "--out", str(out)], capsys)
    assert rc == 2
    assert se.count("\n") == 1 and "no board found" in se and "noboard.avi" in se, se
    assert list(out.parent.iterdir()) == []
