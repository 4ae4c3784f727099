"""Sub-millimetre disc centres: edge points along rays in the original image, and a circle fit.

Rays are cast in the board frame; their sample points are carried to the original image
(``Calibration.to_image``, lens distortion included) and read with one ``cv2.remap`` call, so the
edge search runs at the camera's full resolution without rectifying anything large.

What we fit is the disc's *top rim*. Carried to the playing surface by the homography, the top face
(``thickness`` above the surface) is an exact circle of radius ``k r`` centred at ``P + s`` (see
``tracker.detect.geometry``), and its rim is an edge all round: against the board on the far side,
against the disc's own side wall on the near side. The bottom edge, in contrast, shows only on the
near side and is often faint (a wooden side wall on a wooden board). Having the top circle, the
contact point follows in closed form: ``T = P + (P - C) f`` with ``f = h / (C_z - h)`` gives
``P = (T + f C) / (1 + f)``. Near top-down ``s`` vanishes and top rim and bottom edge coincide.

Per ray we take the strongest colour edge within a window around the current circle, the window
shrinking over the iterations, and fit the circle by Gauss-Newton with a robust inlier threshold
(a neighbour's edge, a board line or a shadow is an outlier). The coverage (fraction of rays with a
salient, consistent edge) is the verification the detector uses to reject hands, arms and shadows.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tracker.calibration.datatypes import Calibration
from tracker.detect.consensus import consensus_circle
from tracker.detect.geometry import CameraPose
from tracker.detect.lab_weights import CHANNEL_WEIGHTS
from tracker.detect.medians import median_of, medians
from tracker.detect.ray_edges import N_RAYS, RAYS, edge_in_window, outline_coverage, ray_to_circle


@dataclass
class Fit:
    centre: np.ndarray  # (2,) mm, where the disc touches the board
    radius: float  # fitted bottom radius, mm
    coverage: float  # fraction of rays with a consistent edge, 0..1
    quarter_coverage: float  # the same in the worst quarter of the outline
    residual: float  # RMS of inlier residuals, mm
    contrast: float  # median edge strength (Lab units per mm)
    mm_per_px: float  # image resolution at the disc (tolerances scale with it)
    color: np.ndarray | None  # (3,) median Lab of the top face (8-bit scale); None until sampled
    surround: np.ndarray | None = None  # (3,) median Lab of the board around the disc (8-bit scale)
    top_centre: np.ndarray | None = None  # (2,) mm, fitted top-rim circle as seen on z = 0
    top_radius: float = 0.0
    edges: np.ndarray | None = None  # (N_RAYS, 2) edge points found, mm (for overlays, debugging)
    inliers: np.ndarray | None = None  # (N_RAYS,) bool
    visible: float = 1.0  # fraction of rays not hidden by an occluder (coverage counts only those)
    hidden: np.ndarray | None = None  # (N_RAYS,) bool: rays hidden by an occluder
    # The ``occluders`` and ``bounds`` the fit was made with (a refit of the same disc uses them)
    masks: tuple[np.ndarray | None, float | None] = (None, None)
    # The outline passes ``Refiner.enough`` only on the game's lower edge bar (``Refiner.salience``):
    # a salient find, kept only where the board's paint cannot pass for one (``salient.py``)
    salient: bool = False


def edge_bar(px: float, salience: float = 0.0) -> float:
    """How many times its ray's texture level (the median edge strength away from the rim) an
    edge must be to count, at ``px`` mm per image pixel: 3 under 2 mm, else 2 (a coarser
    picture's edge is sharper per sample); ``salience`` instead when above 0
    (``DetectorSettings.edge_salience``, off by default: its measurements there)."""
    return salience if salience > 0.0 else (3.0 if px < 2.0 else 2.0)


class Refiner:
    """Refines coarse centres against one frame."""

    def __init__(self, calib: Calibration, pose: CameraPose, thickness: float, bevel: float = 0.0,
                 salience: float = 0.0, enough: tuple[float, float] = (0.0, 0.0)) -> None:
        self.calib = calib
        # the outline's coverage, overall and in its worst quarter, that needs no lower bar
        # (``salience``: the detector's ``min_coverage`` and ``min_quarter_coverage``)
        self.enough = enough
        self.bevel = bevel  # size of the chamfer (or rounding) of the disc's top edge, mm
        self.salience = salience  # an edge's bar over its ray's texture (``edge_bar``; 0: by resolution)
        self.pose = pose
        self.thickness = thickness
        a = np.linspace(0, 2 * np.pi, N_RAYS, endpoint=False)
        self.dirs = np.stack([np.cos(a), np.sin(a)], 1)
        cz = float(pose.centre[2])
        self.f = thickness / (cz - thickness) if cz > thickness + 1.0 else 0.0

    def _sample(self, image: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
        """Lab (float32, 8-bit scale) of the image at board points (..., 2)."""
        shape = pts_mm.shape[:-1]
        px = self.calib.to_image(pts_mm.reshape(-1, 2)).astype(np.float32)
        mx = np.ascontiguousarray(px[:, 0].reshape(1, -1))
        my = np.ascontiguousarray(px[:, 1].reshape(1, -1))
        bgr = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        lab: np.ndarray = cv2.cvtColor(bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
        lab = lab * np.array([255.0 / 100.0, 1.0, 1.0], np.float32) + np.array([0.0, 128.0, 128.0], np.float32)
        return lab.reshape(*shape, 3)

    def _mm_per_image_px(self, xy: np.ndarray) -> float:
        """Board millimetres per image pixel near ``xy``."""
        px = self.calib.to_image(np.array([xy, xy + [1.0, 0.0], xy + [0.0, 1.0]]))
        return 1.0 / max(float(np.sqrt(abs(np.linalg.det(np.stack([px[1] - px[0], px[2] - px[0]]))))), 1e-6)

    def _bevel_drop(self, u: np.ndarray, P: np.ndarray) -> np.ndarray:
        """How much nearer the top circle's centre the rim shows, along unit directions ``u``
        (N, 2), for a disc at ``P`` whose top edge is cut by a 45-degree chamfer of size ``bevel``
        (a rounded edge lies between that and a square one).

        Seen from elevation ``alpha`` the chamfer's outer, lower edge (radius ``r``, height
        ``h - bevel``) is the outline wherever the view grazes it, and it shows ``bevel * c``
        inside the model's top rim, with ``c = cot(alpha) cos(psi) = u . (P - C) / C_z``
        (``psi``: the direction's angle from the away-from-camera one). Straight down (``c`` = 0)
        the chamfer changes nothing: the outline is the side wall, at the full radius. Beyond 45
        degrees of tilt the flat top's own edge takes over (``c`` capped at 1). On the near side
        (``c`` < 0) the same edge, top-coloured chamfer against the darker side wall, shows
        outside the rim. So the correction grows with the obliqueness instead of shrinking the
        disc everywhere, and a near top-down view is left as it was."""
        if self.bevel <= 0.0:
            return np.zeros(len(u))
        c = (u @ (P - self.pose.centre[:2])) / max(float(self.pose.centre[2]), 1.0)
        return self.bevel * np.minimum(np.maximum(c, -1.0), 1.0)

    def _residuals(self, pts: np.ndarray, n_top: int, P: np.ndarray, r: float
                   ) -> tuple[np.ndarray, np.ndarray]:
        """For a disc at ``P`` of radius ``r``: the unit directions from the circle each edge
        point of ``pts`` belongs to (the top rim's for the first ``n_top``, else the bottom's) to
        the point, and the point's distance beyond that circle (``refine``'s fit)."""
        cen = np.empty_like(pts)
        cen[:n_top] = P + (P - self.pose.centre[:2]) * self.f
        cen[n_top:] = P
        dvec = pts - cen
        dist = np.maximum(np.sqrt((dvec * dvec).sum(axis=1)), 1e-9)
        u = dvec / dist[:, None]
        if self.bevel > 0.0:
            rad = (1.0 + self.f) * r - self._bevel_drop(u, P)
        else:
            rad = np.full(len(pts), (1.0 + self.f) * r)
        rad[n_top:] = r
        return u, dist - rad

    def top_of(self, P: np.ndarray) -> np.ndarray:
        return P + (P - self.pose.centre[:2]) * self.f

    def contact_of(self, T: np.ndarray) -> np.ndarray:
        return (T + self.f * self.pose.centre[:2]) / (1.0 + self.f)

    def refine(self, image: np.ndarray, guess_mm: np.ndarray, radius: float,
               step_mm: float | None = None, with_colors: bool = True,
               give_up_below: float = 0.0, occluders: np.ndarray | None = None,
               bounds: float | None = None, start_at: np.ndarray | None = None,
               consensus: bool = False, openings: np.ndarray | None = None, consensus_at: int = 2) -> Fit:
        """Fit one disc near ``guess_mm`` (the coarse centre of its silhouette). Samples along
        the rays are ``step_mm`` apart: by default a third of an image pixel, at least 0.2 mm.

        ``give_up_below``: stop after the second iteration when the outline's coverage is below
        this (most coarse candidates that are not discs -- a blurred sliding disc, fingers, a
        shadow -- are plain by then; the remaining iterations only sharpen true discs).

        ``occluders`` (M, 3): circles ``(x, y, radius)`` in mm where no edge of this disc is to be
        expected: a touching neighbour, the 20-hole the disc overhangs, a peg. A ray whose expected
        rim point falls inside one is left out of the fit *and* of the coverage, so the outline is
        judged only where it can show. (Otherwise the side facing a neighbour of the same colour,
        or a dark disc's side over the dark hole, reads as an open outline and a real disc is
        rejected.) The mask follows the estimate over the iterations. Anything else -- a hand, an
        arm, a shadow -- is not an occluder, so its open outline still fails. ``bounds``: the
        same for a square playing area ``|x|, |y| <= bounds`` (a korona rim hides the side of a
        disc lying against it). ``start_at``: the contact point to start from (a refit of a
        disc already found) instead of the one the coarse centre suggests. ``consensus``: before
        the two narrow iterations, move to the one outline the edges follow best all round
        (``consensus.py``), then search each ray only near it, for its strongest edge;
        ``consensus_at`` 1: before the second iteration already, so that the outline judged by
        ``give_up_below`` after it is the chosen one, its radius included (until then the
        radius is held at ``radius``: a thing a few millimetres larger shows its edge outside
        the second iteration's window, and its outline read open).
        ``openings`` (M, 3): circles cut in the surface (the 20-hole) the disc overhangs, also
        among the ``occluders``: on the side facing the camera the outline is the foot's edge,
        not the top rim, and where the foot lies over the opening that ray is left out too (a
        dark disc's foot over the dark hole shows no edge; KP-z5X5Sbq4's black 15 beside the
        hole, seen from 23 degrees up)."""
        guess = np.asarray(guess_mm, float)
        px = self._mm_per_image_px(guess)  # tolerances scale with the image's resolution
        if step_mm is None:
            step_mm = min(max(0.33 * px, 0.2), 0.6)
        k = 1.0 + self.f
        # The coarse peak sits near the silhouette's middle, half-way from P to T.
        P0 = guess - 0.5 * (guess - self.contact_of(guess))
        if start_at is not None:
            P0 = np.asarray(start_at, float)
        o = self.top_of(P0)
        R = k * radius
        # Rays reach a little past the top rim; on the side facing the camera the foot's edge
        # lies further out, by the top face's parallax shift. A view as oblique as a broadcast
        # camera's (20-25 degrees up: a 23 mm shift) puts that edge beyond the top rim's reach,
        # where no edge was sought and the whole near side read as open (KP-z5X5Sbq4's black
        # 15 fitted with 17% of its worst quarter); then the rays reach past it by the same
        # margin. Only then: the rendered views (shifts under 10 mm: the foot's edge well
        # inside) keep their reach; a margin for the first window beyond the foot, always,
        # cost c4h_9403 a 20 and a removal.
        far = 1.55 * R + 2.0 + 2 * px
        foot = float(np.hypot(*(o - P0))) + radius  # the near side's foot edge, from o
        reach = far if foot + 1.0 <= far else foot + 2.0 + 2 * px
        rho = np.arange(max(0.45 * R - 2 * px, 0.2 * R), reach, step_mm)
        pts = o[None, None, :] + rho[None, :, None] * self.dirs[:, None, :]
        lab = self._sample(image, pts)  # (rays, samples, 3)
        w = np.asarray(CHANNEL_WEIGHTS, np.float32)
        sm = cv2.GaussianBlur(lab, (0, 0), sigmaX=max(0.5 / step_mm, 1.0), sigmaY=0.01)
        strength = (np.abs(np.diff(sm, axis=1)) * w).sum(2) / step_mm
        rho_mid = 0.5 * (rho[1:] + rho[:-1])
        # Texture level of each ray: the median strength away from where the rim is expected (at
        # low resolution the edge blur covers much of the ray).
        blur_mm = max(1.5, 2.0 * px)
        away = (np.abs(rho_mid - R) > blur_mm + 1.5) & (rho_mid < far)
        base = medians(strength[:, away], 1) + 0.5 if away.sum() >= 6 else medians(strength, 1) + 0.5
        f = self.f
        C = self.pose.centre[:2]
        # The resolution's own bar first; a lower one of the game's (``salience``) only for an
        # outline that fails ``enough`` on it, kept when it passes there (``Fit.salient``).
        plain_bar = edge_bar(px)
        bars = [plain_bar] if self.salience <= 0.0 or self.salience == plain_bar else [plain_bar, self.salience]
        salient_find = False
        state: tuple = ()
        occ = None if occluders is None or len(occluders) == 0 else np.asarray(occluders, float).reshape(-1, 3)
        opn = None if openings is None or len(openings) == 0 else np.asarray(openings, float).reshape(-1, 3)
        masking = occ is not None or bounds is not None
        dirs = self.dirs
        bevelled = self.bevel > 0.0
        for n_bar, salient in enumerate(bars):
            P = P0.copy()
            r = radius
            inl = np.zeros(N_RAYS, bool)
            resid_rms = 9.9
            E = np.zeros((N_RAYS, 2))
            peak = np.zeros(N_RAYS)
            covered = np.zeros(N_RAYS, bool)
            hidden = np.zeros(N_RAYS, bool)
            for it, win in enumerate((max(6.0, 2.0 * px), max(3.0, 1.2 * px), max(1.5, 0.8 * px), max(1.0, 0.6 * px))):
                T = self.top_of(P)
                if consensus and it == consensus_at:
                    P, r = consensus_circle(strength, rho_mid, base, o, self.dirs, P, radius, ~hidden, C, f)
                    T = self.top_of(P)
                if consensus and it >= consensus_at:
                    win = max(1.0, 0.6 * px)
                # Top rim on every ray; the bottom edge where the bottom circle is the silhouette
                # (the near side) and lies clear of the top rim.
                rt_exp = ray_to_circle(o, dirs, T, k * r - self._bevel_drop(dirs, P) if bevelled else k * r)
                rtop, pt = edge_in_window(strength, rho_mid, rt_exp, win, step_mm, first=0 < it < (consensus_at if consensus else 9))
                if masking:
                    rim = o[None] + rt_exp[:, None] * dirs
                    hidden = np.zeros(N_RAYS, bool)
                    if occ is not None:
                        dd = np.hypot(rim[:, None, 0] - occ[None, :, 0], rim[:, None, 1] - occ[None, :, 1])
                        hidden |= (dd < occ[None, :, 2]).any(axis=1)
                    if bounds is not None:
                        hidden |= np.abs(rim).max(axis=1) > bounds
                rb_exp = ray_to_circle(o, dirs, P, r)
                B = o[None] + rb_exp[:, None] * dirs
                near = ((B - P) @ (T - P)) / r < -(k - 1) * r
                sep = rb_exp - rt_exp
                if opn is not None:  # the foot's edge over an opening (the near side's silhouette)
                    db = np.hypot(B[:, None, 0] - opn[None, :, 0], B[:, None, 1] - opn[None, :, 1])
                    hidden |= near & (sep > 2.0) & (db < opn[None, :, 2]).any(axis=1)
                use_b = near & (sep > 2.0)
                # Where the two edges are too close to tell apart, the near side is ambiguous.
                use_t = ~(near & (sep > 0.3) & (sep <= 2.0))
                # The bottom edge's window stops half-way to the top rim; take the innermost edge (a
                # contact shadow lies just outside it).
                bottom = np.flatnonzero(use_b)
                n_b = len(bottom)
                Et = o[None] + rtop[:, None] * dirs
                if n_b:
                    wb = min(win, 0.5 * float(median_of(sep[bottom])))
                    rbot, pb = edge_in_window(strength, rho_mid, rb_exp, wb, step_mm, first=it > 0)
                    pts = np.concatenate([Et, o[None] + rbot[bottom][:, None] * dirs[bottom]])
                    pk = np.concatenate([pt, pb[bottom]])
                    ray = np.concatenate([RAYS, bottom])
                else:  # (no bottom edge in use: none sought)
                    pts, pk, ray = Et, pt, RAYS
                # (The typical edge strength over the visible rays only: a hidden side may face the
                # strong edge of a rim or a neighbour's far side.)
                vis = ~hidden
                pt_med = float(median_of(pt[vis])) if vis.any() else float(median_of(pt))
                good = (pk > 0.35 * pt_med) & (pk > salient * base[ray])
                good[:N_RAYS] &= use_t & vis
                good[N_RAYS:] &= vis[bottom]
                any_good = bool(good.any())
                Pn, rn = P, r
                sel = good
                n_sel = int(np.count_nonzero(sel))
                J_scale = np.empty((N_RAYS + n_b, 1))
                J_scale[:N_RAYS] = 1.0 + f
                J_scale[N_RAYS:] = 1.0
                u, res = self._residuals(pts, N_RAYS, Pn, rn)
                for _ in range(2):
                    ares = np.abs(res)
                    med = median_of(ares[good]) if any_good else 1.0
                    sel = good & (ares <= max(3.0 * 1.4826 * med, max(0.5, 0.35 * px) if it >= 3 else max(1.5, 0.7 * px)))
                    n_sel = int(np.count_nonzero(sel))
                    if n_sel < 8:
                        break
                    # (the Jacobian's rows and columns in use only: the radius is held until the
                    # centre settles)
                    J = -u[sel] * J_scale[sel]
                    if it >= 2:
                        J_r = np.empty((n_sel, 1))
                        J_r[:] = -1.0
                        J_r[: int(np.count_nonzero(sel[:N_RAYS]))] = -k
                        J = np.concatenate([J, J_r], 1)
                    sw = np.sqrt(np.sqrt(pk[sel]))
                    sol_c, *_ = np.linalg.lstsq(J * sw[:, None], -res[sel] * sw, rcond=None)
                    sol = np.zeros(3)
                    sol[:len(sol_c)] = sol_c
                    Pn = Pn + sol[:2]
                    rn = float(min(max(rn + sol[2], 0.7 * radius), 1.3 * radius))
                    # (also the next step's starting residual: the same circle)
                    u, res = self._residuals(pts, N_RAYS, Pn, rn)
                    resid_rms = float(np.sqrt((res[sel] ** 2).sum() / n_sel))
                    if np.abs(sol).max() < 1e-3:
                        break
                if n_sel < 8:
                    break
                P, r = Pn, rn
                inl = np.zeros(N_RAYS, bool)
                inl[ray[sel]] = True
                # Ambiguous near-side rays do not enter the fit, but they must show an edge (either
                # one) for the outline to count as closed.
                amb = np.flatnonzero(~use_t & ~use_b)
                covered = inl & vis
                if len(amb):
                    span = (rho_mid[None, :] >= (rt_exp[amb] - 1.0)[:, None]) & (rho_mid[None, :] <= (rb_exp[amb] + 1.0)[:, None])
                    amb_peak = np.where(span, strength[amb], 0.0).max(axis=1)
                    covered[amb] |= (amb_peak > salient * base[amb]) & (amb_peak > 0.35 * pt_med) & vis[amb]
                E = Et
                peak = pt
                if it == 1 and outline_coverage(covered, hidden)[0] < give_up_below:
                    break
            if n_bar == 0 and len(bars) > 1:
                cov0, q0 = outline_coverage(covered, hidden)
                if cov0 >= self.enough[0] and q0 >= self.enough[1]:
                    break
                state = (P, r, inl, resid_rms, E, peak, covered, hidden)
            elif n_bar == 1:
                cov1, q1 = outline_coverage(covered, hidden)
                salient_find = cov1 >= self.enough[0] and q1 >= self.enough[1]
                if not salient_find:  # (turned down on either bar: as on the resolution's own)
                    P, r, inl, resid_rms, E, peak, covered, hidden = state
        rt = k * r - self.bevel * float(np.clip(np.hypot(*(P - C)) / max(float(self.pose.centre[2]), 1.0), 0.0, 1.0))
        T = self.top_of(P)
        R = rt
        coverage, quarter = outline_coverage(covered, hidden)
        contrast = float(median_of(peak[inl])) if inl.any() else 0.0
        color = surround = None
        if with_colors:
            color, surround = self.colors(image, P, T, R)
        return Fit(centre=P, radius=r, mm_per_px=px, coverage=coverage, quarter_coverage=float(quarter), residual=resid_rms, contrast=contrast,
                   color=color, surround=surround, top_centre=T, top_radius=R, edges=E, inliers=inl,
                   visible=float(1.0 - hidden.mean()), hidden=hidden, masks=(occluders, bounds), salient=salient_find)

    def add_colors(self, image: np.ndarray, fit: Fit) -> Fit:
        """Sample the fit's top-face and surround colours (done only for fits worth keeping)."""
        assert fit.top_centre is not None
        fit.color, fit.surround = self.colors(image, fit.centre, fit.top_centre, fit.top_radius)
        return fit

    def colors(self, image: np.ndarray, P: np.ndarray, T: np.ndarray, R: float
                ) -> tuple[np.ndarray, np.ndarray]:
        """Median Lab of the top face, and of the board in a ring around the silhouette."""
        a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        ring = np.stack([np.cos(a), np.sin(a)], 1)
        mid = 0.5 * (P + T)
        rr = R + 0.5 * float(np.linalg.norm(T - P))
        pts = np.concatenate([T[None], T + 0.3 * R * ring[::2], T + 0.6 * R * ring[::2],
                              mid + 1.4 * rr * ring, mid + 1.7 * rr * ring])
        lab = self._sample(image, pts[None])[0]
        return medians(lab[:25], 0), medians(lab[25:], 0)
