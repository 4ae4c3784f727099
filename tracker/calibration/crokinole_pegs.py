"""Crokinole calibration: first guesses from the pegs, for a board seen nearly edge on.

Seen from low over the table (a broadcast camera at a player's shoulder, iMgYR7GklqE), the
painted rings are ellipses four times wider than tall whose far and near sides are a fraction
of a pixel thick: no contour follows them, the board search (``crokinole_seed``) finds only
the rim and the playing-surface edge, and no guess from those puts the ring fit onto the
right lines (the rings are 100 mm apart on the board but a few pixels apart in the picture).
What such a view still shows clearly are the 8 pegs: dark (or light) posts standing on the
15 circle at ``peg_angle_offset_deg + k 360/peg_count``. Their bases give point
correspondences with the board model, so a homography, perspective included, with its scale
set by the peg circle of the model rather than by a guess of which ring is which.

Steps: the inside of each of the best few ellipses of the board search is searched for
compact blobs of the pegs' size for that ellipse, as tall as wide or taller (black-hat or
top-hat larger than a peg, opened to remove the painted lines, which are thinner; a disc lying
flat is wider than tall); the base of each (the bottom of the blob, a peg stands upright) is
taken; five bases at a time fix a conic and the one with the
most bases on it is taken for the 15 circle; its bases, in order round it, are matched to
the model's pegs (the gaps between them in multiples of the pegs' spacing, so a peg hidden by
a disc or merged with one is allowed), and the homography is fitted to the matches. Each
guess is then tried by the same quick ring fit and checks as any other, the shooting line's
edge test replaced by the board's confirmation (``crokinole_checks.check_from_pegs``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.crokinole_seed import REF_MM, Guess, reduced
from tracker.calibration.features import ellipse_uv, odd
from tracker.calibration.geometry import apply_h

PEG_SIDE = 1280  # long side of the image the pegs are searched on (a peg is a few px wide)
REGION_TOP = 3  # the insides of this many best ellipses (contours, joined arcs) are searched
# the ellipse a region comes from is a ring, the surface edge or the rim: the pegs' circle lies
# inside this fraction of it (half the 10 line; the rim's ellipse is centred below the board's
# centre by its outer face on an oblique view: iMgYR7GklqE's pegs at 0.12-0.53 of it)
PEG_REACH = 0.7
MIN_PEGS = 6  # bases on one conic, matched to the model's pegs, for a guess
GAP_TOL_DEG = 15.0  # a gap between matched bases differs from a multiple of the spacing by less
MAX_BLOBS = 15  # the blobs nearest the region's centre are kept (every 5 of them: 3003 conics)


def _regions(ctx: dict, image_side: int, peg_scale: float) -> list[tuple[tuple[float, float], tuple[float, float], float]]:
    """The best ellipses of every board search run so far on this image (contours first, then
    joined arcs; each search size's own), in the coordinates of the peg image (``peg_scale``
    from the full image), near-duplicates dropped."""
    out: list[tuple[tuple[float, float], tuple[float, float], float]] = []
    sizes = sorted(k[1] for k in ctx if isinstance(k, tuple) and k[0] == "seed_maps")
    for size in sizes:
        maps = ctx[("seed_maps", size)]
        scale = peg_scale / min(1.0, size / image_side)
        for arcs in (False, True):
            if ("ellipses", arcs) not in maps:
                continue  # (that search did not run at this size: not made for the pegs alone)
            for (cx, cy), (a, b), th, _sup in maps[("ellipses", arcs)][:REGION_TOP]:
                e = ((cx * scale, cy * scale), (a * scale, b * scale), th)
                if any(math.hypot(e[0][0] - f[0][0], e[0][1] - f[0][1]) < 0.1 * f[1][0]
                       and abs(e[1][0] / f[1][0] - 1) < 0.1 for f in out):
                    continue
                out.append(e)
    return out


def blob_bases(img: np.ndarray, region: tuple[tuple[float, float], tuple[float, float], float],
               board: CrokinoleBoard) -> np.ndarray:
    """Bases (px, (N, 2)) of the peg-sized blobs inside the ellipse ``region``."""
    import cv2

    (cx, cy), (a, b), th = region
    h, w = img.shape[:2]
    # a peg's width in px if the region is the 10 line .. the outer rail
    wmax = board.peg_diameter * a / board.ten_line_radius
    wmin = board.peg_diameter * a / (board.outer_radius * 1.05)
    reach = 0.75 * a
    x0, x1 = int(max(0, cx - reach)), int(min(w, cx + reach + 1))
    y0, y1 = int(max(0, cy - reach)), int(min(h, cy + reach + 1))
    if x1 - x0 < 10 or y1 - y0 < 10:
        return np.zeros((0, 2))
    roi = img[y0:y1, x0:x1]
    K = odd(min(61, max(5, 2.5 * wmax)))
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (K, K))
    ko = max(2, int(round(0.5 * wmin)))
    kop = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ko, ko))
    grey = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY) if roi.ndim == 3 else roi
    inside_u8 = np.zeros(grey.shape, np.uint8)
    cv2.ellipse(inside_u8, ((cx - x0, cy - y0), (2 * PEG_REACH * a, 2 * PEG_REACH * b), math.degrees(th)), 255, -1)
    inside = inside_u8 > 0
    out: list[tuple[float, float]] = []
    for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
        m = cv2.morphologyEx(cv2.morphologyEx(grey, op, k), cv2.MORPH_OPEN, kop)
        vals = m[inside]
        if vals.size == 0:
            continue
        thr = max(12.0, 0.4 * float(np.percentile(vals, 99.9)))
        bw = ((m > thr) & inside).astype(np.uint8)
        n, lab, stats, _cent = cv2.connectedComponentsWithStats(bw)
        for i in range(1, n):
            bx, by, bw_, bh_, area = (int(t) for t in stats[i])
            # a peg stands: its blob is as tall as wide or taller (a disc lying flat is wider)
            if not (0.5 * wmin**2 <= area <= 4.0 * wmax**2) or bw_ > 2.0 * wmax or area < 0.4 * bw_ * bh_ \
                    or bh_ < 0.8 * bw_:
                continue
            ys, xs = np.nonzero(lab[by:by + bh_, bx:bx + bw_] == i)
            ybot = float(ys.max())
            low = ys >= ybot - 1
            # a peg stands upright: its base is at the bottom of its blob, half the width of
            # its foot (foreshortened as the region's ellipse) above the lowest row
            base = (x0 + bx + float(xs[low].mean()), y0 + by + ybot - 0.5 * bw_ * b / a)
            if all(math.hypot(base[0] - p[0], base[1] - p[1]) > wmin for p in out):
                out.append(base)  # (a light peg's dark shadow, or a dark peg's highlight: once)
    return np.array(out, dtype=np.float64).reshape(-1, 2)


def _conics(P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(conic coefficients (M, 6) through five of the points each, in coordinates normalised by
    the points' centre and spread; the normalisation (3x3))."""
    c = P.mean(axis=0)
    s = float(np.sqrt(((P - c) ** 2).sum(axis=1).mean())) or 1.0
    N = np.array([[1 / s, 0, -c[0] / s], [0, 1 / s, -c[1] / s], [0, 0, 1.0]])
    Q = (P - c) / s
    idx = np.array(list(itertools.combinations(range(len(P)), 5)))  # (every one: MAX_BLOBS)
    x, y = Q[idx, 0], Q[idx, 1]
    A = np.stack([x * x, x * y, y * y, x, y, np.ones_like(x)], axis=2)  # (M, 5, 6)
    _u, _s, vt = np.linalg.svd(A)
    return vt[:, -1, :], N


