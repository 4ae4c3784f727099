"""The boxes an incremental ring search covers: one per separate part of the changed region.

Between full passes the detector searches only where the view changed (``DiscDetector._changed``:
the changed pixels dilated by a disc). One bounding box around all of it is often most of the
view though the region itself is a few per cent of it: a hand at one side of the board and a
disc sliding at the other (c4h_8803 at 1280x720: the region 2-9% of the view, its bounding box
25-99%; such searches cost as much as a full view's). So the region's connected parts each get
their own box, with the ring filter's reach around it (``margin``), boxes that would overlap
merged into one, and the ring filter runs on each box alone (``candidates.search``).

Inside a box, at least ``margin`` from its edges, the filter's response is what it is over the
whole view (the ring and the edge field's blur reach no further), so the region's pixels are
answered as before, and the few around them that the peak search compares them with as they
were in one bounding box with the same margin; boxes do not overlap, so each pixel of the
response comes from one box.
"""

from __future__ import annotations

import cv2
import numpy as np

Box = tuple[int, int, int, int]  # y0, y1, x0, x1 (half-open)


def parts(valid: np.ndarray) -> np.ndarray:
    """The connected parts of ``valid`` (a boolean mask): (N, 5) rows x, y, w, h, area
    (OpenCV's component statistics, background left out).

    Labelled within the bounding box of ``valid`` only (its corner rounded down to even
    coordinates: OpenCV's labelling scans 2x2 blocks, which so stay aligned as over the whole
    mask): the same parts, in the same order, at a twentieth of the cost where the changed
    region is a few per cent of the view (1.2 -> 0.06 ms a call on a 431x431 crokinole view, once
    on every incremental detector call; ``tests/detect/test_boxes.py``)."""
    x, y, w, h = cv2.boundingRect(valid.view(np.uint8))
    if w == 0:
        return np.zeros((0, 5), np.int32)
    x0, y0 = x - x % 2, y - y % 2
    sub = np.ascontiguousarray(valid[y0 : y + h, x0 : x + w]).view(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(sub, connectivity=8)
    out = np.array(stats[1:n])
    out[:, 0] += x0
    out[:, 1] += y0
    return out


def region_boxes(valid: np.ndarray, margin: int, stats: np.ndarray | None = None) -> list[Box]:
    """Disjoint boxes, each a connected part (or several close ones) of ``valid`` (a boolean
    mask) with ``margin`` pixels around it, clipped to the mask's extent. ``stats``: ``parts``
    of ``valid`` when already found (each kind of disc searches the same region with its own
    margin)."""
    H, W = valid.shape
    boxes: list[Box] = []
    for x, y, w, h, _ in parts(valid) if stats is None else stats:
        boxes.append((max(int(y) - margin, 0), min(int(y + h) + margin, H),
                      max(int(x) - margin, 0), min(int(x + w) + margin, W)))
    return merge_overlapping(boxes)


def merge_overlapping(boxes: list[Box]) -> list[Box]:
    """``boxes`` with every pair that overlaps replaced by their common bounding box, until none
    overlap."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]:
                    out[i] = (min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return sorted(out)


def area(boxes: list[Box]) -> int:
    return sum((y1 - y0) * (x1 - x0) for y0, y1, x0, x1 in boxes)
