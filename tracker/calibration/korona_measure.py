"""Korona board figures measured on the straightened (top-down) image.

Once the homography is known the board is warped to 0.5 mm per pixel and each figure is read
off where it is simplest: striking lines as the line-ness peak of each side's strip, the centre
circle as the radial line-ness peak, pockets as the biggest dark blob in each corner (with
``POCKET_OPEN``, thin dark parts such as a dark rim's inner face opened away first; the profile's
pockets stand when the corners disagree, ``POCKET_SPREAD_MM``). Each comes with its spread (rms,
mm) as a residual. The per-side striking-line distances are returned
too: the caller checks them against the fit (an independent confirmation, see
``korona._verify``).
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import KoronaBoard
from tracker.calibration.geometry import apply_h

SIDES = ("south", "north", "west", "east")
NEAR_MM = 3.0
# Dark parts of a corner narrower than this fraction of the pocket's diameter are not the pocket:
# a dark rim's inner face, seen obliquely and laid on the surface by the straightening (8-16 mm
# wide along the far rims), joins the pocket's blob and made it 62 x 160 mm (k4h_9706: pocket
# radius measured 40.8 mm and inset 39.2 for 32 and 30, the insets of the four corners 3.3 mm
# apart; the pipeline then called a disc resting 48 mm from the se pocket's centre pocketed). So
# the dark mask is opened by a disc this wide before its largest blob is taken (0.5: the korona
# dev matches measure 31.9-32.9 / 30.3-31.0, corners within 0.6 mm). None: no opening.
POCKET_OPEN: float | None = 0.5
# Pockets whose four corners disagree by more than this (rms of the insets about their median,
# mm) were not all measured on the pocket alone (something dark joined some, a corner's pocket
# unseen): the profile's figures stand, the spread is still reported. A real board's pockets are
# cut alike; on the rendered korona matches the corners agree within 0.6 mm.
POCKET_SPREAD_MM = 3.0


def measure_korona(image: np.ndarray, H: np.ndarray, board: KoronaBoard, expect: float | None = None
                   ) -> tuple[KoronaBoard, dict[str, float], dict[str, float]]:
    """(measured board, residuals mm, seen) on the rectified board (0.5 mm/px). ``seen``: each
    side's striking-line distance from its rim and (key ``circle``) the centre circle's radius,
    in mm, nan where no line stood out of the noise. ``expect``: where the fit put the striking
    lines (mm in from the rims), preferred among several lines."""
    import cv2

    from tracker.calibration.features import lineness, odd, sample_polar

    mmpp = 0.5
    e = board.half + 10.0
    n = int(math.ceil(2 * e / mmpp))
    M = np.array([[mmpp, 0, 0.5 * mmpp - e], [0, -mmpp, e - 0.5 * mmpp], [0, 0, 1.0]])
    G = np.linalg.inv(H)
    top = cv2.warpPerspective(image, G @ M, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32)
    ln = lineness(top, odd(6 / mmpp + 1))
    Minv = np.linalg.inv(M)
    figures: dict[str, float] = {}
    out: dict[str, float] = {}
    h = board.half
    # striking lines: distance from the rim's inner edge of the line-ness peak, per side
    d = np.linspace(40.0, 200.0, 321)  # mm in from the rim
    t = np.linspace(-0.6, 0.6, 41) * board.striking_line_half_length
    offs: list[float] = []
    sides: dict[str, float] = {}
    for side, (sx, sy) in zip(SIDES, ((0, -1), (0, 1), (-1, 0), (1, 0)), strict=True):
        sides[side] = math.nan
        D, T = np.meshgrid(d, t, indexing="ij")
        if sx == 0:
            x, y = T, sy * (h - D)
        else:
            x, y = sx * (h - D), T
        p = np.stack([x.ravel(), y.ravel(), np.ones(x.size)], axis=1) @ Minv.T
        v = cv2.remap(ln, p[:, 0].reshape(D.shape).astype(np.float32), p[:, 1].reshape(D.shape).astype(np.float32),
                      cv2.INTER_LINEAR)
        prof = np.median(v, axis=1)
        j = int(np.argmax(prof))
        if expect is not None:
            # a board may paint a second line beside each striking line (carrom's base lines
            # are pairs): a local peak of at least half the strongest near the fit's line is it
            near = np.flatnonzero(np.abs(d - expect) <= NEAR_MM)
            if len(near):
                k = int(near[np.argmax(prof[near])])
                if 0 < k < len(d) - 1 and prof[k] >= prof[k - 1] and prof[k] >= prof[k + 1] \
                        and prof[k] >= 0.5 * prof[j]:
                    j = k
        # the confirmation takes any peak standing out of the noise at all (faint lines on a
        # grainy board reach only 1.3x the median); the figures want a clear one
        if prof[j] > 1.2 * (np.median(prof) + 1):
            sides[side] = float(d[j])
        if prof[j] > 3 * (np.median(prof) + 1):
            offs.append(float(d[j]))
    if len(offs) >= 2:
        figures["striking_line_offset"] = float(np.median(offs))
        out["striking_lines"] = float(np.sqrt(np.mean((np.array(offs) - np.median(offs)) ** 2)))
    # centre circle: radial line-ness peak (the striking lines are farther out)
    rr = np.linspace(20.0, min(200.0, h - 60), 361)
    ang = np.linspace(0, 2 * math.pi, 180, endpoint=False)
    pol = sample_polar(ln, Minv, rr, ang)
    prof = np.median(pol, axis=1)
    sides["circle"] = float(rr[int(np.argmax(prof))]) if prof.max() > 1.2 * (np.median(prof) + 1) else math.nan
    if prof.max() > 3 * (np.median(prof) + 1):
        j = int(np.argmax(prof))
        figures["centre_circle_radius"] = float(rr[j])
        # spread of the per-angle peak radius
        per = rr[np.argmax(pol[max(0, j - 20):j + 21], axis=0) + max(0, j - 20)]
        out["centre_circle"] = float(np.sqrt(np.mean((per - rr[j]) ** 2)))
    # pockets: dark blobs in each corner square
    cs = board.pocket_centres()
    radii: list[float] = []
    insets: list[float] = []
    size = board.pocket_radius * 2.5
    k_open = (cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (odd(POCKET_OPEN * 2 * board.pocket_radius / mmpp),) * 2)
              if POCKET_OPEN else None)
    for name, (cx, cy) in cs.items():
        sx, sy = np.sign(cx), np.sign(cy)
        x0, x1 = sorted((sx * h, sx * (h - 2 * size)))
        y0, y1 = sorted((sy * h, sy * (h - 2 * size)))
        u0, v0 = np.round(apply_h(Minv, np.array([[x0, y1]]))[0]).astype(int)
        u1, v1 = np.round(apply_h(Minv, np.array([[x1, y0]]))[0]).astype(int)
        u0, v0 = max(u0, 0), max(v0, 0)
        patch = grey[v0:v1, u0:u1]
        if patch.size < 100:
            continue
        surface = float(np.median(grey[n // 2 - 50:n // 2 + 50, n // 2 + 150:n // 2 + 250]))
        dark: np.ndarray = (patch < 0.5 * surface).astype(np.uint8)
        if k_open is not None:
            # (outside the patch counts as not dark: a strip along the patch's edge goes too)
            dark = cv2.morphologyEx(dark, cv2.MORPH_OPEN, k_open, borderType=cv2.BORDER_CONSTANT, borderValue=0)
        k, lab, stats, cent = cv2.connectedComponentsWithStats(dark)
        if k <= 1:
            continue
        i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        area = stats[i, cv2.CC_STAT_AREA] * mmpp * mmpp
        r = math.sqrt(area / math.pi)
        if r < 8:
            continue
        c_mm = apply_h(M, np.array([[u0 + cent[i][0], v0 + cent[i][1]]]))[0]
        radii.append(r)
        insets.append(float(np.mean([h - abs(c_mm[0]), h - abs(c_mm[1])])))
        del name
    if len(radii) >= 2:
        out["pockets"] = float(np.sqrt(np.mean((np.array(insets) - np.median(insets)) ** 2)))
        if out["pockets"] <= POCKET_SPREAD_MM:
            figures["pocket_radius"] = float(np.median(radii))
            figures["pocket_inset"] = float(np.median(insets))
    return board.with_measured(**figures), out, sides
