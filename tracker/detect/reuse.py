"""Which discs of the previous detection still stand: the cheap half of incremental detection.

Between two calls the detector differences the coarse top-down views. A disc whose own silhouette
(the bottom circle, widened by its top face's apparent shift and the chamfer's scale, plus a view
pixel for the blur) holds no changed pixel neither moved nor was covered, so its sub-millimetre fit
stands and is reused bit for bit. The test is deliberately per silhouette rather than per
neighbourhood: in a match most moving frames show one disc sliding among resting ones, and
refitting every disc within a disc's width of the change made those neighbours most of the cost.
A disc nudged by a fraction of a view pixel still changes its rim's pixels (a dark disc on a light
board: tens of grey levels per millimetre), so it is refitted.
"""

from __future__ import annotations

import numpy as np

from tracker.detect.datatypes import Detections
from tracker.detect.geometry import BoardView, CameraPose


def untouched(dets: Detections, moved: np.ndarray, view: BoardView, pose: CameraPose,
              thickness: float) -> np.ndarray:
    """Per detection: True when no pixel of ``moved`` (a boolean mask of ``view``) falls on its
    silhouette. Discs at the view's edge are never reported untouched (they are refitted)."""
    out = np.zeros(len(dets), bool)
    if not len(dets):
        return out
    uv = view.to_px(dets.xy)
    s, k = pose.top_shift(dets.xy, thickness)
    reach = (dets.radius * k + np.linalg.norm(s, axis=1)) / view.mm_per_px + 1.5
    h, w = moved.shape
    for i, ((u, v), rr) in enumerate(zip(uv, reach, strict=True)):
        m = int(np.ceil(rr))
        u0, v0 = int(round(u)) - m, int(round(v)) - m
        if u0 < 0 or v0 < 0 or u0 + 2 * m + 1 > w or v0 + 2 * m + 1 > h:
            continue
        win = moved[v0 : v0 + 2 * m + 1, u0 : u0 + 2 * m + 1]
        yy, xx = np.mgrid[v0 : v0 + 2 * m + 1, u0 : u0 + 2 * m + 1]
        out[i] = not np.any(win & ((xx - u) ** 2 + (yy - v) ** 2 <= rr * rr))
    return out
