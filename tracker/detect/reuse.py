"""Which discs of the previous detection still stand: the cheap half of incremental detection.

Between two calls the detector differences the coarse top-down views. A disc whose own silhouette
(the bottom circle, widened by its top face's apparent shift and the chamfer's scale, plus a view
pixel for the blur) holds no changed pixel neither moved nor was covered, so its sub-millimetre fit
stands and is reused bit for bit. The test is deliberately per silhouette rather than per
neighbourhood: in a match most moving frames show one disc sliding among resting ones, and
refitting every disc within a disc's width of the change made those neighbours most of the cost.
A disc nudged by a fraction of a view pixel still changes its rim's pixels (a dark disc on a light
board: tens of grey levels per millimetre), so it is refitted.

Discs against a korona rim reach past the coarse view's edge (the top face's apparent shift). They
used to be refitted on every changing call, and a row of touching discs is not found again by the
incremental search (only the full pass completes rows), so a whole setup row vanished with any
motion anywhere (issue #5). Their silhouette is now judged on its part inside the view.
"""

from __future__ import annotations

import numpy as np

from tracker.detect.datatypes import Detections
from tracker.detect.geometry import BoardView, CameraPose


def silhouettes(dets: Detections, view: BoardView, pose: CameraPose, thickness: float,
                shape: tuple[int, int]) -> list[tuple[int, int, np.ndarray, bool]]:
    """Per detection, its silhouette in ``view`` (a raster of ``shape``): the bottom circle
    widened by the top face's apparent shift and the chamfer's scale, plus a pixel for the blur,
    as ``(u0, v0, mask, centre_inside)``: the mask of the silhouette in its window clipped to the
    view, whose top-left pixel is (u0, v0), and whether the disc's centre is inside the view."""
    out: list[tuple[int, int, np.ndarray, bool]] = []
    if not len(dets):
        return out
    uv = view.to_px(dets.xy)
    s, k = pose.top_shift(dets.xy, thickness)
    reach = (dets.radius * k + np.linalg.norm(s, axis=1)) / view.mm_per_px + 1.5
    h, w = shape
    for (u, v), rr in zip(uv, reach, strict=True):
        m = int(np.ceil(rr))
        u0, v0 = max(int(round(u)) - m, 0), max(int(round(v)) - m, 0)
        u1, v1 = min(int(round(u)) + m + 1, w), min(int(round(v)) + m + 1, h)
        yy, xx = np.mgrid[v0:v1, u0:u1]
        out.append((u0, v0, (xx - u) ** 2 + (yy - v) ** 2 <= rr * rr, bool(0 <= u < w and 0 <= v < h)))
    return out


def untouched(dets: Detections, moved: np.ndarray, view: BoardView, pose: CameraPose,
              thickness: float) -> np.ndarray:
    """Per detection: True when no pixel of ``moved`` (a boolean mask of ``view``) falls on its
    silhouette. A silhouette reaching past the view's edge is judged on its part inside the view
    (the view covers the whole board, so nothing outside it can change); a disc whose centre is
    outside the view is never reported untouched."""
    out = np.zeros(len(dets), bool)
    for i, (u0, v0, mask, inside) in enumerate(silhouettes(dets, view, pose, thickness, moved.shape[:2])):
        if inside:
            h, w = mask.shape
            out[i] = not np.any(moved[v0 : v0 + h, u0 : u0 + w] & mask)
    return out
