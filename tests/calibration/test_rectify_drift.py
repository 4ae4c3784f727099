from __future__ import annotations

import numpy as np
import pytest

from tests.calibration.conftest import crokinole_view
from tracker.boards import CrokinoleBoard
from tracker.calibration import Calibration, DriftMonitor, rectify, rectify_matrix
from tracker.calibration.geometry import apply_h


def _true_calib(tilt: float = 30.0) -> tuple[np.ndarray, Calibration]:
    img, H = crokinole_view(tilt, 0)
    return img, Calibration(homography=H, image_size=(640, 480), rms_mm=0.0, board=CrokinoleBoard())


def test_rectify_puts_features_where_the_board_has_them() -> None:
    img, calib = _true_calib()
    top = rectify(img, calib, mm_per_px=2.0)
    M = rectify_matrix(calib, 2.0)
    Minv = np.linalg.inv(M)
    n = top.shape[0]
    assert top.shape[:2] == (n, n)
    cu, cv = apply_h(Minv, np.array([[0.0, 0.0]]))[0]
    assert abs(cu - (n - 1) / 2) < 1 and abs(cv - (n - 1) / 2) < 1  # centre in the middle
    grey = top.mean(axis=2)
    # the hole is dark, the surface between the 15 and 10 lines light
    u, v = np.round(apply_h(Minv, np.array([[0.0, 0.0], [150.0, 0.0]]))).astype(int).T
    assert grey[v[0], u[0]] < 60 and grey[v[1], u[1]] > 150
    # north up: a peg at 67.5 degrees lies in the upper half of the rectified image
    peg = CrokinoleBoard().peg_positions()[2]
    pu, pv = np.round(apply_h(Minv, np.array([peg]))[0]).astype(int)
    assert pv < n / 2 and grey[pv, pu] < 80


def test_rectify_matrix_round_trip() -> None:
    _, calib = _true_calib()
    M = rectify_matrix(calib, 0.5, extent_mm=400)
    pts = np.array([[0.0, 0.0], [123.4, -56.7], [-300.0, 250.0]])
    back = apply_h(M, apply_h(np.linalg.inv(M), pts))
    assert back == pytest.approx(pts)
    # and through the camera: board -> image -> board
    assert calib.to_board(calib.to_image(pts)) == pytest.approx(pts, abs=1e-6)


def test_drift_quiet_then_bumped() -> None:
    import cv2

    img, calib = _true_calib()
    mon = DriftMonitor(calib, img)
    assert mon.n_profiles > 50
    same = mon.check(img)
    assert same.misalignment_mm < 0.3 and not same.bumped
    noisy = np.clip(img.astype(int) + np.random.default_rng(3).normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    assert not mon.check(noisy).bumped
    moved = cv2.warpAffine(img, np.array([[1, 0, 6], [0, 1, 3]], np.float32), (640, 480), borderMode=cv2.BORDER_REPLICATE)
    rep = mon.check(moved)
    assert rep.bumped and rep.misalignment_mm > 3.0


def test_drift_shifts_are_the_loop_over_shifts() -> None:
    """The check's shifts and scores, taken for every shift at once, are those of the plain loop
    over shifts (first best shift kept) on a frame moved by a few px."""
    import cv2

    img, calib = _true_calib()
    mon = DriftMonitor(calib, img)
    moved = cv2.warpAffine(img, np.array([[1, 0, 2], [0, 1, -1]], np.float32), (640, 480),
                           borderMode=cv2.BORDER_REPLICATE)
    prof = mon._profiles(moved)
    s = mon.search_px
    m = len(mon.offsets) - 2 * s
    best = np.full(len(prof), -2.0)
    shift = np.zeros(len(prof))
    for k in range(-s, s + 1):
        win = prof[:, s + k:s + k + m]
        win = win - win.mean(axis=1, keepdims=True)
        ncc = (win * mon._ref_core).sum(axis=1) / (np.linalg.norm(win, axis=1) + 1e-9) / mon._ref_norm
        better = ncc > best
        best[better] = ncc[better]
        shift[better] = k
    valid = best > 0.6
    want = float(np.median(np.abs(shift[valid]) * mon.mm_per_px[valid]))
    rep = mon.check(moved)
    assert rep.valid_fraction == pytest.approx(float(valid.mean()))
    assert rep.misalignment_mm == pytest.approx(want)
