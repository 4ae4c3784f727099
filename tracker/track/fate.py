"""A disc's fate: the hole, a pocket, off the board — from the detector's verdict (debounced) and
the board geometry at rest, or, for a moving disc that vanished, from where it was last seen.

Pure functions on a :class:`Track` and the board model, used by the tracker.
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import IN_DITCH, IN_HOLE, IN_POCKET
from tracker.track.datatypes import Track


def where_verdict(board: CrokinoleBoard | KoronaBoard, tr: Track, where: int) -> None:
    """Debounced hole / pocket / ditch verdicts (two frames running), plus geometry at rest."""
    key = where
    last = next(iter(tr.where_votes), None)
    count = tr.where_votes.get(key, 0) + 1 if last == key else 1
    tr.where_votes = {key: count}
    x, y = tr.position()
    b = board
    if isinstance(b, CrokinoleBoard):
        if tr.state in ("rest", "moving") and ((where == IN_HOLE and count >= 2) or
                                              (tr.state == "rest" and _over_hole(b, x, y))):
            tr.state = "hole"
        elif tr.state in ("rest", "moving") and (
            (where == IN_DITCH or np.hypot(x, y) > b.surface_radius + 2.0) and count >= 2
        ):
            tr.state = "off"
    else:
        at_rest_in_pocket = tr.state == "rest" and b.pocket_of(x, y, tr.radius) is not None
        if tr.state in ("rest", "moving") and ((where == IN_POCKET and count >= 2) or at_rest_in_pocket):
            tr.state = "pocket"
            tr.pocket = b.pocket_of(x, y) or _nearest_pocket(b, x, y)
        elif tr.state in ("rest", "moving") and not b.on_surface(x, y) and count >= 2:
            # past the playing area in a corner: down a pocket (its mouth is wider than the
            # pocket circle of the board model); elsewhere: over the rim, off the board
            corner = min(abs(x), abs(y)) > b.half - b.pocket_inset - b.pocket_radius
            tr.state = "pocket" if corner else "off"
            if corner:
                tr.pocket = _nearest_pocket(b, x, y)


def _over_hole(b: CrokinoleBoard, x: float, y: float) -> bool:
    """A disc "at rest" with its centre well over the 20-hole is in it: flat on the surface, its
    centre would be over the hole with support on one side only, and it would tip in. (A sharp
    SPEC 2 test, d + r <= hole radius + tolerance, leaves 2.6 mm: less than the detector's error
    on a disc seen down in the hole.) Well inside: 0.6 of the hole radius.
    """
    return b.in_hole(x, y) or float(np.hypot(x, y)) <= 0.6 * b.hole_radius


def resolve_lost(board: CrokinoleBoard | KoronaBoard, tr: Track) -> None:
    """A moving disc vanished: into the hole, a pocket, off the board, or under a hand."""
    last = next((s for s in reversed(tr.path) if s.measured), None)
    lx, ly = (last.x, last.y) if last else (float(tr.xy[0]), float(tr.xy[1]))
    px, py = float(tr.xy[0]), float(tr.xy[1])
    b = board
    tr.v = np.zeros(2)
    if isinstance(b, CrokinoleBoard):
        if np.hypot(lx, ly) < b.hole_radius + 2 * tr.radius:
            tr.state, tr.xy = "hole", np.zeros(2)
            return
        if np.hypot(px, py) > b.surface_radius - tr.radius or np.hypot(lx, ly) > b.surface_radius - 2 * tr.radius:
            tr.state = "off"
            return
    else:
        pocket = b.pocket_of(lx, ly) or b.pocket_of(px, py)
        if pocket is None:
            c = b.pocket_centres()
            near = min(c, key=lambda k: np.hypot(lx - c[k][0], ly - c[k][1]))
            if np.hypot(lx - c[near][0], ly - c[near][1]) < b.pocket_radius + 2 * tr.radius:
                pocket = near
        if pocket is not None:
            tr.state, tr.pocket = "pocket", pocket
            return
        if not b.on_surface(px, py):
            tr.state = "off"
            return
    # Lost mid-board: treat as covered where it was last seen; the lift timer decides.
    tr.state = "rest"
    tr.occluded = True
    tr.xy = np.array([lx, ly])
    tr.anchor, tr.anchor_n = tr.xy.copy(), 1


def _nearest_pocket(b: KoronaBoard, x: float, y: float) -> str:
    c = b.pocket_centres()
    return min(c, key=lambda k: np.hypot(x - c[k][0], y - c[k][1]))
