"""Random looks and cameras for the two presets, ``easy`` and ``hard``.

``easy`` is a tidy club setup: a natural wood board under even light, a camera almost straight
overhead with south at the bottom of the image, a mild lens and a good sensor. ``hard`` is the
first webcam a user points at their board: any board finish and line colour, tilt up to 45
degrees from any side, a strong lens, glare, uneven light, exposure drift, noise and heavy JPEG.

The camera's focal length is solved, not sampled: after the pose and lens are drawn, the focal
length is the largest that keeps the whole board (rail or rims included, at their height, through
the lens distortion) inside the wanted fraction of the frame.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard, board_for
from tracker.render.camera import camera_pose, distort_normalized, monotonic_radius
from tracker.render.scene import Camera, Finish, Look

Preset = Literal["easy", "hard"]
BGR = tuple[int, int, int]

# The disc colour pairs of real sets (BGR): natural/black, red/black, light/dark wood, blue/black.
DISC_PAIRS: tuple[tuple[BGR, BGR], ...] = (
    ((150, 200, 232), (34, 34, 38)),
    ((45, 40, 185), (30, 30, 34)),
    ((140, 195, 230), (40, 70, 112)),
    ((170, 100, 40), (30, 30, 34)),
)
EXTRA_DISC_COLORS: tuple[BGR, ...] = ((60, 150, 60), (225, 228, 230), (40, 180, 220))
SKIN_TONES: tuple[BGR, ...] = ((150, 180, 230), (130, 160, 215), (100, 135, 190),
                               (75, 105, 160), (50, 70, 115), (40, 55, 85))
SLEEVES: tuple[BGR, ...] = ((120, 60, 30), (40, 40, 40), (200, 200, 200), (60, 60, 150),
                            (70, 120, 60), (150, 130, 110), (30, 30, 110), (220, 220, 225))
TABLES: tuple[BGR, ...] = ((215, 215, 215), (200, 205, 210), (80, 110, 150), (60, 60, 60),
                           (150, 160, 165))
FLOORS: tuple[BGR, ...] = ((80, 85, 90), (60, 90, 120), (120, 125, 130), (40, 45, 50))


def _pick(rng: np.random.Generator, options: tuple | list) -> object:  # type: ignore[type-arg]
    return options[int(rng.integers(0, len(options)))]


def _cast(rng: np.random.Generator, amount: float) -> tuple[float, float, float]:
    """BGR gains of a colour cast: warm (tungsten) to cool (daylight, fluorescent)."""
    t = float(rng.uniform(-1.0, 1.0)) * amount
    g = float(rng.uniform(-0.3, 0.3)) * amount
    return (1.0 - t, 1.0 + g, 1.0 + t)


def _check_preset(preset: str) -> None:
    if preset not in ("easy", "hard"):
        raise ValueError(f"preset must be 'easy' or 'hard', got {preset!r}")


def sample_look(preset: Preset | str, rng: np.random.Generator, game: str) -> Look:
    """A random look for ``game`` ("crokinole" or "korona") in the given preset."""
    _check_preset(preset)
    if game not in ("crokinole", "korona"):
        raise ValueError(f"game must be 'crokinole' or 'korona', got {game!r}")
    hard = preset == "hard"
    pair = DISC_PAIRS[int(rng.integers(0, len(DISC_PAIRS)))]
    extra = list(EXTRA_DISC_COLORS)
    rng.shuffle(extra)
    disc_colors: tuple[BGR, ...] = pair if game == "crokinole" else (pair + tuple(extra[:2]))
    idx = rng.choice(len(SKIN_TONES), 3, replace=False)
    skins = tuple(SKIN_TONES[int(i)] for i in idx)
    idx = rng.choice(len(SLEEVES), 3, replace=False)
    sleeves = tuple(SLEEVES[int(i)] for i in idx)
    surface: Literal["natural", "dark", "blue", "red", "white", "birch"]
    rail: Finish
    ditch: Finish
    if game == "crokinole":
        if hard:
            surface = _pick(rng, ("natural", "natural", "birch", "dark", "blue", "red", "white"))  # type: ignore[assignment]
        else:
            surface = _pick(rng, ("natural", "birch"))  # type: ignore[assignment]
        rail = _pick(rng, ("natural", "dark", "black", "red") if hard else ("natural", "dark"))  # type: ignore[assignment]
        ditch = _pick(rng, ("natural", "dark", "black", "red", "blue") if hard
                      else ("natural", "black", "red"))  # type: ignore[assignment]
        outer: Literal["round", "octagon", "square"] = _pick(rng, ("round", "octagon"))  # type: ignore[assignment]
    else:
        surface = _pick(rng, ("birch", "natural", "white") if hard else ("birch",))  # type: ignore[assignment]
        rail = _pick(rng, ("dark", "black", "natural", "red") if hard else ("dark", "black"))  # type: ignore[assignment]
        ditch = "black"
        outer = "square"
    if surface in ("dark", "blue", "red"):
        line_color: BGR = _pick(rng, ((235, 235, 235), (40, 200, 230), (20, 20, 20)))  # type: ignore[assignment]
    elif hard:
        line_color = _pick(rng, ((20, 20, 20), (30, 30, 150), (140, 60, 20), (20, 20, 20)))  # type: ignore[assignment]
    else:
        line_color = (25, 25, 25)
    u = rng.uniform
    return Look(
        surface=surface,
        line_color=line_color,
        line_width=float(u(1.0, 4.0) if hard else u(1.5, 2.5)),
        outer_shape=outer,
        disc_colors=disc_colors,
        striker_color=_pick(rng, ((30, 30, 34), (60, 90, 140), (40, 40, 150))),  # type: ignore[arg-type]
        skin_tones=skins,
        sleeve_colors=sleeves,
        light_gradient=float(u(0.2, 0.5) if hard else u(0.04, 0.15)),
        glare=float(u(0.15, 0.7) if hard else u(0.0, 0.1)),
        vignette=float(u(0.15, 0.45) if hard else u(0.05, 0.2)),
        exposure_drift=float(u(0.03, 0.1) if hard else u(0.0, 0.02)),
        noise_sigma=float(u(3.0, 8.0) if hard else u(1.0, 2.5)),
        jpeg_quality=int(rng.integers(40, 81) if hard else rng.integers(85, 96)),
        shadow_strength=float(u(0.3, 0.6) if hard else u(0.25, 0.4)),
        extras={"numbers": float(rng.uniform() < (0.5 if hard else 0.2))},
        rail=rail,
        ditch=ditch,
        hole_color=_pick(rng, ((30, 25, 25), (40, 30, 110), (20, 20, 20))),  # type: ignore[arg-type]
        peg_color=_pick(rng, ((45, 45, 50), (60, 120, 170), (30, 30, 30))),  # type: ignore[arg-type]
        cue_color=_pick(rng, ((120, 170, 205), (60, 90, 130), (150, 190, 220))),  # type: ignore[arg-type]
        table_color=_pick(rng, TABLES),  # type: ignore[arg-type]
        floor_color=_pick(rng, FLOORS),  # type: ignore[arg-type]
        light_azimuth=float(u(0.0, 360.0)),
        light_elevation=float(u(35.0, 75.0) if hard else u(55.0, 85.0)),
        gloss=float(u(0.2, 0.6) if hard else u(0.15, 0.35)),
        blur_sigma=float(u(0.6, 1.4) if hard else u(0.4, 0.7)),
        sharpen=float(u(0.0, 0.8) if hard else u(0.0, 0.3)),
        white_balance=_cast(rng, 0.18 if hard else 0.05),
    )


def board_outline(board: CrokinoleBoard | KoronaBoard) -> np.ndarray:
    """3D points (N, 3) around the board's outer top edge, for framing."""
    if isinstance(board, CrokinoleBoard):
        R = board.outer_radius / math.cos(math.pi / 8)
        a = np.linspace(0, 2 * math.pi, 64, endpoint=False)
        z = board.rail_height
        return np.stack([R * np.cos(a), R * np.sin(a), np.full_like(a, z)], axis=1)
    h = board.outer_size / 2.0
    t = np.linspace(-h, h, 9)
    pts = [(x, -h) for x in t] + [(x, h) for x in t] + [(-h, y) for y in t] + [(h, y) for y in t]
    return np.array([(x, y, board.rim_height) for x, y in pts])


