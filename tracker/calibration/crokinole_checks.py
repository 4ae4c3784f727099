"""Crokinole calibration: the checks a ring fit must pass before it is trusted (see ``crokinole``).

Each refuses with a CalibrationError naming what it saw, never a silent bad fit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.boards import CrokinoleBoard
from tracker.calibration.crokinole_measure import EDGE_BAND
from tracker.calibration.framing import outside
from tracker.errors import CalibrationError

if TYPE_CHECKING:
    from tracker.calibration.crokinole_rings import RingFit


FOLLOWED = (0.55, 0.45)  # a fit is followed: its middle line seen this much, each of the shooting and 10 lines this
# A board with its 15 line missing (``crokinole_partial``): its better line must be seen as each
# line of a whole board, its worse only this much (or as much, if that is less). Such a fit is
# confirmed by the pegs and the surface edge besides (``check_unpainted``); its faint shooting
# line, cut by cups, was seen 38-46% on OO-iiTEaz-w shifted by a pixel (refused on 4 of 7 shifts
# at 45%), its 10 line 51-66%; the non-boards' partial fits saw one of their lines 20-34%
# (GN3T9IrPbKE, iMgYR7GklqE, each on 7 shifts)
PARTIAL_WORSE = 0.35
# A quick fit (reduced video frame, after re-seeding) this far below is refused unrefined: on the
# broadcast frames refining one at full resolution raised what it saw by 0.06 at most
QUICK_FLOOR = (0.40, 0.30)


def check_followed(fit: RingFit, size: tuple[int, int], need: tuple[float, float] = FOLLOWED) -> tuple[float, str]:
    """Refuse a fit whose rings are not seen: under 55% of the points of two rings, or under
    45% of the shooting or the 10 line, counted among the points inside the picture. Returns
    the part of its shooting line outside the picture and the image edge it lies beyond
    (``framing.outside``): the caller refuses a board that runs off the image once the fit is
    otherwise trusted (a fit that follows what shows of its rings says where the rest lies),
    and a fit that is not followed is refused as such, without naming a cut it may have got
    wrong. ``need``: the fractions (middle line, each of the shooting and 10 lines; a board
    with a line missing: its better line ``need[1]``, its worse ``PARTIAL_WORSE`` or
    ``need[1]``, the less) a fit must see."""
    frac, side = outside(fit.G, size, fit.lens, fit.radii["shooting"])
    shown = {k: max(1e-6, 1.0 - outside(fit.G, size, fit.lens, r)[0]) for k, r in fit.radii.items()}
    seen = {k: min(1.0, fit.inliers[k] / shown[k]) for k in fit.inliers}
    if len(fit.rings) < len(seen):
        # a board with a line missing (``crokinole_partial``): both lines it has must be seen
        got = sorted(seen[k] for k in fit.rings)
        if got[0] < min(need[1], PARTIAL_WORSE) or got[-1] < need[1]:
            raise CalibrationError(
                f"board rings found but not followed: only {100 * seen['shooting']:.0f}% of the "
                f"shooting line and {100 * seen['ten']:.0f}% of the 10 line were seen, and no 15 line")
        return frac, side
    if sorted(seen.values())[1] < need[0] or min(seen["shooting"], seen["ten"]) < need[1]:
        raise CalibrationError(
            f"board rings found but not followed: only {100 * seen['shooting']:.0f}% of the "
            f"shooting line, {100 * seen['ten']:.0f}% of the 10 line and "
            f"{100 * seen['fifteen']:.0f}% of the 15 line were seen")
    return frac, side


PEG_MM = 4.0  # pegs this near the 15 circle (and as tight about it) confirm a board without a 15 line
ARC_RATIOS = {"ten": (0.63, 0.74), "fifteen": (0.29, 0.37)}  # of the shooting line, real boards


def in_ratios(fit: RingFit) -> bool:
    """Are the fit's rings in real boards' proportions (``ARC_RATIOS``, as ``check_ratios``)?"""
    return all(lo <= fit.radii[k] / fit.radii["shooting"] <= hi for k, (lo, hi) in ARC_RATIOS.items())


def check_ratios(fit: RingFit) -> None:
    """Refuse rings far from the 1:2:3 pattern of real boards (0.667-0.719 and 0.33-0.34 of
    the shooting line). Used on fits seeded from joined arcs: there the rim and the surface
    edge are the strongest ellipses, and a fit that took the surface edge for the shooting
    line follows it well and puts the 10 line at 0.60 of it (2X1Wzg85dT4), a fit no other
    check refuses."""
    for k, (lo, hi) in ARC_RATIOS.items():
        q = fit.radii[k] / fit.radii["shooting"]
        if not lo <= q <= hi:
            raise CalibrationError(
                f"board rings found but not in a crokinole board's proportions: the {k} line at "
                f"{q:.3f} of the shooting line; give --points or --markers")


def check_from_pegs(fit: RingFit, measured: CrokinoleBoard, extra: dict[str, float]) -> None:
    """Refuse a fit seeded from the pegs (``crokinole_pegs``) unless the rest of the board
    confirms it as for a board with no 15 line (``check_unpainted``): the pegs on its 15 circle
    and the playing-surface edge where real boards have it. Its shooting line is not tested
    for an edge (``crokinole_measure.line_or_edge``): on a board seen nearly edge on the line
    runs a pixel or two from the surface edge on the near and far sides, and the profile across
    it holds both (iMgYR7GklqE's fit, on its lines, had a step 1.2-1.8 times its depth). The
    surface edge taken for the shooting line, what that test guards against, would put the
    measured surface edge at the ditch's outer edge (1.25 of it) and the 10 line at 0.615 of
    it (``check_ratios``); and the fit's scale came from the pegs, not from an ellipse taken
    for the shooting line."""
    _confirm(fit, measured, extra, "board found from its pegs")


def check_unpainted(fit: RingFit, measured: CrokinoleBoard, extra: dict[str, float]) -> None:
    """Refuse a fit made without the 15 line (``fit.rings`` lacks it: a board whose 15 line is
    not painted, OO-iiTEaz-w) unless the rest of the board confirms it: two lines alone at
    2:3 are easy to find in any picture, a board's pegs and surface edge are not (``_confirm``)."""
    if "fifteen" not in fit.rings:
        _confirm(fit, measured, extra, "board rings found without a 15 line")


def _confirm(fit: RingFit, measured: CrokinoleBoard, extra: dict[str, float], what: str) -> None:
    """Refuse unless the 8 pegs stand on the fit's 15 circle (``PEG_MM`` of it, residual under
    it too) and the playing-surface edge lies where real boards have it (``EDGE_BAND`` of the
    shooting line, its residual measured)."""
    r15 = fit.radii["fifteen"]
    pegs = measured.peg_circle_radius
    edge = measured.surface_radius / measured.shooting_line_radius
    pegs_ok = "pegs" in extra and abs(pegs - r15) <= PEG_MM and extra["pegs"] <= PEG_MM
    if not (pegs_ok and EDGE_BAND[0] <= edge <= EDGE_BAND[1] and "surface_edge" in extra):
        raise CalibrationError(
            f"{what}, and the pegs and the playing-surface edge do not "
            f"confirm a board (pegs {'seen' if 'pegs' in extra else 'not seen'} at {pegs:.0f} mm, "
            f"the 15 circle at {r15:.0f} mm; surface edge at {edge:.3f} of the shooting line); "
            "give --points or --markers")
