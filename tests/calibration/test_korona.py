from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.calibration import calibrate_image
from tracker.calibration.geometry import reprojection_error_mm
from tracker.calibration.synthetic import camera_homography, draw_korona_topdown, synthetic_view
from tracker.errors import CalibrationError

# a board that differs from the default profile: the calibration must measure it
BOARD = KoronaBoard(striking_line_offset=120.0, centre_circle_radius=95.0, pocket_radius=36.0, pocket_inset=36.0)


@pytest.mark.parametrize("tilt,azimuth,focal", [(0, 0, 900), (35, 20, 600)])
def test_korona_square_found_and_measured(tilt: float, azimuth: float, focal: float) -> None:
    size = (640, 480)
    G = camera_homography(size, tilt, azimuth, distance_mm=2000, focal_px=focal)
    top, M = draw_korona_topdown(BOARD, 1.0)
    img = synthetic_view(top, M, G, size, noise=2.0)
    calib = calibrate_image(img, "korona")
    mean, worst = reprojection_error_mm(calib.homography, np.linalg.inv(G), BOARD.half)
    assert mean < 1.5 and worst < 3.0, (mean, worst)
    b = calib.board
    assert isinstance(b, KoronaBoard)
    assert b.striking_line_offset == pytest.approx(120.0, abs=3.0)
    assert b.centre_circle_radius == pytest.approx(95.0, abs=3.0)
    assert b.pocket_radius == pytest.approx(36.0, abs=3.0)
    assert b.pocket_inset == pytest.approx(36.0, abs=3.0)
    assert {"line_north", "line_east", "line_south", "line_west", "circle", "pockets"} <= set(calib.residuals_mm)
    # every rim straightens the lens (each at a distance of its own: foot or top of its wall)
    assert sum(k.startswith("rim_") for k in calib.residuals_mm) == 4


def test_korona_refuses_blank_table() -> None:
    rng = np.random.default_rng(2)
    img = np.clip(120 + rng.normal(0, 8, (480, 640, 3)), 0, 255).astype(np.uint8)
    with pytest.raises(CalibrationError, match="no board found"):
        calibrate_image(img, "korona")
