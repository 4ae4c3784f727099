"""The rotation against image texture and the pegs (issue #4: a rendered video "calibrated"
67.6 degrees off, its quadrant lines through the pegs).

The video's compression blocks are line-like along the image axes over the whole board, and
they outscored its faint quadrant lines. The synthetic frames here reproduce that: faint (or
absent) quadrant lines, light pegs, and a grid of darker rows and columns every 8 px, with the
camera turned so that the image axes run through the pegs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration import calibrate_image
from tracker.calibration.geometry import apply_h
from tracker.calibration.synthetic import camera_homography, draw_crokinole_topdown, synthetic_view
from tracker.errors import CalibrationError

SIZE = (640, 480)
SURFACE = (150, 195, 225)
FAINT = (140, 185, 215)  # quadrant lines 10 grey levels darker than the surface
FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "videos" / "crokinole_4p_part"


def _frame(azimuth: float, quadrant: tuple[int, int, int], grid: int) -> tuple[np.ndarray, np.ndarray]:
    """(image, true H image px -> board mm): a board seen 10 degrees from vertical."""
    G = camera_homography(SIZE, 10.0, azimuth, distance_mm=1400, focal_px=0.7 * SIZE[0] * 1.4)
    top, M = draw_crokinole_topdown(CrokinoleBoard(), 1.0, surface=SURFACE, pegs=(235, 235, 235),
                                    quadrant=quadrant)
    img = synthetic_view(top, M, G, SIZE, noise=2.0, seed=1).astype(np.int16)
    img[::8] -= grid
    img[:, ::8] -= grid
    return np.clip(img, 0, 255).astype(np.uint8), np.linalg.inv(G)


def rotation_error_deg(H: np.ndarray, H_true: np.ndarray) -> float:
    """Mean angle (degrees, -180..180) by which ``H`` turns the board against ``H_true``."""
    out = []
    for a in (0.0, 90.0, 180.0, 270.0):
        p = np.array([[200 * math.cos(math.radians(a)), 200 * math.sin(math.radians(a))]])
        q = apply_h(H, apply_h(np.linalg.inv(H_true), p))[0]
        out.append((math.degrees(math.atan2(q[1], q[0])) - a + 180) % 360 - 180)
    return float(np.mean(out))


def _mod90(d: float) -> float:
    return (d + 45) % 90 - 45


@pytest.mark.parametrize("azimuth", [22.5, 30.0])
def test_faint_lines_win_over_texture_through_the_pegs(azimuth: float) -> None:
    img, H_true = _frame(azimuth, FAINT, grid=12)
    cal = calibrate_image(img, "crokinole")
    assert abs(_mod90(rotation_error_deg(cal.homography, H_true))) < 1.0


@pytest.mark.parametrize(("azimuth", "grid"), [(22.5, 12), (0.0, 12), (22.5, 0)])
def test_no_lines_is_refused_not_guessed(azimuth: float, grid: int) -> None:
    """Without quadrant lines the pegs fix the angle only modulo 45 degrees, and the strongest
    "line" is the image-axis texture (through the pegs at azimuth 22.5, 45 degrees off at 0)
    or noise: refused with a sentence naming the rotation, never a guess (the old code
    returned -67.5, -41 and -42.5 degrees)."""
    img, H_true = _frame(azimuth, SURFACE, grid=grid)
    try:
        cal = calibrate_image(img, "crokinole")
    except CalibrationError as e:
        assert "rotation" in str(e)
        return
    assert abs(_mod90(rotation_error_deg(cal.homography, H_true))) < 3.0


def test_clear_lines_unchanged_by_the_texture_rule() -> None:
    img, H_true = _frame(22.5, (30, 30, 30), grid=0)
    cal = calibrate_image(img, "crokinole")
    assert abs(_mod90(rotation_error_deg(cal.homography, H_true))) < 0.3


@pytest.mark.skipif(not (FIXTURE / "video.mp4").exists(), reason="fixture video absent")
def test_fixture_video_rotation() -> None:
    """fixtures/videos/crokinole_4p_part (480x270, hard preset, faint quadrant lines, glare
    over the pegs): calibrated 67.6 degrees off before; now within 2 degrees, seats included."""
    from tracker.calibration import calibrate_video

    truth = json.loads((FIXTURE / "frames.jsonl").read_text().splitlines()[0])["homography"]
    cal = calibrate_video(FIXTURE / "video.mp4", "crokinole")
    err = rotation_error_deg(cal.homography, np.array(truth, dtype=np.float64))
    assert abs(_mod90(err)) < 2.0
    assert abs(err) < 2.0  # and south is the true south


@pytest.mark.parametrize("k", [23, 25, 32, 86])
def test_lineless_board_is_not_guessed(k: int) -> None:
    """Frames of ``bench_calibration.py --lineless`` (no quadrant lines, pegs seen) that the
    old rules calibrated 40.2 and 41.8 degrees off (25, 32): one by a speck that made the mean
    of the 4 line windows on a board whose line-ness noise was 0, one by a weak "line" the pegs
    confirmed. 23, 25 and 86 came out 42-45 degrees off when the search among joined arcs ran
    after a rotation refusal and drew the guess again (``RingsFollowedRefusal``). Neither
    placement the pegs allow is better supported: refused, or right."""
    size = (640, 480)
    surface = (150, 195, 225)
    rng = np.random.default_rng(500 + k)
    tilt, az = float(rng.uniform(0, 35)), float(rng.uniform(0, 90))
    G = camera_homography(size, tilt, az, distance_mm=1400, focal_px=0.98 * size[0])
    top, M = draw_crokinole_topdown(CrokinoleBoard(), 1.0, surface=surface, pegs=(235, 235, 235),
                                    quadrant=surface)
    img = synthetic_view(top, M, G, size, noise=float(rng.uniform(1, 4)), seed=k)
    try:
        cal = calibrate_image(img, "crokinole")
    except CalibrationError as e:
        assert "rotation" in str(e)
        return
    assert abs(_mod90(rotation_error_deg(cal.homography, np.linalg.inv(G)))) < 3.0
