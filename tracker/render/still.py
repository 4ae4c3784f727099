"""A rendered still frame of discs at known places, with the camera's true calibration.

The ground truth of the detector's tests and benchmarks at rest (``bench_detect``, ``bench_rest``,
the region model's tests): a random look and camera for a preset, the discs where the caller
places them, and the ``Calibration`` the camera really has (``method="truth"``), so a position
error measured on it is the detector's alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.render.camera import intrinsics, true_homography
from tracker.render.renderer import Renderer
from tracker.render.sampling import sample_camera, sample_look
from tracker.render.scene import Camera, DiscSprite, SceneFrame

if TYPE_CHECKING:
    from tracker.calibration.datatypes import Calibration

# Where the discs go, given the frame's random generator (after the look and the camera were
# drawn from it): (x mm, y mm, side) per disc.
Placer = Callable[[np.random.Generator], Sequence[tuple[float, float, int]]]


def still_frame(board: CrokinoleBoard | KoronaBoard, preset: str, size: tuple[int, int], seed: int,
                place: Placer, strikers: Sequence[tuple[float, float]] = ()) -> tuple[np.ndarray, Calibration]:
    """One rendered frame (BGR) of the discs ``place`` puts down, and its true calibration;
    korona: with ``strikers`` (x, y mm) resting there too."""
    rng = np.random.default_rng(seed)
    game = "crokinole" if isinstance(board, CrokinoleBoard) else "korona"
    look = sample_look(preset, rng, game)
    cam = sample_camera(preset, rng, size, game)
    discs = place(rng)
    sprites = tuple(DiscSprite(id=f"d{i}", x=x, y=y, radius=board.disc_radius, thickness=board.disc_thickness,
                               side=s, angle=float(rng.uniform(0, 6.28))) for i, (x, y, s) in enumerate(discs))
    if isinstance(board, KoronaBoard):
        sprites += tuple(DiscSprite(id=f"S{i}", x=x, y=y, radius=board.striker_radius, thickness=board.disc_thickness,
                                    side=0, kind="striker") for i, (x, y) in enumerate(strikers))
    img = Renderer(board, look, size, seed).render([SceneFrame(t=0.0, discs=sprites)], cam)
    return img, truth_calibration(board, cam, size)


def sprites_frame(board: CrokinoleBoard | KoronaBoard, preset: str, size: tuple[int, int], seed: int,
                  sprites: tuple[DiscSprite, ...]) -> tuple[np.ndarray, Calibration]:
    """One rendered frame (BGR) of the given ``sprites`` under the preset's random look and camera
    for ``seed``, and its true calibration."""
    rng = np.random.default_rng(seed)
    game = "crokinole" if isinstance(board, CrokinoleBoard) else "korona"
    look = sample_look(preset, rng, game)
    cam = sample_camera(preset, rng, size, game)
    img = Renderer(board, look, size, seed).render([SceneFrame(t=0.0, discs=sprites)], cam)
    return img, truth_calibration(board, cam, size)


def truth_calibration(board: CrokinoleBoard | KoronaBoard, cam: Camera, size: tuple[int, int]) -> Calibration:
    """The ``Calibration`` the rendering camera ``cam`` really has (``method="truth"``)."""
    from tracker.calibration.datatypes import Calibration

    K, dist = intrinsics(cam, size)
    return Calibration(homography=true_homography(cam, size), image_size=size, rms_mm=0.0, board=board,
                       camera_matrix=K, dist_coeffs=dist, method="truth")


def spread_frame(board: CrokinoleBoard | KoronaBoard, preset: str, size: tuple[int, int],
                 seed: int) -> tuple[np.ndarray, Calibration, np.ndarray]:
    """A still frame of 8-12 discs at random places apart from each other, the 20-hole, the pegs
    and the surface's edge (korona: 60 mm inside the rims), sides alternating; with its true
    calibration and the discs' true places (N, 2)."""
    r = board.disc_radius
    pts: list[tuple[float, float]] = []

    def place(rng: np.random.Generator) -> list[tuple[float, float, int]]:
        n = int(rng.integers(8, 13))
        lim = 280.0 if isinstance(board, CrokinoleBoard) else board.half - 60.0
        while len(pts) < n:
            x, y = (float(v) for v in rng.uniform(-lim, lim, 2))
            if any(np.hypot(x - u, y - v) < 2 * r + 1.0 for u, v in pts):
                continue
            if isinstance(board, CrokinoleBoard):
                if not board.hole_radius + r + 2 < np.hypot(x, y) < board.surface_radius - r - 10:
                    continue
                if any(np.hypot(x - px, y - py) < r + board.peg_diameter / 2 + 1 for px, py in board.peg_positions()):
                    continue
            pts.append((x, y))
        return [(x, y, i % 2) for i, (x, y) in enumerate(pts)]

    img, calib = still_frame(board, preset, size, seed, place)
    return img, calib, np.array(pts)
