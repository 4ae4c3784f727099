"""The 20-hole as the disc detector sees it: the empty hole's colour (learned from the frame the
empty-board model starts from, and again after a new fit of the board), finds that are the empty
hole itself, and discs sunk in it seen from an oblique camera. Crokinole only; a korona board
has no 20-hole."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect import verify
from tracker.detect.background import BackgroundModel
from tracker.detect.datatypes import IN_HOLE, Detections
from tracker.detect.refine import Fit
from tracker.detect.view_colours import lab_of

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector


def empty_hole_colour(det: DiscDetector, blurred: np.ndarray, discs: Detections | None) -> np.ndarray | None:
    """The empty 20-hole's colour (Lab) in ``blurred`` (the prepared top-down view the empty-board
    model starts from), or None when a disc of ``discs`` lies over the hole (or the board has none)."""
    b = det.board
    if not isinstance(b, CrokinoleBoard):
        return None
    if discs is not None and bool(np.any(np.hypot(*discs.xy.T) < b.hole_radius + discs.radius)):
        return None
    u, v = np.round(det.view.to_px(np.zeros((1, 2)))[0]).astype(int)
    return blurred[v, u].astype(float)


def empty_hole_finds(det: DiscDetector, dets: Detections) -> np.ndarray:
    """Which of ``dets`` (found with the empty hole's colour unknown) are the empty 20-hole:
    centred on it and as dark as an empty hole (``verify.hole_dark``). At 480x270-640x360
    the empty near-black hole fits smaller than a disc and passes for a black disc sunk in
    it; found on the frame the empty-board model starts from, it hid the hole's colour from
    the check for good (crokinole_4p_part: a "disc" in the hole all match, taken for west's
    20 once a shot passing by had hidden it a while). A black disc truly sunk in the hole on
    that frame is taken for the empty hole too (20s are lifted out at once: rare)."""
    out = np.zeros(len(dets), bool)
    b = det.board
    if not isinstance(b, CrokinoleBoard) or det.hole_lab is not None or not len(dets):
        return out
    # A disc centred over the hole cannot rest on the surface (it is smaller than the hole
    # and tips in), so a find this near the centre and as dark as the hole is the hole or a
    # disc sunk in it. Half the hole's radius, not a few mm: under an oblique camera the
    # empty hole's outline is fitted off its centre, and the find is then carried a disc's
    # thickness towards the camera (triple.mp4, 40 degrees: 6.3 mm off, kept as a black
    # disc beside the hole, a 15, for the whole clip).
    tol = max(0.5 * b.hole_radius, det.refiner._mm_per_image_px(np.zeros(2)))
    L = dets.color[:, 0] * 255.0 / 100.0  # CIE -> 8-bit lightness
    Ls = dets.surround[:, 0] * 255.0 / 100.0
    for i in np.nonzero(np.hypot(*dets.xy.T) < tol)[0]:
        out[i] = verify.hole_dark(float(L[i]), float(Ls[i]))
    return out


def relearn_hole(det: DiscDetector, frame_bgr: np.ndarray) -> None:
    """After a new fit of the board (the camera was knocked, or the picture cut to another
    camera): the empty 20-hole's colour is taken again from this frame when the hole there
    is as dark as an empty hole against the board around it; else the colour from before
    stays (``carry_over``). (triple.mp4: after the cut to the camera across the table the
    first view's hole colour no longer matched the hole, and the empty hole was a black
    disc scoring 15 for the rest of the clip.) Restarting the whole empty-board model from
    the refit frame as well was tried: crokinole_4p_part lost its exact round."""
    b = det.board
    if not isinstance(b, CrokinoleBoard):
        return
    blurred = BackgroundModel.prepare(lab_of(det.rectify(frame_bgr)))
    a = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    ring = (b.hole_radius + det.board.disc_radius) * np.stack([np.cos(a), np.sin(a)], 1)
    uv = np.round(det.view.to_px(np.vstack([np.zeros((1, 2)), ring]))).astype(int)
    h, w = blurred.shape[:2]
    if not ((uv >= 0) & (uv < [w, h])).all():
        return
    centre = blurred[uv[0, 1], uv[0, 0]].astype(float)
    around = np.median(blurred[uv[1:, 1], uv[1:, 0]].astype(float), axis=0)
    if verify.hole_dark(float(centre[0]), float(around[0])):
        det.hole_lab = centre


def sunk_in_hole(det: DiscDetector, x: float, y: float, r: float) -> bool:
    """Whether a disc measured at (x, y) is one down in the 20-hole. Positions are corrected
    for a face a disc's thickness above the surface (``geometry.top_shift``); a disc in the
    hole shows its face about level with the surface, so under an oblique camera it is
    measured that correction too far towards the camera's foot (about 8 mm at 40 degrees of
    tilt: c4h_9203's 20s, measured 8 mm from the hole's centre and scored as 15s). Taken
    at that level instead, the same face must lie in the hole (SPEC 2)."""
    b = det.board
    assert isinstance(b, CrokinoleBoard)
    if float(np.hypot(x, y)) > b.hole_radius + 2 * r:
        return False
    # where the face appears on the board plane: its place were it at the surface's level
    s, _ = det.pose.top_shift(np.array([[x, y]]), det.thickness)
    return b.in_hole(x + float(s[0, 0]), y + float(s[0, 1]), r)


# Seeds for a disc resting over the 20-hole's edge: this far (of the hole's radius, 11.4 mm: a
# disc rests there once its centre is 9.6 mm or more out) from its centre, in as many directions.
EDGE_SEED, EDGE_DIRECTIONS = 0.65, 8


def resting_over_edge(det: DiscDetector, frame: np.ndarray, radius: float) -> Fit | None:
    """The disc resting on the surface over the 20-hole's edge that a find in the hole is the
    hole's rim beside, or None when no such disc shows. At 640x360 under a hard look a light
    disc resting 9-13 mm from the hole's centre was missed as such: the ring filter's peak and
    the fit went to the dark hole's rim, its part left open by the disc ending in the disc's own
    edge, and the find, centred on the hole, scored a 20 (the 26-degree render of
    tests/detect/test_sunk_hole.py: 10 of 18 such discs). The disc is sought by refits
    from seeds around the hole (``EDGE_SEED``; as the first pass, nothing masked); the best
    outline among those that pass the first pass's checks and rest on the surface (not in the
    hole by ``where_of``) is the disc. A disc truly down in the hole draws them back into it
    (its face fills the hole): the sunk-disc renders stay 20s."""
    from tracker.detect.clusters import HOLE_REST

    b = det.board
    if not isinstance(b, CrokinoleBoard):
        return None
    a = np.linspace(0.0, 2 * np.pi, EDGE_DIRECTIONS, endpoint=False)
    best: Fit | None = None
    for s in EDGE_SEED * b.hole_radius * np.stack([np.cos(a), np.sin(a)], 1):
        f = det.refiner.refine(frame, s, radius, with_colors=False,
                               give_up_below=0.6 * det.settings.min_coverage)
        # (where a disc can rest over the edge: ``clusters.HOLE_REST``; nearer, a sunk disc's
        # face refitted as one standing on the surface in a hole barely wider than a disc)
        if float(np.hypot(*f.centre)) <= HOLE_REST * b.hole_radius or \
                det.where_of(float(f.centre[0]), float(f.centre[1]), radius) == IN_HOLE or not det._accept(f, radius):
            continue
        if best is not None and f.coverage <= best.coverage:
            continue
        if det._accept_colors(det.refiner.add_colors(frame, f)):
            best = f
    return best
