"""Simple synthetic board pictures with a known homography, for tests and benchmarks.

This is not the renderer (``tracker.render``): it draws the board model flat, top-down, with
anti-aliased lines, and warps it through a pinhole camera. That is enough to check the geometry of
the calibration exactly; the renderer adds lighting, discs and hands on top.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard


def camera_homography(size: tuple[int, int], tilt_deg: float = 0.0, azimuth_deg: float = 0.0,
                      distance_mm: float = 1500.0, focal_px: float | None = None,
                      roll_deg: float = 0.0, target: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Board mm -> image px for a pinhole camera looking at ``target`` from ``distance_mm``,
    tilted ``tilt_deg`` from vertical, standing to the south when ``azimuth_deg`` is 0."""
    w, h = size
    f = focal_px if focal_px is not None else 0.9 * max(w, h) * distance_mm / 1500.0
    t, a = math.radians(tilt_deg), math.radians(azimuth_deg)
    # camera position: south of the target for azimuth 0, rotated counter-clockwise by azimuth
    back = np.array([math.sin(a) * math.sin(t), -math.cos(a) * math.sin(t), math.cos(t)])
    T = np.array([target[0], target[1], 0.0])
    C = T + distance_mm * back
    z = -back
    x = np.array([math.cos(a), math.sin(a), 0.0])
    x = x - z * (x @ z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    r = math.radians(roll_deg)
    x, y = math.cos(r) * x + math.sin(r) * y, -math.sin(r) * x + math.cos(r) * y
    R = np.stack([x, y, z])
    K = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1.0]])
    G = K @ np.column_stack([R[:, 0], R[:, 1], -R @ C])
    return G / G[2, 2]


def draw_crokinole_topdown(board: CrokinoleBoard, px_per_mm: float = 2.0,
                           surface=(150, 195, 225), line=(30, 30, 30), ditch=(40, 60, 90),
                           rail=(60, 90, 140), background=(90, 90, 90), pegs=(20, 20, 20),
                           octagon: bool = False, quadrant=None, fifteen=None) -> tuple[np.ndarray, np.ndarray]:
    """A top-down drawing and its matrix board mm -> drawing px. ``quadrant``, ``fifteen``: the
    colours of the quadrant lines and of the 15 line (default ``line``; the surface colour
    leaves them out: a board with no 15 line painted)."""
    import cv2

    ext = board.outer_radius / math.cos(math.pi / 8) + 20
    n = int(2 * ext * px_per_mm)
    img = np.zeros((n, n, 3), np.uint8)
    img[:] = background
    M = np.array([[px_per_mm, 0, n / 2], [0, -px_per_mm, n / 2], [0, 0, 1.0]])
    sh = 4  # fixed-point bits for sub-pixel drawing
    S = 1 << sh

    def P(x: float, y: float) -> tuple[int, int]:
        return (int(round((n / 2 + x * px_per_mm) * S)), int(round((n / 2 - y * px_per_mm) * S)))

    def circ(r: float, colour, thick: int = -1) -> None:
        cv2.circle(img, P(0, 0), int(round(r * px_per_mm * S)), colour, thick, cv2.LINE_AA, sh)

    if octagon:
        v = np.array([P(x, y) for x, y in board.octagon_vertices()], np.int32)
        cv2.fillPoly(img, [v], rail, cv2.LINE_AA, sh)
    else:
        circ(board.outer_radius, rail)
    circ(board.ditch_outer_radius, ditch)
    circ(board.surface_radius, surface)
    lw = max(1, int(round(board.line_width * px_per_mm)))
    for r in board.line_radii:
        circ(r, line if fifteen is None or r != board.fifteen_line_radius else fifteen, lw)
    for a in board.quadrant_angles_deg:
        c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
        cv2.line(img, P(board.ten_line_radius * c, board.ten_line_radius * s),
                 P(board.shooting_line_radius * c, board.shooting_line_radius * s),
                 line if quadrant is None else quadrant, lw, cv2.LINE_AA, sh)
    circ(board.hole_radius, (25, 25, 35))
    for x, y in board.peg_positions():
        cv2.circle(img, P(x, y), int(round(board.peg_diameter / 2 * px_per_mm * S)), pegs, -1, cv2.LINE_AA, sh)
    return img, M


def draw_korona_topdown(board: KoronaBoard, px_per_mm: float = 1.0, surface=(170, 205, 230),
                        rim=(40, 70, 120), line=(30, 30, 30), pocket=(15, 15, 15),
                        background=(90, 90, 90)) -> tuple[np.ndarray, np.ndarray]:
    import cv2

    ext = board.outer_size / 2 + 60
    n = int(2 * ext * px_per_mm)
    img = np.zeros((n, n, 3), np.uint8)
    img[:] = background
    M = np.array([[px_per_mm, 0, n / 2], [0, -px_per_mm, n / 2], [0, 0, 1.0]])

    def P(x: float, y: float) -> tuple[int, int]:
        return (int(round(n / 2 + x * px_per_mm)), int(round(n / 2 - y * px_per_mm)))

    o, h = board.outer_size / 2, board.half
    cv2.rectangle(img, P(-o, o), P(o, -o), rim, -1)
    cv2.rectangle(img, P(-h, h), P(h, -h), surface, -1)
    lw = max(1, int(round(board.line_width * px_per_mm)))
    for seat in ("south", "north", "west", "east"):
        a, b = board.striking_line(seat)  # type: ignore[arg-type]
        cv2.line(img, P(*a), P(*b), line, lw, cv2.LINE_AA)
    cv2.circle(img, P(0, 0), int(round(board.centre_circle_radius * px_per_mm)), line, lw, cv2.LINE_AA)
    cv2.circle(img, P(0, 0), int(round(board.centre_mark_radius * px_per_mm)), line, -1, cv2.LINE_AA)
    for x, y in board.pocket_centres().values():
        cv2.circle(img, P(x, y), int(round(board.pocket_radius * px_per_mm)), pocket, -1, cv2.LINE_AA)
    return img, M


def synthetic_view(topdown: np.ndarray, M: np.ndarray, G: np.ndarray, size: tuple[int, int],
                   background=(90, 90, 90), noise: float = 0.0, seed: int = 0) -> np.ndarray:
    """Warp a top-down drawing through ``G`` (board mm -> image px) into an image of ``size``."""
    import cv2

    W = G @ np.linalg.inv(M)
    img = cv2.warpPerspective(topdown, W, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                              borderValue=background)
    if noise > 0:
        rng = np.random.default_rng(seed)
        img = np.clip(img + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)
    return img
