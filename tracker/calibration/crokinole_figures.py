"""Crokinole calibration, step 4: the board's own figures and the residual of each.

Once the rings fix the homography and the rotation is known, the rest of the board is measured
on radial profiles sampled straight from the image through the fit (``features.sample_polar``:
no rectified image is warped, which had cost a fifth of a calibration), in the scale where the
shooting line is ``REF_MM``:

- line width: full width at half depth of the shooting line's cross profile;
- playing-surface edge: the strongest radial step outside the shooting line;
- hole: the step between the dark 20-hole and the surface;
- peg circle: the radial position of each peg seen.

The quality report gets a residual in mm for each (issue #4: "residual in mm of every fitted
feature"): the edge and the hole are measured again in angular sectors and the residual is the
RMS of the sectors' radii about the fitted circle (a fit off centre shows as a sinusoid there);
the pegs give a radial residual (``pegs``) and a rotational one (``peg_rotation``: the mean
offset, mm along the peg circle, of the pegs from where the rotation puts them): the second
checks the rotation even where the quadrant lines are too faint to have a residual of their own. A sector whose step lies more than ``SECTOR_OUTLIER_MM`` from the circle
(a disc on the edge, a hand) is counted as not seen rather than as error.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.crokinole_seed import REF_MM
from tracker.calibration.features import sample_polar
from tracker.calibration.geometry import apply_h

SECTOR_OUTLIER_MM = 8.0  # a sector's step this far from the fitted circle is something else
MIN_SECTORS = 6  # fewer sectors seen: no residual reported


def _edge_radius(profile: np.ndarray, radii: np.ndarray) -> float:
    g = np.abs(np.gradient(profile))
    j = int(np.argmax(g))
    if 0 < j < len(g) - 1:
        a, b, c = g[j - 1], g[j], g[j + 1]
        den = a - 2 * b + c
        frac = 0.5 * (a - c) / den if abs(den) > 1e-9 else 0.0
        return float(radii[j] + np.clip(frac, -0.5, 0.5) * (radii[1] - radii[0]))
    return float(radii[j])


def _smooth(profile: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.GaussianBlur(profile.reshape(-1, 1).astype(np.float32), (1, 5), 0).ravel()


def _sector_rms(polar: np.ndarray, rr: np.ndarray, angles: np.ndarray, fitted: float,
                n: int, smooth: bool) -> float | None:
    """RMS (mm) of the edge radius measured in ``n`` angular sectors about ``fitted``, or None
    when under MIN_SECTORS sectors show the edge near it."""
    sector = np.floor(angles / (2 * math.pi) * n).astype(int) % n
    d: list[float] = []
    for k in range(n):
        cols = polar[:, sector == k]
        if cols.shape[1] == 0:
            continue
        prof = np.median(cols, axis=1)
        r = _edge_radius(_smooth(prof) if smooth else prof, rr)
        if abs(r - fitted) < SECTOR_OUTLIER_MM:
            d.append(r - fitted)
    if len(d) < MIN_SECTORS:
        return None
    return float(np.sqrt(np.mean(np.square(d))))


def measure_board(image: np.ndarray, G: np.ndarray, radii: dict[str, float],
                  board: CrokinoleBoard) -> tuple[CrokinoleBoard, dict[str, float]]:
    """(the board with measured figures, residuals in mm per feature). ``G`` maps board mm
    (rotation fixed) to ``image`` px."""
    import cv2

    grey = (cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image).astype(np.float32)

    def polar(rr: np.ndarray, ang: np.ndarray) -> np.ndarray:
        return sample_polar(grey, G, rr, ang)

    angles = np.linspace(0, 2 * math.pi, 720, endpoint=False)
    # avoid the quadrant lines and pegs when averaging radial profiles
    a_deg = np.degrees(angles) % 45.0
    clean = (np.abs(a_deg - 22.5) > 6) & (a_deg > 4) & (a_deg < 41)
    ang = angles[clean]
    out: dict[str, float] = {}
    figures: dict[str, float] = {"shooting_line_radius": REF_MM, "ten_line_radius": radii["ten"],
                                 "fifteen_line_radius": radii["fifteen"]}
    # line width: full width at half depth of the shooting line's cross profile
    rr = np.linspace(REF_MM - 6, REF_MM + 6, 97)
    prof = np.median(polar(rr, ang), axis=1)
    bg = np.median(np.concatenate([prof[:15], prof[-15:]]))
    dev = np.abs(prof - bg)
    peak = dev.max()
    if peak > 8:
        above = np.nonzero(dev >= peak / 2)[0]
        width = float((above[-1] - above[0] + 1) * (rr[1] - rr[0]))
        # the image blurs the line: remove about one image pixel of blur
        ppm = float(np.median(np.linalg.norm(apply_h(G, np.array([[305.0, 0.0], [0.0, 305.0]])) - apply_h(G, np.array([[304.0, 0.0], [0.0, 304.0]])), axis=1)))
        blur_mm = 1.0 / max(ppm, 1e-6)
        width = math.sqrt(max(width**2 - blur_mm**2, (0.5 * width) ** 2))
        if 0.5 <= width <= 8:
            figures["line_width"] = width
    # playing-surface edge: strongest radial step outside the shooting line
    rr = np.linspace(REF_MM + 8, REF_MM * 1.16, 120)
    pol = polar(rr, ang)
    sr = _edge_radius(_smooth(np.median(pol, axis=1)), rr)
    if REF_MM + 10 < sr < REF_MM * 1.15:
        figures["surface_radius"] = sr
        res = _sector_rms(pol, rr, ang, sr, 24, smooth=True)
        if res is not None:
            out["surface_edge"] = res
    # hole: darkest disc at the centre, edge = strongest radial step within 8..30 mm
    rr = np.linspace(6, 30, 97)
    pol = polar(rr, angles)
    prof = np.median(pol, axis=1)
    hr = _edge_radius(prof, rr)
    if prof[:10].mean() < prof[-10:].mean() - 10 and 8 < hr < 29:
        figures["hole_radius"] = hr
        res = _sector_rms(pol, rr, angles, hr, 12, smooth=False)
        if res is not None:
            out["hole"] = res
    # peg circle: radial position of the darkest/lightest blob at each peg angle, and its
    # angular position about where the rotation puts the peg
    r15 = radii["fifteen"]
    pr: list[float] = []
    pa: list[float] = []
    rr = np.linspace(r15 - 8, r15 + 8, 65)
    da = np.radians(np.linspace(-8.0, 8.0, 65))
    for k in range(board.peg_count):
        a = math.radians(board.peg_angle_offset_deg + 360.0 * k / board.peg_count)
        col = polar(rr, np.linspace(a - 0.02, a + 0.02, 5)).mean(axis=1)
        ref = np.median(polar(rr, np.linspace(a + 0.12, a + 0.2, 5)).mean(axis=1))
        d = np.abs(col - ref)
        if d.max() > 20:
            w8 = np.clip(d - d.max() / 2, 0, None)
            rp = float(np.sum(w8 * rr) / np.sum(w8))
            pr.append(rp)
            row = polar(np.linspace(rp - 2, rp + 2, 5), a + da).mean(axis=0)
            dv = np.abs(row - np.median(row))
            wa = np.clip(dv - dv.max() / 2, 0, None)
            if wa.sum() > 0:
                pa.append(float(np.sum(wa * da) / np.sum(wa)) * rp)
    if len(pr) >= 4:
        figures["peg_circle_radius"] = float(np.median(pr))
        out["pegs"] = float(np.sqrt(np.mean((np.array(pr) - np.median(pr)) ** 2)))
    if len(pa) >= 4:
        # the mean: a peg stands up, and its top leans along the image's vertical, which turns
        # each peg's centroid tangentially by parallax; the pegs on opposite sides lean opposite
        # ways, so their mean is the rotation's own error
        out["peg_rotation"] = abs(float(np.mean(pa)))
    return board.with_measured(**figures), out
