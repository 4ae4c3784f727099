"""Automatic korona calibration: seed from the board's square, fit every feature, measure, confirm.

1. **Seed** (``korona_seed.square_candidates``): the big quadrilaterals of the edge map and of
   Otsu's threshold (both polarities; convex hulls and, against clutter touching the board, the
   four longest straight runs of each outline), each taken as the playing area or as the outer
   board (shrunk by the rim), sides refined on the image gradient, ranked straight ones first,
   then by how dark their four corner pockets are against the surface.
2. **Fit** (``korona_fit.fit_korona``): homography, lens, striking lines, centre circle, rim
   edges and pockets fitted to points found along the model's normals; the best-followed of the
   first few seeds wins. When the rims disagree with where the profile's lines put them (by
   over RIM_MISMATCH_MM), the board's lines differ from its profile and are refitted freely
   with the scale taken from the rims.
3. **Measure** (``korona_measure.measure_korona``) on the straightened top-down image:
   striking-line offset, centre-circle radius, pockets, each with its spread as a residual.
4. **Confirm** (:func:`_verify`): the straightened image must show the striking lines and the
   centre circle where the fit put them -- an independent check against a fit that a textured
   board or a second set of lines fooled into a wrong square with a small rms.

The rotation is known modulo 90 degrees; ``south`` picks the rest. Refusals: no square with
four dark pockets ("no board found"), lines not followed (under half of the points of the
worst-but-one striking line or of the centre circle), rms over 2 mm, lines or circle not
confirmed ("not confirmed"); each a CalibrationError.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import KoronaBoard
from tracker.calibration.geometry import normalize_h
from tracker.calibration.korona_fit import KoronaFit
from tracker.calibration.korona_measure import measure_korona
from tracker.calibration.korona_seed import square_candidates
from tracker.calibration.lens import LensModel
from tracker.errors import CalibrationError

RIM_MISMATCH_MM = 6.0  # rims this far from where the profile's lines put them: measure the lines


def _followed(fit: KoronaFit) -> float:
    """Worst-but-one striking line and the centre circle: the share of their points found."""
    lines = sorted(fit.inliers[f"line_{s}"] for s in ("north", "east", "south", "west"))
    return min(lines[1], fit.inliers["circle"])


LINE_AGREE_MM = 4.0  # a striking line seen this far from where the fit puts it: not the fit's line


def _verify(fit: KoronaFit, seen: dict[str, float], board: KoronaBoard) -> None:
    """Refuse a fit whose lines are not where the straightened image shows them.

    The fit's inlier counts can be fooled by a textured surface (wood grain, a second line
    beside each striking line, a printed cloth): points are found near any guess and the
    robust loss keeps a wrong square with a small rms. The measurement on the straightened
    board (``seen``, see ``measure_korona``) is independent: there a striking line is a
    line-ness peak at one distance from the rim along its whole length, the centre circle one
    at one radius. At least three sides must show their line within LINE_AGREE_MM of the
    fitted one (a disc or a hand may hide one), or two sides and the centre circle (faint lines
    on a glaring board); and a circle that was seen must agree.
    """
    want = board.half - fit.line_dist
    circle = seen.get("circle", math.nan)
    lines = {s: off for s, off in seen.items() if s != "circle" and math.isfinite(off)}
    agree = [s for s, off in lines.items() if abs(off - want) <= LINE_AGREE_MM]
    circle_ok = abs(circle - fit.circle_radius) <= LINE_AGREE_MM
    if len(agree) < 2 or len(agree) + circle_ok < 3:
        where = ", ".join(f"{s} {off:.0f}" for s, off in sorted(lines.items())) or "none seen"
        raise CalibrationError(
            f"korona board not confirmed: the fit puts the striking lines {want:.0f} mm in from the "
            f"rims but the straightened image shows them at ({where}) mm; give --points or --markers")
    if math.isfinite(circle) and not circle_ok:
        raise CalibrationError(
            f"korona board not confirmed: the fit's centre circle has radius {fit.circle_radius:.0f} mm "
            f"but the straightened image shows one of {circle:.0f} mm; give --points or --markers")


def calibrate_korona(image: np.ndarray, board: KoronaBoard | None = None, fit_lens: bool = True
                     ) -> tuple[np.ndarray, KoronaBoard, dict[str, float], float, LensModel | None]:
    """(H undistorted px -> board mm, measured board, residuals mm, rms mm, lens or None).

    The square found in the edge map seeds :func:`korona_fit.fit_korona`, which fits the
    homography and the lens to the striking lines, the centre circle and the rim edges the
    camera really sees (see there). The fit is refused when its lines were not followed.
    """
    import cv2

    from tracker.calibration.korona_fit import fit_korona, rim_offset

    board = board or KoronaBoard()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h = board.half
    # image TL, TR, BR, BL (top-down, south at the bottom) -> board NW, NE, SE, SW
    mm = np.array([[-h, h], [h, h], [h, -h], [-h, -h]])
    best: tuple[float, KoronaFit] | None = None
    for corners in square_candidates(grey, board):
        G0, _ = cv2.findHomography(mm, corners, 0)
        if G0 is None:
            continue
        try:
            fit = fit_korona(image, G0, board, fit_lens=fit_lens)
        except CalibrationError:
            continue
        q = _followed(fit)
        if best is None or q > best[0]:
            best = (q, fit)
        if q > 0.8:
            break  # clearly the board
    if best is None:
        raise CalibrationError("korona board found but every fit of its lines diverged; give --points or --markers")
    fit = best[1]
    off = rim_offset(image, fit, board)
    if abs(off) > RIM_MISMATCH_MM:
        # the rims disagree with the painted lines at their profile distances: the board's
        # lines differ from its profile; measure them (scale from the rims) instead
        f = (h + off) / h
        fit = fit_korona(image, fit.G @ np.diag([f, f, 1.0]), board, schedule=(6.0, 3.0, 2.5),
                         fit_lens=fit_lens, lens0=fit.lens, prior_mm=50.0, rim_weight=1.0,
                         start=(fit.line_dist / f, fit.circle_radius / f))
    lines = [fit.inliers[f"line_{s}"] for s in ("north", "east", "south", "west")]
    if sorted(lines)[1] < 0.5 or fit.inliers["circle"] < 0.5:
        raise CalibrationError(
            f"korona board found but its lines were not followed: {100 * min(lines):.0f}% to "
            f"{100 * max(lines):.0f}% of the striking lines and {100 * fit.inliers['circle']:.0f}% "
            f"of the centre circle were seen; give --points or --markers")
    if fit.rms_mm > 2.0:
        raise CalibrationError(f"korona board lines fit poorly (rms {fit.rms_mm:.1f} mm); refusing a bad calibration")
    lens: LensModel | None = None
    if fit.lens.max_shift_px() > 0.5:
        lens = fit.lens
        image = fit.lens.undistort_image(image)
    H = normalize_h(np.linalg.inv(fit.G))
    residuals = {k: v for k, v in fit.residuals.items()}
    measured, extra, seen = measure_korona(image, H, board, expect=board.half - fit.line_dist)
    _verify(fit, seen, board)
    residuals.update(extra)
    return H, measured, residuals, fit.rms_mm, lens
