"""Image features the automatic calibration looks for: thin lines, candidate ellipses, profiles.

*Line-ness* is the morphological black-hat plus top-hat of the grey image: it responds to thin
lines darker or lighter than the surface around them, whatever their colour, and to little else
than edges of large dark/light regions. Lines painted in a colour close to the surface grey are
caught on the channel with the most contrast (the maximum over the colour channels).
"""

from __future__ import annotations

import math

import numpy as np


def odd(k: float) -> int:
    k = int(round(k))
    return k if k % 2 else k + 1


def lineness(image: np.ndarray, kernel: int) -> np.ndarray:
    """Float32 map of thin-line strength (black-hat + top-hat, max over colour channels).

    Black-hat plus top-hat is ``(close - c) + (c - open) = close - open``, each term of it
    non-negative in uint8: computed so, with OpenCV's own per-channel maximum, it is the same
    map at about half the cost of the two transforms and their float sum (the ring fits build
    one map per kernel size, a large part of a refused frame's time)."""
    import cv2

    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (odd(kernel), odd(kernel)))
    chans = [image] if image.ndim == 2 else cv2.split(image)
    out: np.ndarray | None = None
    for c in chans:
        r = cv2.subtract(cv2.morphologyEx(c, cv2.MORPH_CLOSE, k), cv2.morphologyEx(c, cv2.MORPH_OPEN, k))
        out = r if out is None else cv2.max(out, r)
    assert out is not None
    return out.astype(np.float32)


def edge_contours(grey: np.ndarray) -> list[np.ndarray]:
    """The contours of the grey image's edge map (Canny at thresholds set by its median): what
    the ellipse searches (:func:`candidate_ellipses`, ``arcs.arc_ellipses``) start from."""
    import cv2

    blur = cv2.GaussianBlur(grey, (5, 5), 1.2)
    med = float(np.median(blur))
    edges = cv2.Canny(blur, max(10.0, 0.4 * med), max(30.0, 1.0 * med))
    return list(cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)[0])


