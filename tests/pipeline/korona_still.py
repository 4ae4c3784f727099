"""A rendered korona still with its discs found at rest, for the tests of a shot's places at rest
(``pipeline.rest_places``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import Detections
from tracker.detect.detector import DiscDetector
from tracker.track.datatypes import Track

BOARD = KoronaBoard()


def settled(preset: str, size: tuple[int, int], seed: int, places: Sequence[tuple[float, float]],
            strikers: Sequence[tuple[float, float]] = ()) -> tuple[np.ndarray, DiscDetector, Detections, list[Track]]:
    """The still (discs at ``places``, the two sides taking turns, and ``strikers``), the detector
    on it, its second call's detections (the discs at rest) and a resting track standing on each."""
    from tracker.render.still import still_frame

    img, calib = still_frame(BOARD, preset, size, seed, lambda rng: [(x, y, i % 2) for i, (x, y) in enumerate(places)],
                             strikers=strikers)
    det = DiscDetector(calib, "korona")
    det.detect(img)
    dets = det.detect(img)
    tracks = [Track(id=i, kind=int(dets.kind[i]), radius=float(dets.radius[i]), xy=dets.xy[i].copy(),
                    anchor=dets.xy[i].copy(), anchor_n=5) for i in range(len(dets))]
    return img, det, dets, tracks
