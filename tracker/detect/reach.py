"""A weak find that is the tip of something reaching in over the board's edge, not a disc.

A hand resting on the board, fingertips down beside the disc it holds, shows round skin-coloured
tips about a disc's size, each closed by the board on most sides: ricochet.mp4 (a tournament's
overhead camera), at the cut to the second view, took two fingertips for discs (confidence 0.41
and 0.39, skin-coloured) and kept them at rest as long as the hand held its disc. Their outline
agrees with the board round them (0.47 and 0.88) and their foot matches their face, so neither a
shadow's frame (``framed.py``) nor the foot test (``footing.py``) tells them apart.

What does: a disc's face ends at its outline, where the board (or a neighbour, or the ditch)
differs from it; a fingertip's runs on, along the finger, up the hand and the arm, off the board.
Over the coarse top-down view, the pixels connected to the find's top face that keep its colour
(within ``REACH_LAB`` of its median: a flood fill) are followed; a find whose face runs on past the
board's outer edge (out of the detector's board region) reaches in from outside and is dropped
(ricochet.mp4's first fingertip: its fill runs to 423 mm from the centre, past the ditch's outer edge).
A weak find beside one so dropped (within ``FINGERS`` radii), in its colour, is another fingertip
of the same hand: the second one's fill stopped at the crease of shade between the fingers
(302 mm), 29 mm from the first, its colour within the margin of the first's.
Only weak finds (confidence under ``WEAK``: a fingertip's outline is part open, its ring filter
response low) are looked at: a disc clearly found is left alone, and a look costs a fill of the
view. The colour margin is narrow (the lightness, which shading changes most, wider): a disc of
nearly the board's colour must not spill over the board's whole surface and out.
Crokinole only: on korona_2p_game it dropped finds too (a pocket call fewer, 87% -> 80% recall;
fewer identity switches), discs by the rims, where a disc and the rim beside it can share a
colour; left alone there until looked into.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

WEAK = 0.5  # finds of lower confidence are looked at
REACH_LAB = (30.0, 8.0, 8.0)  # 8-bit Lab: how far from the face's colour the fill may stray
FINGERS = 3.0  # disc radii: the fingertips of one hand lie this close together


def face_and_reach(det: DiscDetector, lab: np.ndarray, xy: np.ndarray, radius: float
                   ) -> tuple[np.ndarray | None, bool]:
    """The median colour of the top face of a find at ``xy`` (mm, where it stands) in the
    detector's coarse view (``lab``: the view in 8-bit Lab), and whether that face runs on, in its
    own colour, out of the board region (None, False when the face is out of the view)."""
    v = det.view
    P = np.asarray(xy, float).reshape(1, 2)
    s, k = det.pose.top_shift(P, det.thickness)
    u, w = np.round(v.to_px(P + s)[0]).astype(int)
    h, wd = lab.shape[:2]
    if not (0 <= u < wd and 0 <= w < h):
        return None, False
    r = max(1, int(0.5 * float(k[0]) * radius / v.mm_per_px))
    face = np.median(lab[max(w - r, 0):w + r + 1, max(u - r, 0):u + r + 1].reshape(-1, 3), axis=0)
    img = np.array(lab, np.float32)
    img[w, u] = face  # the fill compares with the face's median colour
    mask = np.zeros((h + 2, wd + 2), np.uint8)
    flags = 4 | cv2.FLOODFILL_FIXED_RANGE | cv2.FLOODFILL_MASK_ONLY | (1 << 8)
    cv2.floodFill(img, mask, (int(u), int(w)), (0.0, 0.0, 0.0), REACH_LAB, REACH_LAB, flags)
    return face, bool((mask[1:-1, 1:-1].astype(bool) & ~det._valid).any())


def drop_reaching(det: DiscDetector, view: np.ndarray, dets: Detections) -> Detections:
    """``dets`` without the weak finds that reach in from outside the board, nor the weak finds
    beside one of them (within ``FINGERS`` radii) in its colour (within ``REACH_LAB``): the
    fingertips of one hand, a crease of shade between them (ricochet.mp4's second fingertip: its
    own face's fill stops at the crease)."""
    weak = np.nonzero(dets.confidence < WEAK)[0]
    if not len(weak) or not isinstance(det.board, CrokinoleBoard):
        return dets
    lab = det.colours.lab(view)
    looks = {int(i): face_and_reach(det, lab, dets.xy[i], float(dets.radius[i])) for i in weak}
    hands = [(dets.xy[i], face) for i, (face, out) in looks.items() if out and face is not None]
    keep = np.ones(len(dets), bool)
    tol = np.array(REACH_LAB)
    for i, (face, out) in looks.items():
        beside = face is not None and any(
            float(np.hypot(*(dets.xy[i] - at))) < FINGERS * float(dets.radius[i]) and bool(np.all(np.abs(face - f) <= tol))
            for at, f in hands)
        keep[i] = not (out or beside)
    return dets if keep.all() else dets[keep]
