"""Where the view changed since the detector's last call (``DiscDetector.detect``, stage 2 of its
module docstring), and a call on a view where nothing changed near anything.

``changed``: the grey view against the reference the discs were last fitted on, thresholded,
opened, filtered for the picture's noise (``change_noise.py``), with discs creeping to a stop
added (``reuse.crept``), and the search region: the changed pixels dilated by a disc. ``still``:
the discs found before stand; strikers settle, lost discs and rows are remembered, a disc at rest
missed is sought (``rest_blobs.py``), and the pending chamfer refits are done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from tracker.detect import strikers
from tracker.detect.datatypes import Detections
from tracker.detect.rest_blobs import stale_discs
from tracker.detect.reuse import crept

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector


def changed(det: DiscDetector, view: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray]:
    """Where the view changed since the last detection: the changed pixels themselves (None
    on the first call or with reuse off), and the same dilated by a disc (where a disc could
    have gone; None for a full pass: first call, periodic refresh, ``refresh()``, reuse
    off). Also the view's grey image."""
    grey = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
    st = det.settings
    if det._ref_grey is None or det._last is None or not st.reuse:
        return None, None, grey
    # (in OpenCV on 0/1 bytes, read as booleans without a copy)
    diff = cv2.absdiff(grey, det._ref_grey)
    _, raw = cv2.threshold(diff, st.change_level, 1, cv2.THRESH_BINARY)
    raw = cv2.bitwise_and(raw, det._valid.view(np.uint8))
    moved = cv2.morphologyEx(raw, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # on a noisy picture, only the changed parts that stand out of the noise
    # (``change_noise.py``; off in the settings, on for crokinole: ``pipeline.CHANGE_NOISE``)
    det.noise.learn(diff, det._valid.view(np.uint8))
    confirmed = det.noise.confirmed(moved, diff, st.change_level)
    if confirmed is not moved and det.noise.keep_on_discs and len(det._last):
        # the dropped parts still stand on the silhouettes of the discs found before: they
        # are refitted as often as on the unfiltered mask (``change_noise.py``)
        on = crept(det._last, moved.view(bool), det.view, det.pose, det.thickness, 1)
        confirmed = cv2.bitwise_or(confirmed, cv2.bitwise_and(moved, on.view(np.uint8)))
    moved = confirmed
    if st.creep_pixels > 0:  # a disc creeping to a stop (``reuse.crept``)
        creep = crept(det._last, raw.view(bool), det.view, det.pose, det.thickness, st.creep_pixels)
        moved = cv2.bitwise_or(moved, creep.view(np.uint8))
    if det._force_full or (det.periodic and det._since_full >= st.refresh_frames):
        return moved.view(bool), None, grey
    r = max(rad for _, rad in det.kinds)
    k = 2 * int(np.ceil(1.6 * r / det.mm_per_px)) + 1
    region = cv2.dilate(moved, np.ones((k, k), np.uint8))  # square: separable, fast
    return moved.view(bool), region.view(bool), grey


def still(det: DiscDetector, frame_bgr: np.ndarray, view: np.ndarray, grey: np.ndarray) -> Detections:
    """The detections of a call whose view changed nowhere near a disc: the last ones, kept
    (each of its stages as in ``DiscDetector.detect``); streaks and the chamfer correction are
    added by the caller."""
    det._since_full += 1
    assert det._last is not None
    det._last = strikers.settle(det, frame_bgr, det._last, det._settled)
    det.lost.still(det._last)
    if det.settings.rows and det.settings.row_memory:
        det.row_memory.still(det, view, det._last, grey)
    if det.settings.rest_blobs or det.settings.blob_regions:  # a disc at rest missed, its blob about to be absorbed (``rest_blobs.py``)
        found = stale_discs(det, frame_bgr, view, det._last)
        if len(found):
            det._last = Detections.merge([det._last, found])
    if det.chamfer is not None:  # every disc kept: the pending chamfer refits are due
        det.chamfer.begin(frame_bgr, det._last)
    return det._last[np.arange(len(det._last))]
