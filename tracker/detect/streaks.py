"""Motion-blurred discs: streaks found against the learned empty board.

A disc sliding fast during the exposure is smeared into a capsule: as wide as the disc, longer by
the distance it travelled during the exposure, and semi-transparent (each pixel saw it for only
part of the exposure). The ring filter does not answer to that, so we look for blobs in the colour
difference from the empty board (:class:`tracker.detect.background.BackgroundModel`) that no
resting disc explains and whose shape is a disc-wide capsule. A hand or an arm is far wider; noise
and shadows are far smaller or fainter.

Design decisions:

* Only where the view changed. A moving disc changes the view wherever it is, so the difference is
  taken in the bounding box of the detector's changed region (plus a margin), not the whole view:
  most moving frames show one disc, and the box is a small part of the board.
* Shape from moments, all blobs at once. The blob's pixels are gathered once (``np.nonzero``),
  sorted by label, and each blob's centre and axes come from its second moments; its width and
  length are its robust extents (3rd to 97th percentile) across and along the long axis, measured
  where the blob is at least ``HALF`` of its own peak (compression speckle and shadows touching a
  faint streak would widen it). No per-blob full-image mask.
* What is not a disc in flight, each rule seen to fail without it on the fixtures (see
  ``benchmarks/bench_motion.py``): a blob that crosses the board's edge band (a hand, an arm or a
  cue reaches in from outside); a blob of which under ``MIN_MOVED`` changed since the previous
  call (discs at rest the detector misses, two of them touching make a capsule too); the blur left
  beside a sharp disc that moved since the previous call (slow enough for the ring filter: it is
  that disc); a capsule lying where one lay on the previous call (a disc blurred by ``b`` travels
  at least ``b`` between frames; a stick being aimed does not); a blob faint all over
  (``MIN_PEAK``).
* Oblique cameras: a disc's silhouette spans its base and its top face, which the camera sees
  shifted by ``top_shift`` (14 mm at the far side of triple.mp4's board), so a streak may be
  that much wider than a disc; the width limit grows by it (the black shot disc leaving the
  board there measured 51 mm against a flat limit of 50.5 and was lost, and its track took
  over a red disc's identity).
* The kind from the width: on a korona board a striker streak is twice as wide as a pawn's, and
  the tracker needs the kind to carry the striker's identity through the shot.
* What is reported: the capsule's centre (the disc's place at mid-exposure, which is the frame's
  time for a centred shutter), ``streak`` = the travel during the exposure along the long axis
  (capsule length minus a diameter; its sign is not observable in one frame: the tracker orients it
  from the track), the ends ``centre -+ streak / 2`` (:func:`streak_ends`), and a colour un-mixed
  from the board (each pixel saw the disc for about a diameter over the capsule length of the
  exposure), rough but on the right side of the classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.background import BackgroundModel, silhouettes
from tracker.detect.datatypes import DISC, STRIKER, Detections

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

MIN_DIFF = 8.0  # Lab units (8-bit scale), summed over the weighted channels
MIN_ELONGATION = 1.35  # capsule length / disc diameter
SHADOW_MM = 3.0  # margin around a resting disc's silhouette that it explains (its shadow)
STREAK_CONFIDENCE = 0.5
RIM_TOUCH = 0.25  # a blob on more than this many disc widths of the board's edge band reaches in
MIN_PEAK = 2.0  # a streak's core differs by at least this many thresholds
MIN_MOVED = 0.2  # share of a streak's pixels that changed since the previous call
MAX_CHANGED = 0.3  # share of the board changed since the previous call beyond which streaks are not sought
HALF = 0.3  # a blob is measured where its difference is at least this share of its peak


def streak_ends(dets: Detections) -> tuple[np.ndarray, np.ndarray]:
    """The two ends (N, 2) of each row's blur (equal to ``xy`` for sharp rows), mm."""
    half = 0.5 * dets.streak
    return dets.xy - half, dets.xy + half


