"""Motion-blurred discs: streaks found against a background frame.

A disc sliding fast during the exposure is smeared into a capsule: as wide as the disc, longer by
the distance it travelled during the exposure, and semi-transparent (each pixel saw it for only
part of the exposure). The ring filter does not answer to that, so with a background frame (the
empty board, from ``DiscDetector.set_background``) we look for blobs in the colour difference
that no resting disc explains and whose shape is a disc-wide capsule. A hand or an arm is far
wider; noise and shadows are far smaller or fainter. The streak vector is the capsule's length
minus a disc diameter, along its long axis (the sign of the motion is not observable in one
frame: the tracker orients it from the track). Its colour is un-mixed from the background (each
pixel saw the disc for only part of the exposure), rough but on the right side of the classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from tracker.detect.datatypes import DISC, Detections

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

MIN_DIFF = 8.0  # Lab units (8-bit scale), summed over the weighted channels
MIN_ELONGATION = 1.35  # capsule length / disc diameter


def difference_mask(det: DiscDetector, lab: np.ndarray) -> np.ndarray:
    """Pixels of the coarse view that differ from the background (uint8 0/255)."""
    assert det.background_lab is not None
    cur = cv2.GaussianBlur(lab, (0, 0), 1.0)
    d = np.abs(cur - det.background_lab) * np.array([1.0, 1.6, 1.6], np.float32)
    diff = d.sum(axis=2)
    noise = float(np.median(diff[det._valid])) if det._valid.any() else 0.0
    mask = ((diff > max(MIN_DIFF, 4.0 * noise)) & det._valid).astype(np.uint8) * 255
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, k)


def find_streaks(det: DiscDetector, lab: np.ndarray, dets: Detections) -> Detections:
    """Append streak detections to ``dets`` (``streak`` set, lower confidence)."""
    mask = difference_mask(det, lab)
    view = det.view
    mpp = view.mm_per_px
    r = det.board.disc_radius
    # Resting discs (their silhouettes and shadows) are explained: clear them from the mask.
    for (x, y), rad in zip(dets.xy, dets.radius, strict=True):
        c = view.to_px(np.array([[x, y]]))[0]
        s, _k = det.pose.top_shift(np.array([[x, y]]), det.thickness)
        c2 = view.to_px(np.array([[x, y]]) + s)[0]
        rr = int(np.ceil((max(rad, r) + 3.0) / mpp))
        cv2.circle(mask, (int(round(c[0])), int(round(c[1]))), rr, 0, -1)
        cv2.circle(mask, (int(round(c2[0])), int(round(c2[1]))), rr, 0, -1)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    xy, vec, conf, col, sur = [], [], [], [], []
    assert det.background_lab is not None
    cur = cv2.GaussianBlur(lab, (0, 0), 1.0)
    for i in range(1, n):
        area_mm2 = stats[i, cv2.CC_STAT_AREA] * mpp * mpp
        if area_mm2 < 0.8 * np.pi * r * r:
            continue
        pts = np.column_stack(np.nonzero(labels == i)[::-1]).astype(np.float32)
        (cx, cy), (w, h), ang = cv2.minAreaRect(pts)
        width, length = sorted((w * mpp + mpp, h * mpp + mpp))
        if not (1.0 * r <= width <= 3.0 * r) or length < MIN_ELONGATION * 2 * r:
            continue
        # A capsule of this width and length has area ~ (length - width) * width + pi width^2 / 4.
        expect = (length - width) * width + np.pi * width * width / 4
        if not 0.6 * expect <= area_mm2 <= 1.3 * expect:
            continue
        theta = np.radians(ang if w >= h else ang + 90.0)
        axis_px = np.array([np.cos(theta), np.sin(theta)])
        axis_mm = np.array([axis_px[0], -axis_px[1]])  # view v grows southward
        centre = view.to_mm(np.array([[cx, cy]]))[0]
        xy.append(centre)
        vec.append(axis_mm * (length - 2 * r))
        conf.append(0.5)
        # Colour: each pixel saw the disc for about (diameter / capsule length) of the exposure,
        # so un-mix the blend with the background: disc = bg + (frame - bg) / alpha.
        inside = labels == i
        alpha = float(np.clip(2 * r / length, 0.2, 1.0))
        bg = det.background_lab[inside].mean(axis=0)
        mix = cur[inside].mean(axis=0)
        disc = np.clip(bg + (mix - bg) / alpha, 0.0, 255.0)
        col.append(_cie(disc))
        sur.append(_cie(bg))
    if not xy:
        return dets
    streaks = Detections(xy=np.array(xy), radius=np.full(len(xy), r), confidence=np.array(conf),
                         kind=np.full(len(xy), DISC),
                         where=np.array([det.where_of(float(x), float(y), r) for x, y in xy]),
                         streak=np.array(vec), color=np.array(col), surround=np.array(sur))
    return Detections.merge([dets, streaks])


def _cie(lab8: np.ndarray) -> np.ndarray:
    """OpenCV 8-bit-scale Lab -> CIE Lab."""
    return np.asarray(lab8, float) * np.array([100 / 255, 1, 1]) - np.array([0, 128, 128])
