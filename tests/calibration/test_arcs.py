"""Ellipses joined from edge arcs (``calibration.arcs``): a board's rim cut by a hand or a
banner is still found, and an occluded board calibrates through it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration.arcs import arc_ellipses, split_arcs
from tracker.calibration.crokinole import RingFit, _calibrate_at
from tracker.calibration.crokinole_checks import check_ratios
from tracker.calibration.geometry import apply_h
from tracker.calibration.synthetic import camera_homography, draw_crokinole_topdown, synthetic_view
from tracker.errors import CalibrationError

SIZE = (640, 360)
BG = (200, 200, 205)


def _occluded_board(tilt: float, hand: bool = True, banner: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """An oblique board with faint lines, an arm reaching over the rim from the left and a
    translucent name banner across its near side (as in tournament broadcasts)."""
    import cv2

    board = CrokinoleBoard()
    G = camera_homography(SIZE, tilt, 0, distance_mm=1700, focal_px=800)
    top, M = draw_crokinole_topdown(board, 1.0, background=BG, line=(132, 178, 208))
    img = synthetic_view(top, M, G, SIZE, background=BG, noise=2)
    if hand:
        a = apply_h(G, np.array([[-300.0, -150.0]]))[0]
        tip = (int(a[0]), int(a[1]))
        cv2.line(img, (0, SIZE[1] // 2), tip, (90, 120, 180), 38, cv2.LINE_AA)
        cv2.circle(img, tip, 26, (100, 135, 200), -1, cv2.LINE_AA)
    if banner:
        y0 = int(apply_h(G, np.array([[0.0, -board.surface_radius]]))[0][1]) - 6
        band = img[y0:y0 + 50].astype(np.float64)
        img[y0:y0 + 50] = (0.35 * band + 0.65 * np.array([90, 40, 20])).astype(np.uint8)
        cv2.putText(img, "20 Count", (250, y0 + 35), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (80, 220, 230), 2,
                    cv2.LINE_AA)
    return img, G


def test_split_arcs_cuts_a_circle_at_a_notch() -> None:
    # the outline of a disc of radius 100 px with a square notch cut into it: the circle's
    # arc comes out as one piece, without the notch's sides
    import cv2

    img = np.zeros((400, 400), np.uint8)
    cv2.circle(img, (200, 200), 100, 255, -1)
    cv2.rectangle(img, (170, 260), (230, 310), 0, -1)
    contour = max(cv2.findContours(img, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=len).reshape(-1, 2)
    arcs = split_arcs(contour, 20)
    longest = max(arcs, key=len)
    r = np.linalg.norm(longest - 200.0, axis=1)
    assert np.all(np.abs(r - 100) < 1.5)  # the circle's arc alone
    assert len(longest) > 0.7 * len(contour)  # (the notch took 84 of its 634 points)
    assert sum(len(a) for a in arcs) < len(contour)  # the corners were cut out


def test_rim_cut_by_a_hand_is_found_whole() -> None:
    """The rim's outline runs round the hand: the joined ellipse still follows the rim."""
    import cv2

    img = np.full((360, 640), 200, np.uint8)
    centre, axes, ang = (320.0, 180.0), (220.0, 80.0), 0.0
    cv2.ellipse(img, ((centre[0], centre[1]), (2 * axes[0], 2 * axes[1]), ang), 120, -1, cv2.LINE_AA)
    cv2.line(img, (0, 330), (160, 180), 60, 40, cv2.LINE_AA)  # an arm across the left of the rim
    cv2.circle(img, (160, 180), 30, 60, -1, cv2.LINE_AA)
    cv2.rectangle(img, (0, 235), (640, 290), 30, -1)  # a banner across the near side
    found = arc_ellipses(img)
    assert found
    best = min(found, key=lambda e: math.hypot(e[0][0] - centre[0], e[0][1] - centre[1]) + abs(e[1][0] - axes[0]))
    assert math.hypot(best[0][0] - centre[0], best[0][1] - centre[1]) < 2.0
    assert abs(best[1][0] - axes[0]) < 2.0 and abs(best[1][1] - axes[1]) < 2.0
    assert found.index(best) < 3  # among the best supported


@pytest.mark.parametrize("tilt", [45.0, 55.0])
def test_occluded_board_calibrates_from_joined_arcs(tilt: float) -> None:
    img, G = _occluded_board(tilt)
    H = _calibrate_at(img, None, 800, True, arcs=True)[0]
    q = apply_h(H, apply_h(G, np.array([[0.0, 0.0], [300.0, 0.0], [0.0, 300.0], [-300.0, 0.0], [0.0, -300.0]])))
    assert np.linalg.norm(q[0]) < 0.6  # the hole, mm
    r = np.linalg.norm(q[1:], axis=1)
    assert np.all(np.abs(r - 300.0) < 5.0), r  # the banner hides the near rings: a few mm


def test_occluded_board_with_hand_only_is_accurate() -> None:
    img, G = _occluded_board(50.0, banner=False)
    H = _calibrate_at(img, None, 800, True, arcs=True)[0]
    pts = np.array([[0.0, 0.0], [300.0, 0.0], [0.0, 300.0], [-300.0, 0.0], [0.0, -300.0]])
    err = np.linalg.norm(apply_h(H, apply_h(G, pts)) - pts, axis=1)
    # rotation is fixed modulo 90 degrees: compare radii and the hole
    assert err[0] < 0.5
    assert np.all(np.abs(np.linalg.norm(apply_h(H, apply_h(G, pts[1:])), axis=1) - 300.0) < 1.5)


def test_rings_out_of_proportion_are_refused() -> None:
    # the surface edge taken for the shooting line puts the 10 line at 0.60 of it
    fit = RingFit(G=np.eye(3), radii={"shooting": 304.8, "ten": 0.60 * 304.8, "fifteen": 0.30 * 304.8})
    with pytest.raises(CalibrationError, match="proportions"):
        check_ratios(fit)
    ok = RingFit(G=np.eye(3), radii={"shooting": 304.8, "ten": 203.2, "fifteen": 101.6})
    check_ratios(ok)
