"""Automatic korona calibration: the square playing area inside the rims.

The board is a square in perspective: the biggest convex quadrilateral of the edge map. When two
nested quadrilaterals are found with sides in the ratio of the outer board to the playing area
(914 : 850 by default), the inner one is the playing area; a single one is taken as the playing
area's edge (the rim's inner edge, usually the strongest contrast). Corners are refined by fitting
a straight line to the edge points along each side; the four side lines intersect in the corners,
which fix the homography. The rotation is known modulo 90 degrees; ``south`` picks the rest.
Measured figures (pockets, striking lines, centre circle) are not yet measured: the default
profile is returned, and the residual report lists the side-line fits.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import KoronaBoard
from tracker.calibration.geometry import apply_h, normalize_h
from tracker.errors import CalibrationError


def _quads(grey: np.ndarray) -> list[np.ndarray]:
    import cv2

    blur = cv2.GaussianBlur(grey, (5, 5), 1.2)
    med = float(np.median(blur))
    edges = cv2.Canny(blur, max(10.0, 0.4 * med), max(30.0, 1.0 * med))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area_img = grey.shape[0] * grey.shape[1]
    out = []
    for c in contours:
        hull = cv2.convexHull(c)
        a = cv2.contourArea(hull)
        if a < 0.08 * area_img:
            continue
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            out.append(approx.reshape(4, 2).astype(np.float64))
    out.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return out


def _order(q: np.ndarray) -> np.ndarray:
    """Corners counter-clockwise on screen starting top-left: TL, BL, BR, TR -> board NW, SW, SE, NE."""
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # clockwise in image coords (y down): from left going up
    # start at the corner nearest the top-left
    i = int(np.argmin(q[:, 0] + q[:, 1]))
    return np.roll(q, -i, axis=0)


def _refine_sides(grey: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, list[float]]:
    """Fit a line to the strongest gradient along each side; corners from the intersections."""
    import cv2

    gx = cv2.Sobel(grey.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey.astype(np.float32), cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    lines = []
    rms = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        t = np.linspace(0.1, 0.9, 60)
        p = a + t[:, None] * (b - a)
        d = (b - a) / np.linalg.norm(b - a)
        n = np.array([-d[1], d[0]])
        offs = np.arange(-8, 8.5, 0.5)
        xy = p[:, None, :] + offs[None, :, None] * n
        v = cv2.remap(mag, xy[:, :, 0].astype(np.float32), xy[:, :, 1].astype(np.float32), cv2.INTER_LINEAR)
        j = np.argmax(v, axis=1)
        pts = p + offs[j][:, None] * n
        vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        nn = np.array([-vy, vx])
        rms.append(float(np.sqrt(np.mean(((pts - [x0, y0]) @ nn) ** 2))))
        lines.append(np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0]))
    corners = []
    for i in range(4):
        c = np.cross(lines[i - 1], lines[i])
        corners.append(c[:2] / c[2])
    return np.array(corners), rms


def calibrate_korona(image: np.ndarray, board: KoronaBoard | None = None) -> tuple[np.ndarray, KoronaBoard, dict[str, float], float]:
    import cv2

    board = board or KoronaBoard()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    quads = _quads(grey)
    if not quads:
        raise CalibrationError("no board found: no large square (korona board) in the image")
    play = quads[0]
    ratio = board.outer_size / (2 * board.half)
    a0 = cv2.contourArea(play.astype(np.float32))
    for q in quads[1:]:
        r = math.sqrt(a0 / max(cv2.contourArea(q.astype(np.float32)), 1.0))
        if abs(r - ratio) < 0.04:
            play = q
            break
    corners, side_rms = _refine_sides(grey, _order(play))
    h = board.half
    # image TL, BL, BR, TR (top-down, south at the bottom) -> board NW, SW, SE, NE
    mm = np.array([[-h, h], [-h, -h], [h, -h], [h, h]])
    H, _ = cv2.findHomography(corners, mm, 0)
    if H is None:
        raise CalibrationError("korona board found but its corners are degenerate")
    H = normalize_h(H)
    # side-line residuals in mm: pixel rms times the local scale
    scale = np.linalg.norm(apply_h(H, corners[:1] + [1.0, 0.0]) - apply_h(H, corners[:1]))
    residuals = {f"rim_{s}": float(r * scale) for s, r in zip(("west", "south", "east", "north"), side_rms, strict=True)}
    rms = float(np.sqrt(np.mean(np.array(list(residuals.values())) ** 2)))
    if rms > 5.0:
        raise CalibrationError(f"korona board edges fit poorly (rms {rms:.1f} mm); refusing a bad calibration")
    return H, board, residuals, rms
