"""Solid things drawn per frame in image space: discs, strikers, pegs, cues, and their shadows.

Each object is real 3D geometry in board millimetres, projected through the camera (lens
distortion included) and filled with anti-aliased sub-pixel polygons (``cv2.fillPoly`` with
``LINE_AA`` and 4 bits of shift). A cylinder is drawn as its visible side wall in sectors, each
shaded by the angle between its normal and the light (so the wall facing the lamp is brighter and
the far side darker), then a bevel ring that catches a specular highlight, then the flat top. At
oblique views the side walls show; from straight above only the top and bevel do.

Shadows are the object's points pushed along the light direction onto the floor they stand on,
filled into a coverage mask that the renderer blurs (penumbra) and multiplies into the frame.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from tracker.render.camera import Projector

SHIFT = 4
ONE = 1 << SHIFT

Color = tuple[float, float, float]


def light_vector(azimuth_deg: float, elevation_deg: float) -> np.ndarray:
    """Unit vector from the scene toward the light (board frame)."""
    az, el = math.radians(azimuth_deg), math.radians(elevation_deg)
    return np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el), math.sin(el)])


def fill(img: np.ndarray, pts: np.ndarray, color: Color | float) -> None:
    """Anti-aliased sub-pixel polygon fill; skips polygons with non-finite points."""
    if pts.shape[0] < 3 or not np.all(np.isfinite(pts)):
        return
    p = np.round(pts * ONE).astype(np.int32)
    col = color if isinstance(color, tuple) else (color,)
    cv2.fillPoly(img, [p], tuple(float(c) for c in col), cv2.LINE_AA, SHIFT)


def shade(base: Color, normal: np.ndarray, light: np.ndarray, view: np.ndarray, gloss: float,
          ambient: float = 0.5) -> Color:
    """Lambert + Blinn-Phong shading of a base colour for a unit normal."""
    diff = max(0.0, float(normal @ light))
    half = light + view
    half /= np.linalg.norm(half) + 1e-9
    spec = gloss * max(0.0, float(normal @ half)) ** 24
    k = ambient + 0.55 * diff
    return tuple(min(255.0, c * k + 255.0 * spec) for c in base)  # type: ignore[return-value]


def ring(cx: float, cy: float, z: float, r: float, n: int) -> np.ndarray:
    a = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a), np.full(n, z)], axis=1)


def segments_for(radius_px: float) -> int:
    return int(np.clip(radius_px * 1.2, 16, 64)) // 4 * 4


def draw_cylinder(img: np.ndarray, proj: Projector, x: float, y: float, z0: float,
                  height: float, radius: float, side_color: Color, top_color: Color,
                  light: np.ndarray, gloss: float, bevel: float = 1.5,
                  groove: float = 0.0) -> None:
    """A vertical cylinder standing at (x, y) with its bottom at ``z0``."""
    c_top = proj(np.array([[x, y, z0 + height], [x + radius, y, z0 + height]]))
    r_px = float(np.linalg.norm(c_top[1] - c_top[0]))
    n = segments_for(r_px)
    bevel = min(bevel, height * 0.4, radius * 0.3)
    zt = z0 + height
    bottom = ring(x, y, z0, radius, n)
    top_o = ring(x, y, zt - bevel, radius, n)
    top_i = ring(x, y, zt, radius - bevel, n)
    pb, po, pi = np.split(proj(np.concatenate([bottom, top_o, top_i])), 3)
    ang = np.linspace(0.0, 2 * math.pi, n, endpoint=False) + math.pi / n
    normals = np.stack([np.cos(ang), np.sin(ang), np.zeros(n)], axis=1)
    mids = np.stack([x + radius * np.cos(ang), y + radius * np.sin(ang),
                     np.full(n, z0 + height / 2)], axis=1)
    views = proj.C - mids
    views /= np.linalg.norm(views, axis=1, keepdims=True)
    visible = np.einsum("ij,ij->i", normals, views) > 0.0
    # side wall: a dark silhouette, then the visible sectors shaded
    if visible.any():
        hull = cv2.convexHull(np.concatenate([pb, po]).astype(np.float32)).reshape(-1, 2)
        fill(img, hull, tuple(c * 0.45 for c in side_color))
        step = 2 if n <= 24 else 4
        for i in range(0, n, step):
            idx = [(i + k) % n for k in range(step + 1)]
            if not visible[idx[:-1]].any():
                continue
            poly = np.concatenate([pb[idx], po[idx[::-1]]])
            nrm = normals[i + step // 2 - 1 if step > 1 else i]
            fill(img, poly, shade(side_color, nrm, light, views[i], gloss * 0.5, 0.35))
    # bevel
    step = 2 if n <= 24 else 4
    view_top = proj.C - np.array([x, y, zt])
    view_top /= np.linalg.norm(view_top)
    fill(img, po, tuple(c * 0.7 for c in top_color))
    for i in range(0, n, step):
        idx = [(i + k) % n for k in range(step + 1)]
        poly = np.concatenate([po[idx], pi[idx[::-1]]])
        a = ang[(i + step // 2) % n]
        nrm = np.array([math.cos(a) * 0.7, math.sin(a) * 0.7, 0.71])
        fill(img, poly, shade(top_color, nrm, light, view_top, gloss, 0.45))
    top = shade(top_color, np.array([0.0, 0.0, 1.0]), light, view_top, gloss * 0.3, 0.5)
    fill(img, pi, top)
    if groove > 0:
        g = proj(ring(x, y, zt, radius * groove, n))
        if np.all(np.isfinite(g)):
            cv2.polylines(img, [np.round(g * ONE).astype(np.int32)], True,
                          tuple(c * 0.6 for c in top), max(1, int(r_px * 0.06)), cv2.LINE_AA,
                          SHIFT)


def shadow_polygon(points: np.ndarray, light: np.ndarray, z_ground: float) -> np.ndarray:
    """Points (N, 3) pushed along the light onto the plane z = z_ground; their convex hull (3D)."""
    lz = max(light[2], 0.05)
    k = (points[:, 2] - z_ground) / lz
    flat = points[:, :2] - light[None, :2] * k[:, None]
    hull = cv2.convexHull(flat.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    return np.column_stack([hull, np.full(len(hull), z_ground)])


def cylinder_shadow(mask: np.ndarray, proj: Projector, x: float, y: float, z0: float,
                    height: float, radius: float, light: np.ndarray, z_ground: float) -> None:
    pts = np.concatenate([ring(x, y, z0, radius, 24), ring(x, y, z0 + height, radius, 24)])
    poly = shadow_polygon(pts, light, z_ground)
    fill(mask, proj(poly), 255.0)


def tube_outline(p0: np.ndarray, p1: np.ndarray, r0: float, r1: float,
                 n_along: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Left and right edges (board frame) of a horizontal-ish tube from p0 to p1."""
    d = p1[:2] - p0[:2]
    d /= np.linalg.norm(d) + 1e-9
    side = np.array([-d[1], d[0], 0.0])
    t = np.linspace(0.0, 1.0, n_along)[:, None]
    centre = p0[None, :] * (1 - t) + p1[None, :] * t
    r = (r0 * (1 - t) + r1 * t)
    return centre + side * r, centre - side * r


