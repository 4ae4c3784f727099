"""The 20-hole as the disc detector sees it: the empty hole's colour (learned from the frame the
empty-board model starts from, and again after a new fit of the board), finds that are the empty
hole itself, and discs sunk in it seen from an oblique camera. Crokinole only; a korona board
has no 20-hole."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect import verify
from tracker.detect.background import BackgroundModel
from tracker.detect.datatypes import DISC, IN_HOLE, ON_SURFACE, Detections
from tracker.detect.lab_weights import WEIGHTS32 as WEIGHTS
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
        det.hole_picture = hole_picture(det, blurred)
    else:  # (the picture from before shows the hole as the old fit's view saw it)
        det.hole_picture = None


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


def sunk_reported(det: DiscDetector, dets: Detections, n: int) -> Detections:
    """``dets`` with each of the first ``n`` (the discs) on the surface that ``sunk_in_hole``
    finds down in the 20-hole at its reported centre labelled ``IN_HOLE``. The label is given
    on the fit's own centre (``fitpass.detections_of``); the centre reported is the chamfer's
    correction of it (``deferred.py``), which, for a disc whose face lies level with the surface
    (down in the hole), lies further towards the camera's foot: c4h_9963 at 2.5 s, s1 down in the
    hole 1.6 mm from its centre under a 38-degree camera, reported 9.3 mm out (its face at the
    surface's level 2.0 mm from the centre, within the 2.6 the SPEC test allows) but labelled
    on the surface; kept at rest there, it scored 15, not 20. Over the 18 crokinole dev matches'
    and the 6 crokinole fixtures' cached detections the label changes on that disc's 25 frames
    and nowhere else."""
    b = det.board
    if not isinstance(b, CrokinoleBoard) or n == 0:
        return dets
    wh = dets.where.copy()
    for i in range(n):
        x, y = float(dets.xy[i, 0]), float(dets.xy[i, 1])
        if dets.kind[i] == DISC and wh[i] == ON_SURFACE and sunk_in_hole(det, x, y, b.disc_radius):
            wh[i] = IN_HOLE
    return replace(dets, where=wh) if bool((wh != dets.where).any()) else dets


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
    from tracker.detect.occluders import HOLE_REST

    b = det.board
    if not isinstance(b, CrokinoleBoard):
        return None
    a = np.linspace(0.0, 2 * np.pi, EDGE_DIRECTIONS, endpoint=False)
    best: Fit | None = None
    for s in EDGE_SEED * b.hole_radius * np.stack([np.cos(a), np.sin(a)], 1):
        f = det.refiner.refine(frame, s, radius, with_colors=False,
                               give_up_below=0.6 * det.settings.min_coverage)
        # (where a disc can rest over the edge: ``occluders.HOLE_REST``; nearer, a sunk disc's
        # face refitted as one standing on the surface in a hole barely wider than a disc)
        if float(np.hypot(*f.centre)) <= HOLE_REST * b.hole_radius or \
                det.where_of(float(f.centre[0]), float(f.centre[1]), radius) == IN_HOLE or not det._accept(f, radius):
            continue
        if best is not None and f.coverage <= best.coverage:
            continue
        if det._accept_colors(det.refiner.add_colors(frame, f)):
            best = f
    return best


# ``covering_disc``: the hole is sampled at the view's pixels out to this share of its radius (its
# rim's blur left out); places for the disc are tried on a grid this fine (mm) around the hole,
# then on one a quarter as fine around the best.
COVER_REACH, PLACE_STEP = 0.85, 2.0
# The covered part of the hole must be explained this well (share of the samples) by the disc's
# silhouette, and be at least this share of the hole (less leaves the disc's place unsettled).
COVER_AGREE, COVER_MIN = 0.92, 0.15
COVER_FULL = 90  # (percentile of the hole's samples)


def hole_box(det: DiscDetector) -> tuple[int, int, int, int] | None:
    """The box (y0, y1, x0, x1) of the view's pixels around the 20-hole that ``covering_disc``
    reads (its samples, ``COVER_REACH`` of the hole, and the blur's pixels around them), or None
    when it does not lie in the view (or the board has no hole)."""
    b = det.board
    if not isinstance(b, CrokinoleBoard):
        return None
    u, v = det.view.to_px(np.zeros((1, 2)))[0]
    m = int(np.ceil(COVER_REACH * b.hole_radius / det.view.mm_per_px)) + 3
    y0, y1, x0, x1 = int(round(v)) - m, int(round(v)) + m + 1, int(round(u)) - m, int(round(u)) + m + 1
    h, w = det._valid.shape
    return (y0, y1, x0, x1) if y0 >= 0 and x0 >= 0 and y1 <= h and x1 <= w else None


def hole_picture(det: DiscDetector, blurred: np.ndarray) -> np.ndarray | None:
    """The empty 20-hole as ``blurred`` (the prepared view of a frame where it is empty) shows it:
    its ``hole_box``, copied. Its colour alone (``hole_lab``, the centre's) does not describe it:
    the far wall shows lit, the bottom dark (c4h_9921: 8-bit lightness 8 to 57 across it)."""
    box = hole_box(det)
    if box is None:
        return None
    y0, y1, x0, x1 = box
    return blurred[y0:y1, x0:x1].astype(np.float32, copy=True)


def covering_disc(det: DiscDetector, frame: np.ndarray, view: np.ndarray, lab: np.ndarray | None,
                  taken: list[tuple[np.ndarray, float]], radius: float,
                  region: np.ndarray | None = None) -> Fit | None:
    """A disc resting over the 20-hole's edge that shows no outline of its own: one of the board's
    colour, over a board as noisy as its edge (c4h_9921: a blue disc on the blue board, 12 mm
    and 24 mm from the hole's centre, no ring-filter candidate, no fit from any seed; it went
    missing as it came to rest and was taken for a 20). What gives it away is the hole: the
    part of the empty hole it covers no longer looks as the empty hole did (``hole_picture``),
    and the part left open is the hole minus the disc's silhouette (its foot and its top face,
    seen from the camera, on the board's plane). The place whose silhouette explains that
    pattern best (``COVER_AGREE``), where a disc rests on the surface (not ``IN_HOLE``), is the
    disc. None when a disc already found covers the hole, the hole is all open or the pattern
    is no disc, or where the view changed (``region``; None: everywhere) misses the hole's centre.
    (The empty-board model, ``background.py``, is no reference here: it absorbs a disc it is
    not told of, such as this one, within seconds.) Used with ``DetectorSettings.covered_hole``
    only, off by default (its measurement there)."""
    b = det.board
    box = hole_box(det)
    if not isinstance(b, CrokinoleBoard) or det.hole_picture is None or box is None:
        return None
    if region is not None:
        u, v = np.round(det.view.to_px(np.zeros((1, 2)))[0]).astype(int)
        if not region[v, u]:
            return None
    if any(float(np.hypot(*p)) < b.hole_radius + pr for p, pr in taken):
        return None
    y0, y1, x0, x1 = box
    # the samples: the view's pixels over the hole (``COVER_REACH``)
    uv = np.stack(np.meshgrid(np.arange(x1 - x0), np.arange(y1 - y0)), -1).reshape(-1, 2)
    q = det.view.to_mm(uv + [x0, y0])
    keep = np.hypot(*q.T) <= COVER_REACH * b.hole_radius
    uv, q = uv[keep], q[keep]
    part = lab[y0:y1, x0:x1] if lab is not None else det.colours.lab(view, box)
    diff = np.abs(BackgroundModel.prepare(part) - det.hole_picture) @ WEIGHTS
    d = diff[uv[:, 1], uv[:, 0]]
    # The silhouette's edge, blurred over a view pixel or two, lies where the difference is half
    # what the disc's face shows over the hole (``COVER_FULL``: its level where fully covered).
    covered = d > max(verify.HOLE_STEP, 0.5 * float(np.percentile(d, COVER_FULL)))
    share = float(covered.mean())
    if not COVER_MIN <= share < 1.0:
        return None
    best = _best_place(det, q, covered, radius, _places(b.hole_radius, radius, np.zeros(2), PLACE_STEP))
    best = _best_place(det, q, covered, radius, _places(0.0, PLACE_STEP, best[0], 0.25 * PLACE_STEP))
    P, agree = best
    if agree < COVER_AGREE or det.where_of(float(P[0]), float(P[1]), radius) == IN_HOLE:
        return None
    if _sunk_agrees(det, q, covered, radius) >= agree:  # as well explained by a disc down in the hole
        return None
    s, k = det.pose.top_shift(P[None], det.thickness)
    fit = Fit(centre=P, radius=radius, coverage=agree, quarter_coverage=agree, residual=0.0, contrast=0.0,
              mm_per_px=det.refiner._mm_per_image_px(P), color=None, top_centre=P + s[0],
              top_radius=float(k[0]) * radius)
    det.refiner.add_colors(frame, fit)
    return fit


def _places(inner: float, outer: float, around: np.ndarray, step: float) -> np.ndarray:
    """Places on a square grid of ``step`` within ``inner + outer`` of ``around`` (about the hole's
    centre, the hole's radius and a disc's: the places where a disc covers some of the hole)."""
    reach = inner + outer
    g = np.arange(-reach, reach + 1e-9, step)
    p = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2) + around
    return p[np.hypot(*(p - around).T) <= reach]


def _best_place(det: DiscDetector, q: np.ndarray, covered: np.ndarray, radius: float,
                places: np.ndarray) -> tuple[np.ndarray, float]:
    """Of ``places``, the one whose silhouette (``_silhouette_covers``) agrees best with ``covered``
    at the samples ``q``, and the share it agrees on."""
    inside = _silhouette_covers(det, places, q, radius)
    agree = (inside == covered[None]).mean(axis=1)
    j = int(np.argmax(agree))
    return places[j], float(agree[j])


def _sunk_agrees(det: DiscDetector, q: np.ndarray, covered: np.ndarray, radius: float) -> float:
    """How well (share of the samples ``q``) ``covered`` is explained at best by a disc down in the
    hole (centred where ``CrokinoleBoard.in_hole`` has it, its face level with the surface or up to
    its thickness below): the board point q shows the face where the camera's ray through it meets
    the face's plane inside the face and inside the hole (before it, the hole's wall). Such a
    disc's face, seen from an oblique camera, shows shifted towards the camera and leaves a
    crescent of the hole's far wall open, which a disc resting over the edge on the camera's side
    explains as well (a 40-degree render: a sunk disc found 9.6 mm out, on the surface)."""
    b = det.board
    assert isinstance(b, CrokinoleBoard)
    C = np.asarray(det.pose.centre, float)
    reach = max(b.hole_radius + b.hole_tolerance - radius, 0.0)
    g = np.arange(-reach, reach + 1e-9, 0.25 * PLACE_STEP)
    P = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)
    P = P[np.hypot(*P.T) <= reach]
    best = 0.0
    for depth in np.linspace(0.0, det.thickness, 3):
        qd = C[:2] + (q - C[:2]) * (C[2] + depth) / C[2]
        seen = np.hypot(*qd.T) < b.hole_radius
        d = np.hypot(qd[None, :, 0] - P[:, None, 0], qd[None, :, 1] - P[:, None, 1])
        best = max(best, float(((seen[None] & (d < radius)) == covered[None]).mean(axis=1).max()))
    return best


def _silhouette_covers(det: DiscDetector, places: np.ndarray, q: np.ndarray, radius: float) -> np.ndarray:
    """(len(places), len(q)): whether a disc at each place hides each board point of ``q`` from
    the camera: the points within its foot, its top face (shifted and scaled, ``top_shift``) or
    between (the hull of the two, sampled at a few heights)."""
    s, k = det.pose.top_shift(places, det.thickness)
    out = np.zeros((len(places), len(q)), bool)
    for t in np.linspace(0.0, 1.0, 5):
        c = places + t * s
        r = radius * (1.0 + t * (k - 1.0))
        d = np.hypot(q[None, :, 0] - c[:, None, 0], q[None, :, 1] - c[:, None, 1])
        out |= d < r[:, None]
    return out


# ``hole_fill``: a disc down in the 20-hole covers the hole's middle on every side, out to this
# share of the hole's radius (its face, 15.9 mm in a 17.5 mm hole, shows shifted towards an
# oblique camera: about 8 mm at 40 degrees of tilt, which leaves 7.9 mm round the centre covered);
# it is one when at least this share of each quarter's samples there changed from the empty hole.
# (Rendered sunk discs whose colour tells them from the hole, 6 looks, 640x360 and 1280x720: 0.9
# to 1.0; c2h_9932's empty hole with n2 sliding past over its edge, 22 mm out: 0.44 to 0.6.)
FILL_REACH, FILL_SHARE = 0.4, 0.8


def hole_fill(det: DiscDetector, view: np.ndarray | None) -> float | None:
    """The least share, over the four quarters of the 20-hole's middle (``FILL_REACH``), of the
    view's pixels there whose colour changed from the empty hole's picture (``hole_picture``)
    by more than ``verify.HOLE_STEP``; None when the picture or the view is unknown."""
    box = hole_box(det)
    if det.hole_picture is None or view is None or box is None:
        return None
    b = det.board
    assert isinstance(b, CrokinoleBoard)
    y0, y1, x0, x1 = box
    uv = np.stack(np.meshgrid(np.arange(x1 - x0), np.arange(y1 - y0)), -1).reshape(-1, 2)
    q = det.view.to_mm(uv + [x0, y0])
    keep = np.hypot(*q.T) <= FILL_REACH * b.hole_radius
    uv, q = uv[keep], q[keep]
    diff = np.abs(BackgroundModel.prepare(det.colours.lab(view, box)) - det.hole_picture) @ WEIGHTS
    changed = diff[uv[:, 1], uv[:, 0]] > verify.HOLE_STEP
    quarter = (np.floor(np.arctan2(q[:, 1], q[:, 0]) / (0.5 * np.pi)).astype(int)) % 4
    shares = [float(changed[quarter == k].mean()) for k in range(4) if np.any(quarter == k)]
    return min(shares) if len(shares) == 4 else None
