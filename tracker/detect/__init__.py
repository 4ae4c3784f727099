"""Disc detection in board millimetres (issue 5, part 1) and still-photo scoring (part 5).

Public API (imported lazily, so ``tracker.detect.datatypes`` stays free of OpenCV):

- ``DiscDetector`` -- ``DiscDetector(calib, game).detect(frame_bgr) -> Detections``, once per
  frame; keeps still discs from the previous call and searches only where the view changed;
- ``DetectorSettings`` -- its thresholds;
- ``ColorModel`` -- colour classes learned from detections (``fit`` / ``predict``);
- ``Detections`` -- the columnar type passed between the vision stages;
- ``score_photo`` / ``score_detections`` -- ``tracker photo``'s scoring.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "DiscDetector": "tracker.detect.detector",
    "DetectorSettings": "tracker.detect.detector",
    "ColorModel": "tracker.detect.color",
    "Detections": "tracker.detect.datatypes",
    "score_photo": "tracker.detect.photo",
    "score_detections": "tracker.detect.photo",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'tracker.detect' has no attribute {name!r}")
