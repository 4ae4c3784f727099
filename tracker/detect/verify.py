"""Whether a refined fit is a disc: the checks ``DiscDetector`` (and ``clusters.py``) apply.

Split out of ``detector.py`` (behaviour unchanged; the detector keeps thin methods of the same
names, which ``clusters.py`` and the tests call):

* ``accept``: the outline (coverage all round and in the worst quarter), the residual, the
  radius, and a place where a disc can rest (``place_ok``: not over a peg; korona: on the playing
  area, not over a pocket or in the corner behind it).
* ``accept_colors``: a top face that differs from the board around it; weak on both counts (an
  outline a third open, or half open in its worst quarter, and a face barely off the board) is a
  patch of board framed by lines, shadows or a passing blur, never a disc.
* ``is_empty_hole``: the crokinole 20-hole and the korona pockets are dark circles too; a disc
  sunk in the 20-hole is told from the empty one by its colour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.lab_weights import WEIGHTS
from tracker.detect.refine import Fit
from tracker.detect.salient import salient_ok

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

# An outline this open (all round, or in its worst quarter) needs a face clearly unlike the board
# around it.
WEAK_COVERAGE, WEAK_QUARTER = 0.75, 0.5
# The face of a disc at rest kept on a weaker outline (``camouflaged``) differs from the board
# around it by this much (weighted 8-bit Lab; three times ``min_color_step``)
CAMO_STEP = 18.0
# A face this far (weighted 8-bit Lab) from the empty 20-hole's known colour is a disc sunk in it.
# The empty hole itself, measured frame after frame, strays up to about 20 from the one frame it
# is known from (480x270, a blurred disc passing by tints it: 20.3 on crokinole_4p_part, where 20
# let it in as a disc); the darkest disc faces told from it on the rendered looks are 40 off (a
# brown disc; 100 for the light ones). Black discs, 15 off, cannot be told from it by colour.
HOLE_STEP = 28.0


def holes(det: DiscDetector) -> list[tuple[np.ndarray, float]]:
    """Circular openings cut in the surface: the crokinole 20-hole, the korona pockets."""
    b = det.board
    if isinstance(b, CrokinoleBoard):
        return [(np.zeros(2), b.hole_radius)]
    return [(np.asarray(c, float), b.pocket_radius) for c in b.pocket_centres().values()]


def is_empty_hole(det: DiscDetector, frame: np.ndarray, guess: np.ndarray, fit: Fit, radius: float) -> bool:
    """An empty hole or pocket is a dark circle whose rim lies on the surface, somewhat larger
    than a disc. It looks like one when the fitted rim (as seen, z = 0) is centred on it and
    larger than a disc, or when a flat-circle fit says so. At low resolution a disc sunk in
    the 20-hole has the same outline, so the colour decides: a disc shows its face, unlike
    the empty hole in the background frame (or, without one, unlike a hole's darkness)."""
    for centre, hole in holes(det):
        if np.hypot(*(guess - centre)) > hole + 12.0:
            continue
        T = fit.top_centre if fit.top_centre is not None else fit.centre
        centred = bool(np.hypot(*(T - centre)) < max(5.0, fit.mm_per_px))
        # Centred on the hole, and either larger than a disc or, with the empty hole's colour
        # known, any size: at 640x360 the empty near-black hole fits a little smaller than the
        # size test wants (16.6 mm) and was reported as a black disc sunk in it; the colour
        # then decides alone (a disc over the hole's edge is not centred on it).
        looks = centred and (fit.top_radius > 0.5 * (hole + radius) or det.hole_lab is not None)
        if not looks:
            flat = det.flat_refiner.refine(frame, guess, hole, with_colors=False)
            looks = bool(np.hypot(*(flat.centre - centre)) < max(5.0, fit.mm_per_px)
                         and flat.radius > 0.5 * (hole + radius)
                         and flat.coverage >= 0.6 and flat.residual <= fit.residual + 0.15)
        if not looks:
            looks = seen_within_hole(det, frame, fit, centre, hole)
        if looks and not disc_shows_in_hole(det, fit, centre):
            return True
    return False


def seen_within_hole(det: DiscDetector, frame: np.ndarray, fit: Fit, centre: np.ndarray, hole: float) -> bool:
    """Whether the outline ``fit`` followed is the rim of the hole at ``centre`` (radius ``hole``
    as the board was measured): the rim, fitted flat from the hole's own centre, is found there
    at its size (within a pixel's half), explains the edges as well as the disc did (as much
    outline, as small a residual), and the disc's top face, as seen, is centred inside it. What
    shows there is the empty hole or a disc down in it, not a disc standing beside the hole,
    whose top face would hide the rim's far side. Fitted as a disc a thickness tall, the empty
    hole of an obliquely seen board whose hole is about a disc's size was placed beside the
    hole, on the surface (-S85EVHM_OY, about 40 degrees: 15 mm off, a "15"), and the other
    tests missed it: its top circle 7 mm off the hole's centre as calibrated (the rim itself
    4.5 mm), the flat fit from the guess went astray, and the size test wants a hole larger than
    a disc. The colour then decides, as for a fit centred on the hole."""
    px = fit.mm_per_px
    T = fit.top_centre if fit.top_centre is not None else fit.centre
    if np.hypot(*(T - centre)) > hole:
        return False
    flat = det.flat_refiner.refine(frame, centre, hole, with_colors=False)
    return bool(np.hypot(*(flat.centre - centre)) < max(5.0, px) and abs(flat.radius - hole) <= max(1.0, 0.5 * px)
                and flat.coverage >= max(0.6, fit.coverage - 0.1) and flat.residual <= fit.residual + 0.15
                and np.hypot(*(T - flat.centre)) < 0.5 * flat.radius)


def disc_shows_in_hole(det: DiscDetector, fit: Fit, centre: np.ndarray) -> bool:
    if fit.color is None or not isinstance(det.board, CrokinoleBoard):
        return False
    w = WEIGHTS
    if det.hole_lab is not None:
        if float(np.linalg.norm((fit.color - det.hole_lab) * w)) <= HOLE_STEP:
            return False
        # A disc down in the hole fills it: its middle changed from the empty hole's picture on
        # every side (``twenty_hole.hole_fill``). A disc sliding past over part of the hole, its
        # blur across it, tints the face's median as much (c2h_9932 at 10.6 s: n2 passing 22 mm
        # from the centre, the empty hole fitted for three frames and taken for n2 sunk in it).
        from tracker.detect.twenty_hole import FILL_SHARE, hole_fill

        fill = hole_fill(det, det.current_view)
        return fill is None or fill >= FILL_SHARE
    # The empty hole's colour unknown: an empty hole is much darker than the board around it.
    return fit.surround is not None and not hole_dark(float(fit.color[0]), float(fit.surround[0]))


# The empty 20-hole, unlit inside, is at least this much darker than the board around it (8-bit
# Lab lightness; the hole 11-25 against a board of 95-110 at 480x270, crokinole_4p_part).
HOLE_DARKER = 25.0


def hole_dark(lightness: float, surround: float) -> bool:
    """Whether a face of 8-bit Lab ``lightness`` amid a board of ``surround`` is as dark as the
    empty hole (or a black disc sunk in it, which this cannot tell from it)."""
    return lightness <= surround - HOLE_DARKER


def accept(det: DiscDetector, fit: Fit, radius: float, residual_scale: float = 1.0) -> bool:
    """The refined fit's outline, residual, radius and place (``residual_scale``: a looser
    residual for fits with neighbours masked, whose remaining rays border them)."""
    st = det.settings
    if fit.coverage < st.min_coverage or fit.quarter_coverage < st.min_quarter_coverage:
        return False
    return shape_ok(det, fit, radius, residual_scale) and salient_ok(det, fit, radius)


def camouflaged(det: DiscDetector, fit: Fit, radius: float) -> bool:
    """A crokinole disc at rest that ``accept`` turns down for its outline (camouflage: a red disc on
    a red-stained board shows no edge on that side), kept on ``DetectorSettings.camo_coverage`` of
    it with no bar on its worst quarter, when its shape and place are a disc's (``shape_ok``) and
    its face stands out from the board around it (``CAMO_STEP``). The caller samples the colours
    (``Refiner.add_colors``) and checks the picture there has not changed since the last call."""
    st = det.settings
    b = det.board
    if st.camo_coverage <= 0.0 or not isinstance(b, CrokinoleBoard) or fit.coverage < st.camo_coverage:
        return False
    # Not over the 20-hole: the empty hole is a dark disc-sized circle with an open outline
    # (c2h_9944: a disc beside it taken for one sunk in it, a false 20).
    if float(np.hypot(*fit.centre)) < b.hole_radius + radius:
        return False
    if not shape_ok(det, fit, radius):
        return False
    if fit.color is None or fit.surround is None:
        return False
    step = float(np.linalg.norm((fit.color - fit.surround) * WEIGHTS))
    return step >= CAMO_STEP


def shape_ok(det: DiscDetector, fit: Fit, radius: float, residual_scale: float = 1.0) -> bool:
    """``accept`` without the outline's share: the fit's residual, radius and place (a disc
    carried over a new fit of the board is held to its own outline bar, ``priors.py``)."""
    st = det.settings
    # At low resolution (a disc a few pixels across) the fit is only good to a pixel or so.
    if fit.residual > residual_scale * max(st.max_residual, 0.5 * fit.mm_per_px):
        return False
    # (Dark discs at low resolution look larger: their shadow merges with them.)
    tol = max(st.radius_tolerance * radius, 1.2 * fit.mm_per_px)
    if not -tol <= fit.radius - radius <= max(tol, striker_larger(det, radius)):
        return False
    return place_ok(det, fit.centre, radius, fit.mm_per_px)


# A korona striker's fitted radius may exceed the board model's by up to this share of it: strikers
# are made in more than one size (the model's is a nominal 50 mm), and the renderer draws them
# larger still (``sprites.TRUE_SIZE`` off: k4h matches fit 26-30 mm at rest against 25). The
# consensus outline (``consensus.RADII``) searches as far. Smaller is held to ``radius_tolerance``:
# a ring fitted round a disc with its shading is 20-22 mm (``strikers.STRIKER_FIT``).
STRIKER_LARGER = 0.22


def striker_larger(det: DiscDetector, radius: float) -> float:
    """How much larger than ``radius`` (mm) a fit of that nominal radius may be: ``STRIKER_LARGER``
    of it for a korona striker with ``DetectorSettings.striker_any_size``, else nothing."""
    b = det.board
    striker = isinstance(b, KoronaBoard) and radius >= b.striker_radius
    return STRIKER_LARGER * radius if striker and det.settings.striker_any_size else 0.0


def place_ok(det: DiscDetector, centre: np.ndarray, radius: float, mm_per_px: float) -> bool:
    """Whether a disc of ``radius`` can rest with its centre at ``centre`` (board geometry
    only: not over a peg; korona: on the playing area, not over a pocket or in a corner)."""
    if isinstance(det.board, CrokinoleBoard):
        # A disc cannot stand over a peg (a small bright peg head at low resolution can look
        # like a disc).
        cb = det.board
        pegs = np.asarray(cb.peg_positions())
        if np.hypot(*(pegs - centre).T).min() < 0.75 * (radius + cb.peg_diameter / 2):
            return False
    if isinstance(det.board, KoronaBoard):
        # A disc lies wholly on the playing area (or over a pocket, which is inside it).
        lim = det.board.half - radius + max(2.0, mm_per_px)
        if abs(centre[0]) > lim or abs(centre[1]) > lim:
            return False
        # Nothing stays centred over a pocket or in the corner behind it: it falls in. (A
        # disc at a pocket's mouth, its centre near the edge, is still found.) This also
        # rejects the empty pockets, dark circles about a striker's size.
        b = det.board
        c = b.half - b.pocket_inset + 0.3 * b.pocket_radius
        if abs(centre[0]) > c and abs(centre[1]) > c:
            return False
        for px, py in b.pocket_centres().values():
            if np.hypot(centre[0] - px, centre[1] - py) < 0.5 * b.pocket_radius:
                return False
        # A striker centred over a pocket's mouth has fallen in (``pocket_of``). Seen at a slant,
        # a pocket's dark inside shows beside its mouth, about a striker's size: fitted with the
        # striker's consensus outline (``strikers.fit_options``), k4h_9506's and k4h_9306's
        # north-west pocket was a striker 16-17 mm from the pocket's centre. (With the consensus
        # off it turns down a striker-sized fit on 4 frames of the korona dev matches and
        # fixtures, k2e_9505's and korona_4p_part's, 20-32 mm from a pocket's centre; their
        # reviews are the same.)
        if radius >= b.striker_radius and b.pocket_of(float(centre[0]), float(centre[1])) is not None:
            return False
    return True


def accept_colors(det: DiscDetector, fit: Fit) -> bool:
    st = det.settings
    # Edges all round but the inside the same colour as the outside: a patch of board framed
    # by something else (fingers, a neighbour's shadow), not a disc.
    if fit.surround is not None and fit.color is not None:
        dc = (fit.color - fit.surround) * WEIGHTS
        step = float(np.linalg.norm(dc))
        if step < st.min_color_step:
            return False
        # Weak on both counts (an outline a third open, or half open in its worst quarter,
        # and a face barely different from the board) is a patch of board framed by a line
        # and the blur of a disc passing, or by discs' shadows and painted lines
        # (crokinole_2p_round: quarter coverage 0.25, step 6.9 at shot 20; coverage 0.67,
        # quarter 0.42, step 6.9 beside s1 once it came to rest; coverage 0.62, step 11.3
        # where a quadrant line meets the 5 ring between three discs: the last two found by
        # the full pass once the board settled). Nothing changes there afterwards, so such a
        # ghost would be kept for good. A disc in the open shows its whole outline; a disc
        # that touches others (a third of it hidden) has a face unlike the board.
        weak = fit.coverage < WEAK_COVERAGE or fit.quarter_coverage < WEAK_QUARTER
        if weak and step < 2 * st.min_color_step:
            return False
    return True
