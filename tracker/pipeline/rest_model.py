"""Where a crokinole disc lost at rest is put when no edge fit takes it: its whole picture.

A disc the detector lost at rest (``rest_unseen``) whose outline no fit near its forecast shows
well enough for the detector (a camouflaged disc: c2h_9932's brown discs on the blue board, edge
coverage 0.2-0.4 even from the true centre; c2h_9944's red discs on the red board), and that no
change on the board places either (``rest_search``), was reported at the tracker's forecast:
where its slide was coasted to after its last sighting, 3-10 mm from where it stopped (it turned
off a peg or a disc unseen, or stopped sooner than the coast).

The disc still shows as a whole: its face, its side wall and its cast shadow differ from the
board round it, though no ray along its rim finds a clear edge. The region model
(``silhouette.py``, the detector's own ``chamfer.ChamferCorrection`` model) predicts that whole
picture and fits the contact point to every pixel. Here it is fitted from the forecast, and again
from where it got to, until it stands still (``STILL_MM``; at most ``ROUNDS`` fits: one fit moves
a few millimetres at most, and a forecast 15-20 mm off takes several). A place past the surface's edge is put on the edge: the tracker holds
the disc at rest on the surface, and a disc whose centre passed the edge would have dropped into
the ditch (c4h_9951's w2, knocked to 0.03 mm inside the edge: the model 0.4 mm past it, which
called it off the board and lost its removal for stopping outside the shooting line). The place
is taken when it stayed within ``rest_unseen.REACH`` disc radii of the forecast, pushes into no
neighbour at rest (``rest_unseen.OVERLAP_MM``) and is a place a disc can rest (``verify.place_ok``: not over a peg), and where a disc's face shows there:
its top face differs from the board round it by the detector's ``min_color_step`` (``face_step``,
``verify.accept_colors``' measure; on a bare board the model settles somewhere all the same:
a forecast 40 mm from the disc, on the easy camera's plain board, drew it 5.6 mm to a face 3.6
off the board's). Otherwise the forecast stands.
Only the shot log's ends (and what the rules make of them) change.

Only where the picture is as fine as ``rest_unseen`` refits at (``MAX_MM_PER_PX``, 3.3 mm a pixel:
the 640x360 fixtures, not the 480x270 ones).

Replays of dets22 (``bench_review.py --dets``; 35 crokinole dev matches and the 6 crokinole
fixtures), median/p95 mm at rest, before -> after: c2h_9932 2.96/8.63 -> 1.97/4.23, c2h_9944
2.26/10.49 -> 1.57/5.12, c2h_9986 0.89/5.03 -> 0.58/2.53, c4h_9921 1.01/6.62 -> 0.99/2.05, c4h_9945
0.77/3.76 -> 0.67/1.51, c4h_9951 0.53/9.46 -> 0.46/1.30, c4h_9963 0.53/1.44 -> 0.48/1.00, c4h_9975
0.41/4.01 -> 0.41/4.20 with its round now exact (w2, forecast 15 mm off and not counted, now 3.2
mm off and counted); all 0.47/3.35 -> 0.47/2.44 mm, rounds 37/41 -> 38/41; the other matches
and the fixtures identical (a full review of c2h_9932 gives its replay's figures). ``ROUNDS`` 4
instead of 8: c2h_9944 p95 7.68 (s1 8.7 and s4 6.6 mm off, against 2.3 and 1.9: the model was
still on its way), all 0.47/2.67. Tried: one model fit instead of fits until it stands still
(about the same on c2h_9932: 21.0 against 20.7 mm over its 7 lost ends); no face check (c2h_9944 1.57
-> 0.74 median: one red disc on the red board, 0.4 mm off by the model, shows a face only 3.0
off the board's and now keeps its 5.2 mm forecast; but the model then also places discs on bare
board, as the test's); the edge fit's coverage from the model's place as the check instead
(0.00 for discs the model put within 2.3 mm on c4h_9921's blue on blue: it tells nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.chamfer import MODEL_MAX_VIEW_DEG
from tracker.detect.lab_weights import WEIGHTS as WEIGHT
from tracker.pipeline import rest_unseen
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

# On: a lost disc no fit takes is placed by the region model from its forecast (module docstring).
ON = True
# The model is fitted again from where it got to, at most this many times in all ...
ROUNDS = 8
# ... until a fit moves it less than this (mm).
STILL_MM = 0.3
# The coarsest picture (mm a pixel at the disc) where it is placed so (``rest_unseen``'s own bar).
MAX_MM_PER_PX = rest_unseen.MAX_MM_PER_PX


def place(det: DiscDetector, frame: np.ndarray, tracks: list[Track], tr: Track,
          at_xy: tuple[float, float]) -> tuple[float, float] | None:
    """The region model's place for the crokinole disc ``tr`` lost at rest, forecast at
    ``at_xy``, on ``frame``; None where the model cannot be fitted there or does not hold."""
    b = det.board
    assert isinstance(b, CrokinoleBoard)
    cc = rest_unseen.chamfer_correction(det)
    model = cc.model
    at = np.asarray(at_xy, float)
    if model is None:
        return None
    R = b.disc_radius
    px = det.refiner._mm_per_image_px(at)
    if px > MAX_MM_PER_PX or cc.view_deg(at) > MODEL_MAX_VIEW_DEG:
        return None
    occ = rest_unseen.occluders(det, tracks, tr, at, max(1.5, 0.75 * px))
    p = at
    for _ in range(ROUNDS):
        m = model.fit(frame, p, R, occluders=occ)
        if m is None or not bool(np.all(np.isfinite(m.centre))):
            return None
        step = float(np.hypot(*(m.centre - p)))
        p = np.asarray(m.centre, float)
        if step < STILL_MM:
            break
    r = float(np.hypot(*p))
    if r > b.surface_radius:  # (held at rest on the surface: its centre is over it, ``on_surface``)
        p = p * (b.surface_radius / r)
    if float(np.hypot(*(p - at))) > rest_unseen.REACH * R:
        return None
    if rest_unseen.overlap(tracks, tr, p, R) > rest_unseen.OVERLAP_MM or not det.place_ok(p, R, px):
        return None
    if face_step(det, frame, p) < det.settings.min_color_step:
        return None  # (the board's own face: no disc there to be fitted)
    return float(p[0]), float(p[1])


def face_step(det: DiscDetector, frame: np.ndarray, at: np.ndarray) -> float:
    """How far the top face of a disc standing at ``at`` is from the board around it (weighted
    8-bit Lab, as ``verify.accept_colors`` weighs it)."""
    R = det.board.disc_radius
    shift, k = det.pose.top_shift(np.asarray(at, float)[None], det.thickness)
    face, ring = det.refiner.colors(frame, np.asarray(at, float), at + shift[0], float(k[0]) * R)
    return float(np.linalg.norm((face - ring) * WEIGHT))
