"""A close line call measured against the line beside the disc, not the board's fitted circle.

The calibration fits each ring as one circle through the whole board; its residual (``rms_mm``,
0.3-0.5 mm on phone photos) and a real board's rings, which are not perfect circles, leave the
line next to a given disc a few tenths of a millimetre off that circle: the size of a close call.
A referee looks at the line *where the disc is*. So for a disc near a line we find that line in
the image on short arcs either side of the disc (where the disc does not hide it), and use the
radius measured there.

Per arc position: a radial colour profile across the line (the line is at z = 0, so the
homography maps it exactly, oblique or not). The line is the bump of colour distance from the
board on either side of it, whatever the line's colour; its centre is half-way between where the
bump crosses half its height on either side (interpolated, so sub-pixel: on an exactly drawn ring
it is found within 0.01 mm). Positions where another disc or a peg lies on the arc are skipped.
The local radius is the median over the positions, given only when enough positions agree;
otherwise the fitted circle stands.

On the labelled phone photos (``bench_photo``) the 10 line beside the three discs within 2 mm of
it lies 0.1-0.3 mm inside the fitted circle; no call changes.
"""

from __future__ import annotations

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration

# Board fields of the three lines, by the names ``CrokinoleBoard.line_gaps`` uses.
LINE_FIELDS = {"shooting": "shooting_line_radius", "10": "ten_line_radius", "15": "fifteen_line_radius"}
MIN_POSITIONS = 4  # arc positions that must show the line
MAX_SPREAD_MM = 0.8  # median absolute deviation of their radii beyond which the measure is not trusted


def lab_at(image: np.ndarray, calib: Calibration, pts_mm: np.ndarray) -> np.ndarray:
    """Lab (float, 8-bit scale) of the image at board points (..., 2)."""
    shape = pts_mm.shape[:-1]
    px = calib.to_image(pts_mm.reshape(-1, 2)).astype(np.float32)
    mx = np.ascontiguousarray(px[:, 0].reshape(1, -1))
    my = np.ascontiguousarray(px[:, 1].reshape(1, -1))
    bgr = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    out: np.ndarray = (lab * np.array([2.55, 1.0, 1.0], np.float32)).reshape(*shape, 3)
    return out


def local_line_radius(image: np.ndarray, calib: Calibration, board: CrokinoleBoard, xy: np.ndarray,
                      line: str, others: np.ndarray | None = None) -> float | None:
    """Radius (mm) of ``line`` measured in ``image`` beside the disc at ``xy``; None when the line
    cannot be seen well enough there. ``others`` (N, 2): other discs, whose arcs are skipped."""
    R = float(getattr(board, LINE_FIELDS[line]))
    w = board.line_width
    r = board.disc_radius
    theta0 = float(np.arctan2(xy[1], xy[0]))
    px_mm = _mm_per_px(calib, np.asarray(xy, float))
    step = max(0.1, 0.25 * px_mm)
    half = 0.5 * w + max(4.0, 4.0 * px_mm)
    rho = np.arange(R - half, R + half + 1e-9, step)
    # Arc positions clear of the disc (its edge plus the blur), both sides, every 1.5 mm.
    along = np.arange(r + 3.0 + 2.0 * px_mm, r + 20.0 + 2.0 * px_mm, 1.5)
    angles = theta0 + np.concatenate([along, -along]) / R
    keep = []
    blockers = [np.asarray(p, float) for p in (others if others is not None else np.zeros((0, 2)))]
    pegs = [np.array(p) for p in board.peg_positions()] if abs(R - board.peg_circle_radius) < 3.0 * w + 5.0 else []
    for a in angles:
        q = R * np.array([np.cos(a), np.sin(a)])
        if any(np.hypot(*(q - p)) < r + half + 2.0 for p in blockers):
            continue
        # (a peg stands 25 mm tall: seen obliquely its body leans over the line beyond its foot)
        if any(np.hypot(*(q - p)) < board.peg_diameter / 2 + half + 0.5 * board.peg_height + 2.0 for p in pegs):
            continue
        keep.append(a)
    if len(keep) < MIN_POSITIONS:
        return None
    a = np.array(keep)
    u = np.stack([np.cos(a), np.sin(a)], 1)
    lab = lab_at(image, calib, u[:, None, :] * rho[None, :, None])  # (positions, samples, 3)
    centres = []
    outer = np.abs(rho - R) > 0.5 * w + max(1.5, 1.5 * px_mm)
    for prof in lab:
        if outer.sum() < 4:
            break
        board_col = np.median(prof[outer], axis=0)
        dist = np.linalg.norm(prof - board_col, axis=1)
        base = float(np.median(dist[outer]))
        bump = dist - base
        j = int(np.argmax(np.where(~outer, bump, -1.0)))  # the line: near where the fitted circle has it
        peak = float(bump[j])
        if peak < max(8.0, 3.0 * base):
            continue
        # The line's two edges: where the bump crosses half its peak, either side of the peak
        # (interpolated between samples); its centre is half-way between them.
        level = 0.5 * peak
        lo = j
        while lo > 0 and bump[lo - 1] >= level:
            lo -= 1
        hi = j
        while hi < len(rho) - 1 and bump[hi + 1] >= level:
            hi += 1
        if lo == 0 or hi == len(rho) - 1:
            continue  # the line runs off the profile: not measured here
        left = rho[lo - 1] + step * (level - bump[lo - 1]) / max(bump[lo] - bump[lo - 1], 1e-9)
        right = rho[hi] + step * (bump[hi] - level) / max(bump[hi] - bump[hi + 1], 1e-9)
        centres.append(0.5 * float(left + right))
    if len(centres) < MIN_POSITIONS:
        return None
    c = np.array(centres)
    med = float(np.median(c))
    if float(np.median(np.abs(c - med))) > MAX_SPREAD_MM:
        return None
    return med


def _mm_per_px(calib: Calibration, xy: np.ndarray) -> float:
    """Board millimetres per image pixel near ``xy``."""
    px = calib.to_image(np.array([xy, xy + [1.0, 0.0], xy + [0.0, 1.0]]))
    det = abs(float(np.linalg.det(np.stack([px[1] - px[0], px[2] - px[0]]))))
    return 1.0 / max(float(np.sqrt(det)), 1e-6)
