"""The crokinole ditch beside a disc at the surface's edge, for the occlusion-aware pass
(``clusters.py``; split out of it).

* ``ditch_circle``: the ditch as one occluder circle. A dark disc there merges with a dark ditch
  as with the dark 20-hole, and shows no edge on that side (c2e_8801: a black disc 315 mm out,
  its rim 1 mm over the edge, was lost as it came to rest and called off the board).
* ``like_ditch``: whether masking it was fair for a fit: only for a face nearer the ditch's
  colour than the board's. Any other disc there shows its whole outline to the first pass; a
  circle that closes only with the ditch side masked is board: the shooting line, a quadrant
  line's end and the surface's edge, lit by the lamp's glare (c4h_9303, hard preset: a blue
  ditch, the glare there fitted as a light disc from 14 s on, a quarter of its rays on the ditch
  side masked, its face brighter than the board but of the board's hue; taken as an east shot).
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.lab_weights import WEIGHTS32 as WEIGHTS
from tracker.detect.refine import Fit, Refiner

DITCH_SCALE = 10.0  # the ditch's stand-in circle, in surface radii (``ditch_circle``: 0.4 mm off over a disc)
DITCH_SAMPLE = 0.3  # where the ditch's colour is read: this share of the way across it (``like_ditch``)


def ditch_circle(board: CrokinoleBoard | KoronaBoard, xy: np.ndarray, radius: float, margin: float) -> np.ndarray:
    """The ditch beside a disc of ``radius`` at ``xy`` as one circle (0 or 1 rows of x, y, r),
    inflated by ``margin``: locally the region beyond the surface radius ``R`` is the inside of
    a circle ``DITCH_SCALE`` times larger, tangent to the surface's edge where the line from the
    centre through the disc meets it. None (0 rows) away from the edge and on korona boards."""
    d = float(np.hypot(*xy))
    if not isinstance(board, CrokinoleBoard) or d + 1.5 * radius < board.surface_radius or d < 1.0:
        return np.zeros((0, 3))
    big = DITCH_SCALE * board.surface_radius
    c = np.asarray(xy, float) / d * (board.surface_radius + big)
    return np.array([[c[0], c[1], big + margin]])


def like_ditch(board: CrokinoleBoard, refiner: Refiner, frame: np.ndarray, fit: Fit, radius: float,
               board_lab: np.ndarray) -> bool:
    """Whether the face of ``fit`` (beside the surface's edge) is nearer the ditch's colour
    than the board's (``board_lab``), all 8-bit Lab weighted (a dark disc beside a near-black
    ditch: 34 from it, ``test_ditch_edge``). The ditch is read in ``frame`` just beyond the
    edge, on the disc's side, where its floor lies."""
    assert fit.color is not None
    d = max(float(np.hypot(*fit.centre)), 1.0)
    a = np.arctan2(fit.centre[1], fit.centre[0]) + np.linspace(-1.0, 1.0, 5) * radius / d
    r = board.surface_radius + DITCH_SAMPLE * (board.ditch_outer_radius - board.surface_radius)
    pts = np.stack([r * np.cos(a), r * np.sin(a)], 1)
    ditch = np.median(refiner._sample(frame, pts[None])[0], axis=0)
    return float(np.linalg.norm((fit.color - ditch) * WEIGHTS)) < float(np.linalg.norm((fit.color - board_lab) * WEIGHTS))
