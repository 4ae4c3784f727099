from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.calibration import calibrate_image
from tracker.calibration.geometry import reprojection_error_mm
from tracker.calibration.synthetic import camera_homography, draw_korona_topdown, synthetic_view


def test_korona_square_found() -> None:
    b = KoronaBoard()
    size = (640, 480)
    G = camera_homography(size, 20, 0, distance_mm=2000, focal_px=420)
    top, M = draw_korona_topdown(b, 0.8)
    img = synthetic_view(top, M, G, size, noise=2.0)
    calib = calibrate_image(img, "korona")
    mean, worst = reprojection_error_mm(calib.homography, np.linalg.inv(G), b.half)
    assert mean < 3.0 and worst < 6.0, (mean, worst)
    assert set(calib.residuals_mm) == {"rim_west", "rim_south", "rim_east", "rim_north"}
