from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.calibration.conftest import crokinole_view
from tracker.calibration import calibrate_video
from tracker.calibration.geometry import reprojection_error_mm
from tracker.calibration.intrinsics import calibrate_intrinsics, load_intrinsics
from tracker.calibration.synthetic import camera_homography
from tracker.cli import main
from tracker.errors import CalibrationError, InputError


def test_video_median_removes_a_passing_hand(tmp_path: Path) -> None:
    import cv2

    img, H = crokinole_view(20, 0)
    p = tmp_path / "clip.avi"
    vw = cv2.VideoWriter(str(p), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (640, 480))
    for k in range(30):
        f = img.copy()
        x = 100 + 15 * k  # a "hand" sweeping over the board, never still
        cv2.rectangle(f, (x, 150), (x + 120, 330), (120, 150, 210), -1)
        vw.write(f)
    vw.release()
    calib = calibrate_video(p, "crokinole")
    mean, worst = reprojection_error_mm(calib.homography, H, 330.2)
    assert mean < 1.0 and worst < 2.5


def test_video_without_frames(tmp_path: Path) -> None:
    p = tmp_path / "empty.mp4"
    p.write_bytes(b"")
    with pytest.raises(InputError):
        calibrate_video(p, "crokinole")


def _chessboard_views(folder: Path, f: float, size=(640, 480)) -> None:
    import cv2

    cols, rows, sq = 9, 6, 30.0  # inner corners, square mm
    px_per_mm = 4
    board = np.full((int((rows + 3) * sq * px_per_mm), int((cols + 3) * sq * px_per_mm)), 255, np.uint8)
    for r in range(rows + 1):
        for c in range(cols + 1):
            if (r + c) % 2 == 0:
                y0, x0 = int((r + 1) * sq * px_per_mm), int((c + 1) * sq * px_per_mm)
                board[y0:y0 + int(sq * px_per_mm), x0:x0 + int(sq * px_per_mm)] = 0
    # board pixel -> plane mm centred on the pattern
    cx, cy = board.shape[1] / 2, board.shape[0] / 2
    M = np.array([[1 / px_per_mm, 0, -cx / px_per_mm], [0, -1 / px_per_mm, cy / px_per_mm], [0, 0, 1.0]])
    views = [(0, 0, 0, (0, 0)), (25, 0, 5, (40, 30)), (25, 90, -5, (-40, 30)), (30, 200, 10, (40, -30)),
             (35, 300, 0, (-40, -30)), (20, 45, -10, (0, 40)), (30, 135, 0, (0, -40)), (15, 250, 8, (50, 0))]
    for i, (tilt, az, roll, tgt) in enumerate(views):
        G = camera_homography(size, tilt, az, distance_mm=520, focal_px=f, roll_deg=roll, target=tgt)
        img = cv2.warpPerspective(board, G @ M, size, flags=cv2.INTER_LINEAR, borderValue=128)
        cv2.imwrite(str(folder / f"view{i}.png"), img)


def test_intrinsics_from_chessboard(tmp_path: Path) -> None:
    _chessboard_views(tmp_path, 700.0)
    data = calibrate_intrinsics(tmp_path, (9, 6), 30.0)
    K = np.array(data["camera_matrix"])
    assert data["views"] >= 5
    assert K[0, 0] == pytest.approx(700.0, rel=0.03)
    assert K[0, 2] == pytest.approx(320.0, abs=15) and K[1, 2] == pytest.approx(240.0, abs=15)
    # no lens distortion was drawn: the fitted model barely moves points inside the views' span
    import cv2

    pts = np.array([[[160.0, 120.0]], [[480.0, 360.0]], [[320.0, 120.0]]])
    und = cv2.undistortPoints(pts, K, np.array(data["dist_coeffs"]), P=K)
    assert np.abs(und - pts).max() < 1.5


def test_intrinsics_cli_round_trip(tmp_path: Path, capsys) -> None:
    views = tmp_path / "views"
    views.mkdir()
    _chessboard_views(views, 650.0)
    out = tmp_path / "intr.json"
    assert main(["calibrate", str(views), "--chessboard", "9x6", "--square-mm", "30", "--out", str(out)]) == 0
    loaded = load_intrinsics(out)
    assert loaded["camera_matrix"].shape == (3, 3)
    assert json.loads(out.read_text())["views"] >= 5
    capsys.readouterr()


def test_intrinsics_needs_views(tmp_path: Path) -> None:
    import cv2

    cv2.imwrite(str(tmp_path / "a.png"), np.full((100, 100), 128, np.uint8))
    with pytest.raises(CalibrationError, match="chessboard was found in 0 views"):
        calibrate_intrinsics(tmp_path, (9, 6))
