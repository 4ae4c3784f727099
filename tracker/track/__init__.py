"""Tracking discs across frames in board millimetres: ``Tracker.update(detections, t)``."""

from __future__ import annotations

from tracker.track.datatypes import TERMINAL, Sample, Track, TrackState
from tracker.track.tracker import Tracker, TrackerConfig

__all__ = ["TERMINAL", "Sample", "Track", "TrackState", "Tracker", "TrackerConfig"]
