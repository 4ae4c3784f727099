"""Crokinole calibration: the checks a ring fit must pass before it is trusted (see ``crokinole``).

Each refuses with a CalibrationError naming what it saw, never a silent bad fit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.calibration.framing import outside
from tracker.errors import CalibrationError

if TYPE_CHECKING:
    from tracker.calibration.crokinole_rings import RingFit


def check_followed(fit: RingFit, size: tuple[int, int]) -> tuple[float, str]:
    """Refuse a fit whose rings are not seen: under 55% of the points of two rings, or under
    45% of the shooting or the 10 line, counted among the points inside the picture. Returns
    the part of its shooting line outside the picture and the image edge it lies beyond
    (``framing.outside``): the caller refuses a board that runs off the image once the fit is
    otherwise trusted (a fit that follows what shows of its rings says where the rest lies),
    and a fit that is not followed is refused as such, without naming a cut it may have got
    wrong."""
    frac, side = outside(fit.G, size, fit.lens, fit.radii["shooting"])
    shown = {k: max(1e-6, 1.0 - outside(fit.G, size, fit.lens, r)[0]) for k, r in fit.radii.items()}
    seen = {k: min(1.0, fit.inliers[k] / shown[k]) for k in fit.inliers}
    if sorted(seen.values())[1] < 0.55 or min(seen["shooting"], seen["ten"]) < 0.45:
        raise CalibrationError(
            f"board rings found but not followed: only {100 * seen['shooting']:.0f}% of the "
            f"shooting line, {100 * seen['ten']:.0f}% of the 10 line and "
            f"{100 * seen['fifteen']:.0f}% of the 15 line were seen")
    return frac, side


ARC_RATIOS = {"ten": (0.63, 0.74), "fifteen": (0.29, 0.37)}  # of the shooting line, real boards


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
