from __future__ import annotations

import numpy as np

from tests.detect.drawing import camera
from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.chamfer import ChamferCorrection
from tracker.detect.geometry import camera_pose
from tracker.detect.refine import Refiner


def test_first_order_shift_undoes_the_chamfers_pull_on_a_square_edged_fit() -> None:
    """A chamfered disc at P shows the outline the refiner's chamfer model predicts (the rim at
    ``k r - bevel * u.(P - C)/C_z`` around the top centre). A square-edged reading of that
    outline (a circle fitted to the rim points, carried back to the contact point) lands short
    of P, toward the camera; ``shifted`` takes it back to within a few hundredths of a mm."""
    board = CrokinoleBoard()
    G, _ = camera((1280, 720), height=1400.0, tilt_deg=40.0)
    calib = Calibration(homography=np.linalg.inv(G), image_size=(1280, 720), rms_mm=0.0, board=board)
    pose = camera_pose(calib)
    h, bevel, r = board.disc_thickness, 1.9, board.disc_radius
    ref = Refiner(calib, pose, h, bevel=bevel)
    corr = ChamferCorrection(ref, pose, bevel, 0.6)
    a = np.linspace(0, 2 * np.pi, 360, endpoint=False)
    u = np.stack([np.cos(a), np.sin(a)], 1)
    k = 1.0 + ref.f
    for P in (np.array([0.0, 250.0]), np.array([-200.0, -100.0]), np.array([180.0, 60.0])):
        rim = ref.top_of(P) + u * (k * r - ref._bevel_drop(u, P))[:, None]
        A = np.column_stack([2 * rim, np.ones(len(rim))])  # algebraic circle fit
        cx, cy, _ = np.linalg.lstsq(A, (rim ** 2).sum(1), rcond=None)[0]
        square = ref.contact_of(np.array([cx, cy]))
        pull = float(np.hypot(*(square - P)))
        assert pull > 0.2
        # (The shift is the first-order effect; what is left is of second order.)
        assert np.hypot(*(corr.shifted(square) - P)) < min(0.1, 0.15 * pull)
    foot = pose.centre[:2]
    assert np.allclose(corr.shifted(foot), foot)  # straight below the camera: nothing to correct
