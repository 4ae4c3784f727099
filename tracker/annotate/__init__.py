"""The annotated video: what the pipeline understood, drawn over each frame.

Board outline (the fitted rings or square, so a bad calibration shows at once), each disc with
its id, a trail of its recent path and, at rest on a crokinole board, the zone it scores; the live
score; and every call of the rules engine with its reason, on screen for a few seconds. Drawing
reads the pipeline's state only; it never changes it.
"""

from __future__ import annotations

from tracker.annotate.annotator import Annotator, draw_frame

__all__ = ["Annotator", "draw_frame"]
