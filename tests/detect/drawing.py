"""Drawn test frames with exact ground truth: a crokinole board seen by a pinhole camera.

Everything is drawn on the playing-surface plane (z = 0) and then carried to the image by the exact
plane-to-image homography. A disc of height h is drawn as what the camera sees of it *on that
plane*: the convex hull of its bottom circle and its top circle projected from the camera centre
(see tracker.detect.geometry). Carried by the homography this is the true perspective image of the
cylinder, so these frames test the height correction without a renderer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration

CANVAS_MM_PER_PX = 0.5
CANVAS_HALF = 440.0


@dataclass
class DrawnDisc:
    x: float
    y: float
    color: tuple[int, int, int]  # BGR of the top face
    radius: float = 15.875
    height: float = 9.5
    blur: tuple[float, float] = (0.0, 0.0)  # streak vector in mm (motion blur)
    bevel: float = 0.0  # 45-degree chamfer of the top edge, mm (the renderer draws 1.9; 0: square)


@dataclass
class DrawnHand:
    x: float  # fingertips
    y: float
    angle: float  # radians, direction from fingertips back to the wrist
    color: tuple[int, int, int] = (120, 150, 200)


@dataclass
class Shot:
    image: np.ndarray
    calib: Calibration
    discs: list[DrawnDisc] = field(default_factory=list)
    camera_centre: np.ndarray = field(default_factory=lambda: np.zeros(3))


def camera(size: tuple[int, int], height: float = 1400.0, tilt_deg: float = 0.0,
           focal: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Board-to-image homography and camera centre of a camera south of the board, tilted
    ``tilt_deg`` from vertical, looking at the board centre."""
    w, h = size
    f = focal if focal is not None else min(w, h) * height / 900.0  # the board fills the frame
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    a = np.radians(tilt_deg)
    C = np.array([0.0, -height * np.sin(a), height * np.cos(a)])
    # Camera axes in board frame: z forward (toward the board centre), x east, y = z cross x.
    zc = -C / np.linalg.norm(C)
    xc = np.array([1.0, 0.0, 0.0])
    yc = np.cross(zc, xc)
    R = np.stack([xc, yc, zc])  # rows: camera axes, maps board -> camera
    t = -R @ C
    G = K @ np.stack([R[:, 0], R[:, 1], t], axis=1)
    return G / G[2, 2], C


def _canvas_px(xy: np.ndarray) -> np.ndarray:
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    return np.stack([(xy[:, 0] + CANVAS_HALF) / CANVAS_MM_PER_PX, (CANVAS_HALF - xy[:, 1]) / CANVAS_MM_PER_PX], 1)


def _circle(img: np.ndarray, xy: tuple[float, float], r_mm: float, color: tuple[int, ...],
            thickness: int = -1) -> None:
    c = _canvas_px(np.array(xy))[0]
    cv2.circle(img, (int(round(c[0] * 16)), int(round(c[1] * 16))), int(round(r_mm / CANVAS_MM_PER_PX * 16)),
               color, thickness, cv2.LINE_AA, shift=4)


def _poly(img: np.ndarray, pts_mm: np.ndarray, color: tuple[int, ...]) -> None:
    p = np.round(_canvas_px(pts_mm) * 16).astype(np.int32)
    cv2.fillConvexPoly(img, p, color, cv2.LINE_AA, shift=4)


