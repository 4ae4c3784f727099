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


@pytest.mark.parametrize("seed", [0, 5])
def test_pockets_measured_without_a_dark_rims_inner_face(seed: int) -> None:
    # A hard rendered korona frame (black rims, camera tilted about 40 degrees): the far rims'
    # inner faces, laid on the surface by the straightening, are dark strips joined to the pocket
    # in its corner; they made the pocket's blob up to 62 x 160 mm (radius measured 38-40 mm and
    # inset 36-37 mm for 32 and 30), and the pipeline's pocket calls use the measured figures
    # (korona_measure.POCKET_OPEN opens those strips away)
    from tracker.render import Renderer, SceneFrame, sample_camera, sample_look

    size = (480, 270)
    rng = np.random.default_rng(1000 + seed)
    look = sample_look("hard", rng, "korona")
    cam = sample_camera("hard", rng, size, "korona")
    assert look.rail == "black" and cam.tilt > 35
    board = KoronaBoard()
    img = Renderer(board, look, size, seed).render([SceneFrame(t=0.0)], cam)
    measured = calibrate_image(img, "korona").board
    assert isinstance(measured, KoronaBoard)
    assert abs(measured.pocket_radius - board.pocket_radius) < 2.0
    assert abs(measured.pocket_inset - board.pocket_inset) < 1.5


def test_pockets_that_disagree_between_corners_leave_the_profile_standing() -> None:
    # Two dark things (a phone, a glasses case: 70 x 140 mm) lie against the ne and sw pockets,
    # reaching in from their mouths: the dark blob of those corners is the pocket and the thing,
    # its centre 20 mm and more farther in. The four corners' insets then disagree (the spread,
    # reported as the "pockets" residual) and the board's profile, not their median, stands.
    import cv2

    board = KoronaBoard()
    top, M = draw_korona_topdown(board, 1.0)
    c = board.half - board.pocket_inset
    for sx, sy in ((1, 1), (-1, -1)):
        mouth = np.array([sx, sy]) * (c - 0.7 * board.pocket_radius)
        quad = mouth + np.array([[0, 0], [-140, 0], [-140, -70], [0, -70]]) * np.array([sx, sy])
        px = (M @ np.c_[quad, np.ones(4)].T).T[:, :2]
        cv2.fillConvexPoly(top, np.round(px).astype(np.int32), (20, 20, 20))
    size = (640, 480)
    G = camera_homography(size, 0, 0, distance_mm=2000, focal_px=900)
    calib = calibrate_image(synthetic_view(top, M, G, size, noise=2.0), "korona")
    b = calib.board
    assert isinstance(b, KoronaBoard)
    assert calib.residuals_mm["pockets"] > 3.0  # the corners disagree ...
    assert (b.pocket_radius, b.pocket_inset) == (board.pocket_radius, board.pocket_inset)  # ... the profile stands
