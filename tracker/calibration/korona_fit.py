"""Korona refinement: the homography and the lens fitted to every painted and built feature.

The square of the edge map (``korona_seed.square_candidates``) only seeds the fit: its corners are pulled
by pockets, rim tops and lens bending. Here, like the crokinole ring fit, model features are
projected into the image (through the lens), the strongest response is searched along each
point's image normal (sub-pixel), and the homography (8 dof), the lens (k1, k2 of
:class:`LensModel`), the striking lines' distance from the centre and the centre-circle radius
are fitted by robust least squares with residuals in board mm. The features:

* the four **striking lines** and the **centre circle** (line-ness peaks): painted on the plane,
  so exact at any tilt; straight lines bent by the lens are what fixes k1;
* the **rim's inner edges** (gradient peaks). A rim is 20 mm tall and its edge is a shaded
  step: the camera sees the wall's foot, or its top (which lands up to 20 mm off on the board
  plane), or a shadow. Either edge is a straight line parallel to its side, so each side's rim
  gets a distance of its own (loosely held at ``half``, RIM_SIGMA_MM): the rims straighten the
  lens out to the corners, where lines and circle do not reach, without lending the scale
  their bias. (A board whose lines differ from its profile is refitted with the rims anchored
  at ``half``: then they give the scale.) ``visible_rims`` still names the sides whose wall
  faces the camera (the camera position is recovered from the fit); ``rim_offset`` uses those;
* the four **pockets** (gradient peaks on the arc facing the playing area): cut holes, exact on
  the plane, of a size and inset fitted loosely; they pin the corners. Weighted down
  (POCKET_WEIGHT): a tilted view sees into the pit and its dark edge runs a few mm wide.

Priors keep the measured distances near the board profile and the lens mild, for the
directions the picture cannot fix.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from tracker.boards import KoronaBoard
from tracker.calibration.geometry import apply_h, normalize_h
from tracker.calibration.lens import LensModel, solve_focal, undistort_n
from tracker.calibration.robust_lsq import forward_jacobian, robust_lsq
from tracker.errors import CalibrationError

SIDES = ("north", "east", "south", "west")
# The rim edge is a shaded step (wall, shadow, ambient occlusion), found a millimetre or so off
# its true place; the painted lines are exact. So the painted distances are held to the board
# profile (PRIOR_MM) and the rims weigh little (RIM_WEIGHT): a board whose lines really differ
# from its profile by more than a few mm still wins against the prior (the robust loss bounds
# the prior's pull while a hundred rim points keep theirs), a rim biased by a shadow does not.
RIM_WEIGHT = 0.05
PRIOR_MM = 0.2
# Pockets are cut holes, exact on the plane but of any size and place (boards differ): their
# arcs pin the playing area's corners (where lines and circle leave a lens free to bend) with
# their own inset and radius fitted loosely.
POCKET_PRIOR_MM = 5.0
USE_POCKETS = True
POCKET_WEIGHT = 0.3
# Rim edges, wall foot or wall top, are straight lines parallel to their side: fitted with a
# distance of their own they bend the lens straight out to the corners, where lines and circle
# do not reach, without lending the scale their shading bias.
RIM_STRAIGHT = True
RIM_SIGMA_MM = 5.0
ALL_RIMS = True
LENS_K1_PRIOR = 10.0  # weights keeping the lens mild where the picture does not fix it
LENS_K2_PRIOR = 50.0
_DIR = {"north": (0.0, 1.0), "east": (1.0, 0.0), "south": (0.0, -1.0), "west": (-1.0, 0.0)}


@dataclass
class KoronaFit:
    G: np.ndarray  # board mm -> undistorted image px
    lens: LensModel
    line_dist: float  # striking lines' distance from the centre, mm
    circle_radius: float
    inliers: dict[str, float] = field(default_factory=dict)  # fraction of points found
    residuals: dict[str, float] = field(default_factory=dict)  # rms mm per feature
    rms_mm: float = 0.0
    rims_used: tuple[str, ...] = ()
    rim_offset: float = 0.0  # median signed distance of the rim points outside the fitted edge, mm
    rim_dist: dict[str, float] = field(default_factory=dict)  # each side's rim edge from the centre, mm


def camera_centre(G: np.ndarray, size: tuple[int, int], focal: float | None = None) -> np.ndarray | None:
    """Camera centre in board mm (z up) from board -> undistorted px, assuming square pixels and
    the principal point at the image centre; the focal length is solved from ``G`` unless
    given. None when it is not determined (a face-on view: then the camera is above the
    board, every wall faces it)."""
    w, h = size
    T = np.array([[1, 0, -(w - 1) / 2.0], [0, 1, -(h - 1) / 2.0], [0, 0, 1.0]])
    A = T @ G
    f_solved = focal if focal is not None else solve_focal(G, size)
    if f_solved is None:
        return None
    f = float(f_solved)
    Kinv = np.diag([1 / f, 1 / f, 1.0])
    B = Kinv @ A
    lam = 1.0 / np.linalg.norm(B[:, 0])
    r1, r2, t = lam * B[:, 0], lam * B[:, 1], lam * B[:, 2]
    if t[2] < 0:  # the board in front of the camera
        r1, r2, t = -r1, -r2, -t
    r3 = np.cross(r1, r2)
    R = np.stack([r1, r2, r3], axis=1)
    C = -R.T @ t
    if abs(f) > 50 * max(w, h):
        return None
    return C if C[2] > 0 else -C


def visible_rims(G: np.ndarray, size: tuple[int, int], half: float) -> tuple[str, ...]:
    C = camera_centre(G, size)
    if C is None:
        return SIDES
    out = []
    for s in SIDES:
        dx, dy = _DIR[s]
        # the wall of side s faces the centre; the camera sees it when it stands inside
        if C[0] * dx + C[1] * dy < half - 5.0:
            out.append(s)
    return tuple(out)


_POCKETS = {"ne": (1.0, 1.0), "nw": (-1.0, 1.0), "sw": (-1.0, -1.0), "se": (1.0, -1.0)}


def _features(board: KoronaBoard, line_dist: float, radius: float, rims: tuple[str, ...],
              pockets: tuple[float, float] | None = None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Model points and unit normals (board mm) per feature."""
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    L = board.striking_line_half_length
    t = np.linspace(-0.92 * L, 0.92 * L, 48)
    edge = board.half - board.pocket_inset - board.pocket_radius - 8.0
    te = np.linspace(-edge, edge, 48)
    for s in SIDES:
        dx, dy = _DIR[s]
        n = np.array([dx, dy])
        along = np.array([-dy, dx])
        out[f"line_{s}"] = (line_dist * n + t[:, None] * along, np.tile(n, (len(t), 1)))
        if s in rims:
            out[f"rim_{s}"] = (board.half * n + te[:, None] * along, np.tile(n, (len(te), 1)))
    a = np.linspace(0, 2 * math.pi, 72, endpoint=False) + 0.02
    u = np.stack([np.cos(a), np.sin(a)], axis=1)
    out["circle"] = (radius * u, u)
    if pockets is not None:
        inset, pr = pockets
        c = board.half - inset
        for name, (sx, sy) in _POCKETS.items():
            # the arc facing the playing area (the rest runs under the rim's corner)
            toward = math.atan2(-sy, -sx)
            a = toward + np.linspace(-0.45 * math.pi, 0.45 * math.pi, 24)
            u = np.stack([np.cos(a), np.sin(a)], axis=1)
            out[f"pocket_{name}"] = (np.array([sx * c, sy * c]) + pr * u, u)
    return out