def draw_cue(img: np.ndarray, proj: Projector, x0: float, y0: float, x1: float, y1: float,
             z: float, color: Color, light: np.ndarray) -> None:
    """A korona cue: a tapered round stick with a darker tip, shaded across its width."""
    p0 = np.array([x0, y0, z])
    p1 = np.array([x1, y1, z + 0.04 * math.hypot(x1 - x0, y1 - y0)])
    d = p1[:2] - p0[:2]
    d /= np.linalg.norm(d) + 1e-9
    side = np.array([-d[1], d[0], 0.0])
    lit = 0.5 + 0.5 * float(side @ light)  # which flank faces the light
    for frac, k in ((1.0, 0.55), (0.7, 0.8), (0.35, 1.0)):
        off = (lit - 0.5) * (1.0 - frac) * 2.0
        left, right = tube_outline(p0, p1, 5.0 * frac, 8.0 * frac)
        shift = side * off * 4.0
        poly = np.concatenate([proj(left + shift), proj(right[::-1] + shift)])
        fill(img, poly, tuple(c * k for c in color))
    tip_end = p0 + np.append(d, 0.0) * 12.0
    left, right = tube_outline(p0, tip_end, 5.0, 5.1, 2)
    fill(img, np.concatenate([proj(left), proj(right[::-1])]), (60.0, 70.0, 80.0))


def cue_shadow(mask: np.ndarray, proj: Projector, x0: float, y0: float, x1: float, y1: float,
               z: float, light: np.ndarray) -> None:
    p0 = np.array([x0, y0, z])
    p1 = np.array([x1, y1, z + 0.04 * math.hypot(x1 - x0, y1 - y0)])
    left, right = tube_outline(p0, p1, 5.0, 8.0)
    pts = np.concatenate([left, right[::-1]])
    lz = max(light[2], 0.05)
    k = pts[:, 2] / lz
    flat = np.column_stack([pts[:, :2] - light[None, :2] * k[:, None], np.zeros(len(pts))])
    fill(mask, proj(flat), 255.0)
