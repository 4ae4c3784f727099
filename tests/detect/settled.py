"""A detector that learned the empty board and then watched discs lie still on it: shared by the
tests of the finds made only at rest (``rest_blobs``, ``blob_fit``)."""

from __future__ import annotations

import numpy as np

from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import Detections
from tracker.detect.detector import DiscDetector
from tracker.detect.settings import DetectorSettings


def settled(calib: Calibration, empty: np.ndarray, img: np.ndarray, settings: DetectorSettings,
            still_calls: int) -> tuple[DiscDetector, Detections]:
    """The crokinole detector with ``settings`` after the ``empty`` board's picture and then
    ``img`` still for ``still_calls`` more frames, and its last detections."""
    det = DiscDetector(calib, "crokinole", settings=settings)
    det.set_background(empty, det.detect(empty))
    for _ in range(3):
        det.detect(empty)
    dets = det.detect(img)
    for _ in range(still_calls):
        dets = det.detect(img)
    return det, dets


def nearest(dets: Detections, place: tuple[float, float]) -> tuple[float, int]:
    """The distance (mm) from ``place`` to the nearest detection and its index (inf, -1: none)."""
    if not len(dets):
        return float("inf"), -1
    e = np.hypot(dets.xy[:, 0] - place[0], dets.xy[:, 1] - place[1])
    return float(e.min()), int(np.argmin(e))