def board_canvas(board: CrokinoleBoard, rng: np.random.Generator,
                 wood: tuple[int, int, int] = (120, 170, 215)) -> np.ndarray:
    n = int(2 * CANVAS_HALF / CANVAS_MM_PER_PX)
    img = np.full((n, n, 3), (90, 90, 90), np.uint8)
    _circle(img, (0, 0), board.ditch_outer_radius + board.rail_width, (60, 100, 150))
    _circle(img, (0, 0), board.ditch_outer_radius, (40, 60, 90))
    _circle(img, (0, 0), board.surface_radius, wood)
    # Wood grain: low-frequency stripes plus fine noise, inside the surface only.
    yy = np.arange(n, dtype=np.float32)[:, None]
    xx = np.arange(n, dtype=np.float32)[None, :]
    grain = 10 * np.sin(yy / 9.0 + 3 * np.sin(xx / 150.0)) + rng.normal(0, 3, (n, n)).astype(np.float32)
    mask = np.zeros((n, n), np.uint8)
    _circle(mask, (0, 0), board.surface_radius, (255,))
    img = img.astype(np.float32)
    img[mask > 0] += grain[mask > 0, None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    lw = max(1, int(round(board.line_width / CANVAS_MM_PER_PX)))
    for R in board.line_radii:
        _circle(img, (0, 0), R, (25, 25, 25), lw)
    for a in np.radians(board.quadrant_angles_deg):
        p0 = _canvas_px(np.array([np.cos(a), np.sin(a)]) * board.ten_line_radius)[0]
        p1 = _canvas_px(np.array([np.cos(a), np.sin(a)]) * board.shooting_line_radius)[0]
        cv2.line(img, tuple(int(v) for v in p0), tuple(int(v) for v in p1), (25, 25, 25), lw, cv2.LINE_AA)
    _circle(img, (0, 0), board.hole_radius, (30, 20, 90))
    for px, py in board.peg_positions():
        _circle(img, (px, py), board.peg_diameter / 2, (200, 220, 230))
    return img


def draw_disc(img: np.ndarray, d: DrawnDisc, C: np.ndarray) -> None:
    """A disc with a chamfered top edge: side wall up to ``height - bevel`` at the full radius,
    a chamfer (shaded a little darker than the top) up to the flat top of radius
    ``radius - bevel``. Each circle at height z is seen on the plane as a circle scaled by
    ``C_z / (C_z - z)`` about the point pushed away from the camera (module docstring)."""
    P = np.array([d.x, d.y])

    def seen(z: float, r: float) -> tuple[np.ndarray, float]:
        f = z / (C[2] - z)
        return P + (P - C[:2]) * f, r * C[2] / (C[2] - z)

    b = min(d.bevel, 0.4 * d.height)
    c_sh, r_sh = seen(d.height - b, d.radius)  # top of the side wall
    c_top, r_top = seen(d.height, d.radius - b)  # the flat top
    ang = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    ring = np.stack([np.cos(ang), np.sin(ang)], 1)
    pts = np.concatenate([P + d.radius * ring, c_sh + r_sh * ring])
    hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
    side = tuple(int(c * 0.6) for c in d.color)
    _poly(img, hull.astype(float), side)
    top = tuple(int(c) for c in d.color)
    chamfer = tuple(int(c * 0.8) for c in d.color)
    outer = cv2.convexHull(np.concatenate([c_sh + r_sh * ring, c_top + r_top * ring]).astype(np.float32))
    _poly(img, outer.reshape(-1, 2).astype(float), chamfer)
    if b <= 0:
        _circle(img, tuple(c_top), r_top - 1.2, top)  # a painted band instead of a chamfer
    else:
        _circle(img, tuple(c_top), r_top, top)


def draw_shadow(img: np.ndarray, d: DrawnDisc) -> None:
    """A soft contact shadow, offset away from a light to the north-west."""
    shadow = img.copy()
    _circle(shadow, (d.x + 2.0, d.y - 2.0), d.radius + 1.5, (0, 0, 0))
    cv2.addWeighted(shadow, 0.35, img, 0.65, 0, dst=img)


def draw_hand(img: np.ndarray, hand: DrawnHand) -> None:
    tip = np.array([hand.x, hand.y])
    u = np.array([np.cos(hand.angle), np.sin(hand.angle)])
    n = np.array([-u[1], u[0]])
    col = hand.color
    palm_c = tip + u * 85
    for k in (-1.5, -0.5, 0.5, 1.5):  # four fingers
        base = palm_c + n * k * 19
        ftip = tip + n * k * 17 + u * abs(k) * 12
        _poly(img, np.array([ftip - n * 8, ftip + n * 8, base + n * 8, base - n * 8]), col)
        _circle(img, tuple(ftip), 8, col)
    _circle(img, tuple(palm_c + u * 20), 48, col)
    arm = palm_c + u * 400
    _poly(img, np.array([palm_c - n * 40, palm_c + n * 40, arm + n * 50, arm - n * 50]),
          tuple(int(c * 0.7) for c in col))


def render(discs: list[DrawnDisc], size: tuple[int, int] = (480, 480), tilt_deg: float = 0.0,
           seed: int = 0, hands: list[DrawnHand] | None = None, height: float = 1400.0,
           wood: tuple[int, int, int] = (120, 170, 215), noise: float = 2.0,
           empty: bool = False) -> Shot:
    """Draw a board with ``discs`` (and ``hands``) and photograph it; returns the image, its exact
    calibration and the truth. ``empty=True`` draws the same board without discs or hands (a
    background frame)."""
    rng = np.random.default_rng(seed)
    board = CrokinoleBoard()
    G, C = camera(size, height=height, tilt_deg=tilt_deg)
    canvas = board_canvas(board, rng, wood)
    if not empty:
        still = [d for d in discs if d.blur == (0.0, 0.0)]
        for d in still:
            draw_shadow(canvas, d)
        for d in sorted(still, key=lambda d: -np.hypot(d.x - C[0], d.y - C[1])):
            draw_disc(canvas, d, C)
        for d in discs:
            if d.blur != (0.0, 0.0):
                acc = np.zeros(canvas.shape, np.float32)
                steps = 16
                for i in range(steps):
                    f = i / (steps - 1) - 0.5
                    layer = canvas.copy()
                    draw_shadow(layer, DrawnDisc(d.x + f * d.blur[0], d.y + f * d.blur[1], d.color))
                    draw_disc(layer, DrawnDisc(d.x + f * d.blur[0], d.y + f * d.blur[1], d.color, d.radius, d.height), C)
                    acc += layer
                canvas = (acc / steps).astype(np.uint8)
        for hnd in hands or []:
            draw_hand(canvas, hnd)
    # canvas px -> board mm -> image px; render at 2x and shrink (anti-aliasing).
    S = np.array([[CANVAS_MM_PER_PX, 0, -CANVAS_HALF], [0, -CANVAS_MM_PER_PX, CANVAS_HALF], [0, 0, 1.0]])
    up = np.array([[2.0, 0, 0.5], [0, 2.0, 0.5], [0, 0, 1.0]])  # area-shrink pixel centres
    M = up @ G @ S
    big = cv2.warpPerspective(canvas, M, (size[0] * 2, size[1] * 2), flags=cv2.INTER_AREA,
                              borderValue=(70, 70, 70))
    img = cv2.resize(big, size, interpolation=cv2.INTER_AREA)
    if noise > 0:
        img = np.clip(img.astype(np.float32) + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)
    calib = Calibration(homography=np.linalg.inv(G), image_size=size, rms_mm=0.0, board=board)
    return Shot(image=img, calib=calib, discs=list(discs), camera_centre=C)


LIGHT = (170, 215, 235)
DARK = (40, 45, 60)
RED = (40, 40, 190)
BLUE = (170, 90, 30)
GREEN = (60, 150, 60)