def changed_box(region: np.ndarray | None, shape: tuple[int, int], margin: int) -> tuple[int, int, int, int] | None:
    """(y0, y1, x0, x1) around the True pixels of ``region`` plus ``margin``; the whole view
    for None; None when nothing changed."""
    h, w = shape
    if region is None:
        return 0, h, 0, w
    rows = np.flatnonzero(region.any(axis=1))
    if len(rows) == 0:
        return None
    cols = np.flatnonzero(region.any(axis=0))
    return (max(int(rows[0]) - margin, 0), min(int(rows[-1]) + margin + 1, h),
            max(int(cols[0]) - margin, 0), min(int(cols[-1]) + margin + 1, w))


def explained(det: DiscDetector, dets: Detections, shape: tuple[int, int], offset: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Mask (of a window at ``offset`` = (y0, x0) of the view) of what the detections explain:
    each disc's silhouette, its top face's apparent place and its shadow."""
    if not len(dets):
        return np.zeros(shape, bool)
    view = det.view
    s, k = det.pose.top_shift(dets.xy, det.thickness)
    off = np.array([offset[1], offset[0]], float)
    c = view.to_px(dets.xy) - off
    c2 = view.to_px(dets.xy + s) - off
    r = (np.maximum(dets.radius, 0.8 * det.board.disc_radius) * k + SHADOW_MM) / view.mm_per_px
    return silhouettes(shape, c, c2, r)


def find_streaks(det: DiscDetector, view_bgr: np.ndarray, dets: Detections,
                 moved: np.ndarray | None = None, lab: np.ndarray | None = None) -> Detections:
    """Append streak detections to ``dets`` (``streak`` set, lower confidence). ``moved``: the
    view's pixels that changed since the previous call (None: look everywhere, e.g. a first
    call); ``lab``: the whole view's Lab when already computed."""
    model: BackgroundModel | None = det.background
    if model is None or not model.ready:
        return dets
    before, model.previous_streaks = model.previous_streaks, []
    view = det.view
    mpp = view.mm_per_px
    radii = sorted(r for _, r in det.kinds)
    r_min, r_max = radii[0], radii[-1]
    margin = int(np.ceil(2 * r_max / mpp)) + 2
    # Most of the board changed at once: the camera moved (or the light), the model no longer
    # lines up with the view and every board line would look like a streak.
    if moved is not None and float(moved.mean()) > MAX_CHANGED * float(model.valid.mean()):
        return dets
    box = changed_box(moved, model.valid.shape, margin)
    if box is None:
        return dets
    y0, y1, x0, x1 = box
    H, W = model.valid.shape
    if box == (0, H, 0, W) and (lab is None or det.colours.is_whole(view_bgr, lab)):
        blurred = det.colours.blurred(view_bgr)  # (the whole view's, made once a call)
    else:
        crop = lab[y0:y1, x0:x1] if lab is not None else det.colours.lab(view_bgr, (y0, y1, x0, x1))
        blurred = BackgroundModel.prepare(crop)
    diff = model.difference(blurred, box)
    mask = (diff > model.threshold(MIN_DIFF)) & model.valid[y0:y1, x0:x1]
    mask &= ~explained(det, dets, mask.shape, (y0, x0))
    # Sharp discs that moved since the previous call (slow enough for the ring filter): what is
    # left of their blur beside them is no other disc.
    sharp = dets[np.hypot(*dets.streak.T) == 0] if len(dets) else dets
    shifted = _moved(sharp, model.previous_xy)
    beside = cv2.dilate(explained(det, sharp[shifted], mask.shape, (y0, x0)).astype(np.uint8),
                        np.ones((5, 5), np.uint8)).astype(bool) if shifted.any() else None
    model.previous_xy = sharp.xy.copy()
    m8 = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m8, connectivity=8)
    min_area = 0.6 * np.pi * r_min * r_min / (mpp * mpp)
    big = np.nonzero(stats[1:, cv2.CC_STAT_AREA] >= min_area)[0] + 1
    if len(big) == 0:
        return dets
    rows: list[tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]] = []
    striker_r = det.board.striker_radius if isinstance(det.board, KoronaBoard) else None
    thr = model.threshold(MIN_DIFF)
    for py, px in _blob_pixels(labels, stats, big):
        if beside is not None and beside[py, px].any():
            continue
        # A disc in flight changes the view where it is; a blob that stands still (discs at rest
        # the detector misses, touching in a row) does not.
        if moved is not None and float(moved[py + y0, px + x0].mean()) < MIN_MOVED:
            continue
        # The blob at half its own height: compression speckle and shadows that touch it are
        # far fainter than a disc, and would widen it (a faint streak keeps its faint core).
        # A hand, an arm or a cue reaches in over the edge of the board: it crosses the edge
        # band. (A disc in flight meets the edge only as it hits the rim; that frame is lost.)
        if int(model.rim[py + y0, px + x0].sum()) > max(2.0, RIM_TOUCH * 2 * r_min / mpp):
            continue
        vals = diff[py, px]
        peak = float(np.percentile(vals, 90))
        if peak < MIN_PEAK * thr:  # faint all over: compression blocks, a shadow
            continue
        sel = vals >= HALF * peak
        py, px = py[sel], px[sel]
        # Under an oblique camera a disc's silhouette spans its base and its top face, shifted
        # by up to |s| (``top_shift``): a streak is that much wider across its blur than flat.
        mid = view.to_mm(np.array([[float(px.mean()) + x0, float(py.mean()) + y0]]))
        tilt = float(np.hypot(*det.pose.top_shift(mid, det.thickness)[0][0]))
        found = _capsule(py, px, mpp, r_min, r_max, tilt)
        if found is None:
            continue
        (cu, cv), axis_px, width, length = found
        kind, r = DISC, det.board.disc_radius
        if striker_r is not None and abs(width - 2 * striker_r) < abs(width - 2 * r):
            kind, r = STRIKER, striker_r
        if length < MIN_ELONGATION * 2 * r:
            continue
        centre = view.to_mm(np.array([[cu + x0, cv + y0]]))[0]
        axis_mm = np.array([axis_px[0], -axis_px[1]])  # view v grows southward
        vec = axis_mm * max(length - 2 * r, 0.0)
        # Colour: un-mix the blend with the board: disc = bg + (frame - bg) / alpha.
        alpha = float(np.clip(2 * r / length, 0.2, 1.0))
        assert model.lab is not None
        bg = model.lab[py + y0, px + x0].mean(axis=0) + model.offset
        mix = blurred[py, px].mean(axis=0)
        colour = np.clip(bg + (mix - bg) / alpha, 0.0, 255.0)
        rows.append((centre, vec, kind, _cie(colour), _cie(bg)))
    model.previous_streaks = [(row[0], row[1]) for row in rows]
    rows = [row for row in rows if not _lingers(row[0], row[1], before)]
    if not rows:
        return dets
    xy = np.array([row[0] for row in rows])
    kinds = np.array([row[2] for row in rows])
    rad = np.where(kinds == STRIKER, r_max, det.board.disc_radius)
    streaks = Detections(xy=xy, radius=rad, confidence=np.full(len(rows), STREAK_CONFIDENCE), kind=kinds,
                         where=np.array([det.where_of(float(x), float(y), float(r)) for (x, y), r in zip(xy, rad, strict=True)]),
                         streak=np.array([row[1] for row in rows]), color=np.array([row[3] for row in rows]),
                         surround=np.array([row[4] for row in rows]))
    return Detections.merge([dets, streaks])


