"""A disc's centre from its whole picture, not its edges: a region model fitted to the pixels.

At 480-1280 pixels across, a disc is 3-12 pixels in radius. An edge fit (``refine.py``) finds
one edge point per ray, and at that size every edge point is biased by what lies beside it: the
disc's own cast shadow on one side, the darker side wall on the near side, the chamfer's
highlight, the blur. Those biases are one-sided, so they move the centre.

Here the picture of a disc is *predicted* and compared with every pixel around it:

* The disc is a cylinder of radius ``r`` and height ``h`` with a 45-degree chamfer ``b`` on its top
  edge, standing at contact point ``P``. Carried to the board plane through the camera centre
  ``C`` (``geometry.py``), a horizontal circle at height ``z`` is a circle centred at
  ``P + (P - C) z / (C_z - z)`` of radius ``rho C_z / (C_z - z)``. The silhouette is the hull of
  the circles at ``z = 0``, ``h - b`` (radius ``r``) and ``h`` (radius ``r - b``); the top face
  is the last one, the chamfer the band out to the second, the side wall the rest.
* The cast shadow is the board covered by the disc pushed along the light: the hull of the
  bottom circle and the same circle moved by ``h * s`` (``s``: ground shift per millimetre of
  height, fitted per disc, so no light direction is assumed; the fit may make it vanish), and
  a contact shadow ``CONTACT_MM`` wide all round the foot; both soft (1.5 mm). A crokinole
  peg's shadow (its foot pushed ``peg_height * s`` along the light) is part of the same region:
  one light, one ``s`` (``PEG_SHADOWS``).
* A ring line of a crokinole board is drawn at ``z = 0`` exactly where the calibration has it.
* Each pixel's coverage by each region is a smooth step of its signed distance (in pixels) to
  the region's outline (the camera's blur and the pixel's own size), so the prediction is
  ``sum_k coverage_k * colour_k`` with the board, shadow and line terms weighted by the part not
  covered by the disc. The colours enter linearly and are solved for exactly at each step
  (variable projection), so only ``P`` and ``s`` are searched, by Gauss-Newton with a robust
  (Huber) weight per pixel: board grain, a neighbour's shadow, a korona line are outliers.

Pixels that belong to something else are left out: other discs (the ``occluders`` the edge fit
masks), pegs, the 20-hole, and everything outside the playing area.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.colours_solve import colours_of
from tracker.detect.geometry import CameraPose

BLUR_PX = 0.6  # the camera's blur (Gaussian sigma, pixels) before a pixel's own width
# Optional terms of the model, by game: "wallcos" and "bandcos", the side wall's and the
# chamfer's shading round the disc (to first order a cosine: the side facing the lamp is lit, the
# other in shade), and "shadow", the disc's cast shadow. Without "bandcos" a light disc was
# reported toward the lamp: the chamfer's lit half reads as disc, its shaded half (as dark as the
# board beside it) as board, so the outline is fitted shifted toward the lit side; a dark disc's
# chamfer is dark all round and barely moves. Rendered crokinole stills, 1280x720, true
# calibration (seeds 6000-6005; median/p95 mm, the light side's median shift toward the lamp):
# hard light discs 0.59/2.01 (+0.58) -> 0.40/1.09 (+0.11), dark 0.40/1.76 -> 0.34/1.55; easy
# light 0.37/0.70 (+0.20) -> 0.26/0.50 (+0.02), dark 0.24/0.47 -> 0.17/0.48. (Off before, from a
# measure on easy frames of an earlier model, the outline's size held: 0.27 -> 0.46 mm.) Only
# where a pixel is ``FINE_MM_PER_PX`` or finer, as the outline's size: coarser, the chamfer is
# under a pixel wide and its shading trades with the centre (test_silhouette's 640x360 frame
# with the light held: worst disc under 1.4 mm without it, 2.0 with it).
# Crokinole dev matches (29, full reviews, the pipeline's calibration): rounds unchanged (25/29),
# the median at rest better on 16, worse on 8 (mean of the medians 0.53 -> 0.44 mm; c2h_9502
# 0.70/1.31 -> 0.30/0.50). Known cost: a light disc on a light board (cream on white or birch)
# shows hardly any chamfer against the board, and its shading term then trades with the centre:
# seed 5105's cream disc on white 2.62 -> 3.78 mm (test_region_model), 6005's on birch 2.66 -> 3.26.
# Korona (whose video positions take the model only for a shot's reported ends,
# ``pipeline.rest_places``) is left without it: full reviews of the 15 korona dev matches, events
# identical, positions at rest better on the 2-player easy ones (k2e_9605 0.70 -> 0.52, k2e_9911
# 0.62 -> 0.33 mm median) but worse on the 4-player hard ones (k4h_9606 1.31 -> 1.94, k4h_9912
# 0.71 -> 0.89). Not examined why.
FEATURES = {"crokinole": frozenset({"wallcos", "bandcos", "shadow"}), "korona": frozenset({"wallcos", "shadow"})}
CONTACT_MM = 1.5  # the contact shadow (ambient occlusion) reaches this far beyond the disc's foot
# Whether the disc's outline is fitted a little larger or smaller than its true size (the
# radius of every circle of the model, the shadow's too, by up to ``GROW_MAX_PX`` image pixels).
# A picture shows a disc larger than it is where its edge is blurred or spread (the renderer
# draws it 0.75-1.2 px large all round: ``sprites.AA_SPREAD_PX``); held at the true radius, the
# model then settles off-centre inside the larger outline (c4h_9503, oblique camera: four discs
# 1.4-1.9 mm off the same way; 0.5-1.0 mm with the size fitted). Hard-preset
# 1280x720 frames of the dev matches (21 discs at rest, the pipeline's calibration, shadow free,
# from the edge refit's centre; median/p95/max mm): 0.84/1.83/1.93 held, 0.73/1.31/1.51 fitted.
# Only where a pixel is ``FINE_MM_PER_PX`` or finer (a disc's radius 6.6 px or more): at
# 640x360 (2.7 mm a pixel) the size took up what the centre should (test_silhouette's shared-light
# frame: worst disc 1.3 -> 1.4 mm).
FIT_SIZE = True
GROW_MAX_PX = 1.5
FINE_MM_PER_PX = 2.4
# Whether the cast shadows of the crokinole pegs near a disc are part of the model's shadow
# region (shifted by the disc's own fitted ``s``: one light), and the largest ground shift per mm
# of height looked for (a light 35 degrees up, the hard preset's lowest: 1.43).
# Off. On the hard dev matches' still frames (c2h_*, c4h_*, 178 discs at rest, the detector twice
# per frame, true calibration; median/p95/max mm) it took 0.54/2.05/4.14 to 0.54/1.42/3.84, discs
# beside a peg 0.60/1.93 -> 0.33/1.14 (median/p95; the pegs' long shadows pin the light's shift,
# so discs elsewhere gained too: c4h_9803's light s2 4.14 -> 1.07). Full reviews of all
# crokinole dev matches and fixtures: positions 0.47/2.72 -> 0.48/2.63 mm, c4h_9803 0.78/3.08 ->
# 0.81/2.69, c4h_9503 0.44/0.87 -> 0.39/0.68, c2h_9802 0.83/4.08 -> 0.78/4.09, the rest within
# 0.07 mm; but c4h_9803 lost its exact round (w2's shot at 17.6 s seen hitting nothing: a false
# no-opponent foul removal), so 28/31 -> 27/31. Not examined further.
PEG_SHADOWS = False
SHADOW_MAX_SHIFT = 1.5
# Bases (the model's regions per pixel) a fit keeps for reuse: a step's trial point and the five
# Jacobian steps around it, and the point it stands at.
BASES_KEPT = 8


@dataclass
class ModelFit:
    centre: np.ndarray  # (2,) contact point, mm
    shadow: np.ndarray  # (2,) fitted ground shift per mm of height of the cast shadow
    rms: float  # robust RMS residual per pixel (colour units)
    pixels: int  # pixels used
    moved: float  # mm from the start


def _sd_capsule(q: np.ndarray, a: np.ndarray, ra: float, b: np.ndarray, rb: float) -> np.ndarray:
    """Signed distance (mm, negative inside) from points ``q`` (N, 2) to the hull of the circles
    (a, ra) and (b, rb), taking the radius to vary linearly along the segment (exact for equal
    radii; the disc's circles differ by well under a millimetre)."""
    ab = b - a
    L2 = float(ab @ ab)
    # (the same operations per coordinate, in place where an array is made anyway: a fit asks for
    # this a hundred times over a few thousand pixels)
    dx, dy = q[:, 0] - a[0], q[:, 1] - a[1]
    if L2 < 1e-12:
        return np.asarray(np.hypot(dx, dy) - max(ra, rb))
    t = (q - a) @ ab
    t /= L2
    np.minimum(np.maximum(t, 0.0, out=t), 1.0, out=t)  # (np.clip's own overhead: twice the work)
    dx -= t * ab[0]
    dy -= t * ab[1]
    out: np.ndarray = np.hypot(dx, dy)
    out -= ra + t * (rb - ra)
    return out


class SilhouetteFitter:
    """Fits the region model above for one calibrated camera."""

    def __init__(self, calib: Calibration, pose: CameraPose, thickness: float, bevel: float,
                 blur_px: float = BLUR_PX, fine_mm_per_px: float = FINE_MM_PER_PX) -> None:
        self.calib = calib
        self.pose = pose
        self.h = float(thickness)
        self.bevel = float(min(bevel, 0.4 * thickness))
        self.blur = blur_px
        self.fine = float(fine_mm_per_px)  # the outline's size is fitted where a pixel is this or finer
        board = calib.board
        self.lines: tuple[float, ...] = ()
        self.line_w = 0.0
        self.features = FEATURES["crokinole" if isinstance(board, CrokinoleBoard) else "korona"]
        if isinstance(board, CrokinoleBoard):
            self.lines = tuple(board.line_radii)
            self.line_w = float(board.line_width)

    def _seen(self, P: np.ndarray, z: float) -> tuple[np.ndarray, float]:
        """A circle at height ``z`` above ``P`` is seen on the board plane centred at
        ``P + (P - C) f`` (``f = z / (C_z - z)``), scaled by ``k = C_z / (C_z - z)``; returns
        (centre, k)."""
        C = self.pose.centre
        cz = float(C[2])
        f = z / (cz - z)
        return P + (P - C[:2]) * f, cz / (cz - z)

    def fit(self, image: np.ndarray, start: np.ndarray, radius: float,
            occluders: np.ndarray | None = None, bounds: float | None = None,
            shadow: np.ndarray | None = None, fix_shadow: bool = False,
            iterations: int = 6) -> ModelFit | None:
        """Fit the disc whose contact point is near ``start`` (mm). ``shadow``: where to start
        the shadow's shift (the light is the same for every disc of a frame: a caller that has
        fitted a few passes their median); without it a few directions are tried first. With
        ``fix_shadow`` the shadow is held there and only the centre is fitted (a shadow fitted
        per disc wanders: at 640x360 a third of the discs fitted it 0.5-1 mm/mm off the others,
        and their centres were the worst). None when too few pixels are left to fit."""
        calib = self.calib
        P0 = np.asarray(start, float)
        r = float(radius)
        h, b = self.h, self.bevel
        px_at = calib.to_image(np.array([P0, P0 + [1.0, 0.0], P0 + [0.0, 1.0]]))
        det = abs(float(np.linalg.det(np.stack([px_at[1] - px_at[0], px_at[2] - px_at[0]]))))
        mpp = 1.0 / max(np.sqrt(det), 1e-6)  # mm per pixel at the disc
        top0, k_top = self._seen(P0, h)
        margin = max(4.0 * mpp, 5.0)
        reach = np.hypot(*(top0 - P0)) + r * k_top + h * 0.8 + margin
        a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        outline = calib.to_image(P0 + reach * np.stack([np.cos(a), np.sin(a)], 1))
        H, W = image.shape[:2]
        x0, y0 = np.floor(outline.min(axis=0)).astype(int)
        x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return None
        uu, vv = np.meshgrid(np.arange(x0, x1, dtype=float), np.arange(y0, y1, dtype=float))
        pix = np.stack([uu.ravel(), vv.ravel()], 1)
        q = calib.to_board(pix)
        keep = np.hypot(*(q - P0).T) <= reach
        own = _sd_capsule(q, P0, r, top0, r * k_top) < -2.0 * mpp  # surely this disc's own pixels
        keep &= self._clear(q, P0, occluders, bounds) | own
        if keep.sum() < 30:
            return None
        q = q[keep]
        img = image[y0:y1, x0:x1].reshape(-1, image.shape[2]).astype(np.float64)[keep]
        line_cov = self._line_coverage(q, mpp)
        hole_cov = self._hole_coverage(q, mpp)
        sig = np.hypot(self.blur, 0.29)  # the pixel's own width: a box of 1 px has sigma 0.29
        sig_sh = np.hypot(sig, 1.5 / mpp)  # cast shadows are soft

        qx, qy = np.ascontiguousarray(q[:, 0]), np.ascontiguousarray(q[:, 1])
        pegs, peg_r, peg_h = self._pegs_near(P0, reach)

        def body(P: np.ndarray, r: float) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray, np.ndarray]:
            """The basis's columns before and after the cast shadow's, which alone depends on
            the shadow's shift; the part of the pixels the disc leaves free, and their distance
            from its foot's centre (what the shadow's column is made of)."""
            c_mid, k_mid = self._seen(P, h - b)
            c_top, k_t = self._seen(P, h)
            sd_all = np.minimum(_sd_capsule(q, P, r, c_mid, r * k_mid),
                                _sd_capsule(q, c_mid, r * k_mid, c_top, (r - b) * k_t))
            a_all = ndtr(-sd_all / mpp / sig)
            dx, dy = qx - c_mid[0], qy - c_mid[1]
            d_mid = np.hypot(dx, dy)
            a_mid = ndtr(-(d_mid - r * k_mid) / mpp / sig)
            a_top = ndtr(-(np.hypot(qx - c_top[0], qy - c_top[1]) - (r - b) * k_t) / mpp / sig)
            a_mid = np.minimum(a_mid, a_all)
            a_top = np.minimum(a_top, a_mid)
            free = 1.0 - a_all
            # The chamfer and the side wall are lit from one side: their shading varies round
            # the disc (to first order, a cosine), which a single colour would read as the disc
            # standing off toward the light.
            d = np.maximum(d_mid, 1e-9)
            ux, uy = dx / d, dy / d
            band, wall = a_mid - a_top, a_all - a_mid
            pre = [a_top, band, wall, free]
            if "bandcos" in self.features and mpp <= self.fine:
                pre += [band * ux, band * uy]
            if "wallcos" in self.features:
                pre += [wall * ux, wall * uy]
            post = []
            if line_cov is not None:
                post.append(line_cov * free)
            if hole_cov is not None:
                post.append(hole_cov * free)
            return pre, post, free, np.hypot(qx - P[0], qy - P[1])

        # (the shadow's steps of the Jacobian reuse the rest of the basis they share)
        bodies: dict[bytes, tuple[list[np.ndarray], list[np.ndarray], np.ndarray, np.ndarray]] = {}

        def basis(theta: np.ndarray) -> np.ndarray:
            P = theta[:2]
            s = theta[2:4]
            r = radius + theta[4]
            key = theta[[0, 1, 4]].tobytes()
            got = bodies.get(key)
            if got is None:
                got = bodies[key] = body(P, r)
                if len(bodies) > BASES_KEPT:
                    del bodies[next(iter(bodies))]
            pre, post, free, d_foot = got
            cols = list(pre)
            if "shadow" in self.features:
                sd_sh = np.minimum(_sd_capsule(q, P, r, P + h * s, r), d_foot - (r + CONTACT_MM))
                for c_peg in pegs:  # the pegs' shadows, cast by the same light
                    sd_sh = np.minimum(sd_sh, _sd_capsule(q, c_peg, peg_r, c_peg + peg_h * s, peg_r))
                cols.append(ndtr(-sd_sh / mpp / sig_sh) * free)
            return np.stack(cols + post, 1)

        # The bases made lately, by their parameters: the search asks again for the ones it
        # moved to or stayed at, and for the same steps around them after a rejected move (the
        # weights do not enter a basis).
        made: dict[bytes, np.ndarray] = {}
        weighed: list[np.ndarray | None] = [None, None, None]  # weights, their roots, the image weighed

        def residual(theta: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            key = theta.tobytes()
            A = made.get(key)
            if A is None:
                A = made[key] = basis(theta)
                if len(made) > BASES_KEPT:
                    del made[next(iter(made))]
            if weighed[0] is not w:  # (the same weights for a whole step: weighed once)
                sw = np.sqrt(w)[:, None]
                weighed[:] = [w, sw, img * sw]
            _, sw, img_w = weighed
            assert sw is not None and img_w is not None
            coef = colours_of(A * sw, img_w)
            res = img - A @ coef
            return res, coef

        # The shadow's direction: the best of a few, before the joint search.
        w = np.ones(len(q))
        if shadow is not None:
            theta = np.array([P0[0], P0[1], float(shadow[0]), float(shadow[1]), 0.0])
        else:
            best = None
            for ang in np.linspace(0, 2 * np.pi, 8, endpoint=False):
                for mag in (0.3, 0.8):
                    th = np.array([P0[0], P0[1], mag * np.cos(ang), mag * np.sin(ang), 0.0])
                    e = float((residual(th, w)[0] ** 2).sum())
                    if best is None or e < best[0]:
                        best = (e, th)
            assert best is not None
            theta = best[1]
        steps = np.array([0.05, 0.05, 0.02, 0.02, 0.05])
        lam = 1e-3
        res, _ = residual(theta, w)
        for _ in range(iterations):
            nrm = np.linalg.norm(res, axis=1)
            scale = max(1.4826 * float(np.median(nrm)), 1.0)
            c = 2.0 * scale
            w = np.where(nrm <= c, 1.0, c / np.maximum(nrm, 1e-9))
            res, _ = residual(theta, w)
            r0 = (res * np.sqrt(w)[:, None]).ravel()
            free_params = 2 if fix_shadow and shadow is not None else 4
            fitted = list(range(free_params)) + ([4] if FIT_SIZE and mpp <= self.fine else [])
            J = np.zeros((len(r0), 5))
            for j in fitted:
                d = np.zeros(5)
                d[j] = steps[j]
                rj, _ = residual(theta + d, w)
                J[:, j] = ((rj * np.sqrt(w)[:, None]).ravel() - r0) / steps[j]
            JtJ = J.T @ J
            g = J.T @ r0
            held = np.ones(5)
            held[fitted] = 0.0
            delta = np.linalg.solve(JtJ + lam * np.diag(np.diag(JtJ) + 1e-9) + np.diag(held), -g)
            delta[:2] = np.clip(delta[:2], -1.5, 1.5)
            delta[2:] = np.clip(delta[2:], -0.5, 0.5)
            cand = theta + delta
            cand[4] = float(np.clip(cand[4], -GROW_MAX_PX * mpp, GROW_MAX_PX * mpp))
            rc, _ = residual(cand, w)
            if (rc ** 2 * w[:, None]).sum() < (r0 ** 2).sum():
                theta, res = cand, rc
                lam = max(lam * 0.3, 1e-6)
                if np.abs(delta[:2]).max() < 0.01:
                    break
            else:
                lam *= 10.0
        rms = float(np.sqrt(np.mean(np.minimum(np.linalg.norm(res, axis=1), 3.0 * scale) ** 2)))
        moved = float(np.hypot(*(theta[:2] - P0)))
        return ModelFit(centre=theta[:2].copy(), shadow=theta[2:4].copy(), rms=rms, pixels=int(len(q)), moved=moved)

    def _pegs_near(self, P0: np.ndarray, reach: float) -> tuple[list[np.ndarray], float, float]:
        """The crokinole pegs whose cast shadow can reach the pixels fitted for a disc at ``P0``
        (``PEG_SHADOWS``), their radius and height (mm). A peg's shadow is the board darkened
        like the disc's own, under the same light; left out of the model, a dark disc beside a
        peg was fitted over into it."""
        board = self.calib.board
        if not PEG_SHADOWS or not isinstance(board, CrokinoleBoard):
            return [], 0.0, 0.0
        pr, ph = board.peg_diameter / 2, float(board.peg_height)
        pegs = [np.array(c, float) for c in board.peg_positions()]
        # (a shadow reaches at most ``ph * SHADOW_MAX_SHIFT`` from the peg's foot)
        return [c for c in pegs if np.hypot(*(c - P0)) < reach + pr + ph * SHADOW_MAX_SHIFT], pr, ph

    def _hole_coverage(self, q: np.ndarray, mpp: float) -> np.ndarray | None:
        """Coverage of the pixels by the crokinole 20-hole (None when it is not near): a disc
        overhanging it is seen against it."""
        board = self.calib.board
        if not isinstance(board, CrokinoleBoard):
            return None
        d = np.hypot(*q.T)
        if d.min() > board.hole_radius + 3.0 * mpp:
            return None
        out: np.ndarray = ndtr((board.hole_radius - d) / (np.hypot(self.blur, 0.29) * mpp))
        return out

    def _line_coverage(self, q: np.ndarray, mpp: float) -> np.ndarray | None:
        """Coverage of the pixels by the nearest crokinole ring line (None when none is near)."""
        if not self.lines:
            return None
        d = np.hypot(*q.T)
        near = [R for R in self.lines if np.abs(d - R).min() < 0.5 * self.line_w + 3.0 * mpp]
        if not near:
            return None
        cov = np.zeros(len(q))
        sig = np.hypot(self.blur, 0.29) * mpp
        for R in near:
            cov = np.maximum(cov, ndtr((0.5 * self.line_w - np.abs(d - R)) / sig))
        return cov

    def _clear(self, q: np.ndarray, P0: np.ndarray, occluders: np.ndarray | None, bounds: float | None) -> np.ndarray:
        """Pixels that can only show this disc, its shadow and the board."""
        ok = np.ones(len(q), bool)
        if occluders is not None and len(occluders):
            for x, y, rr in np.asarray(occluders, float).reshape(-1, 3):
                c = np.array([x, y])
                top, k = self._seen(c, self.h)
                ok &= _sd_capsule(q, c, rr + 1.0, top, rr * k + 1.0) > 0.0
        board = self.calib.board
        if isinstance(board, CrokinoleBoard):
            d = np.hypot(*q.T)
            ok &= d < board.surface_radius - 0.5
            for px, py in board.peg_positions():
                c = np.array([px, py])
                top, k = self._seen(c, float(board.peg_height))
                ok &= _sd_capsule(q, c, board.peg_diameter / 2 + 1.5, top, board.peg_diameter / 2 * k + 1.5) > 0.0
        elif bounds is not None:
            ok &= np.abs(q).max(axis=1) <= bounds
        return ok
