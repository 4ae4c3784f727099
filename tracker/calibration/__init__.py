"""Calibration: find the board in an image and the homography image pixels -> board mm.

Public API:

- :func:`calibrate_image` -- automatic, from one frame (crokinole rings / korona square);
- :func:`calibrate_video` -- the same on a clean median of a video's first frames;
- :func:`calibrate_points` -- from 4+ clicked points; :func:`calibrate_markers` -- from ArUco tags;
- :func:`rectify` / :func:`rectify_matrix` -- the top-down board image and its pixel <-> mm map;
- :class:`DriftMonitor` -- the cheap per-few-seconds check that the camera has not moved.
"""

from __future__ import annotations

from tracker.calibration.api import calibrate_image, calibrate_video
from tracker.calibration.datatypes import Calibration
from tracker.calibration.drift import DriftMonitor, DriftReport
from tracker.calibration.markers import calibrate_markers
from tracker.calibration.points import calibrate_points, parse_points
from tracker.calibration.rectify import rectify, rectify_matrix

__all__ = [
    "Calibration",
    "DriftMonitor",
    "DriftReport",
    "calibrate_image",
    "calibrate_markers",
    "calibrate_points",
    "calibrate_video",
    "parse_points",
    "rectify",
    "rectify_matrix",
]
