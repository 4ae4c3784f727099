"""Automatic korona calibration: seed from the board's square, fit every feature, measure.

1. **Seed** (:func:`_square_candidates`): the big convex quadrilaterals of the edge map and of
   Otsu's threshold (both polarities), each taken as the playing area or as the outer board
   (shrunk by the rim), sides refined on the image gradient, ranked by how dark their four
   corner pockets are against the surface.
2. **Fit** (``korona_fit.fit_korona``): homography, lens, striking lines and centre circle
   fitted to line-ness and rim-edge points found along the model's normals; the best-followed
   of the first few seeds wins. When the rims disagree with where the profile's lines put them
   (by over RIM_MISMATCH_MM), the board's lines differ from its profile and are refitted freely
   with the scale taken from the rims.
3. **Measure** (:func:`measure_korona`) on the straightened top-down image: striking-line
   offset, centre-circle radius, pockets, each with its spread as a residual in mm.

The rotation is known modulo 90 degrees; ``south`` picks the rest. Refusals: no square with
four dark pockets ("no board found"), lines not followed (under half of the points of the
worst-but-one striking line or of the centre circle), rms over 2 mm; each a CalibrationError.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import KoronaBoard
from tracker.calibration.geometry import apply_h, normalize_h
from tracker.calibration.korona_fit import KoronaFit
from tracker.calibration.lens import LensModel
from tracker.errors import CalibrationError


def _quads(grey: np.ndarray) -> list[np.ndarray]:
    """Big convex quadrilaterals, biggest first, from the edge map and from Otsu's threshold of
    the grey image (both polarities): a board far off or on a table of its own colour shows in
    one of them when not in the other. Down to 2% of the image: a far board is small."""
    import cv2

    blur = cv2.GaussianBlur(grey, (5, 5), 1.2)
    med = float(np.median(blur))
    edges = cv2.Canny(blur, max(10.0, 0.4 * med), max(30.0, 1.0 * med))
    maps = [cv2.dilate(edges, np.ones((3, 3), np.uint8))]
    _t, otsu = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    maps += [otsu, 255 - otsu]
    area_img = grey.shape[0] * grey.shape[1]
    out: list[np.ndarray] = []
    for m in maps:
        contours, _ = cv2.findContours(m, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            hull = cv2.convexHull(c)
            a = cv2.contourArea(hull)
            if a < 0.02 * area_img:
                continue
            for eps in (0.02, 0.04):
                approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
                if len(approx) == 4:
                    q = approx.reshape(4, 2).astype(np.float64)
                    if not any(np.abs(q2 - q).max() < 4 for q2 in out if q2.shape == q.shape):
                        out.append(q)
                    break
    out.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return out


def _order(q: np.ndarray) -> np.ndarray:
    """Corners in screen order TL, TR, BR, BL (clockwise on screen, image y down)."""
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # increasing angle with y down: clockwise on screen
    # start at the corner nearest the top-left
    i = int(np.argmin(q[:, 0] + q[:, 1]))
    return np.roll(q, -i, axis=0)


def _refine_sides(grey: np.ndarray, q: np.ndarray, strength: list[float] | None = None) -> tuple[np.ndarray, list[float]]:
    """Fit a line to the strongest gradient along each side; corners from the intersections.
    ``strength`` (if given) receives the median gradient magnitude found on each side."""
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
        # search only a little either side: the rim's outer edge runs close by
        reach = float(np.clip(0.012 * np.linalg.norm(b - a), 2.0, 8.0))
        offs = np.arange(-reach, reach + 0.25, 0.5)
        xy = p[:, None, :] + offs[None, :, None] * n
        v = cv2.remap(mag, xy[:, :, 0].astype(np.float32), xy[:, :, 1].astype(np.float32), cv2.INTER_LINEAR)
        j = np.argmax(v, axis=1)
        if strength is not None:
            strength.append(float(np.median(v[np.arange(len(v)), j])))
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


def _pocket_score(grey: np.ndarray, corners: np.ndarray, board: KoronaBoard) -> float:
    """How much a square looks like the playing area: its four corner pockets are dark holes
    against the surface. (A table mat or the outer rim is also a big square; only the playing
    area has a pocket in each corner.)"""
    import cv2

    h = board.half
    mm = np.array([[-h, h], [h, h], [h, -h], [-h, -h]])
    H, _ = cv2.findHomography(mm, corners, 0)
    if H is None:
        return -math.inf
    pockets = np.array(list(board.pocket_centres().values()))
    ring = np.array([[0.5 * h, 0.3 * h], [-0.3 * h, 0.5 * h], [-0.5 * h, -0.3 * h], [0.3 * h, -0.5 * h],
                     [0.6 * h, -0.6 * h], [-0.6 * h, 0.6 * h]])

    def sample(pts_mm: np.ndarray) -> np.ndarray:
        p = apply_h(H, pts_mm).astype(np.float32)
        return cv2.remap(grey, p[:, 0].reshape(-1, 1), p[:, 1].reshape(-1, 1), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=255).ravel().astype(np.float64)

    surface = float(np.median(sample(ring)))
    dark = sample(pockets)
    return float(np.min(surface - dark))  # every pocket must be darker than the surface


def _square_candidates(grey: np.ndarray, board: KoronaBoard, keep: int = 4) -> list[np.ndarray]:
    """Corners (TL, TR, BR, BL on screen) of the likeliest playing areas, best first.

    Candidates are the big quadrilaterals of the edge map, each taken as the playing area
    itself or as the board's outer edge (shrunk by the rim), ranked by how dark their four
    corner pockets are; the sides of each are then refined on the image gradient.
    """
    quads = _quads(grey)
    if not quads:
        raise CalibrationError("no board found: no large square (korona board) in the image")
    ratio = board.outer_size / (2 * board.half)
    scored: list[tuple[float, np.ndarray]] = []
    for q in quads[:10]:
        o = _order(q)
        c0 = o.mean(axis=0)
        for cand in (o, c0 + (o - c0) / ratio):
            # scored after the sides are refined: the pockets notch the corners of a bright
            # playing area, so its raw outline cuts the corners off and misses the pockets
            ref = _refine_square(grey, cand, ratio, board)
            scored.append((max(_pocket_score(grey, cand, board), _pocket_score(grey, ref, board)), ref))
    scored.sort(key=lambda t: -t[0])
    if scored[0][0] < 15.0:
        raise CalibrationError(
            f"no board found: {len(quads)} large squares in the image but none with four dark "
            f"corner pockets (best contrast {scored[0][0]:.0f} grey levels)")
    out: list[np.ndarray] = []
    for sc, cand in scored:
        if sc < 15.0 or len(out) >= keep:
            break
        corners = cand
        if not any(np.abs(c2 - corners).max() < 5 for c2 in out):
            out.append(corners)
    return out


def _refine_square(grey: np.ndarray, cand: np.ndarray, ratio: float, board: KoronaBoard) -> np.ndarray:
    corners, _rms = _refine_sides(grey, cand)
    # the rim's inner edge may run just inside what was found: shrink and look there
    outer_s: list[float] = []
    _refine_sides(grey, corners, outer_s)
    c0 = corners.mean(axis=0)
    inner_s: list[float] = []
    inner, inner_rms = _refine_sides(grey, c0 + (corners - c0) / ratio, inner_s)
    if (min(inner_s) > 0.4 * float(np.median(outer_s)) and max(inner_rms) < 1.5
            and _pocket_score(grey, inner, board) > 0.8 * _pocket_score(grey, corners, board)):
        corners = inner
    return corners


RIM_MISMATCH_MM = 6.0  # rims this far from where the profile's lines put them: measure the lines


def _followed(fit: KoronaFit) -> float:
    """Worst-but-one striking line and the centre circle: the share of their points found."""
    lines = sorted(fit.inliers[f"line_{s}"] for s in ("north", "east", "south", "west"))
    return min(lines[1], fit.inliers["circle"])


def calibrate_korona(image: np.ndarray, board: KoronaBoard | None = None, fit_lens: bool = True
                     ) -> tuple[np.ndarray, KoronaBoard, dict[str, float], float, LensModel | None]:
    """(H undistorted px -> board mm, measured board, residuals mm, rms mm, lens or None).

    The square found in the edge map seeds :func:`korona_fit.fit_korona`, which fits the
    homography and the lens to the striking lines, the centre circle and the rim edges the
    camera really sees (see there). The fit is refused when its lines were not followed.
    """
    import cv2

    from tracker.calibration.korona_fit import fit_korona, rim_offset

    board = board or KoronaBoard()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h = board.half
    # image TL, TR, BR, BL (top-down, south at the bottom) -> board NW, NE, SE, SW
    mm = np.array([[-h, h], [h, h], [h, -h], [-h, -h]])
    best: tuple[float, KoronaFit] | None = None
    for corners in _square_candidates(grey, board):
        G0, _ = cv2.findHomography(mm, corners, 0)
        if G0 is None:
            continue
        try:
            fit = fit_korona(image, G0, board, fit_lens=fit_lens)
        except CalibrationError:
            continue
        q = _followed(fit)
        if best is None or q > best[0]:
            best = (q, fit)
        if q > 0.8:
            break  # clearly the board
    if best is None:
        raise CalibrationError("korona board found but every fit of its lines diverged; give --points or --markers")
    fit = best[1]
    off = rim_offset(image, fit, board)
    if abs(off) > RIM_MISMATCH_MM:
        # the rims disagree with the painted lines at their profile distances: the board's
        # lines differ from its profile; measure them (scale from the rims) instead
        f = (h + off) / h
        fit = fit_korona(image, fit.G @ np.diag([f, f, 1.0]), board, schedule=(6.0, 3.0, 2.5),
                         fit_lens=fit_lens, lens0=fit.lens, prior_mm=50.0, rim_weight=1.0,
                         start=(fit.line_dist / f, fit.circle_radius / f))
    lines = [fit.inliers[f"line_{s}"] for s in ("north", "east", "south", "west")]
    if sorted(lines)[1] < 0.5 or fit.inliers["circle"] < 0.5:
        raise CalibrationError(
            f"korona board found but its lines were not followed: {100 * min(lines):.0f}% to "
            f"{100 * max(lines):.0f}% of the striking lines and {100 * fit.inliers['circle']:.0f}% "
            f"of the centre circle were seen; give --points or --markers")
    if fit.rms_mm > 2.0:
        raise CalibrationError(f"korona board lines fit poorly (rms {fit.rms_mm:.1f} mm); refusing a bad calibration")
    lens: LensModel | None = None
    if fit.lens.max_shift_px() > 0.5:
        lens = fit.lens
        image = fit.lens.undistort_image(image)
    H = normalize_h(np.linalg.inv(fit.G))
    residuals = {k: v for k, v in fit.residuals.items()}
    measured, extra = measure_korona(image, H, board)
    residuals.update(extra)
    return H, measured, residuals, fit.rms_mm, lens


def measure_korona(image: np.ndarray, H: np.ndarray, board: KoronaBoard) -> tuple[KoronaBoard, dict[str, float]]:
    """Striking lines, centre circle and pockets measured on the rectified board (0.5 mm/px)."""
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
    for sx, sy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        D, T = np.meshgrid(d, t, indexing="ij")
        if sx == 0:
            x, y = T, sy * (h - D)
        else:
            x, y = sx * (h - D), T
        p = np.stack([x.ravel(), y.ravel(), np.ones(x.size)], axis=1) @ Minv.T
        v = cv2.remap(ln, p[:, 0].reshape(D.shape).astype(np.float32), p[:, 1].reshape(D.shape).astype(np.float32),
                      cv2.INTER_LINEAR)
        prof = np.median(v, axis=1)
        if prof.max() > 3 * (np.median(prof) + 1):
            offs.append(float(d[int(np.argmax(prof))]))
    if len(offs) >= 2:
        figures["striking_line_offset"] = float(np.median(offs))
        out["striking_lines"] = float(np.sqrt(np.mean((np.array(offs) - np.median(offs)) ** 2)))
    # centre circle: radial line-ness peak (the striking lines are farther out)
    rr = np.linspace(20.0, min(200.0, h - 60), 361)
    ang = np.linspace(0, 2 * math.pi, 180, endpoint=False)
    pol = sample_polar(ln, Minv, rr, ang)
    prof = np.median(pol, axis=1)
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
        dark = (patch < 0.5 * surface).astype(np.uint8)
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
        figures["pocket_radius"] = float(np.median(radii))
        figures["pocket_inset"] = float(np.median(insets))
        out["pockets"] = float(np.sqrt(np.mean((np.array(insets) - np.median(insets)) ** 2)))
    return board.with_measured(**figures), out