def candidate_ellipses(grey: np.ndarray, max_count: int = 40, line_map: np.ndarray | None = None,
                       contours: list[np.ndarray] | None = None
                       ) -> list[tuple[tuple[float, float], tuple[float, float], float, float]]:
    """Ellipses fitted to long edge contours: ((cx, cy), (a, b) semi-axes a >= b, angle of a
    in radians, support) sorted by support (contour length in px), duplicates merged.
    ``contours``: :func:`edge_contours` of ``grey`` when already made."""
    import cv2

    h, w = grey.shape[:2]
    contours = list(edge_contours(grey) if contours is None else contours)
    if line_map is not None:
        # thin lines as connected curves: rings broken in the edge map often survive here
        # (at several thresholds: wood grain joins thin rings into blobs at the lower ones)
        for pct in (96.0, 98.5, 99.3):
            thr = float(np.percentile(line_map, pct))
            binary = (line_map > max(thr, 6.0)).astype(np.uint8)
            contours += list(cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)[0])
    m = min(h, w)
    rng = np.random.default_rng(0)  # deterministic: the same image gives the same calibration
    ransac_left = 25
    found: list[tuple[tuple[float, float], tuple[float, float], float, float]] = []
    for c in contours:
        if len(c) < max(40, m // 8):
            continue
        pts = c.reshape(-1, 2).astype(np.float32)
        span = pts.max(axis=0) - pts.min(axis=0)
        if max(span) < 0.15 * m:
            continue
        fitted = _trimmed_ellipse(pts)
        if (fitted is None or fitted[5].mean() < 0.5) and len(pts) >= 150 and ransac_left > 0:
            ransac_left -= 1
            fitted = _trimmed_ellipse(pts, rng)
        if fitted is None:
            continue
        (cx, cy), (a, b), theta, u, v, on = fitted
        if not (np.isfinite(a) and np.isfinite(b)) or b < 0.08 * m or a > 1.2 * max(h, w) or b < 0.25 * a:
            continue
        if not (-0.1 * w < cx < 1.1 * w and -0.1 * h < cy < 1.1 * h):
            continue
        if on.mean() < 0.3 or on.sum() < max(40, m // 8):
            continue
        ang_cov = len(np.unique((np.arctan2(v[on], u[on]) * 18 / math.pi).astype(int)))
        if ang_cov < 8:  # less than 80 degrees of arc: too little to trust
            continue
        found.append(((cx, cy), (a, b), theta, float(on.sum()) * ang_cov / 36.0))
    found.sort(key=lambda e: -e[3])
    merged: list[tuple[tuple[float, float], tuple[float, float], float, float]] = []
    for e in found:
        dup = False
        for i, f in enumerate(merged):
            if (math.hypot(e[0][0] - f[0][0], e[0][1] - f[0][1]) < 0.03 * f[1][0]
                    and abs(e[1][0] / f[1][0] - 1) < 0.03 and abs(e[1][1] / f[1][1] - 1) < 0.03):
                merged[i] = (f[0], f[1], f[2], f[3] + e[3])
                dup = True
                break
        if not dup:
            merged.append(e)
        if len(merged) >= max_count:
            break
    return merged


def ellipse_uv(center: tuple[float, float], axes: tuple[float, float], theta: float,
               pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points in the ellipse's own frame, scaled by its semi-axes: on the ellipse
    ``u^2 + v^2 = 1``."""
    ct, st = math.cos(theta), math.sin(theta)
    d = pts - center
    u = (d[:, 0] * ct + d[:, 1] * st) / axes[0]
    v = (-d[:, 0] * st + d[:, 1] * ct) / axes[1]
    return u, v


def _ransac_seed(pts: np.ndarray, rng: np.random.Generator, tries: int = 40) -> np.ndarray:
    """Points of the best-supported ellipse through random 5-point samples: a ring joined to
    another ring by the quadrant lines is one contour holding two ellipses. (The samples'
    ellipses are fitted one by one and measured against the points all at once: the same
    numbers as :func:`ellipse_uv` of each, the first best kept.)"""
    import cv2

    n = len(pts)
    fits: list[tuple[float, float, float, float, float, float]] = []
    for _ in range(tries):
        idx = np.sort(rng.choice(n, 5, replace=False))
        try:
            (cx, cy), (d1, d2), ang = cv2.fitEllipseDirect(pts[idx])
        except cv2.error:
            continue
        if not (np.isfinite(d1) and np.isfinite(d2)) or min(d1, d2) < 4:
            continue
        t = math.radians(ang)
        fits.append((cx, cy, d1 / 2, d2 / 2, math.cos(t), math.sin(t)))
    if not fits:
        return pts
    f = np.array(fits)
    ct, st = f[:, 4, None], f[:, 5, None]
    dx = pts[None, :, 0] - f[:, 0, None]
    dy = pts[None, :, 1] - f[:, 1, None]
    u = (dx * ct + dy * st) / f[:, 2, None]
    v = (-dx * st + dy * ct) / f[:, 3, None]
    on = np.abs(np.sqrt(u * u + v * v) - 1.0) < 0.02
    k = on.sum(axis=1)
    j = int(np.argmax(k))
    return pts[on[j]] if k[j] > 0 else pts


def _trimmed_ellipse(pts: np.ndarray, rng: np.random.Generator | None = None):  # type: ignore[no-untyped-def]
    """Fit an ellipse, drop the points off it (texture joined to a ring), refit, twice; a
    contour mostly off its ellipse gets a RANSAC seed first."""
    import cv2

    keep = pts
    if rng is not None:
        keep = _ransac_seed(pts, rng)
    for _ in range(3):
        if len(keep) < 20:
            return None
        try:
            (cx, cy), (d1, d2), ang = cv2.fitEllipseAMS(keep)
        except cv2.error:
            return None
        a, b = max(d1, d2) / 2.0, min(d1, d2) / 2.0
        if not (np.isfinite(a) and np.isfinite(b)) or b <= 1:
            return None
        theta = math.radians(ang) if d1 >= d2 else math.radians(ang + 90.0)
        u, v = ellipse_uv((cx, cy), (a, b), theta, pts)
        on = np.abs(np.sqrt(u * u + v * v) - 1.0) < 0.03
        if on.mean() > 0.9:
            break
        keep = pts[on]
    return (cx, cy), (a, b), theta, u, v, on


def ellipse_affine(center: tuple[float, float], axes: tuple[float, float], theta: float) -> np.ndarray:
    """3x3 affine mapping the unit circle onto the ellipse (with image y down, no mirror)."""
    c, s = math.cos(theta), math.sin(theta)
    a, b = axes
    return np.array([[c * a, -s * b, center[0]], [s * a, c * b, center[1]], [0, 0, 1.0]])


_POLAR_GRIDS: dict[tuple[bytes, bytes], tuple[np.ndarray, np.ndarray]] = {}
_POLAR_GRIDS_MAX = 32


def _polar_grid(rhos: np.ndarray, angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rho cos t, rho sin t) on the (rhos x angles) grid, kept for the grids used again: one
    calibration samples the same few grids dozens of times (every guess of the board search),
    and the trigonometry of the grid was half the time of a sample."""
    r = np.ascontiguousarray(rhos, dtype=np.float64)
    t = np.ascontiguousarray(angles, dtype=np.float64)
    key = (r.tobytes(), t.tobytes())
    g = _POLAR_GRIDS.get(key)
    if g is None:
        if len(_POLAR_GRIDS) >= _POLAR_GRIDS_MAX:
            _POLAR_GRIDS.pop(next(iter(_POLAR_GRIDS)))
        g = (np.outer(r, np.cos(t)), np.outer(r, np.sin(t)))
        _POLAR_GRIDS[key] = g
    return g


def sample_polar(img: np.ndarray, A: np.ndarray, rhos: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Sample ``img`` at ``A @ (rho cos t, rho sin t, 1)`` (A projective 3x3): array
    (len(rhos), len(angles))."""
    import cv2

    u, v = _polar_grid(np.atleast_1d(rhos), np.atleast_1d(angles))
    z = A[2, 0] * u + A[2, 1] * v + A[2, 2]
    x = (A[0, 0] * u + A[0, 1] * v + A[0, 2]) / z
    y = (A[1, 0] * u + A[1, 1] * v + A[1, 2]) / z
    return cv2.remap(img, x.astype(np.float32), y.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def _range_max(profile: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """max(profile[lo:hi+1]) for many windows at once (sparse table)."""
    n = len(profile)
    table = [profile]
    k = 1
    while (1 << k) <= n:
        prev = table[-1]
        half = 1 << (k - 1)
        table.append(np.maximum(prev[:-half], prev[half:]))
        k += 1
    length = hi - lo + 1
    lev = np.floor(np.log2(np.maximum(length, 1))).astype(int)
    out = np.empty(len(lo))
    for L in np.unique(lev):
        sel = lev == L
        t = table[L]
        out[sel] = np.maximum(t[lo[sel]], t[hi[sel] - (1 << L) + 1])
    return out


def ring_pattern(profile: np.ndarray, rhos: np.ndarray, ratios: tuple[float, ...] = (1.0, 2.0, 3.0),
                 slack: float = 0.06) -> tuple[float, float, list[float]]:
    """Best ``rho1`` such that ``profile`` peaks near ``rho1 * ratio`` for every ratio.

    Returns (score, rho1, [peak rho per ratio]). Each ratio may stray by ``slack * rho1`` (real
    boards differ from the nominal 1:2:3); the score is the weakest of the peaks, so one strong
    edge cannot fake a board.
    """
    n = len(rhos)
    idx = np.arange(n)
    r1 = rhos
    ok = (r1 * ratios[-1] + r1 * slack <= rhos[-1]) & (idx >= 3)
    if not ok.any():
        return (-math.inf, 0.0, [0.0] * len(ratios))
    score = np.full(n, np.inf)
    for q in ratios:
        if q == 1.0:
            v = profile.astype(np.float64)
        else:
            lo = np.clip(np.searchsorted(rhos, r1 * q - r1 * slack), 0, n - 1)
            hi = np.clip(np.searchsorted(rhos, r1 * q + r1 * slack), 0, n - 1)
            hi = np.maximum(hi, lo)
            v = _range_max(profile.astype(np.float64), lo, hi)
        score = np.minimum(score, v)
    score[~ok] = -np.inf
    i = int(np.argmax(score))
    peaks: list[float] = []
    for q in ratios:
        if q == 1.0:
            peaks.append(float(rhos[i]))
            continue
        a = int(np.clip(np.searchsorted(rhos, rhos[i] * q - rhos[i] * slack), 0, n - 1))
        b = int(np.clip(np.searchsorted(rhos, rhos[i] * q + rhos[i] * slack), 0, n - 1))
        seg = profile[a:max(a, b) + 1]
        peaks.append(float(rhos[a + int(np.argmax(seg))]))
    return (float(score[i]), float(rhos[i]), peaks)


def ellipse_conic(center: tuple[float, float], axes: tuple[float, float], theta: float) -> np.ndarray:
    """Symmetric 3x3 conic matrix C with x^T C x = 0 on the ellipse."""
    Ai = np.linalg.inv(ellipse_affine(center, axes, theta))
    return Ai.T @ np.diag([1.0, 1.0, -1.0]) @ Ai


def conic_affine(C: np.ndarray) -> np.ndarray | None:
    """The affine map from the unit circle onto the ellipse of conic ``C`` (None if not an
    ellipse)."""
    C = (C + C.T) / 2
    Q = C[:2, :2]
    if np.linalg.det(Q) <= 0:
        return None
    c = -np.linalg.solve(Q, C[:2, 2])
    F = C[2, 2] + C[:2, 2] @ c
    if F == 0:
        return None
    Qn = Q / -F
    w, V = np.linalg.eigh(Qn)
    if np.any(w <= 0):
        return None
    L = V @ np.diag(1 / np.sqrt(w))
    if np.linalg.det(L) < 0:
        L[:, 1] *= -1
    return np.array([[L[0, 0], L[0, 1], c[0]], [L[1, 0], L[1, 1], c[1]], [0, 0, 1.0]])


def concentric_homography(C_outer: np.ndarray, C_inner: np.ndarray) -> np.ndarray | None:
    """Unit-circle plane -> image homography under which ``C_outer`` is the image of the unit
    circle and both conics are images of concentric circles (rotation arbitrary).

    For concentric circles the centre's image ``c`` and the vanishing line ``l`` satisfy
    ``C_outer c ~ l ~ C_inner c``: ``c`` is the generalised eigenvector of the pair with the
    eigenvalue unlike the other two. ``l`` rectifies the plane up to an affinity, which the
    outer ellipse then fixes up to a rotation.
    """
    try:
        w, V = np.linalg.eig(np.linalg.solve(C_inner, C_outer))
    except np.linalg.LinAlgError:
        return None
    w = np.real(w)
    d = [abs(w[i] - w[(i + 1) % 3]) + abs(w[i] - w[(i + 2) % 3]) for i in range(3)]
    i = int(np.argmax(d))
    c = np.real(V[:, i])
    if abs(c[2]) < 1e-12:
        return None
    return centred_homography(C_outer, c)


def centred_homography(C: np.ndarray, c: np.ndarray) -> np.ndarray | None:
    """Unit-circle plane -> image homography under which ``C`` is the image of the unit circle
    and the homogeneous image point ``c`` the image of its centre (rotation arbitrary).

    The polar of the centre's image with respect to the circle's image is the vanishing line of
    the plane: it rectifies the plane up to an affinity, which the ellipse then fixes up to a
    rotation. With one ellipse alone the centre is unknown (under perspective it is not the
    ellipse's centre but lies towards the far side): ``crokinole_seed`` tries a few."""
    C_outer = C
    if abs(c[2]) < 1e-12:
        return None
    vl = C_outer @ c  # the vanishing line of the board plane
    if abs(vl[2]) < 1e-12:
        return None
    vl = vl / vl[2]
    Ha = np.array([[1, 0, 0], [0, 1, 0], [vl[0], vl[1], 1.0]])
    Hai = np.linalg.inv(Ha)
    C1 = Hai.T @ C_outer @ Hai
    A = conic_affine(C1)
    if A is None:
        return None
    G = Hai @ A
    if np.linalg.det(G[:2, :2] - np.outer(G[:2, 2], G[2, :2])) < 0:  # keep orientation
        G = G @ np.diag([1.0, -1.0, 1.0])
    return G / G[2, 2]
