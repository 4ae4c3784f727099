"""A rendered korona setup row against the south rim, with its true calibration (shared by the
row-fill and lost-disc tests)."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from tracker import render
from tracker.boards import KoronaBoard
from tracker.calibration.datatypes import Calibration

BOARD = KoronaBoard()
R = BOARD.disc_radius
LINE = -(BOARD.half - R)  # the south rim's row line
ROW = tuple(-87.5 + 2 * R * k for k in range(8))  # a setup row: 8 discs touching, centred


# BGR per side: dark, blue, and a pale wood close to the birch board's own colour
COLOURS = ((40, 40, 40), (170, 110, 40), (150, 195, 222))
DARK, WOOD = 0, 2


@functools.lru_cache(maxsize=16)
def render_row(xs: tuple[float, ...], size: tuple[int, int], focal: float, side: int = DARK,
               striker_x: float | None = None, inset: float = 0.0,
               light: tuple[float, float, float] | None = None) -> tuple[np.ndarray, Calibration]:
    """Discs of colour ``side`` at ``xs`` (mm) on the row line (``inset`` mm further in from the
    rim), and a striker against the same rim at ``striker_x``, on birch, seen from 1.5 m at 15
    degrees of tilt; ``light``: the lamp's azimuth and elevation (degrees) and the shadows'
    strength, else the defaults."""
    lamp = {} if light is None else {"light_azimuth": light[0], "light_elevation": light[1],
                                     "shadow_strength": light[2]}
    look = render.Look(surface="birch", disc_colors=COLOURS, noise_sigma=1.0, **lamp)
    cam = render.Camera(height=1500.0, tilt=15.0, focal=focal)
    sprites = tuple(render.DiscSprite(id=f"d{i}", x=x, y=LINE + inset, radius=R, thickness=BOARD.disc_thickness,
                                      side=side, kind="disc") for i, x in enumerate(xs))
    if striker_x is not None:
        rs = BOARD.striker_radius
        sprites += (render.DiscSprite(id="S", x=striker_x, y=-(BOARD.half - rs), radius=rs,
                                      thickness=BOARD.disc_thickness, side=1, kind="striker"),)
    img = render.Renderer(BOARD, look, size, seed=3).render([render.SceneFrame(t=0.0, discs=sprites)], cam)
    K, dist = render.intrinsics(cam, size)
    calib = Calibration(homography=render.true_homography(cam, size), image_size=size, rms_mm=0.0,
                        board=BOARD, camera_matrix=K, dist_coeffs=dist)
    return img, calib


def hand_over(img: np.ndarray, calib: Calibration, x0: float, x1: float) -> np.ndarray:
    """``img`` with a skin-coloured arm across the row from ``x0`` to ``x1`` mm."""
    corners = np.array([[x0, LINE - 40.0], [x1, LINE - 40.0], [x1, LINE + 120.0], [x0, LINE + 120.0]])
    px = np.round(calib.to_image(corners)).astype(np.int32)
    out = img.copy()
    cv2.fillPoly(out, [px], (120, 160, 215))
    return out


def has_at(xy: np.ndarray, x: float) -> bool:
    """A find within 5 mm of the row place at ``x`` mm."""
    return len(xy) > 0 and float(np.hypot(*(xy - [x, LINE]).T).min()) < 5.0