def fit_focal(camera: Camera, size: tuple[int, int], outline: np.ndarray, fill: float) -> float:
    """The focal length (px) that puts ``outline`` inside ``fill`` of the frame (centre-relative)."""
    R, C = camera_pose(camera)
    p = (outline - C) @ R.T
    xy = p[:, :2] / np.maximum(p[:, 2:3], 1e-6)
    xy = distort_normalized(xy, camera.k1, camera.k2)
    w, h = size
    fx = (w / 2.0) / max(float(np.abs(xy[:, 0]).max()), 1e-6)
    fy = (h / 2.0) / max(float(np.abs(xy[:, 1]).max()), 1e-6)
    return fill * min(fx, fy)


def sample_camera(preset: Preset | str, rng: np.random.Generator, size: tuple[int, int],
                  game: str) -> Camera:
    """A random camera for the preset that sees the whole board of ``game``."""
    _check_preset(preset)
    board = board_for(game)
    u = rng.uniform
    if preset == "easy":
        cam = Camera(height=float(u(1200, 1800)), tilt=float(u(0, 8)), azimuth=float(u(-4, 4)),
                     roll=float(u(-3, 3)), k1=float(u(-0.06, 0.02)), k2=0.0,
                     target=(float(u(-15, 15)), float(u(-15, 15))))
        fill = float(u(0.82, 0.95))
    else:
        cam = Camera(height=float(u(800, 1800)), tilt=float(u(0, 45)),
                     azimuth=float(u(0, 360)), roll=float(u(-10, 10)),
                     k1=float(u(-0.3, 0.08)), k2=float(u(-0.04, 0.04)),
                     target=(float(u(-80, 80)), float(u(-80, 80))))
        fill = float(u(0.7, 0.97))
    focal = fit_focal(cam, size, board_outline(board), fill)
    # keep the lens one-to-one out to the image corners (a real lens does not fold back)
    for _ in range(20):
        corner_d = math.hypot(size[0] / 2.0, size[1] / 2.0) / focal
        r_max = monotonic_radius(cam.k1, cam.k2)
        if not math.isfinite(r_max):
            break
        rd_max = r_max * (1 + cam.k1 * r_max**2 + cam.k2 * r_max**4)
        if rd_max > 1.1 * corner_d:
            break
        cam = Camera(height=cam.height, tilt=cam.tilt, azimuth=cam.azimuth, roll=cam.roll,
                     k1=cam.k1 * 0.8, k2=cam.k2 * 0.8, target=cam.target)
        focal = fit_focal(cam, size, board_outline(board), fill)
    return Camera(height=cam.height, tilt=cam.tilt, azimuth=cam.azimuth, roll=cam.roll,
                  focal=focal, k1=cam.k1, k2=cam.k2, target=cam.target)
