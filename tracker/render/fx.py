"""What the webcam does to the light: lighting gradient, glare, vignetting, exposure and white
balance drift, lens softness, sensor noise and JPEG compression.

Per camera (once): a gain map (a linear lighting gradient across the scene times a radial
vignette), a glare map (a lamp's specular reflection: a Gaussian spot on the glossy playing
surface, placed in board millimetres so that it stretches with the perspective), and a tile of
spatially correlated sensor noise a little larger than the frame.

Per frame (``frame_index``): slow auto-exposure and white-balance drift (two incommensurate sine
waves per channel, phases from the seed), a random offset into the noise tile (so consecutive
frames get different noise without drawing millions of normal variates each time), and a JPEG
round trip at the look's quality. All randomness comes from ``(seed, frame_index)``, so the same
inputs give the same bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tracker.render.raycast import StaticView
from tracker.render.scene import Look

NOISE_PAD = 32


@dataclass
class CameraFx:
    gain: np.ndarray  # uint8 H x W x 3: lighting gradient x vignette, 128 = 1.0
    glare: np.ndarray | None  # uint8 H x W x 3 additive glare, or None
    noise: np.ndarray | None  # uint8 (H + pad) x (W + pad) x 3, 128 + sigma * N(0, 1)
    phases: np.ndarray  # (5,) drift phases


def build_fx(look: Look, view: StaticView, size: tuple[int, int], board_radius: float,
             rng: np.random.Generator) -> CameraFx:
    """The per-camera maps. Stored as uint8 so the per-frame work is saturating 8-bit arithmetic."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    nx = (xx - (w - 1) / 2) / (w / 2)
    ny = (yy - (h - 1) / 2) / (h / 2)
    phi = rng.uniform(0, 2 * math.pi)
    gain = 1.0 + look.light_gradient * 0.5 * (nx * math.cos(phi) + ny * math.sin(phi))
    r2 = nx * nx * (w / max(w, h)) ** 2 + ny * ny * (h / max(w, h)) ** 2
    gain *= 1.0 - look.vignette * np.clip(r2, 0, 2) * 0.5
    gain_u8 = np.clip(gain * 128.0, 0, 255).astype(np.uint8)
    # glare: a soft spot on the varnish, in board mm
    ga = rng.uniform(0, 2 * math.pi)
    gr = board_radius * math.sqrt(rng.uniform(0.0, 0.5))
    gx, gy = gr * math.cos(ga), gr * math.sin(ga)
    # the reflected lamp or window: an elongated core with a faint halo
    sig = board_radius * rng.uniform(0.05, 0.1)
    elong = rng.uniform(1.0, 3.0)
    rot = rng.uniform(0, math.pi)
    glare_u8: np.ndarray | None = None
    if look.glare > 0:
        hx, hy = view.hit_xy[..., 0] - gx, view.hit_xy[..., 1] - gy
        a = hx * math.cos(rot) + hy * math.sin(rot)
        b = -hx * math.sin(rot) + hy * math.cos(rot)
        core = (a / elong) ** 2 + b * b
        d2 = hx * hx + hy * hy
        spot = 0.25 * np.exp(-d2 / (2 * (3.5 * sig) ** 2)) + 0.9 * np.exp(
            -((core / (2 * sig * sig)) ** 1.5))
        glare = spot * cv2.GaussianBlur(view.surface, (0, 0), 1.0) * (look.glare * 255.0)
        g8 = np.clip(glare, 0, 255).astype(np.uint8)
        glare_u8 = cv2.merge([g8, g8, g8])
    noise_u8: np.ndarray | None = None
    noise_rng = np.random.default_rng(rng.integers(0, 2**63))
    if look.noise_sigma > 0:
        shape = (h + NOISE_PAD, w + NOISE_PAD)
        tile: np.ndarray = noise_rng.standard_normal(shape + (3,), dtype=np.float32)
        lum = noise_rng.standard_normal(shape, dtype=np.float32)
        tile = 0.45 * tile + 0.9 * lum[..., None]
        tile = cv2.GaussianBlur(tile, (0, 0), 0.6)
        tile = tile * np.float32(look.noise_sigma / (float(tile.std()) + 1e-6))
        noise_u8 = np.clip(128.0 + tile, 0, 255).astype(np.uint8)
    return CameraFx(gain=cv2.merge([gain_u8, gain_u8, gain_u8]), glare=glare_u8,
                    noise=noise_u8, phases=rng.uniform(0, 2 * math.pi, 5))


def drift_gains(look: Look, fx: CameraFx, frame_index: int) -> np.ndarray:
    """Per-channel (B, G, R) multiplier for auto-exposure and white balance at a frame."""
    f = float(frame_index)
    p = fx.phases
    a = look.exposure_drift
    e = 1.0 + a * (0.7 * math.sin(2 * math.pi * f / 173.0 + p[0])
                   + 0.3 * math.sin(2 * math.pi * f / 41.0 + p[1]))
    wb_b = 1.0 + 0.4 * a * math.sin(2 * math.pi * f / 233.0 + p[2])
    wb_r = 1.0 + 0.4 * a * math.sin(2 * math.pi * f / 199.0 + p[3])
    cast = np.asarray(look.white_balance, np.float32)
    return np.array([e * wb_b, e, e * wb_r], np.float32) * cast


def apply_fx(frame: np.ndarray, fx: CameraFx, look: Look, seed: int, frame_index: int
             ) -> np.ndarray:
    """BGR frame (uint8, or float32 in 0..255 after sub-frame averaging) -> camera image."""
    h, w = frame.shape[:2]
    img = frame if frame.dtype == np.uint8 else cv2.convertScaleAbs(frame)
    img = cv2.multiply(img, fx.gain, scale=1.0 / 128.0)
    if fx.glare is not None:
        img = cv2.add(img, fx.glare)
    sigma = look.blur_sigma * h / 720.0
    if sigma > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if look.sharpen > 0:
        soft = cv2.GaussianBlur(img, (0, 0), max(1.0, 1.5 * h / 720.0))
        img = cv2.addWeighted(img, 1.0 + look.sharpen, soft, -look.sharpen, 0.0)
    if fx.noise is not None:
        r = np.random.default_rng([seed & 0xFFFFFFFF, frame_index, 7])
        oy, ox = (int(v) for v in r.integers(0, NOISE_PAD, 2))
        img = cv2.addWeighted(img, 1.0, fx.noise[oy:oy + h, ox:ox + w], 1.0, -128.0)
    g = drift_gains(look, fx, frame_index)
    if np.any(np.abs(g - 1.0) > 1e-4):
        lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * g[None, :], 0, 255)
        img = cv2.LUT(img, lut.astype(np.uint8).reshape(256, 1, 3))
    if look.jpeg_quality < 100:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(look.jpeg_quality)])
        dec = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if dec is not None:
            img = dec
    return img
