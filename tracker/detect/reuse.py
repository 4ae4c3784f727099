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


def _windows(dets: Detections, view: BoardView, pose: CameraPose, thickness: float,
             shape: tuple[int, int]) -> list[tuple[float, float, float, int, int, int, int]]:
    """Per detection: its centre in ``view`` px, its silhouette's reach (px) and the window
    ``(u0, v0, u1, v1)`` holding the silhouette, clipped to a raster of ``shape``."""
    out: list[tuple[float, float, float, int, int, int, int]] = []
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
        out.append((float(u), float(v), float(rr), u0, v0, u1, v1))
    return out


def _mask(u: float, v: float, rr: float, u0: int, v0: int, u1: int, v1: int) -> np.ndarray:
    yy, xx = np.mgrid[v0:v1, u0:u1]
    return np.asarray((xx - u) ** 2 + (yy - v) ** 2 <= rr * rr)


def silhouettes(dets: Detections, view: BoardView, pose: CameraPose, thickness: float,
                shape: tuple[int, int]) -> list[tuple[int, int, np.ndarray, bool]]:
    """Per detection, its silhouette in ``view`` (a raster of ``shape``): the bottom circle
    widened by the top face's apparent shift and the chamfer's scale, plus a pixel for the blur,
    as ``(u0, v0, mask, centre_inside)``: the mask of the silhouette in its window clipped to the
    view, whose top-left pixel is (u0, v0), and whether the disc's centre is inside the view."""
    h, w = shape
    return [(u0, v0, _mask(u, v, rr, u0, v0, u1, v1), bool(0 <= u < w and 0 <= v < h))
            for u, v, rr, u0, v0, u1, v1 in _windows(dets, view, pose, thickness, shape)]


def untouched(dets: Detections, moved: np.ndarray, view: BoardView, pose: CameraPose,
              thickness: float) -> np.ndarray:
    """Per detection: True when no pixel of ``moved`` (a boolean mask of ``view``) falls on its
    silhouette. A silhouette reaching past the view's edge is judged on its part inside the view
    (the view covers the whole board, so nothing outside it can change); a disc whose centre is
    outside the view is never reported untouched. (The silhouette's mask is drawn only for a
    disc with a changed pixel in its window: most discs at rest are far from any change.)"""
    out = np.zeros(len(dets), bool)
    h, w = moved.shape[:2]
    for i, (u, v, rr, u0, v0, u1, v1) in enumerate(_windows(dets, view, pose, thickness, (h, w))):
        if not (0 <= u < w and 0 <= v < h):
            continue
        win = moved[v0:v1, u0:u1]
        out[i] = not win.any() or not np.any(win & _mask(u, v, rr, u0, v0, u1, v1))
    return out


def changed_share(dets: Detections, moved: np.ndarray, view: BoardView, pose: CameraPose,
                  thickness: float) -> np.ndarray:
    """Per detection: the share of its silhouette's pixels (its part inside the view) that
    ``moved`` marks changed (1.0 for a disc whose centre is outside the view)."""
    out = np.ones(len(dets))
    h, w = moved.shape[:2]
    for i, (u, v, rr, u0, v0, u1, v1) in enumerate(_windows(dets, view, pose, thickness, (h, w))):
        if not (0 <= u < w and 0 <= v < h):
            continue
        m = _mask(u, v, rr, u0, v0, u1, v1)
        out[i] = float(np.count_nonzero(moved[v0:v1, u0:u1] & m)) / max(int(np.count_nonzero(m)), 1)
    return out


def crept(dets: Detections, changed: np.ndarray, view: BoardView, pose: CameraPose, thickness: float,
          min_pixels: int) -> np.ndarray:
    """The silhouettes (a boolean mask of ``view``) of the detections with at least
    ``min_pixels`` pixels of ``changed`` on them: the raw changed pixels, before the opening that
    clears the view's noise. A disc creeping to a stop shifts its rim by a fraction of a view
    pixel a frame, a changed crescent thinner than the opening's 3 pixels, so the opened mask
    never shows it and the fit made while it still slid was kept at rest (c2h_9202 at 14.8 s:
    fitted two frames before it stopped, 3.4 mm off until the next shot). Noise changes
    scattered pixels; a crescent along the rim changes a run of them."""
    h, w = int(changed.shape[0]), int(changed.shape[1])
    out = np.zeros((h, w), bool)
    if not len(dets):
        return out
    for u, v, rr, u0, v0, u1, v1 in _windows(dets, view, pose, thickness, (h, w)):
        win = changed[v0:v1, u0:u1]
        if int(win.sum()) < min_pixels:
            continue
        m = _mask(u, v, rr, u0, v0, u1, v1)
        if int(np.count_nonzero(win & m)) >= min_pixels:
            out[v0:v1, u0:u1] |= m
    return out


def held_reference(grey: np.ndarray, before: np.ndarray | None, kept: Detections, view: BoardView,
                   pose: CameraPose, thickness: float) -> np.ndarray:
    """The next call's reference picture: ``grey``, except on the silhouettes of the discs kept
    unrefitted (``kept``), which keep the picture ``before`` they were last fitted against. A kept
    disc is then compared with the picture its fit was made on, not with the last frame, so a
    slow creep adds up until it shows instead of passing unseen frame by frame."""
    if before is None or not len(kept):
        return grey
    out = grey.copy()
    for u0, v0, m, _ in silhouettes(kept, view, pose, thickness, grey.shape[:2]):
        mh, mw = int(m.shape[0]), int(m.shape[1])
        out[v0:v0 + mh, u0:u0 + mw][m] = before[v0:v0 + mh, u0:u0 + mw][m]
    return out
