"""Automatic korona calibration (placeholder until the square-board fitter lands)."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.errors import CalibrationError


def calibrate_korona(image: np.ndarray, board: KoronaBoard | None = None) -> tuple[np.ndarray, KoronaBoard, dict[str, float], float]:
    raise CalibrationError("korona: automatic calibration not available yet; give --points or --markers")
