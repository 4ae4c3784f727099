"""Seeds for the korona fit: where in the image the playing area's square is.

A korona board is a bright (or at least uniform) square playing area inside four rims, with a
dark pocket in each corner. Candidates are the big quadrilaterals of the edge map and of Otsu's
threshold (both polarities), each taken as the playing area itself or as the outer board
(shrunk by the rim width); their sides are refined on the image gradient and they are ranked by
how dark their four corner pockets are against the surface.

A quadrilateral is read off a contour two ways. Its convex hull simplified to four corners is
right for a clean board. When clutter touches the board (a sheet of paper lying against a rim,
a hand over a corner) the hull runs around the clutter and one corner lands far off; so each
contour also gives the quadrilateral of its four longest straight runs (:func:`_side_quad`):
the board's sides stay the longest straight stretches of the outline even where clutter cuts
into one of them or bulges out at a corner.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import KoronaBoard
from tracker.calibration.geometry import apply_h
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
            found: list[np.ndarray] = []
            for eps in (0.02, 0.04):
                approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
                if len(approx) == 4:
                    found.append(approx.reshape(4, 2).astype(np.float64))
                    break
            sq = _side_quad(c, a)
            if sq is not None:
                found.append(sq)
            for q in found:
                if not any(np.abs(q2 - q).max() < 4 for q2 in out if q2.shape == q.shape):
                    out.append(q)
    out.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return out


def _side_quad(contour: np.ndarray, hull_area: float) -> np.ndarray | None:
    """The quadrilateral of a contour's four longest straight runs, or None.

    The contour is simplified to a polygon; its edges are grouped by the line they lie on (a
    side broken by a pocket's notch or by clutter is one line in several pieces) and the four
    lines with the most length, taken in order around the outline, are intersected. None when
    they do not make a convex quadrilateral of a fair share of the contour's hull.
    """
    import cv2

    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, 0.006 * peri, True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 4:
        return None
    segs = [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
    # group edges lying on one line: same direction (8 degrees: short pieces of a side broken
    # by clutter wobble) and within 1.2% of the perimeter
    groups: list[list[int]] = []
    for i, (a, b) in enumerate(segs):
        d = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        for g in groups:
            a2, b2 = segs[g[0]]
            d2 = (b2 - a2) / max(float(np.linalg.norm(b2 - a2)), 1e-9)
            n2 = np.array([-d2[1], d2[0]])
            if abs(float(d @ d2)) > math.cos(math.radians(8.0)) and \
                    max(abs(float((a - a2) @ n2)), abs(float((b - a2) @ n2))) < 0.012 * peri:
                g.append(i)
                break
        else:
            groups.append([i])
    length = [sum(float(np.linalg.norm(segs[i][1] - segs[i][0])) for i in g) for g in groups]
    best = [groups[i] for i in np.argsort(length)[::-1][:4]]
    if len(best) < 4 or sorted(length)[-4] < 0.06 * peri:
        return None
    lines = []
    mids = []
    outline = contour.reshape(-1, 2).astype(np.float64)
    if len(outline) < 200:  # a simplified contour: put points back along its edges
        nxt = np.roll(outline, -1, axis=0)
        t = np.linspace(0.0, 1.0, 8, endpoint=False)
        outline = (outline[:, None, :] + t[None, :, None] * (nxt - outline)[:, None, :]).reshape(-1, 2)
    for g in best:
        ends = np.concatenate([np.array(segs[i]) for i in g])
        vx, vy, x0, y0 = cv2.fitLine(ends.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        # the polygon's vertices may cut a side short (a chord across a notch, within the
        # simplification's tolerance): refit on the outline's own points near the line, twice
        # narrowing, so that the side's longest straight run wins
        d = np.array([vx, vy])
        along = (ends - [x0, y0]) @ d
        for tol in (0.008 * peri, 3.0):
            rel = outline - [x0, y0]
            near = (np.abs(rel @ np.array([-d[1], d[0]])) < tol) & (rel @ d > along.min() - tol) & \
                (rel @ d < along.max() + tol)
            if near.sum() < 10:
                break
            vx, vy, x0, y0 = cv2.fitLine(outline[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            d = np.array([vx, vy])
        lines.append(np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0]))
        mids.append(ends.mean(axis=0))
    mid = np.array(mids)
    c0 = mid.mean(axis=0)
    order = np.argsort(np.arctan2(mid[:, 1] - c0[1], mid[:, 0] - c0[0]))
    corners = []
    for k in range(4):
        p = np.cross(lines[order[k - 1]], lines[order[k]])
        if abs(p[2]) < 1e-9:
            return None
        corners.append(p[:2] / p[2])
    q = np.array(corners)
    area = cv2.contourArea(q.astype(np.float32))
    if not cv2.isContourConvex(q.astype(np.float32)) or not 0.4 * hull_area < area < 1.5 * hull_area:
        return None
    return q


def _order(q: np.ndarray) -> np.ndarray:
    """Corners in screen order TL, TR, BR, BL (clockwise on screen, image y down)."""
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # increasing angle with y down: clockwise on screen
    # start at the corner nearest the top-left
    i = int(np.argmin(q[:, 0] + q[:, 1]))
    return np.roll(q, -i, axis=0)


def _gradient(grey: np.ndarray) -> np.ndarray:
    import cv2

    gx = cv2.Sobel(grey.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey.astype(np.float32), cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy)


def _refine_sides(mag: np.ndarray, q: np.ndarray, strength: list[float] | None = None) -> tuple[np.ndarray, list[float]]:
    """Fit a line to the strongest gradient (``mag``) along each side; corners from the
    intersections. ``strength`` (if given) receives the median gradient magnitude found on each
    side. Also returns each side's rms distance (px) of its points from its line, nan for a side
    along the image border."""
    import cv2

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
        # a side along the image border (a board cut by the frame) cannot be measured: the
        # outline's own line is kept there (its rms is nan)
        h_img, w_img = mag.shape[:2]
        inside = ((xy[:, :, 0] >= 2) & (xy[:, :, 0] <= w_img - 3) & (xy[:, :, 1] >= 2)
                  & (xy[:, :, 1] <= h_img - 3)).all(axis=1)
        if inside.sum() < 0.5 * len(p):
            if strength is not None:
                strength.append(math.inf)
            rms.append(math.nan)
            lines.append(np.cross([a[0], a[1], 1.0], [b[0], b[1], 1.0]))
            continue
        if strength is not None:
            strength.append(float(np.median(v[np.arange(len(v)), j][inside])))
        pts = (p + offs[j][:, None] * n)[inside]
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
    # the darkest of a few points over each pocket: boards differ in pocket size and place
    # (a carrom board's pockets sit closer to the corner than the profile's)
    r = 0.4 * board.pocket_radius
    offs = np.array([[0.0, 0.0], [r, r], [-r, r], [r, -r], [-r, -r]])
    dark = sample((pockets[:, None, :] + offs[None]).reshape(-1, 2)).reshape(len(pockets), -1).min(axis=1)
    return float(np.min(surface - dark))  # every pocket must be darker than the surface


def square_candidates(grey: np.ndarray, board: KoronaBoard, keep: int = 4) -> list[np.ndarray]:
    """Corners (TL, TR, BR, BL on screen) of the likeliest playing areas, best first.

    Candidates are the big quadrilaterals of the edge map, each taken as the playing area
    itself or as the board's outer edge (shrunk by the rim), ranked by how dark their four
    corner pockets are; the sides of each are then refined on the image gradient.
    """
    quads = _quads(grey)
    if not quads:
        raise CalibrationError("no board found: no large square (korona board) in the image")
    ratio = board.outer_size / (2 * board.half)
    mag = _gradient(grey)
    scored: list[tuple[bool, float, np.ndarray]] = []
    for q in quads[:16]:
        o = _order(q)
        c0 = o.mean(axis=0)
        for cand in (o, c0 + (o - c0) / ratio):
            # scored after the sides are refined: the pockets notch the corners of a bright
            # playing area, so its raw outline cuts the corners off and misses the pockets
            ref, rms = _refine_square(grey, mag, cand, ratio, board)
            if not math.isfinite(rms):
                continue  # two or more sides along the image border: the frame, not a board
            # a side whose edge points do not lie on one line is not a board's side (a corner
            # pulled off by clutter): such squares go after every straight one
            side = float(np.mean(np.linalg.norm(ref - np.roll(ref, 1, axis=0), axis=1)))
            straight = rms < max(2.5, 0.005 * side)
            scored.append((straight, max(_pocket_score(grey, cand, board), _pocket_score(grey, ref, board)), ref))
    scored.sort(key=lambda t: (not (t[0] and t[1] >= 15.0), -t[1]))
    best = max(t[1] for t in scored)
    if best < 15.0:
        raise CalibrationError(
            f"no board found: {len(quads)} large squares in the image but none with four dark "
            f"corner pockets (best contrast {best:.0f} grey levels)")
    out: list[np.ndarray] = []
    for _straight, sc, cand in scored:
        if sc < 15.0 or len(out) >= keep:
            continue
        corners = cand
        if not any(np.abs(c2 - corners).max() < 5 for c2 in out):
            out.append(corners)
    return out


def _refine_square(grey: np.ndarray, mag: np.ndarray, cand: np.ndarray, ratio: float, board: KoronaBoard
                   ) -> tuple[np.ndarray, float]:
    """(refined corners, worst measured side's rms px; nan with two sides along the border)."""

    def worst(rms: list[float]) -> float:
        return math.nan if sum(not math.isfinite(r) for r in rms) >= 2 else float(np.nanmax(rms))

    corners, rms = _refine_sides(mag, cand)
    # the rim's inner edge may run just inside what was found: shrink and look there
    outer_s: list[float] = []
    _c, rms = _refine_sides(mag, corners, outer_s)
    c0 = corners.mean(axis=0)
    inner_s: list[float] = []
    inner, inner_rms = _refine_sides(mag, c0 + (corners - c0) / ratio, inner_s)
    if (min(inner_s) > 0.4 * float(np.median(outer_s)) and worst(inner_rms) < 1.5
            and _pocket_score(grey, inner, board) > 0.8 * _pocket_score(grey, corners, board)):
        return inner, worst(inner_rms)
    return corners, worst(rms)
