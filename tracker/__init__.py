"""tracker: watches a tabletop disc game through one camera and keeps score.

Data flows one way: frames -> calibration -> detections -> tracks -> events -> rules -> views.
"""

from __future__ import annotations

__version__ = "0.1.0"
