"""Crokinole calibration, step 1: first guesses of where the board is (see ``crokinole``).

Ellipses fitted to long contours of the edge map and of the line-ness map, and pairs of nested
near-concentric ones (which fix the perspective too), are each tested by a radial line-ness
profile for the 1:2:3 ring pattern (15, 10 and shooting lines). A single strongly tilted
ellipse is also tried under a few perspectives (the board centre's image moved along its minor
axis, ``features.centred_homography``): on a far oblique board the rim is often the only
ellipse found, and its affine guess puts the rings inside it too far off for the ring fit to
lock on (2X1Wzg85dT4 calibrates from such a guess). Those guesses come after the others and
never displace them. The guesses are only guesses:
``crokinole._calibrate_at`` tries each by a quick ring fit and keeps the one that follows its
rings. :func:`with_rescaled` adds guesses shrunk onto the painted lines for frames where the
strongest ellipse is the rim or the playing-surface edge. With ``arcs`` the ellipses joined
from edge arcs (``arcs.arc_ellipses``: the rim round a hand or a banner) are the candidates.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.arcs import arc_ellipses
from tracker.calibration.features import (
    candidate_ellipses,
    centred_homography,
    concentric_homography,
    edge_contours,
    ellipse_affine,
    ellipse_conic,
    lineness,
    ring_pattern,
    sample_polar,
)
from tracker.calibration.geometry import apply_h
from tracker.errors import CalibrationError

_TOURNAMENT = CrokinoleBoard()
# The unit of every crokinole fit: the shooting line is fitted at the tournament board's radius
# (SPEC section 2) and the other figures are measured relative to it. One place for that number.
REF_MM: float = _TOURNAMENT.shooting_line_radius
WORK_SIZE = 800  # long side of the image the board search runs on
PERSPECTIVE_TOP = 6  # this many best-supported tilted ellipses are also tried under perspective
PERSPECTIVE_KEEP = 3  # at most this many of those guesses are kept
PERSPECTIVE_SHIFTS = (-0.3, -0.2, -0.12, -0.06, 0.06, 0.12, 0.2, 0.3)  # centre shift / minor semi-axis

Guess = tuple[float, np.ndarray, dict[str, float]]  # (pattern score, board mm -> image px, radii mm)


def reduced(image: np.ndarray, work_size: int, ctx: dict | None = None) -> tuple[np.ndarray, float]:
    """(``image`` with its long side at most ``work_size``, the scale). With ``ctx`` (one
    calibration's scratch dict) the reduced image is made once per size: the searches of one
    calibration then share it, and the maps cached by its identity."""
    import cv2

    h, w = image.shape[:2]
    s = min(1.0, work_size / max(h, w))
    key = ("reduced", work_size)
    if ctx is not None and key in ctx:
        return ctx[key], s
    small = cv2.resize(image, (int(round(w * s)), int(round(h * s))), interpolation=cv2.INTER_AREA) if s < 1 else image
    if ctx is not None:
        ctx[key] = small
    return small, s


def find_board(image: np.ndarray, keep: int = 8, work_size: int = WORK_SIZE, arcs: bool = False,
               ctx: dict | None = None) -> list[Guess]:
    """First guesses, best first: (pattern score, board mm -> image px with the rotation
    arbitrary, first guess of the line radii in mm from the profile's peaks). The ring fit then
    decides among the few best. ``ctx``: see :func:`reduced` (the grey and line-ness maps of
    the reduced image are shared too)."""
    affine, tilted = find_board_split(image, keep, work_size, arcs, ctx)
    return affine + tilted



def tilted_guesses(centre: tuple[float, float], axes: tuple[float, float], theta: float) -> list[np.ndarray]:
    """Homographies of a circle seen as this ellipse under a tilted view (none for a near-circle):
    the board centre's image is off the ellipse's centre along its minor axis (towards the far
    side), by an amount the tilt sets; a few such shifts (``PERSPECTIVE_SHIFTS``) are tried."""
    (cx, cy), (a, b) = centre, axes
    if b >= 0.8 * a:
        return []
    C = ellipse_conic((cx, cy), (a, b), theta)
    nx, ny = -math.sin(theta), math.cos(theta)
    out: list[np.ndarray] = []
    for t in PERSPECTIVE_SHIFTS:
        Gp = centred_homography(C, np.array([cx + t * b * nx, cy + t * b * ny, 1.0]))
        if Gp is not None and np.all(np.isfinite(Gp)):
            out.append(Gp)
    return out

def find_board_split(image: np.ndarray, keep: int = 8, work_size: int = WORK_SIZE, arcs: bool = False,
                     ctx: dict | None = None) -> tuple[list[Guess], list[Guess]]:
    """:func:`find_board`'s guesses as (those from ellipses and pairs of them, those from single
    ellipses under perspective)."""
    import cv2
    from scipy.ndimage import median_filter

    small, s = reduced(image, work_size, ctx)
    maps = ctx.setdefault(("seed_maps", work_size), {}) if ctx is not None else {}
    if not maps:
        maps["grey"] = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        maps["ln"] = lineness(small, 7)
    grey, ln = maps["grey"], maps["ln"]
    # with ``arcs``: only the ellipses joined from arcs (the rim round a hand or a banner); the
    # contours' own ellipses were tried by the searches before
    if "contours" not in maps:
        maps["contours"] = edge_contours(grey)
    cands = ellipses(maps, arcs)
    if not cands:
        raise CalibrationError("no board found: no large ellipse (ring or playing surface) in the image")
    if "ln_blur" not in maps:
        maps["ln_blur"] = cv2.GaussianBlur(ln, (0, 0), 1.5)
    ln = maps["ln_blur"]
    # up to 3.3: the candidate may be the 15 line, with the shooting line at 3 times its size
    rhos = np.linspace(0.05, 3.3, 520)
    angles = np.linspace(0, 2 * math.pi, 96, endpoint=False)
    largest = max(math.pi * c[1][0] * c[1][1] for c in cands) / float(grey.shape[0] * grey.shape[1])
    hyps: list[np.ndarray] = []
    tilted: list[np.ndarray] = []
    for k, ((cx, cy), (a, b), theta, _support) in enumerate(cands):
        hyps.append(ellipse_affine((cx, cy), (a, b), theta))
        if k < PERSPECTIVE_TOP:
            tilted += tilted_guesses((cx, cy), (a, b), theta)
    # pairs of nested, nearly concentric ellipses fix the perspective too
    for i, e1 in enumerate(cands):
        for e2 in cands[i + 1:]:
            big, sm = (e1, e2) if e1[1][0] > e2[1][0] else (e2, e1)
            ratio = big[1][0] / sm[1][0]
            if not 1.15 < ratio < 4.0:
                continue
            if math.hypot(big[0][0] - sm[0][0], big[0][1] - sm[0][1]) > 0.15 * big[1][0]:
                continue
            Gp = concentric_homography(ellipse_conic(*big[:3]), ellipse_conic(*sm[:3]))
            if Gp is not None and np.all(np.isfinite(Gp)):
                hyps.append(Gp)

    def score(A: np.ndarray) -> Guess | None:
        polar = sample_polar(ln, A, rhos, angles)
        prof = polar.mean(axis=1)
        base = median_filter(prof, size=25, mode="nearest")
        prof = prof - base
        sc, _r1, peaks = ring_pattern(prof, rhos)
        # the pattern must be a real one: peaks well above the noise of the profile
        noise = float(np.median(np.abs(prof))) + 0.5
        sc = sc / noise
        size_px = peaks[2] * float(np.sqrt(abs(np.linalg.det(A[:2, :2] - np.outer(A[:2, 2], A[2, :2])))) / A[2, 2])
        if size_px < 0.06 * min(grey.shape):
            return None
        G = A @ np.diag([peaks[2] / REF_MM, -peaks[2] / REF_MM, 1.0])
        G = np.diag([1 / s, 1 / s, 1.0]) @ G
        radii = {"shooting": REF_MM, "ten": REF_MM * peaks[1] / peaks[2], "fifteen": REF_MM * peaks[0] / peaks[2]}
        return (sc, G, radii)

    # the tilted guesses come after the others and never displace them: on a view an ellipse's
    # affine guess already fits, they only add look-alikes
    good = _best([g for g in map(score, hyps) if g is not None], keep, [])
    persp = _best([g for g in map(score, tilted) if g is not None], PERSPECTIVE_KEEP, good)
    if not good and not persp:
        raise CalibrationError(
            f"no board found: no set of three concentric ring lines (15, 10, shooting) in the image; "
            f"the largest ellipse covers {100 * largest:.0f}% of the image")
    return good, persp


def ellipses(maps: dict, arcs: bool) -> list:
    """The candidate ellipses of the reduced image whose maps (grey, line-ness, contours) are
    ``maps`` (``find_board_split``'s): joined from arcs, or one per contour. Kept in ``maps``:
    the search for a board with a line missing (``crokinole_partial``) starts from them too."""
    key = ("ellipses", arcs)
    if key not in maps:
        maps[key] = (arc_ellipses(maps["grey"], contours=maps["contours"]) if arcs
                     else candidate_ellipses(maps["grey"], line_map=maps["ln"], contours=maps["contours"]))
    return maps[key]


def _best(scored: list[Guess], keep: int, taken: list[Guess]) -> list[Guess]:
    """Up to ``keep`` of the best-scored guesses (score at least 1) that are not the same board
    as a better one or as one in ``taken``."""
    scored = sorted(scored, key=lambda t: -t[0])
    good: list[Guess] = []
    for sc, G, radii in scored:
        if sc < 1.0 or len(good) >= keep:
            break
        c = apply_h(G, np.array([[0.0, 0.0], [REF_MM, 0.0]]))
        r = float(np.linalg.norm(c[1] - c[0]))
        dup = False
        for _, G2, _r in good + taken:  # the same board found twice: keep the better-scored guess only
            c2 = apply_h(G2, np.array([[0.0, 0.0], [REF_MM, 0.0]]))
            r2 = float(np.linalg.norm(c2[1] - c2[0]))
            if np.linalg.norm(c[0] - c2[0]) < 0.02 * r and abs(r / r2 - 1) < 0.03:
                dup = True
                break
        if not dup:
            good.append((sc, G, radii))
    return good


RESCALE = (0.76, 0.92)  # shooting line / outer rim and / playing-surface edge, tournament boards
RESCALE_TOP = 3  # rescaled variants of this many best guesses
# the rescaled guesses' start
NOMINAL_RADII = {"shooting": REF_MM, "ten": _TOURNAMENT.ten_line_radius, "fifteen": _TOURNAMENT.fifteen_line_radius}


def with_rescaled(guesses: list[Guess]) -> list[Guess]:
    """The guesses, then the best few shrunk as if their "shooting line" were the outer rim or
    the playing-surface edge. In oblique broadcast frames the rim and the surface edge are the
    strongest ellipses and the faint painted lines inside them often score a ring pattern
    against the wrong one; the ring fit's search window (20 mm) cannot jump 25% in scale, so the
    shrunk guesses are tried too, after the originals (an easy frame stops at its first guess)
    and judged by the same quick ring fit."""
    out = list(guesses)
    for score, G, _radii in guesses[:RESCALE_TOP]:
        for f in RESCALE:
            out.append((score - 1.0, G @ np.diag([f, f, 1.0]), dict(NOMINAL_RADII)))
    return out
