"""Does the whole board show in the picture? The check that names the cut.

A board that runs off the image cannot be scored: a disc in the missing part is never seen.
A ring fit can still be geometrically right on the part that shows (the rings it can see fix
the homography), so the fit itself would be accepted; this module decides from a fit where
its shooting line lies and refuses with a sentence that names the image edge the board runs
off ("the board runs off the image at the left edge: 31% of the shooting line is outside
the picture"), instead of the less telling "rings not followed" or "no board found".

The shooting line is the circle checked: the 20 mm of surface outside it hold no scoring
positions that the shooting line's inside does not, and a bit of ditch or rim cut off by the
frame is common and harmless.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.calibration.geometry import apply_h
from tracker.calibration.lens import LensModel

CUT_MAX = 0.03  # fraction of the shooting line allowed outside the picture (a sliver at a corner)
SIDES = ("left", "right", "top", "bottom")


def outside(G: np.ndarray, size: tuple[int, int], lens: LensModel | None, radius_mm: float,
            n: int = 360) -> tuple[float, str]:
    """(fraction of the circle of ``radius_mm`` (a measured ring) about the board centre that
    projects outside the image, the image edge most of that part lies beyond). ``G`` maps board mm to
    (undistorted, when ``lens`` is given) image px; a point behind the camera counts as
    outside."""
    w, h = size
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    pts = radius_mm * np.stack([np.cos(a), np.sin(a)], axis=1)
    hom = np.concatenate([pts, np.ones((n, 1))], axis=1) @ G.T
    behind = hom[:, 2] <= 1e-9
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        p = apply_h(G, pts)
        if lens is not None and not lens.is_identity:
            p = lens.distort_px(p)
    bad = ~np.all(np.isfinite(p), axis=1) | behind
    p = np.where(bad[:, None], np.nan, p)
    with np.errstate(invalid="ignore"):
        beyond = np.stack([p[:, 0] < -0.5, p[:, 0] > w - 0.5, p[:, 1] < -0.5, p[:, 1] > h - 0.5], axis=1)
    out = bad | beyond.any(axis=1)
    frac = float(out.mean())
    if not out.any() or not beyond.any():
        return frac, ""
    side = SIDES[int(np.argmax(beyond.sum(axis=0)))]
    return frac, side


def cut_message(frac: float, side: str) -> str:
    return (f"the board runs off the image at the {side} edge: {100 * frac:.0f}% of the shooting "
            f"line is outside the picture, and discs there cannot be seen; aim or zoom the camera "
            f"so the whole board shows")
