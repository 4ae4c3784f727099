"""Procedural materials: wood grain, paint, smooth noise. Float32 BGR images in 0..255.

Design: every material is built from cheap pieces that cost a few passes over the image, so the
whole board texture (a few million texels) is made in a fraction of a second:

- *smooth noise*: a small random grid resized up with bicubic interpolation (value noise);
- *wood*: growth rings (a cosine of the distance across the grain, warped by two octaves of smooth
  noise, sharpened so the late-wood lines are narrower than the early wood) plus fibres (a 1-D
  random profile across the grain, looked up with a small warp) and a slow colour drift;
- *paint*: a flat colour with low-frequency unevenness and fine speckle; lacquered paint over
  wood lets a faint grain through.

All inputs are in millimetres so a material looks the same at any texture resolution.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

BGR = tuple[int, int, int]

# Light and dark tones (BGR) of each finish; wood finishes blend between the two along the grain.
WOOD_TONES: dict[str, tuple[BGR, BGR]] = {
    "natural": ((120, 185, 225), (60, 120, 175)),  # maple / birch plywood, amber varnish
    "birch": ((160, 205, 230), (110, 165, 205)),  # pale birch
    "dark": ((45, 75, 110), (20, 35, 60)),  # walnut / dark stain
}
# How strongly the growth rings show, per wood finish.
FIGURE: dict[str, float] = {"natural": 0.45, "birch": 0.25, "dark": 0.35}
PAINT_COLORS: dict[str, BGR] = {
    "blue": (150, 95, 35),
    "red": (40, 40, 165),
    "white": (228, 232, 235),
    "black": (28, 28, 30),
}


def smooth_noise(shape: tuple[int, int], cell_px: float, rng: np.random.Generator) -> np.ndarray:
    """Value noise in about [-1, 1] with features ``cell_px`` texels apart (float32, HxW)."""
    h, w = shape
    gh = max(2, int(math.ceil(h / max(cell_px, 1.0))) + 3)
    gw = max(2, int(math.ceil(w / max(cell_px, 1.0))) + 3)
    grid = rng.uniform(-1.0, 1.0, (gh, gw)).astype(np.float32)
    big = cv2.resize(grid, (int(gw * cell_px), int(gh * cell_px)), interpolation=cv2.INTER_CUBIC)
    oy = int(rng.integers(0, max(1, big.shape[0] - h)))
    ox = int(rng.integers(0, max(1, big.shape[1] - w)))
    out = big[oy:oy + h, ox:ox + w]
    if out.shape != (h, w):
        out = cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(out)


def _at_detail(fn, shape: tuple[int, int], mm_per_px: float, detail_mm: float):  # type: ignore[no-untyped-def]
    """Run ``fn(shape, mm_per_px)`` at no finer than ``detail_mm`` and resize up to ``shape``."""
    if mm_per_px >= detail_mm * 0.99:
        return fn(shape, mm_per_px)
    f = detail_mm / mm_per_px
    small = (max(8, int(math.ceil(shape[0] / f))), max(8, int(math.ceil(shape[1] / f))))
    img = fn(small, mm_per_px * shape[0] / small[0])
    return cv2.resize(img, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


def wood(shape: tuple[int, int], mm_per_px: float, rng: np.random.Generator, finish: str,
         grain_angle: float | None = None, ring_mm: float | None = None,
         figure: float = 1.0, detail_mm: float = 1.0) -> np.ndarray:
    """A wood surface (float32 BGR) of ``shape`` texels at ``mm_per_px``.

    The grain is computed at ``detail_mm`` (fibres finer than that are below any webcam's
    resolution) and resized up, which keeps a 0.5 mm texture cheap.
    """
    return _at_detail(lambda sh, s: _wood(sh, s, rng, finish, grain_angle, ring_mm, figure),
                      shape, mm_per_px, detail_mm)


def _wood(shape: tuple[int, int], mm_per_px: float, rng: np.random.Generator, finish: str,
          grain_angle: float | None, ring_mm: float | None, figure: float) -> np.ndarray:
    light, dark = WOOD_TONES.get(finish, WOOD_TONES["natural"])
    h, w = shape
    ang = rng.uniform(0, math.pi) if grain_angle is None else grain_angle
    ring = rng.uniform(9.0, 22.0) if ring_mm is None else ring_mm
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    xs *= mm_per_px
    ys *= mm_per_px
    # distance across the grain (v) and along it (u)
    v = xs * math.sin(ang) - ys * math.cos(ang)
    n1 = smooth_noise(shape, 120.0 / mm_per_px, rng)
    n2 = smooth_noise(shape, 30.0 / mm_per_px, rng)
    warp = v + figure * (45.0 * n1 + 7.0 * n2)
    rings = 0.5 + 0.5 * np.cos(warp * np.float32(2 * math.pi / ring))
    rings = rings ** 3  # narrower dark late-wood lines
    # the figure fades in and out across the board, and a second, finer ring set interferes
    contrast = 0.55 + 0.45 * smooth_noise(shape, 160.0 / mm_per_px, rng)
    fine = 0.5 + 0.5 * np.cos(warp * np.float32(2 * math.pi / (ring * 0.37)) + 1.3 * n2)
    rings = contrast * (0.75 * rings + 0.25 * fine ** 2)
    # fibres: a random profile across the grain, slightly warped
    prof = cv2.GaussianBlur(rng.uniform(-1, 1, (1, 8192)).astype(np.float32), (0, 0), 1.2)[0]
    idx = (warp / 0.35) % 8191.0
    i0 = np.minimum(idx.astype(np.int32), 8190)
    fr = idx - i0
    fib = prof[i0] * (1 - fr) + prof[i0 + 1] * fr
    drift = smooth_noise(shape, 250.0 / mm_per_px, rng)
    k = FIGURE.get(finish, 0.3)
    t = np.clip(0.3 + k * rings + 0.12 * fib + 0.35 * drift, 0.0, 1.0)
    lt = np.array(light, np.float32)
    dk = np.array(dark, np.float32)
    out = lt[None, None, :] * (1 - t[..., None]) + dk[None, None, :] * t[..., None]
    return out.astype(np.float32)


def paint(shape: tuple[int, int], mm_per_px: float, rng: np.random.Generator, color: BGR,
          unevenness: float = 0.05, grain_through: float = 0.04,
          detail_mm: float = 1.0) -> np.ndarray:
    """A painted / lacquered surface (float32 BGR)."""
    return _at_detail(lambda sh, s: _paint(sh, s, rng, color, unevenness, grain_through),
                      shape, mm_per_px, detail_mm)


def _paint(shape: tuple[int, int], mm_per_px: float, rng: np.random.Generator, color: BGR,
           unevenness: float, grain_through: float) -> np.ndarray:
    low = smooth_noise(shape, 200.0 / mm_per_px, rng)
    fine = smooth_noise(shape, max(1.0, 1.5 / mm_per_px), rng)
    g = 1.0 + unevenness * low + 0.015 * fine
    if grain_through > 0:
        wd = _wood(shape, mm_per_px, rng, "natural", None, None, 1.0)
        lum = wd.mean(axis=2)
        g = g + grain_through * (lum - lum.mean()) / 40.0
    c = np.array(color, np.float32)
    return (c[None, None, :] * g[..., None]).astype(np.float32)


def finish(shape: tuple[int, int], mm_per_px: float, rng: np.random.Generator,
           name: str, figure: float = 1.0, detail_mm: float = 1.0) -> np.ndarray:
    """The material of a named finish: wood for natural/birch/dark, paint otherwise."""
    if name in WOOD_TONES:
        return wood(shape, mm_per_px, rng, name, figure=figure, detail_mm=detail_mm)
    return paint(shape, mm_per_px, rng, PAINT_COLORS.get(name, PAINT_COLORS["black"]),
                 detail_mm=detail_mm)
