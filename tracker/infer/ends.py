"""Small helpers on tracks and paths shared by the shot segmenter and the unseen-shot inference."""

from __future__ import annotations

import numpy as np

from tracker.infer.datatypes import End
from tracker.track.datatypes import Track


def peak_speed(p: np.ndarray) -> float:
    """Fastest speed (mm/s) between successive samples of a path (rows t, x, y)."""
    if len(p) < 2:
        return 0.0
    dt = np.diff(p[:, 0])
    ok = dt > 0
    v = np.hypot(np.diff(p[:, 1])[ok], np.diff(p[:, 2])[ok]) / dt[ok]
    return float(v.max()) if len(v) else 0.0


def end_of(tr: Track) -> End:
    """Where a disc ended a shot (SPEC 4b): a rest place, hole, pocket:xx, off, or lifted."""
    if tr.state == "hole":
        return "hole"
    if tr.state == "pocket":
        return f"pocket:{tr.pocket}" if tr.pocket else "off"
    if tr.state in ("off",):
        return "off"
    if tr.state == "lifted":
        return "lifted"
    x, y = tr.position()
    return (round(x, 2), round(y, 2))