def _inner_edge_search(img: np.ndarray, p0: np.ndarray, nrm: np.ndarray, half: float,
                       frac: float = 0.4, step: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """Like ``crokinole_rings._peak_search`` but the *innermost* local maximum (first along the
    normal, which points out of the playing area) reaching ``frac`` of the strongest: at the
    rim the surface-to-wall edge comes first, then the wall-to-rim-top edge, often stronger."""
    import cv2

    offs = np.arange(-half, half + step / 2, step)
    xy = p0[:, None, :] + offs[None, :, None] * nrm[:, None, :]
    v = cv2.remap(img, xy[:, :, 0].astype(np.float32), xy[:, :, 1].astype(np.float32),
                  cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0).astype(np.float64)
    m = v.max(axis=1, keepdims=True)
    peak = np.zeros_like(v, bool)
    peak[:, 1:-1] = (v[:, 1:-1] >= v[:, :-2]) & (v[:, 1:-1] > v[:, 2:]) & (v[:, 1:-1] >= frac * m)
    has = peak.any(axis=1)
    j = np.where(has, np.argmax(peak, axis=1), np.argmax(v, axis=1))
    jj = np.clip(j, 1, len(offs) - 2)
    rows = np.arange(len(v))
    a, b, c = v[rows, jj - 1], v[rows, jj], v[rows, jj + 1]
    den = a - 2 * b + c
    frac_off = np.where(np.abs(den) > 1e-9, 0.5 * (a - c) / np.where(np.abs(den) > 1e-9, den, 1.0), 0.0)
    off = offs[jj] + np.clip(frac_off, -0.5, 0.5) * step
    strength = v[rows, j] - np.median(v, axis=1)
    strength[(j == 0) | (j == len(offs) - 1)] = 0.0
    return off, strength


def fit_korona(image: np.ndarray, G0: np.ndarray, board: KoronaBoard,
               schedule: tuple[float, ...] = (25.0, 12.0, 6.0, 3.0, 2.5), fit_lens: bool = True,
               lens0: LensModel | None = None, prior_mm: float | None = None,
               rim_weight: float | None = None, start: tuple[float, float] | None = None,
               use_pockets: bool | None = None) -> KoronaFit:
    """Refine ``G0`` (board mm -> undistorted px) on lines, circle and visible rim edges.
    ``prior_mm`` and ``rim_weight``: see the module constants; a board that differs from its
    profile is refitted by the caller with a loose prior and full-weight rims."""
    import cv2

    from tracker.calibration.crokinole_rings import _peak_search
    from tracker.calibration.features import lineness, odd

    h, w = image.shape[:2]
    prior_mm = PRIOR_MM if prior_mm is None else prior_mm
    use_pockets = USE_POCKETS if use_pockets is None else use_pockets
    rim_weight = RIM_WEIGHT if rim_weight is None else rim_weight
    G = normalize_h(G0.copy())
    lens = lens0 or LensModel((w, h))
    Nimg = lens.norm_matrix()
    scale = float(np.linalg.norm(apply_h(G, np.array([[board.half, 0.0]]))[0] - apply_h(G, np.array([[0.0, 0.0]]))[0])) / board.half
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    ln = lineness(image, max(5, odd(4.0 * scale * board.line_width + 3)))
    ln = cv2.GaussianBlur(ln, (0, 0), max(0.7, 0.6 * scale))
    g = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), max(0.8, 0.6 * scale))
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    d_nom = board.half - board.striking_line_offset
    r_nom = board.centre_circle_radius
    line_dist, radius = start if start is not None else (d_nom, r_nom)
    inset, pr = board.pocket_inset, board.pocket_radius
    rim_c = np.full(4, board.half)
    # the rims' own distances: loose (straightness only, the scale is the lines') unless the
    # caller takes the scale from the rims (a board whose lines differ from its profile)
    rim_sigma = RIM_SIGMA_MM if rim_weight < 0.5 else 0.3
    fit = KoronaFit(G=G, lens=lens, line_dist=line_dist, circle_radius=radius)
    for it, half_mm in enumerate(schedule):
        rims = visible_rims(G, (w, h), board.half)
        # pockets once the fit is close (a wide search would find the rims beside them)
        feats = _features(board, line_dist, radius, SIDES if (RIM_STRAIGHT and ALL_RIMS) else rims,
                          (inset, pr) if use_pockets and half_mm <= 6.0 else None)
        obs: dict[str, np.ndarray] = {}
        for k, (pts, nrm_mm) in feats.items():
            p0 = apply_h(G, pts)
            p1 = apply_h(G, pts + nrm_mm)
            p0, p1 = lens.distort_px(p0), lens.distort_px(p1)
            d = p1 - p0
            ppm = np.linalg.norm(d, axis=1)
            nrm = d / ppm[:, None]
            half = float(np.clip(half_mm * float(np.median(ppm)), 2.0, 0.05 * max(w, h)))
            if k.startswith("rim") and half_mm <= 6.0:
                off, strength = _inner_edge_search(mag, p0, nrm, half)
            else:
                off, strength = _peak_search(mag if k.startswith(("rim", "pocket")) else ln, p0, nrm, half)
            inside = (p0[:, 0] > 2) & (p0[:, 1] > 2) & (p0[:, 0] < w - 3) & (p0[:, 1] < h - 3)
            pos = inside & (strength > 0)
            good = inside & (strength > 0.25 * np.median(strength[pos])) if pos.any() else inside & False
            obs[k] = (p0 + off[:, None] * nrm)[good]
        with_lens = fit_lens and it >= 1
        Hn = np.linalg.inv(G) @ np.linalg.inv(Nimg)
        Hn = Hn / Hn[2, 2]
        keys = [k for k in obs if len(obs[k])]
        Q = np.concatenate([lens.normalise(obs[k]) for k in keys]) if keys else np.zeros((0, 2))
        if not with_lens and not lens.is_identity:
            # the lens is held (a refit's first round): its points are undistorted once here
            Q = undistort_n(Q, lens.k1, lens.k2, 4)
        kind = np.concatenate([np.full(len(obs[k]), i) for i, k in enumerate(keys)]) if keys else np.zeros(0, int)
        # per point: residual = n . p - c, with (n, c) the feature's line, or |p| - r for the circle
        nx = np.array([_DIR.get(k.split("_")[-1], (0.0, 0.0))[0] for k in keys])[kind]
        ny = np.array([_DIR.get(k.split("_")[-1], (0.0, 0.0))[1] for k in keys])[kind]
        is_circle = np.array([k == "circle" for k in keys])[kind]
        is_rim = np.array([k.startswith("rim") for k in keys])[kind]
        is_pocket = np.array([k.startswith("pocket") for k in keys])[kind]
        pc = np.array([_POCKETS[k.split("_")[1]] if k.startswith("pocket") else (0.0, 0.0) for k in keys])[kind]
        side = np.array([SIDES.index(k.split("_")[1]) if k.startswith("rim") else 0 for k in keys], int)[kind]
        if len(Q) < 40 or is_circle.sum() < 10:
            raise CalibrationError("korona board found but its lines were not: too few points on the "
                                   "striking lines and centre circle")

        def residuals(x: np.ndarray, Q=Q, nx=nx, ny=ny, is_circle=is_circle, is_rim=is_rim,
                      is_pocket=is_pocket, pc=pc, side=side, with_lens=with_lens) -> np.ndarray:
            H = np.append(x[:8], 1.0).reshape(3, 3)
            q = undistort_n(Q, x[10], x[11], 4) if with_lens else Q
            p = apply_h(H, q)
            if RIM_STRAIGHT:
                # each rim edge a straight line parallel to its side at its own distance
                lin = p[:, 0] * nx + p[:, 1] * ny - np.where(is_rim, x[14:18][side], x[8])
                r = np.where(is_circle, np.linalg.norm(p, axis=1) - x[9], lin)
            else:
                lin = p[:, 0] * nx + p[:, 1] * ny - np.where(is_rim, board.half, x[8])
                r = np.where(is_circle, np.linalg.norm(p, axis=1) - x[9], lin * np.where(is_rim, rim_weight, 1.0))
            if is_pocket.any():
                d = np.linalg.norm(p - pc * (board.half - x[12]), axis=1) - x[13]
                r = np.where(is_pocket, POCKET_WEIGHT * d, r)
            prior = [(x[8] - d_nom) / prior_mm, (x[9] - r_nom) / prior_mm,
                     (x[12] - board.pocket_inset) / POCKET_PRIOR_MM, (x[13] - board.pocket_radius) / POCKET_PRIOR_MM]
            if with_lens:
                prior += [LENS_K1_PRIOR * x[10], LENS_K2_PRIOR * x[11]]
            if RIM_STRAIGHT:
                prior += list((x[14:18] - board.half) / rim_sigma)
            return np.concatenate([r, prior])

        x0 = np.concatenate([Hn.ravel()[:8], [line_dist, radius, lens.k1, lens.k2, inset, pr], rim_c])
        x = robust_lsq(residuals, forward_jacobian(residuals), x0, f_scale=1.0 if it < 2 else 0.5)
        H = np.append(x[:8], 1.0).reshape(3, 3)
        line_dist, radius = float(x[8]), float(x[9])
        inset, pr = float(x[12]), float(x[13])
        rim_c = x[14:18].copy()
        if with_lens:
            lens = LensModel((w, h), float(x[10]), float(x[11]))
        G = normalize_h(np.linalg.inv(H @ Nimg))
        c0 = apply_h(G, np.array([[0.0, 0.0], [board.half, 0.0]]))
        if not np.all(np.isfinite(c0)) or not 0.02 * max(w, h) < np.linalg.norm(c0[1] - c0[0]) < 3 * max(w, h):
            raise CalibrationError("korona board found but the fit diverged; give --points or --markers")
        # the final figures: residuals of each feature with the final parameters
        r_all = residuals(x)[: len(Q)] / np.where(is_pocket, POCKET_WEIGHT, 1.0)
        if not RIM_STRAIGHT:
            r_all = r_all / np.where(is_rim, rim_weight, 1.0)
        off_rim = r_all + (x[14:18][side] - board.half if RIM_STRAIGHT else 0.0)
        fit = KoronaFit(G=G, lens=lens, line_dist=line_dist, circle_radius=radius, rims_used=rims,
                        rim_offset=float(np.median(off_rim[is_rim])) if is_rim.any() else 0.0,
                        rim_dist={s: float(x[14 + i]) for i, s in enumerate(SIDES)
                                  if RIM_STRAIGHT and f"rim_{s}" in keys})
        cat: list[np.ndarray] = []
        for i, k in enumerate(keys):
            rk = r_all[kind == i]
            inl = np.abs(rk) < 3.0
            fit.inliers[k] = float(inl.sum()) / len(feats[k][0])
            fit.residuals[k] = float(np.sqrt(np.mean(rk[inl] ** 2))) if inl.any() else math.inf
            if not k.startswith("rim"):  # rms of the painted features: the rims are a
                cat.append(rk[inl])  # shaded step, a mm off by design (see RIM_WEIGHT)
        for k in feats:
            fit.inliers.setdefault(k, 0.0)
        allr = np.concatenate(cat) if cat else np.zeros(0)
        fit.rms_mm = float(np.sqrt(np.mean(allr**2))) if len(allr) else math.inf
    return fit


