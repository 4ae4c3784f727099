"""The calibration drawn over the image: fitted rings, quadrant lines, pegs, hole, pockets,
striking lines and seat labels, so a person can judge the fit at a glance."""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration


def _poly(calib: Calibration, pts_mm: np.ndarray) -> np.ndarray:
    return calib.to_image(pts_mm).reshape(-1, 1, 2)


def _circle(r: float, n: int = 180, c: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a)], axis=1)


def draw_overlay(image: np.ndarray, calib: Calibration) -> np.ndarray:
    import cv2

    out = image.copy()
    thick = max(1, int(round(max(image.shape[:2]) / 700)))
    sh = 3
    S = 1 << sh

    def poly(pts: np.ndarray, colour: tuple[int, int, int], closed: bool = True) -> None:
        p = _poly(calib, pts)
        if not np.all(np.isfinite(p)):
            return
        cv2.polylines(out, [np.round(p * S).astype(np.int32)], closed, colour, thick, cv2.LINE_AA, sh)

    b = calib.board
    if isinstance(b, CrokinoleBoard):
        poly(_circle(b.surface_radius), (255, 200, 0))
        for r in b.line_radii:
            poly(_circle(r - b.line_width / 2), (0, 255, 0))
            poly(_circle(r + b.line_width / 2), (0, 255, 0))
        poly(_circle(b.hole_radius, 48), (255, 0, 255))
        for a in b.quadrant_angles_deg:
            u = np.array([math.cos(math.radians(a)), math.sin(math.radians(a))])
            poly(np.stack([u * b.ten_line_radius, u * b.shooting_line_radius]), (0, 200, 255), closed=False)
        for x, y in b.peg_positions():
            poly(_circle(b.peg_diameter / 2, 16, (x, y)), (0, 0, 255))
        label_r = b.shooting_line_radius + 12
    else:
        h = b.half
        poly(np.array([[-h, -h], [h, -h], [h, h], [-h, h]]), (0, 255, 0))
        o = b.outer_size / 2
        poly(np.array([[-o, -o], [o, -o], [o, o], [-o, o]]), (255, 200, 0))
        for seat in ("south", "north", "west", "east"):
            p0, p1 = b.striking_line(seat)  # type: ignore[arg-type]
            poly(np.array([p0, p1]), (0, 200, 255), closed=False)
        poly(_circle(b.centre_circle_radius), (0, 255, 0))
        for c in b.pocket_centres().values():
            poly(_circle(b.pocket_radius, 48, c), (255, 0, 255))
        label_r = h - 60
    font = cv2.FONT_HERSHEY_SIMPLEX
    fs = max(0.5, max(image.shape[:2]) / 1400)
    for seat, (x, y) in {"S": (0, -1), "W": (-1, 0), "N": (0, 1), "E": (1, 0)}.items():
        p = calib.to_image(np.array([[x * label_r, y * label_r]]))[0]
        if np.all(np.isfinite(p)):
            org = (int(p[0] - 10 * fs), int(p[1] + 10 * fs))
            cv2.putText(out, seat, org, font, 1.5 * fs, (0, 0, 0), 4 * thick, cv2.LINE_AA)
            cv2.putText(out, seat, org, font, 1.5 * fs, (255, 255, 255), 2 * thick, cv2.LINE_AA)
    text = f"{calib.method}  rms {calib.rms_mm:.2f} mm"
    cv2.putText(out, text, (10, int(30 * fs)), font, fs, (0, 0, 0), 4 * thick, cv2.LINE_AA)
    cv2.putText(out, text, (10, int(30 * fs)), font, fs, (255, 255, 255), thick, cv2.LINE_AA)
    return out