def _sampson(coef: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """Distances (normalised units, (M, N)) of points ``Q`` from conics ``coef`` (first order)."""
    a, b, c, d, e, f = (coef[:, i, None] for i in range(6))
    x, y = Q[None, :, 0], Q[None, :, 1]
    val = a * x * x + b * x * y + c * y * y + d * x + e * y + f
    gx, gy = 2 * a * x + b * y + d, b * x + 2 * c * y + e
    return np.abs(val) / np.maximum(np.hypot(gx, gy), 1e-12)


def _conic_matrix(coef: np.ndarray, N: np.ndarray) -> np.ndarray:
    a, b, c, d, e, f = coef
    C = np.array([[a, b / 2, d / 2], [b / 2, c, e / 2], [d / 2, e / 2, f]])
    return N.T @ C @ N


def match_pegs(P: np.ndarray, board: CrokinoleBoard, tol_px: float) -> tuple[np.ndarray, int] | None:
    """(homography board mm (the fits' unit) -> px, pegs matched) from peg bases ``P``, or None:
    the conic through the most bases (within ``tol_px``), its bases in order round it matched to
    the model's pegs."""
    import cv2

    from tracker.calibration.features import conic_affine

    if len(P) < MIN_PEGS:
        return None
    coef, N = _conics(P)
    Q = apply_h(N, P)
    d = _sampson(coef, Q) * (1.0 / N[0, 0])  # px
    on = d < tol_px
    ellipse = 4 * coef[:, 0] * coef[:, 2] - coef[:, 1] ** 2 > 0
    counts = np.where(ellipse, on.sum(axis=1), 0)
    order = np.lexsort((np.where(on, d, 0).sum(axis=1), -counts))
    unit = REF_MM / board.shooting_line_radius
    step = 2 * math.pi / board.peg_count
    best: tuple[np.ndarray, int, float] | None = None
    tried = 0
    for j in order:
        if counts[j] < MIN_PEGS or tried >= 400 or (best is not None and counts[j] < best[1]):
            break
        tried += 1
        A = conic_affine(_conic_matrix(coef[j], N))
        if A is None:
            continue
        pts = P[on[j]]
        q = apply_h(np.linalg.inv(A), pts)
        psi = np.arctan2(q[:, 1], q[:, 0])
        k = np.argsort(psi)
        pts, psi = pts[k], psi[k]
        gaps = np.diff(np.append(psi, psi[0] + 2 * math.pi))
        steps = np.round(gaps / step).astype(int)
        if np.any(steps < 1) or steps.sum() != board.peg_count or \
                np.max(np.abs(gaps - steps * step)) > math.radians(GAP_TOL_DEG):
            continue
        idx = np.concatenate([[0], np.cumsum(steps[:-1])])
        # image angle increasing (y down) is board angle decreasing: no mirror
        ang = math.radians(board.peg_angle_offset_deg) - idx * step
        model = board.peg_circle_radius * unit * np.stack([np.cos(ang), np.sin(ang)], axis=1)
        G, _ = cv2.findHomography(model, pts, 0)
        if G is None or not np.all(np.isfinite(G)):
            continue
        err = float(np.max(np.linalg.norm(apply_h(G, model) - pts, axis=1)))
        if err > 2 * tol_px:
            continue
        if best is None or len(pts) > best[1] or (len(pts) == best[1] and err < best[2]):
            best = (G, len(pts), err)
    return None if best is None else (best[0], best[1])


def peg_guesses(image: np.ndarray, ctx: dict, board: CrokinoleBoard) -> list[Guess]:
    """Guesses (as ``crokinole_seed.find_board``'s: full-resolution board mm -> px) from the
    pegs inside each of the best ellipses of the board search, best (most pegs) first."""
    img, s = reduced(image, PEG_SIDE, ctx)
    to_full = np.diag([1 / s, 1 / s, 1.0])
    unit = REF_MM / board.shooting_line_radius
    radii = {"shooting": REF_MM, "ten": board.ten_line_radius * unit, "fifteen": board.fifteen_line_radius * unit}
    out: list[tuple[int, Guess]] = []
    for region in _regions(ctx, max(image.shape[:2]), s):
        a = region[1][0]
        P = blob_bases(img, region, board)
        if len(P) < MIN_PEGS:
            continue
        ((cx, cy), (_a, b), th) = region
        u, v = ellipse_uv((cx, cy), (a, b), th, P)
        P = P[np.argsort(u * u + v * v)[:MAX_BLOBS]]
        wmin = board.peg_diameter * a / (board.outer_radius * 1.05)
        m = match_pegs(P, board, tol_px=max(1.5, 0.3 * wmin))
        if m is None:
            continue
        G, n = m
        c = apply_h(G, np.zeros((1, 2)))[0]
        u, v = ellipse_uv((cx, cy), (a, b), th, c[None])
        if math.hypot(float(u[0]), float(v[0])) > 0.35:
            continue  # the pegs' centre far from the middle of the ellipse they were found in
        out.append((n, (float(n), to_full @ G, dict(radii))))
    out.sort(key=lambda t: -t[0])
    return [g for _n, g in out]