def _blob_pixels(labels: np.ndarray, stats: np.ndarray, ids: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The pixels (rows, columns; in raster order) of each component ``ids`` (ascending) of a
    ``cv2.connectedComponentsWithStats`` labelling, each read within its own bounding box (the
    whole window's ``np.nonzero`` and a sort by label cost more than the blobs' own work)."""
    out = []
    for i in ids:
        x, y, w, h = (int(v) for v in stats[i, :4])
        py, px = np.nonzero(labels[y:y + h, x:x + w] == i)
        out.append((py + y, px + x))
    return out


def _lingers(centre: np.ndarray, vec: np.ndarray, before: list[tuple[np.ndarray, np.ndarray]]) -> bool:
    """True when a capsule like this one (same axis) lay about here on the previous call. A disc
    blurred by ``b`` during the exposure travels at least ``b`` between two frames, so a streak
    that stays put is something long and slow: a cue, a finger, a stick being aimed."""
    b = float(np.hypot(*vec))
    for c0, v0 in before:
        b0 = float(np.hypot(*v0))
        if min(b, b0) <= 1e-6:
            continue
        if abs(float(vec @ v0)) / (b * b0) < np.cos(np.radians(20.0)):
            continue
        if float(np.hypot(*(centre - c0))) < 0.5 * min(b, b0):
            return True
    return False


def _moved(sharp: Detections, before: np.ndarray, tol: float = 3.0) -> np.ndarray:
    """Per sharp detection: True when no detection of the previous call lay within ``tol`` mm."""
    if not len(sharp):
        return np.zeros(0, bool)
    if not len(before):
        return np.ones(len(sharp), bool)
    d = np.hypot(sharp.xy[:, None, 0] - before[None, :, 0], sharp.xy[:, None, 1] - before[None, :, 1])
    return np.asarray(d.min(axis=1) > tol)


def _capsule(py: np.ndarray, px: np.ndarray, mpp: float, r_min: float, r_max: float, tilt: float = 0.0
             ) -> tuple[tuple[float, float], np.ndarray, float, float] | None:
    """A blob's centre (view px), long axis (unit, view px), width and length (mm) when it is
    shaped like a disc-wide capsule, else None. ``tilt``: how far (mm) the camera sees a disc's
    top face shifted from its base here; the silhouette is that much wider at most."""
    x = px.astype(np.float64)
    y = py.astype(np.float64)
    cx, cy = float(x.mean()), float(y.mean())
    dx, dy = x - cx, y - cy
    sxx, syy, sxy = float(dx @ dx), float(dy @ dy), float(dx @ dy)
    theta = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    axis = np.array([np.cos(theta), np.sin(theta)])
    along = dx * axis[0] + dy * axis[1]
    across = -dx * axis[1] + dy * axis[0]
    # extents between the 3rd and 97th percentiles: a few stray pixels do not widen the blob
    a_lo, a_hi = np.percentile(along, [3.0, 97.0])
    c_lo, c_hi = np.percentile(across, [3.0, 97.0])
    length = (float(a_hi - a_lo) + 1.5) * mpp
    width = (float(c_hi - c_lo) + 1.5) * mpp
    # As wide as a disc, widened by the blur of the view and the picture (a few view pixels),
    # the disc's shadow and its height; a palm or an arm is wider.
    if not (1.2 * r_min <= width <= 2 * r_max + tilt + 6 * mpp + 6.0):
        return None
    if length < MIN_ELONGATION * 2 * r_min:
        return None
    # A capsule of this width and length has area ~ (length - width) * width + pi width^2 / 4.
    area = len(px) * mpp * mpp
    expect = (length - width) * width + np.pi * width * width / 4
    if not 0.5 * expect <= area <= 1.4 * expect:
        return None
    # centre of the extent along the axis (a partly hidden streak's mean is off-centre)
    mid = 0.5 * float(a_hi + a_lo)
    return (cx + mid * axis[0], cy + mid * axis[1]), axis, width, length


def _cie(lab8: np.ndarray) -> np.ndarray:
    """OpenCV 8-bit-scale Lab -> CIE Lab."""
    return np.asarray(lab8, float) * np.array([100 / 255, 1, 1]) - np.array([0, 128, 128])
