"""Fallback 1: four or more clicked points.

``--points "x,y=bx,by;x,y=name;..."`` pairs an image pixel with a board position, given in mm or as
a named feature of the board (see :func:`named_feature`). Four points fix the homography exactly;
more are fitted by least squares, and each point's residual in mm goes in the quality report.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard, board_for
from tracker.calibration.datatypes import Calibration
from tracker.calibration.geometry import normalize_h, point_residuals_mm
from tracker.errors import CalibrationError, InputError

_SEAT_ANGLE = {"e": 0.0, "n": 90.0, "w": 180.0, "s": 270.0}


def named_feature(name: str, board: CrokinoleBoard | KoronaBoard) -> tuple[float, float]:
    """Board mm of a named feature.

    Both games: ``centre`` (or ``center``). Crokinole: ``peg1`` .. ``peg8`` (counter-clockwise
    from the peg at 22.5 degrees), ``shoot_n|e|s|w`` / ``ten_*`` / ``fifteen_*`` / ``surface_*``
    (where that ring crosses the seat's axis). Korona: ``pocket_ne|nw|sw|se``, ``corner_ne|..``
    (playing-area corners), ``mark_n|e|s|w`` (the rim marks).
    """
    key = name.strip().lower()
    if key in ("centre", "center", "hole"):
        return (0.0, 0.0)
    if isinstance(board, CrokinoleBoard):
        if key.startswith("peg") and key[3:].isdigit():
            k = int(key[3:])
            if 1 <= k <= board.peg_count:
                return board.peg_positions()[k - 1]
        radii = {"shoot": board.shooting_line_radius, "ten": board.ten_line_radius,
                 "fifteen": board.fifteen_line_radius, "surface": board.surface_radius}
        if "_" in key:
            ring, seat = key.split("_", 1)
            if ring in radii and seat in _SEAT_ANGLE:
                a = math.radians(_SEAT_ANGLE[seat])
                return (radii[ring] * math.cos(a), radii[ring] * math.sin(a))
    else:
        h = board.half
        if key.startswith("pocket_"):
            centres = board.pocket_centres()
            if key[7:] in centres:
                return centres[key[7:]]  # type: ignore[index]
        if key.startswith("corner_") and len(key) == 9:
            sy = {"n": 1.0, "s": -1.0}.get(key[7])
            sx = {"e": 1.0, "w": -1.0}.get(key[8])
            if sx is not None and sy is not None:
                return (sx * h, sy * h)
        if key.startswith("mark_") and key[5:] in _SEAT_ANGLE:
            a = math.radians(_SEAT_ANGLE[key[5:]])
            return (round(h * math.cos(a), 9), round(h * math.sin(a), 9))
    raise InputError(f"--points: unknown board feature {name!r}")


def parse_points(text: str, board: CrokinoleBoard | KoronaBoard) -> tuple[np.ndarray, np.ndarray]:
    """``"x,y=bx,by;x,y=name"`` -> (N, 2) image px, (N, 2) board mm."""
    px: list[tuple[float, float]] = []
    mm: list[tuple[float, float]] = []
    for item in (s.strip() for s in text.replace("\n", ";").split(";")):
        if not item:
            continue
        if "=" not in item:
            raise InputError(f"--points: {item!r} should look like x,y=bx,by or x,y=name")
        left, right = item.split("=", 1)
        try:
            x, y = (float(v) for v in left.split(","))
        except ValueError:
            raise InputError(f"--points: {left!r} is not an image point x,y") from None
        parts = right.split(",")
        if len(parts) == 2:
            try:
                bx, by = (float(v) for v in parts)
            except ValueError:
                raise InputError(f"--points: {right!r} is not a board point bx,by in mm") from None
        else:
            bx, by = named_feature(right, board)
        px.append((x, y))
        mm.append((bx, by))
    if len(px) < 4:
        raise InputError(f"--points: need at least 4 points, got {len(px)}")
    return np.array(px), np.array(mm)


def calibrate_points(points_px: np.ndarray, points_mm: np.ndarray, image_size: tuple[int, int],
                     game: str = "crokinole",
                     board: CrokinoleBoard | KoronaBoard | None = None,
                     method: str = "points") -> Calibration:
    """A calibration from >= 4 image points with known board positions (no 3 collinear)."""
    import cv2

    px = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
    mm = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
    if len(px) != len(mm) or len(px) < 4:
        raise InputError(f"need at least 4 point pairs, got {len(px)} image and {len(mm)} board")
    for pts, what in ((px, "image"), (mm, "board")):
        c = pts - pts.mean(axis=0)
        s = np.linalg.svd(c, compute_uv=False)
        if s[1] < 1e-6 * max(s[0], 1e-9):
            raise CalibrationError(f"the {what} points are collinear: cannot fix a homography")
    H, _ = cv2.findHomography(px, mm, 0)
    if H is None or not np.all(np.isfinite(H)):
        raise CalibrationError("the points do not determine a homography (degenerate layout)")
    H = normalize_h(H)
    res = point_residuals_mm(H, px, mm)
    board = board or board_for(game)
    residuals = {f"point{i + 1}": float(r) for i, r in enumerate(res)}
    rms = float(np.sqrt(np.mean(res**2)))
    return Calibration(homography=H, image_size=image_size, rms_mm=rms, board=board,
                       residuals_mm=residuals, method=method)