# The painted lines and centre circle out of the profile's proportion by this share: a board
# drawn off its profile (fits of rendered boards: under 0.15%; carrom boards read as korona:
# 18-28%; lines 10 mm off the profile's with its circle: 3%).
PAINT_OFF_PROFILE = 0.01


def paint_off_profile(fit: KoronaFit, board: KoronaBoard) -> float:
    """How far (a share) the fitted circle radius over the striking lines' distance stands from
    the profile's: 0 for a board painted to its profile, at whatever size."""
    want = board.centre_circle_radius / (board.half - board.striking_line_offset)
    return abs(fit.circle_radius / fit.line_dist / want - 1.0)


def rim_offset(image: np.ndarray, fit: KoronaFit, board: KoronaBoard, reach_mm: float = 25.0) -> float:
    """How far (mm, + outward) the rims lie from where the fit, with the profile's line
    distances, puts them; 0 when that is explained by the board matching its profile.

    Per visible side, the median place of the strongest edge within ``reach_mm``. That edge
    is the foot of the rim's wall (offset ~0), the top of the wall (rim height above the plane:
    it lands outward by ``rim_height * d / (Cz - rim_height)`` with ``d`` the camera's
    horizontal distance to the wall, different on each side), or the edge of the shadow the
    wall casts inward on the surface (up to ``rim_height / tan(lamp's elevation)``, on the walls
    facing away from the lamp). A board whose lines differ from its profile moves all rims by
    the *same* amount, which is none of these: only then is the common offset returned. One lamp
    shadows two adjacent walls alike, and a camera on that corner's far side sees only those
    two (k4h_10006: north -8.5 and east -12 mm, read as a board 3% larger): so with fewer than
    three sides seen, or sides that disagree, the rims overrule the profile only when the paint
    itself is off the profile's proportion (``paint_off_profile``).
    """
    import cv2

    from tracker.calibration.crokinole_rings import _peak_search

    h, w = image.shape[:2]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    g = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
    mag = cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))
    feats = _features(board, fit.line_dist, fit.circle_radius, fit.rims_used)
    Hb = np.linalg.inv(fit.G)
    C = camera_centre(fit.G, (w, h))
    offs: list[float] = []
    tops: list[float] = []
    for k, (pts, nrm_mm) in feats.items():
        if not k.startswith("rim"):
            continue
        p0 = fit.lens.distort_px(apply_h(fit.G, pts))
        p1 = fit.lens.distort_px(apply_h(fit.G, pts + nrm_mm))
        d = p1 - p0
        ppm = np.linalg.norm(d, axis=1)
        off, strength = _peak_search(mag, p0, d / ppm[:, None], reach_mm * float(np.median(ppm)))
        q = apply_h(Hb, fit.lens.undistort_px(p0 + off[:, None] * d / ppm[:, None]))
        inside = (p0[:, 0] > 2) & (p0[:, 1] > 2) & (p0[:, 0] < w - 3) & (p0[:, 1] < h - 3) & (strength > 0)
        o = ((q - pts) * nrm_mm).sum(axis=1)[inside]
        if len(o) >= 10:
            offs.append(float(np.median(o)))
            if C is not None and C[2] > board.rim_height:
                dist = board.half - float(C[:2] @ nrm_mm[0])
                tops.append(board.rim_height * dist / (C[2] - board.rim_height))
            else:
                tops.append(math.nan)
    if len(offs) < 2:
        return 0.0
    o_arr, t_arr = np.array(offs), np.array(tops)
    common = float(np.median(o_arr))
    explained = (np.abs(o_arr) < 3.0) | (np.abs(o_arr - t_arr) < 3.0)
    drawn_off = paint_off_profile(fit, board) > PAINT_OFF_PROFILE
    if np.ptp(o_arr) > 2.5:
        # sides disagree: walls and shadows, not a different board -- unless every side is
        # well out the same way, no wall explains any, and the lines are drawn off the
        # profile's proportions (a fit bent by them, e.g. a carrom board read as korona)
        same_way = bool(np.all(np.sign(o_arr) == np.sign(common))) and float(np.min(np.abs(o_arr))) > 4.0
        return common if same_way and drawn_off and not explained.any() else 0.0
    if len(offs) < 3 and not drawn_off:
        return 0.0  # two walls alike: as likely one lamp's shadows as another board
    return 0.0 if explained.sum() * 2 > len(offs) else common
