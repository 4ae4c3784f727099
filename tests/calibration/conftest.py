"""Synthetic boards with a known homography, shared by the calibration tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration.synthetic import camera_homography, draw_crokinole_topdown, synthetic_view

SIZE = (640, 480)
# ``shared/real`` beside the repository (the nearest ancestor that has one: a worktree sits a
# folder deeper than the main checkout)
REAL = next((p / "shared" / "real" for p in Path(__file__).resolve().parents
             if (p / "shared" / "real").is_dir()), Path("shared") / "real")


def crokinole_view(tilt: float = 0.0, azimuth: float = 0.0, board: CrokinoleBoard | None = None,
                   size: tuple[int, int] = SIZE, **kw) -> tuple[np.ndarray, np.ndarray]:
    """(image, true H image px -> board mm)."""
    board = board or CrokinoleBoard()
    G = camera_homography(size, tilt, azimuth, distance_mm=1400, focal_px=0.7 * size[0] * 1400 / 1000)
    top, M = draw_crokinole_topdown(board, 1.0, **kw)
    return synthetic_view(top, M, G, size, noise=2.0, seed=int(tilt * 10 + azimuth)), np.linalg.inv(G)


@pytest.fixture(scope="session")
def topdown_view() -> tuple[np.ndarray, np.ndarray]:
    return crokinole_view(0.0, 0.0)
