"""Automatic crokinole calibration: find the rings, fit the homography, fix the rotation, measure.

Steps (each a function below):

1. **Find the board** (``crokinole_seed.find_board``): ellipses fitted (trimmed, RANSAC-seeded) to long
   contours of the edge map and of the thresholded line-ness map are candidates. Each candidate,
   and each pair of nested near-concentric candidates (which fixes the perspective too, see
   ``features.concentric_homography``), is tested by a radial line-ness profile: a board shows
   line peaks at radii in ratio 1:2:3 (15, 10 and shooting lines), each within a few percent.
   The best few guesses are each tried by a quick ring fit on the reduced image; the one that
   follows its rings best is refined at full resolution. A fit that follows one ring but not the
   others is re-seeded from the radial profile of its own rectified frame. A large photo whose thin
   lines vanished at the reduced size is searched again at a larger one.
2. **Fit the rings** (``crokinole_rings.fit_rings``): iterated closest-line search. Points on the three model
   circles are projected into the image, the line-ness peak is searched along each point's image
   normal (sub-pixel, parabolic), and a full homography (8 dof) plus the 10 and 15 line radii are
   fitted by robust least squares to those points, residuals measured in board mm. Concentric
   circles fix the homography up to a rotation about the centre (the image of the centre is *not*
   the ellipse centre under perspective; the fit never assumes it is). The shooting line fixes the
   scale at its nominal 304.8 mm: it is the line every board has and scoring depends on most; the
   other radii are then measured in that unit.
3. **Fix the rotation** (``crokinole_measure.fit_rotation``) on the rectified top-down image
   from the quadrant lines and the pegs; ``south`` picks among the four.
4. **Measure** (``crokinole_figures.measure_board``): line width, playing-surface edge, hole
   radius and peg circle from radial profiles of the rectified image.

Broadcast frames (oblique, faint lines, 1280x720) added three rules. The rim or the surface edge
is often the strongest ellipse there and gets the ring pattern scored against it: the best
guesses are also tried shrunk onto the painted lines (``crokinole_seed.with_rescaled``). A quick
fit whose "shooting line" is an edge (``line_or_edge``) cannot win the choice of guess, as it
follows its rings too well. A ring point counts as seen within 3 mm *or* 1.5 image px of its
ring: on the far side of an oblique view one pixel spans several mm of board.

Harder frames added three more. A faint shooting line under a light ramp has a step across it as
large as an edge's for its depth: ``line_or_edge`` then accepts it when the playing surface's
edge, a far stronger step, lies just outside it. A single tilted ellipse (the rim, often the
only one found on a far oblique board) is also tried under perspective, with the board centre's
image shifted along its minor axis (``crokinole_seed``). A fit that follows the rings it can see
but puts part of its shooting line outside the picture is refused with a sentence naming the
image edge (``framing``). The quick fits use an analytic Jacobian (``ring_jac``): finite
differences had been most of the time of a calibration.

A hand or a name banner across the rim (w4ctumdIGuk, 6zvFH-j0Pd0) breaks the rim's contour or
pulls its ellipse tens of pixels off, and no guess then follows its rings. When the first
search fails, the board is searched among ellipses joined from edge arcs (``arcs``: contours
cut at their corners, arcs that lie on one ellipse joined, the occluder's outline left out).
That search comes after the first, so a frame the first calibrates keeps its fit; on a video
frame (up to ``ARCS_FIRST_SIDE``) it comes before the search at ``RETRY_SIZE``, which is nearly
one at full resolution there and the costliest; a large photo is searched larger first. Its
fit must show a real board's ring proportions (``crokinole_checks.check_ratios``), its quick
fits too: there the rim and the surface edge are the strongest ellipses, and the surface edge
taken for the shooting line is followed well enough to pass the other checks. Such a quick fit
is tried again scaled so that its 10 line lies where the board has it (``_onto_ten``: the far
oblique 2X1Wzg85dT4 is found so). The least squares of every ring fit is ``robust_lsq`` (scipy's
own bookkeeping had been the largest part of a broadcast frame's time), and one calibration's
searches share their reduced image, line-ness maps and edge contours (``ctx``).

A board with no 15 line painted (OO-iiTEaz-w) shows no 1:2:3 pattern; when every search above
fails but one of them found rings, the last one (``crokinole_partial``) takes each of the best
ellipses joined from arcs for the playing-surface edge at the board model's radius and fits the
shooting and 10 lines only (the 15 held at the model's radius); its fit must see both of its
lines (the better 45%, the worse 35%: ``crokinole_checks.PARTIAL_WORSE``), be in a board's
proportions and be confirmed by the pegs on the 15 circle and the surface edge
(``crokinole_checks.check_unpainted``). A video frame whose ring pattern showed at
the working size is not searched again at ``RETRY_SIZE`` (its lines did not vanish there; that
search only made refusals slow).

A board seen nearly edge on (iMgYR7GklqE, ~76 degrees from vertical) shows its painted rings
as ellipses four times wider than tall, too thin on the near and far sides for any contour:
only the rim and the surface edge are candidates, and no guess from them leads the ring fit
onto the right lines. Before the last search, when an earlier one found rings but no fit
was trusted, one more (``crokinole_pegs``) looks inside the ellipses the searches found for
the 8 pegs standing on the 15 circle and fits a homography
to their bases, its scale set by the pegs rather than by a guess of which ring is which. Its
fits hold the line-ness kernel within the gap between the shooting line and the surface edge
(``crokinole_rings.fit_rings``'s ``edge_gap``) and fit no lens (a board in a strip of the
picture cannot tell a lens from the perspective); they must be followed as any fit, and,
since their shooting line cannot be told from the nearby surface edge by ``line_or_edge``,
be confirmed by the pegs on the 15 circle and the surface edge where boards have it
(``crokinole_checks.check_from_pegs``).

Refusals: no 1:2:3 ring pattern ("no board found ... the largest ellipse covers N% of the
image"), rings not followed (under 55% of the points of two rings found), rms over 3 mm, a
"shooting line" that is an edge, a board that runs off the image, no rotation cue or one the
pegs cannot settle (a board with no quadrant lines: the pegs allow two placements 45 degrees
apart, ``crokinole_measure.picks``); each is a CalibrationError with that sentence, never a
silent bad fit. The quality report (``residuals``) has an RMS in mm for each ring, the
quadrant lines, the hole, the playing-surface edge, the pegs' circle and the pegs' rotation
(``crokinole_figures``).
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.crokinole_checks import (
    QUICK_FLOOR,
    check_followed,
    check_from_pegs,
    check_ratios,
    check_unpainted,
    in_ratios,
)
from tracker.calibration.crokinole_figures import measure_board
from tracker.calibration.crokinole_measure import fit_rotation, line_or_edge
from tracker.calibration.crokinole_partial import AFTER_SCREEN, PARTIAL_RINGS, edge_guesses, screen
from tracker.calibration.crokinole_pegs import peg_guesses
from tracker.calibration.crokinole_rings import RINGS, RingFit, fit_rings, reseed
from tracker.calibration.crokinole_seed import (
    REF_MM,
    WORK_SIZE,
    find_board_split,
    reduced,
    with_rescaled,
)
from tracker.calibration.framing import CUT_MAX, cut_message
from tracker.calibration.geometry import normalize_h, rotation_h
from tracker.calibration.lens import LensModel
from tracker.errors import CalibrationError

__all__ = ["RingFit", "calibrate_crokinole", "fit_rings"]

RETRY_SIZE = 1200  # the board is searched again at this size when thin lines vanished at WORK_SIZE
ARCS_FIRST_SIDE = 1500  # images up to this long side try the joined arcs before RETRY_SIZE
RING_MISMATCH_MM = 2.0  # fitted ring radii this far from the profile's: the board differs from it
QUICK_SCHEDULE = (20.0, 10.0, 5.0)  # search half-widths (mm) of a quick fit on the reduced image
FULL_SCHEDULE = (8.0, 5.0, 3.0, 2.5)  # search half-widths (mm) of the full-resolution passes
GOOD_SEEN = (0.55, 0.7)  # a quick fit seeing this much of its worst and middle rings ...
GOOD_RMS = 2.0  # ... within this rms (mm) ends the search among the guesses
PARTIAL = "partial"  # the last search: a board with its 15 line missing (crokinole_partial)
PEGS = "pegs"  # the search before it: a board seen nearly edge on, from its pegs (crokinole_pegs)


class RingsFollowedRefusal(CalibrationError):
    """A refusal of a board whose rings were found and followed: it runs off the image, or its
    rotation is not settled. The search among joined arcs is then skipped: it would find the same
    board, and on a board whose pegs allow two rotations it would only draw the guess again
    (synthetic line-less boards: 3 wrong rotations in 100 before this rule, 0 after)."""



def _quality(f: RingFit) -> float:
    """A quick fit's quality: rings seen and lines sharp (the middle and the worst of three
    lines; 1.5 times the worse of two), less 0.3 per mm of rms."""
    seen = sorted(f.inliers[k] for k in f.rings)
    return seen[-2] + 0.5 * seen[0] - 0.3 * f.rms_mm


def _onto_ten(fit: RingFit, S: np.ndarray, board: CrokinoleBoard, score: float) -> tuple[float, np.ndarray, dict[str, float]]:
    """A guess (as ``find_board``'s, full-resolution ``G``) from a quick fit on the image
    reduced by ``S``, scaled so that the fit's 10 line lies at the board's 10-line radius."""
    ten = REF_MM * board.ten_line_radius / board.shooting_line_radius
    k = fit.radii["ten"] / ten
    radii = {"shooting": REF_MM, "ten": ten, "fifteen": REF_MM * board.fifteen_line_radius / board.shooting_line_radius}
    return (score - 1.0, np.linalg.inv(S) @ fit.G @ np.diag([k, k, 1.0]), radii)


# ---------------------------------------------------------------------- all together
CrokinoleResult = tuple[np.ndarray, CrokinoleBoard, dict[str, float], float, LensModel | None]


def calibrate_crokinole(image: np.ndarray, board: CrokinoleBoard | None = None,
                        fit_lens: bool = True) -> CrokinoleResult:
    """(H undistorted image px -> board mm with rotation fixed modulo 90 degrees, measured
    board, residuals per feature in mm, overall rms in mm, fitted lens or None). A large image
    whose thin lines did not survive the reduction to WORK_SIZE is searched again at
    RETRY_SIZE. A board whose rim is cut by a hand or a banner is searched last among
    ellipses joined from edge arcs (``arcs``): after the other searches, so that a frame they
    calibrate keeps their fit. When all fail, the refusal is the one of the search that got
    furthest (a board found but refused says more than "no board found")."""
    passes: list[tuple[int, bool | str]] = [(WORK_SIZE, False), (WORK_SIZE, True)]
    side = max(image.shape[:2])
    if side > WORK_SIZE * 1.5:
        # on a video frame (up to ARCS_FIRST_SIDE) the larger search is nearly one at full
        # resolution, the costliest, and a hand over the rim is the commoner cause of a
        # failed first search: the arcs go first there (w4ctumdIGuk, 6zvFH-j0Pd0: 2.1 and
        # 1.9 s -> ~1 s). A large photo whose thin lines vanished is searched larger first.
        passes.insert(2 if side <= ARCS_FIRST_SIDE else 1, (RETRY_SIZE, False))
    passes += [(WORK_SIZE, PEGS), (WORK_SIZE, PARTIAL)]
    refusal: CalibrationError | None = None
    ctx: dict = {}  # reduced images and line-ness maps, shared by the searches
    found_at_work_size = False  # a ring pattern was found on the reduced image
    for size, arcs in passes:
        if arcs and isinstance(refusal, RingsFollowedRefusal):
            break  # the board was found; another way to find it cannot help, only guess again
        if size == RETRY_SIZE and side <= ARCS_FIRST_SIDE and found_at_work_size:
            # a video frame whose lines showed the ring pattern at the working size: they did
            # not vanish there, and the larger search (nearly full resolution, the costliest)
            # finds the same lines; it only made a refusal slow (OO-iiTEaz-w, GN3T9IrPbKE:
            # 2.9 and 2.5 s CPU, the 1200 px search 1.1-1.5 s of it and never the one to
            # calibrate a broadcast frame)
            continue
        try:
            if arcs == PARTIAL:
                if not found_at_work_size:
                    break  # no ring pattern at all: not a board with a line or two missing
                return _calibrate_at(image, board, size, fit_lens, ctx=ctx, partial=True)
            if arcs == PEGS:
                if refusal is None or str(refusal).startswith("no board found"):
                    continue  # no search found rings: no board to look for pegs on (a fast refusal)
                # no lens: a board seen nearly edge on fills a strip of the picture, where the
                # rings cannot tell a lens from the perspective (rendered boards 77 degrees from
                # vertical with no lens: k1 -0.21 fitted and kept, the 10 line at 0.650-0.654
                # of the shooting line painted at 0.667; 0.662-0.666 without)
                return _calibrate_at(image, board, size, False, ctx=ctx, pegs=True)
            return _calibrate_at(image, board, size, fit_lens, arcs=bool(arcs), ctx=ctx)
        except CalibrationError as e:
            if size == WORK_SIZE and not str(e).startswith("no board found"):
                found_at_work_size = True
            if refusal is None or (str(refusal).startswith("no board found")
                                   and not str(e).startswith("no board found")):
                refusal = e
    assert refusal is not None
    raise refusal


def _calibrate_at(image: np.ndarray, board: CrokinoleBoard | None, work_size: int,
                  fit_lens: bool, arcs: bool = False, ctx: dict | None = None,
                  partial: bool = False, pegs: bool = False) -> CrokinoleResult:
    """See :func:`calibrate_crokinole`. ``ctx``: one calibration's scratch (reduced images
    and line-ness maps), shared by its searches. ``partial``: the search for a board with its
    15 line missing (``crokinole_partial``). ``pegs``: the search from the pegs
    (``crokinole_pegs``; its caller fits no lens)."""
    board = board or CrokinoleBoard()

    # every guess is tried by a quick ring fit on the reduced image; the best is refined at
    # full resolution (the pattern score alone is easily fooled by wood grain)
    h, w = image.shape[:2]
    sc = min(1.0, work_size / max(h, w))
    ctx = {} if ctx is None else ctx
    small, _s = reduced(image, work_size, ctx)
    S = np.diag([sc, sc, 1.0])
    best: RingFit | None = None
    best_q = -math.inf
    maps: dict = ctx.setdefault(("ring_maps", work_size), {})  # line-ness maps of ``small``, shared by the quick fits
    edge_err: CalibrationError | None = None
    scheds: list[tuple[float, ...]]
    if partial:
        guesses = screen(edge_guesses(image, work_size, ctx, board), small, S, board, maps, _quality)
        scheds = [AFTER_SCREEN] * len(guesses)
    elif pegs:
        # each guess from the pegs twice: with the quick fit's passes, and from its second on.
        # Extrapolated from the pegs, the shooting line starts up to ~15 mm off (three times the
        # pegs' radius); the first, 20 mm pass can then catch the surface edge 25 mm outside it
        # and the narrower one miss the line (iMgYR7GklqE's bases found with a square
        # black-hat: the first put the 10 line at 0.622 of the "shooting line")
        guesses = [g for g in peg_guesses(image, ctx, board) for _ in range(2)]
        scheds = [QUICK_SCHEDULE, QUICK_SCHEDULE[1:]] * (len(guesses) // 2)
        if not guesses:
            raise CalibrationError("no board found: no ring pattern, and no 8 pegs in a circle")
    else:
        affine, tilted = find_board_split(image, work_size=work_size, arcs=arcs, ctx=ctx)
        guesses = with_rescaled(affine + tilted)
        scheds = [QUICK_SCHEDULE] * len(guesses)
    n_found = len(guesses)
    rings: tuple[str, ...] = PARTIAL_RINGS if partial else RINGS
    i = 0
    while i < len(guesses):
        score, G0, radii0 = guesses[i]
        sched = scheds[i] if i < len(scheds) else QUICK_SCHEDULE
        i += 1
        try:
            f = fit_rings(small, S @ G0, board, radii0, schedule=sched, cache=maps, rings=rings, edge_gap=pegs)
        except CalibrationError:
            continue
        seen = sorted(f.inliers[k] for k in f.rings)
        q = _quality(f) + 0.001 * score
        if q <= best_q:
            continue
        if partial and i <= n_found and not in_ratios(f):
            # a guess from the surface edge whose fit follows that edge as its shooting line
            # (OO-iiTEaz-w: the 10 line at 0.60 of it): tried again on its own 10 line
            guesses.append(_onto_ten(f, S, board, score))
            continue
        try:
            # the playing-surface edge (or the rim) followed as the shooting line fits rings
            # well too: such a guess must not win over a weaker one on the painted lines
            if not pegs:  # (see crokinole_checks.check_from_pegs)
                line_or_edge(small, f.G)
        except CalibrationError as e:
            edge_err = e
            continue
        if arcs or partial or pegs:
            # among joined arcs, the surface edge under perspective is often the best guess
            # and its quick fit follows it as the shooting line with the 10 line at 0.60 of
            # it (2X1Wzg85dT4): out of a board's proportions it cannot win (the final fit is
            # refused for them too, below); it is tried again once, scaled so that its 10
            # line is where the board has it
            try:
                check_ratios(f)
            except CalibrationError as e:
                edge_err = e
                if i <= n_found:
                    guesses.append(_onto_ten(f, S, board, score))
                continue
        best, best_q = f, q
        good = (seen[0] > 0.8 and f.rms_mm < 0.8) or (
            sc < 1.0 and seen[0] > GOOD_SEEN[0] and seen[1] > GOOD_SEEN[1] and f.rms_mm < GOOD_RMS)
        if good:
            # the board: the other guesses cannot do much better, and the full-resolution
            # refinement starts close enough from this one. (On a broadcast frame no quick fit
            # sees 80% of all three rings at the reduced size; trying every guess for the
            # best was most of the time of a calibration.) Only on a reduced image: a small
            # video frame is fitted at its own size, where the quick fits cost little and the
            # good-enough guess was not the best one (crokinole_4p_part, 480x270: rms 1.23 mm
            # from the best guess, 2.05 mm from the first good-enough one, and its round lost).
            break
    if best is None:
        if edge_err is not None:
            raise edge_err
        raise CalibrationError("board rings found but every ring fit diverged; give --points or --markers")
    if len(best.rings) == len(RINGS) and sorted(best.inliers.values())[1] < 0.8:
        best = reseed(small, best, board, cache=maps, edge_gap=pegs)
    if 0.5 < sc < 1:
        # a reduced video frame whose best quick fit is far from following its rings: the
        # full-resolution refinement (its line-ness map and up to 3 fits) did not make such a
        # fit followed on any broadcast frame, and was ~0.25 s of each refusal
        check_followed(best, small.shape[1::-1], need=QUICK_FLOOR)
    if sc < 1 or fit_lens:
        G_full = np.linalg.inv(S) @ best.G
        # a video frame is refined from close by; a large photo's reduced fit is several px
        # off at full size and needs the wide passes too
        sched = FULL_SCHEDULE if sc > 0.5 else (20.0, 12.0, 6.0, 3.0, 2.5)
        full_maps: dict = ctx.setdefault("full_maps", {})  # the full-resolution line-ness map, shared by the refits
        rings = best.rings
        best = fit_rings(image, G_full, board, best.radii, schedule=sched, fit_lens=fit_lens, cache=full_maps,
                         rings=rings, edge_gap=pegs)
        nominal_ratio = np.array([board.ten_line_radius, board.fifteen_line_radius]) / board.shooting_line_radius
        if fit_lens and np.max(np.abs(np.array([best.radii["ten"], best.radii["fifteen"]]) - REF_MM * nominal_ratio)) > RING_MISMATCH_MM:
            # the rings are not where the profile says even with the lens's help: this board
            # differs from its profile; measure its rings freely. Without the radius prior k1
            # is poorly fixed on a face-on view and soaks up the board's own irregularities:
            # keep a lens only when it clearly explains more than none
            free = fit_rings(image, G_full, board, best.radii, schedule=sched, fit_lens=True,
                             radius_prior_mm=None, cache=full_maps, rings=rings)
            plain = fit_rings(image, G_full, board, best.radii, schedule=sched, fit_lens=False, cache=full_maps, rings=rings)
            best = free if free.rms_mm < 0.85 * plain.rms_mm else plain
    fit = best
    lens = fit.lens if fit.lens is not None and fit.lens.max_shift_px() > 0.5 else None
    if lens is not None:  # rotation and measurements on the straightened image
        image = lens.undistort_image(image)
    cut, side = check_followed(fit, (w, h))
    if arcs or partial or pegs:
        check_ratios(fit)
    if fit.rms_mm > 3.0:
        raise CalibrationError(f"board rings fit poorly (rms {fit.rms_mm:.1f} mm); refusing a bad calibration")
    if not pegs:
        line_or_edge(image, fit.G)
    try:
        if cut > CUT_MAX:
            raise CalibrationError(cut_message(cut, side))
        phi, info = fit_rotation(image, fit.G, fit.radii)
    except CalibrationError as e:
        raise RingsFollowedRefusal(str(e)) from None
    G = fit.G @ rotation_h(phi)  # new board coords = R(-phi) old
    measured, extra = measure_board(image, G, fit.radii, board)
    check_unpainted(fit, measured, extra)
    if pegs:
        check_from_pegs(fit, measured, extra)
    residuals = dict(fit.residuals)
    residuals.update(extra)
    if "quadrant_lines" in info:
        residuals["quadrant_lines"] = info["quadrant_lines"]
    H = normalize_h(np.linalg.inv(G))
    return H, measured, residuals, fit.rms_mm, lens
