"""The video pipeline: frames -> calibration -> detections -> tracks -> events -> rules -> outputs."""

from __future__ import annotations

from tracker.pipeline.pipeline import FrameResult, Pipeline
from tracker.pipeline.review import ReviewResult, review_video, score_table
from tracker.pipeline.video import VideoSource

__all__ = ["FrameResult", "Pipeline", "ReviewResult", "VideoSource", "review_video", "score_table"]
