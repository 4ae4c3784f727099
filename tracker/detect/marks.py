"""Circles painted on a korona-family board are no discs.

A carrom board paints a filled, outlined circle at each end of its eight base lines and one in
the centre (``KoronaBoard.painted_circles``: in the board model, in millimetres, from the board
profile). Flat on the surface, each shows a closed outline all round about a coin's size, so
the outline fit takes it for a disc: on an empty carrom board (a 640x480 webcam frame) every
base circle and the centre circle were discs at rest.

A fit is such a mark when it is centred on one (within ``CENTRE`` of its radius, or two view pixels) with
the mark's size as seen (the fit's top rim on the surface, ``RADIUS_RANGE`` of the mark's
radius), unless the empty board's picture (``background.py``) shows the mark and this call's
view differs from it inside the mark: then a disc lies on the mark and stays a disc. Without
that picture (a single photo, the first frame of a video) a disc centred on a mark within those
few millimetres (8 on a carrom board) is taken for the mark; once the picture is learned it is found again as soon as
it is set down or moves onto a mark. The default korona board paints only a small centre dot
(5 mm radius against a 12.5 mm disc), which this never matches.

The built-in ``carrom`` profile declares the base circles but not the centre circle (it keeps
the 5 mm dot): carrom's queen, a coin of the same size, starts centred on that circle, and on a
real photo (IMG_20191019_142201) the queen was taken for the mark and lost, while on another
(IMG_20191019_142215) a painted centre dot was a phantom. A profile may declare
``centre_mark_radius`` for a board whose centre circle should never be a disc.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.background import BackgroundModel
from tracker.detect.streaks import MIN_DIFF
from tracker.detect.view_colours import lab_of

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector
    from tracker.detect.refine import Fit

# The fit's centre (foot or top rim as seen) this near the mark's centre, in the mark's radii: a
# striker-sized ring through a base circle and its line was centred 7 mm off it (a rendered
# carrom board, 1280x720)
CENTRE = 0.5
RADIUS_RANGE = (0.75, 1.25)  # the fit's radius as seen, in the mark's radii (a striker is 1.3)
INNER = 0.7  # the part of the mark compared with the empty board's picture (inside its outline)


def painted_mark(det: DiscDetector, fit: Fit) -> bool:
    """Whether ``fit`` is the outline of a circle painted on the board, with no disc on it."""
    board = det.board
    if not isinstance(board, KoronaBoard):
        return False
    seen = fit.top_radius if fit.top_radius > 0.0 else fit.radius
    for x, y, r in board.painted_circles():
        c = np.array([x, y])
        d = float(np.hypot(*(fit.centre - c)))
        if fit.top_centre is not None:
            d = min(d, float(np.hypot(*(fit.top_centre - c))))
        if d < max(CENTRE * r, 2.0 * det.view.mm_per_px) and RADIUS_RANGE[0] * r <= seen <= RADIUS_RANGE[1] * r and not covered(det, c, r):
            return True
    return False


def covered(det: DiscDetector, centre: np.ndarray, radius: float) -> bool:
    """Whether this call's view differs, inside the mark at ``centre``, from the empty board's
    picture there (known for at least half of it): something lies on the mark."""
    bg = det.background
    change = median_change(det, bg, centre, radius)
    return change is not None and change > bg.threshold(MIN_DIFF)


def median_change(det: DiscDetector, bg: BackgroundModel, centre: np.ndarray, radius: float) -> float | None:
    """The median difference (``BackgroundModel.difference``) between this call's view and
    ``bg``'s picture of the empty board inside ``INNER`` of the circle at ``centre`` (``radius``,
    mm); None where the picture is not learned, or not known for half of that circle."""
    view = det.current_view
    if not bg.ready or view is None:
        return None
    v = det.view
    u, w = v.to_px(np.asarray(centre, float)[None])[0]
    rp = INNER * radius / v.mm_per_px
    x0, x1 = max(0, int(u - rp) - 2), min(v.width, int(u + rp) + 3)
    y0, y1 = max(0, int(w - rp) - 2), min(v.height, int(w + rp) + 3)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1]
    inside = np.hypot(xx - u, yy - w) <= rp
    known = inside & bg.known[y0:y1, x0:x1]
    if known.sum() < 0.5 * inside.sum():
        return None
    blurred = BackgroundModel.prepare(lab_of(np.ascontiguousarray(view[y0:y1, x0:x1])))
    return float(np.median(bg.difference(blurred, (y0, y1, x0, x1))[known]))
