"""Crokinole calibration, step 2: fit the rings (see ``crokinole``).

:func:`fit_rings` is an iterated closest-line search. Points on the three model circles are
projected into the image, the line-ness peak is searched along each point's image normal
(sub-pixel, parabolic), and a full homography (8 dof) plus the 10 and 15 line radii are fitted
by robust least squares (``robust_lsq``, analytic Jacobian ``ring_jac``) to those points,
residuals measured in board mm. The shooting line fixes the scale at ``REF_MM``. A ring point
counts as seen within ``INLIER_MM`` *or* ``INLIER_PX`` of its ring: on the far side of an
oblique view one pixel spans several mm of board. :func:`reseed` looks for the 1:2:3 pattern
again on the rectified frame of a fit that follows one ring only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.crokinole_seed import REF_MM
from tracker.calibration.features import lineness, odd, ring_pattern, sample_polar
from tracker.calibration.geometry import apply_h, normalize_h
from tracker.calibration.lens import LensModel, undistort_n
from tracker.calibration.ring_jac import ring_jacobian, ring_jacobian_lens
from tracker.calibration.robust_lsq import robust_lsq
from tracker.errors import CalibrationError

INLIER_MM = 3.0  # a ring point is "seen" within this distance of its ring (board mm) ...
INLIER_PX = 1.5  # ... or within this many image px along its normal, whichever is larger
MAX_KERNEL = 31  # px, largest line-ness kernel (see fit_rings)
RINGS = ("shooting", "ten", "fifteen")  # the painted lines, in the order of the fit's radii


def _with_held(x: np.ndarray, jac: Callable[[np.ndarray], np.ndarray], held: list[int],
               n_pts: int) -> np.ndarray:
    """``jac`` with the rows of the held radii (see ``fit_rings``'s ``rings``) put where the
    residuals have them: after the ``n_pts`` point rows and the gauge row, before any prior."""
    J = jac(x)
    rows = np.zeros((len(held), J.shape[1]))
    rows[np.arange(len(held)), held] = 1.0
    return np.concatenate([J[: n_pts + 1], rows, J[n_pts + 1:]])


@dataclass
class RingFit:
    G: np.ndarray  # board mm -> image px (full-resolution image)
    radii: dict[str, float]  # measured centre radii of the lines, mm
    residuals: dict[str, float] = field(default_factory=dict)  # RMS mm per ring
    inliers: dict[str, float] = field(default_factory=dict)  # fraction of points found per ring
    rms_mm: float = 0.0
    lens: LensModel | None = None  # fitted radial distortion; G maps to undistorted px
    rings: tuple[str, ...] = ("shooting", "ten", "fifteen")  # the lines fitted (see fit_rings)


# ---------------------------------------------------------------------- 2. fit the rings
def _lineness(image: np.ndarray, kern: int, cache: dict | None) -> np.ndarray:
    """``features.lineness(image, kern)``, kept in ``cache`` by image and kernel: the fits of one
    calibration ask for one kernel under several blurs (their guesses differ a little in
    scale), and the morphology, not the blur, is the cost of a map."""
    key = (id(image), "lineness", kern)
    if cache is None:
        return lineness(image, kern)
    if key not in cache:
        cache[key] = lineness(image, kern)
    return cache[key]


def _edge_gap_kernel(G: np.ndarray, board: CrokinoleBoard) -> int:
    """The widest line-ness kernel (odd px, at least 5) that keeps the playing-surface edge
    out of the shooting line's response: half the gap between them where the view foreshortens
    it most. On a board seen nearly edge on (77 degrees from vertical) that gap is 4-8 px on the
    near and far sides while the kernel sized from the line's width across the picture was 9 px;
    the edge's response then pulled the shooting line outwards and every other ring was
    measured 2.5% small (10 line at 0.650-0.654 of the shooting line on rendered boards painted
    at 0.667; 0.662-0.665 with a 5 px kernel, 0.651-0.662 with a 7 px one). Only for fits seeded from
    the pegs: held to the gap on every fit, the oblique broadcast frames' fits moved by up to
    5 px at the ends of their shooting lines, better on some and worse on others."""
    gap = (board.surface_radius - board.shooting_line_radius) * REF_MM / board.shooting_line_radius
    a = np.linspace(0, 2 * math.pi, 36, endpoint=False)
    u = np.stack([np.cos(a), np.sin(a)], axis=1)
    with np.errstate(all="ignore"):
        d = np.linalg.norm(apply_h(G, (REF_MM + gap) * u) - apply_h(G, REF_MM * u), axis=1)
    if not np.all(np.isfinite(d)):
        return MAX_KERNEL  # a wild guess (part of the board behind the camera): no cap
    k = int(d.min() / 2)
    return max(5, k if k % 2 else k - 1)


def _normals(G: np.ndarray, pts_mm: np.ndarray, dirs: np.ndarray, lens: LensModel | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw image points, unit image normals and px-per-mm along the normal at board points."""
    p0 = apply_h(G, pts_mm)
    p1 = apply_h(G, pts_mm + dirs)
    if lens is not None and not lens.is_identity:
        p0, p1 = lens.distort_px(p0), lens.distort_px(p1)
    d = p1 - p0
    n = np.linalg.norm(d, axis=1)
    return p0, d / n[:, None], n


def _row_median(v: np.ndarray) -> np.ndarray:
    """``np.median(v.astype(np.float64), axis=1)`` of a float32 array, by one partition of the
    float32 rows (the same numbers: the middle values are exact in both; a quarter of the
    time, which the peak search spends on every ring point of every pass)."""
    m = v.shape[1]
    if m % 2:
        return np.partition(v, m // 2, axis=1)[:, m // 2].astype(np.float64)
    p = np.partition(v, [m // 2 - 1, m // 2], axis=1)
    return (p[:, m // 2 - 1].astype(np.float64) + p[:, m // 2]) / 2


def _peak_search(img: np.ndarray, p0: np.ndarray, nrm: np.ndarray, half: float,
                 step: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """Sub-pixel offset (px, along the normal) of the strongest response, and its strength."""
    import cv2

    offs = np.arange(-half, half + step / 2, step) if np.isfinite(half) else np.zeros(0)
    if len(offs) < 3 or half > sum(img.shape[:2]):
        # no room for a peak inside the search, or a search wider than the image (a degenerate
        # fit: a board of the other game): nothing found
        return np.zeros(len(p0)), np.zeros(len(p0))
    mx = (p0[:, 0, None] + offs[None, :] * nrm[:, 0, None]).astype(np.float32)
    my = (p0[:, 1, None] + offs[None, :] * nrm[:, 1, None]).astype(np.float32)
    v = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    j = np.argmax(v, axis=1)
    jj = np.clip(j, 1, len(offs) - 2)
    rows = np.arange(len(v))
    a, b, c = (v[rows, jj - 1].astype(np.float64), v[rows, jj].astype(np.float64),
               v[rows, jj + 1].astype(np.float64))
    den = a - 2 * b + c
    frac = np.where(np.abs(den) > 1e-9, 0.5 * (a - c) / np.where(np.abs(den) > 1e-9, den, 1.0), 0.0)
    frac = np.clip(frac, -0.5, 0.5)
    off = offs[jj] + frac * step
    strength = v[rows, j].astype(np.float64) - (_row_median(v) if v.dtype == np.float32
                                                  else np.median(v.astype(np.float64), axis=1))
    edge = (j == 0) | (j == len(offs) - 1)
    strength[edge] = 0.0
    return off, strength


def fit_rings(image: np.ndarray, G0: np.ndarray, board: CrokinoleBoard,
              radii0: dict[str, float] | None = None,
              schedule: tuple[float, ...] = (20.0, 12.0, 6.0, 3.0, 2.5),
              fit_lens: bool = False, radius_prior_mm: float | None = 1.0,
              cache: dict | None = None, rings: tuple[str, ...] = RINGS, edge_gap: bool = False) -> RingFit:
    """Refine ``G0`` (board mm -> image px) on the three ring lines; measure their radii.

    ``rings``: the lines fitted (the shooting line and at least one other). A line left out
    (a board with no painted 15 line) is still searched for and its inliers reported, but its
    points do not pull the fit and its radius is held at the profile's (``radii0``'s).

    With ``fit_lens`` the radial distortion (k1, k2 of :class:`LensModel`) is fitted jointly:
    ``G`` then maps board mm to *undistorted* pixels and the search projects through the lens.
    The lens joins from the second pass on (the first pass's wide search only needs to lock on),
    and k2 is held near zero by a weak prior: three rings fix k1 well, k2 only loosely.

    With ``edge_gap`` the line-ness kernel is also held within the gap between the shooting
    line and the playing-surface edge (``_edge_gap_kernel``): for a board seen nearly edge on
    (the fits seeded from the pegs, ``crokinole_pegs``)."""
    import cv2

    G = normalize_h(G0.copy())
    # line width in px sets the morphology kernel
    scale = float(np.linalg.norm(apply_h(G, np.array([[0, 0], [REF_MM, 0]]))[1] - apply_h(G, np.array([[0.0, 0.0]]))[0])) / REF_MM
    # (capped: a board that fills a 1600 px image needs 23 px; a wild guess asked for 60 and
    # more, and a large elliptical kernel costs seconds. The map is cached per image and kernel:
    # the quick fits of one calibration share it.)
    kern = min(MAX_KERNEL, max(5, odd(4.0 * scale * board.line_width + 3)))
    if edge_gap:
        kern = min(kern, _edge_gap_kernel(G, board))
    blur = max(0.7, 0.6 * scale)
    key = (id(image), kern, round(blur, 1))
    if cache is not None and key in cache:
        ln = cache[key]
    else:
        ln = cv2.GaussianBlur(_lineness(image, kern, cache), (0, 0), blur)
        if cache is not None:
            cache[key] = ln
    names = RINGS
    radii = {"shooting": REF_MM, "ten": board.ten_line_radius * REF_MM / board.shooting_line_radius,
             "fifteen": board.fifteen_line_radius * REF_MM / board.shooting_line_radius}
    nominal = dict(radii)
    if radii0 is not None:
        radii = dict(radii0)
    held = [RINGS.index(k) + 7 for k in RINGS if k not in rings]  # x[8] ten, x[9] fifteen
    held_at = np.array([radii[RINGS[j - 7]] for j in held])
    counts = {"shooting": 240, "ten": 160, "fifteen": 96}
    angle_sets = {k: np.linspace(0, 2 * math.pi, counts[k], endpoint=False) + 0.013 for k in names}
    h, w = image.shape[:2]
    lens = LensModel((w, h))
    Nimg = lens.norm_matrix()
    obs: dict[str, np.ndarray] = {}
    ok: dict[str, np.ndarray] = {}
    ppms: dict[str, np.ndarray] = {}
    ref_pt = apply_h(G, np.array([[300.0, 0.0]]))
    for it, half_mm in enumerate(schedule):
        for k in names:
            t = angle_sets[k]
            u = np.stack([np.cos(t), np.sin(t)], axis=1)
            p0, nrm, ppm = _normals(G, radii[k] * u, u, lens)
            half = float(np.clip(half_mm * float(np.median(ppm)), 2.0, 0.05 * max(w, h)))
            off, strength = _peak_search(ln, p0, nrm, half)
            inside = (p0[:, 0] > 2) & (p0[:, 1] > 2) & (p0[:, 0] < w - 3) & (p0[:, 1] < h - 3)
            good = inside & (strength > 0.25 * np.median(strength[inside & (strength > 0)]) if np.any(inside & (strength > 0)) else inside)
            obs[k] = p0 + off[:, None] * nrm
            ok[k] = good
            ppms[k] = ppm
        # parameters: H (image -> board) in normalised image coords, 8 entries; r10, r15
        Hn = np.linalg.inv(G) @ np.linalg.inv(Nimg)
        Hn = Hn / Hn[2, 2]
        qn = {k: lens.normalise(obs[k][ok[k]]) for k in names}
        ref_n = apply_h(Nimg, ref_pt)
        with_lens = fit_lens and it >= 1

        Q = np.concatenate([qn[k] for k in rings])
        ring = np.concatenate([np.full(len(qn[k]), RINGS.index(k)) for k in rings])

        def residuals(x: np.ndarray, Q=Q, ring=ring, ref_n=ref_n, with_lens=with_lens) -> np.ndarray:
            H = np.append(x[:8], 1.0).reshape(3, 3)
            r = np.array([REF_MM, x[8], x[9]])[ring]
            q = undistort_n(Q, x[10], x[11], 4) if with_lens else Q
            out = [np.linalg.norm(apply_h(H, q), axis=1) - r]
            b = apply_h(H, ref_n)[0]
            out.append(np.array([10.0 * math.atan2(b[1], b[0])]))  # gauge: no spin
            if held:
                out.append(np.asarray(x)[held] - held_at)
            if with_lens:
                # priors: a lens about a centred, face-on board only changes the rings' radii,
                # so there k1 trades with the measured radii and the picture cannot tell them
                # apart; the profile's ratios (``radius_prior_mm``) and a mild lens (k1 0.1,
                # k2 0.02) settle that direction. A tilted view, where the lens bends the
                # rings visibly, fixes k1 from the data. (A board whose rings really differ
                # from its profile is refitted without the radius prior: _calibrate_at.)
                pr = [10.0 * x[10], 50.0 * x[11]]
                if radius_prior_mm:
                    pr += [(x[8] - nominal["ten"]) / radius_prior_mm, (x[9] - nominal["fifteen"]) / radius_prior_mm]
                out.append(np.array(pr))
            return np.concatenate(out)

        x0 = np.concatenate([Hn.ravel()[:8], [radii["ten"], radii["fifteen"]]])
        if with_lens:
            x0 = np.concatenate([x0, [lens.k1, lens.k2]])
        if with_lens:
            prior_rows = np.zeros((4 if radius_prior_mm else 2, 12))
            prior_rows[0, 10], prior_rows[1, 11] = 10.0, 50.0
            if radius_prior_mm:
                prior_rows[2, 8] = prior_rows[3, 9] = 1.0 / radius_prior_mm
            jac = partial(ring_jacobian_lens, Q=Q, ring=ring, ref_n=ref_n, prior_rows=prior_rows)
        else:
            jac = partial(ring_jacobian, Q=Q, ring=ring, ref_n=ref_n)
        if held:
            jac = partial(_with_held, jac=jac, held=held, n_pts=len(Q))
        xs = robust_lsq(residuals, jac, x0, f_scale=1.0 if it < 2 else 0.5)
        H = np.append(xs[:8], 1.0).reshape(3, 3)
        radii = {"shooting": REF_MM, "ten": float(xs[8]), "fifteen": float(xs[9])}
        if with_lens:
            lens = LensModel((w, h), float(xs[10]), float(xs[11]))
        try:
            G = normalize_h(np.linalg.inv(H @ Nimg))
        except np.linalg.LinAlgError:  # a degenerate fit (a guess collapsed to a line)
            raise CalibrationError("board rings found but the fit diverged; give --points or --markers") from None
        with np.errstate(divide="ignore", invalid="ignore"):  # a degenerate fit: caught below
            c0 = apply_h(G, np.array([[0.0, 0.0], [REF_MM, 0.0]]))
        if not np.all(np.isfinite(c0)) or not (-w < c0[0, 0] < 2 * w and -h < c0[0, 1] < 2 * h) \
                or not 0.02 * max(w, h) < np.linalg.norm(c0[1] - c0[0]) < 3 * max(w, h):
            raise CalibrationError("board rings found but the fit diverged; give --points or --markers")
    fit = RingFit(G=G, radii=radii, lens=lens, rings=tuple(rings))
    Hb = np.linalg.inv(G)
    allr: list[np.ndarray] = []
    for k in names:
        r = np.linalg.norm(apply_h(Hb, lens.undistort_px(obs[k][ok[k]])), axis=1) - radii[k]
        # a line is found to about a pixel: on the far side of an oblique view one pixel spans
        # several mm of board, and a fixed mm tolerance would call a well-followed ring unseen
        tol = np.maximum(INLIER_MM, INLIER_PX / np.maximum(ppms[k][ok[k]], 1e-6))
        inl = np.abs(r) < tol
        fit.inliers[k] = float(inl.sum()) / len(ok[k])
        fit.residuals[f"{k}_line"] = float(np.sqrt(np.mean(r[inl] ** 2))) if inl.any() else math.inf
        allr.append(r[inl])
    cat = np.concatenate(allr)
    fit.rms_mm = float(np.sqrt(np.mean(cat**2))) if len(cat) else math.inf
    return fit


def reseed(image: np.ndarray, fit: RingFit, board: CrokinoleBoard, cache: dict | None = None,
           edge_gap: bool = False) -> RingFit:
    """A fit that follows one ring well but not the others: look for the 1:2:3 pattern again on
    the radial profile of the frame it found (now close to top-down, so the rings are concentric
    in it) and fit again from there. Keep whichever fit sees more of its rings. ``cache``: as
    :func:`fit_rings`'s (the profile's line-ness map is kept there too: each search of one
    calibration re-seeds on the same reduced image). ``edge_gap``: as :func:`fit_rings`'s."""
    import cv2

    key = (id(image), "reseed")
    ln = cache.get(key) if cache is not None else None
    if ln is None:
        ln = cv2.GaussianBlur(_lineness(image, 5, cache), (0, 0), 1.0)
        if cache is not None:
            cache[key] = ln
    rr = np.linspace(20.0, 420.0, 801)
    angles = np.linspace(0, 2 * math.pi, 180, endpoint=False)
    prof = sample_polar(ln, fit.G, rr, angles).mean(axis=1)
    from scipy.ndimage import median_filter

    prof = prof - median_filter(prof, size=41, mode="nearest")
    _score, _r1, peaks = ring_pattern(prof, rr, slack=0.08)
    if peaks[2] <= 0:
        return fit
    f = peaks[2] / REF_MM
    G = fit.G @ np.diag([f, f, 1.0])
    radii = {"shooting": REF_MM, "ten": REF_MM * peaks[1] / peaks[2], "fifteen": REF_MM * peaks[0] / peaks[2]}
    try:
        new = fit_rings(image, G, board, radii, cache=cache, edge_gap=edge_gap)
    except CalibrationError:
        return fit
    return new if sorted(new.inliers.values())[1] > sorted(fit.inliers.values())[1] else fit

