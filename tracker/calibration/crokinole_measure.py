"""Crokinole calibration, step 3: the rotation (and the check that a "line" is not an edge).

On the rectified top-down image of a ring fit (north arbitrary), the quadrant lines (45 + k90
degrees) give the phase of the 4th angular harmonic of line-ness in the 5 zone and the pegs
(22.5 + k45) the 8th harmonic of darkness on the 15 line; the strongest single peak is a second
guess when glare pulls the harmonic. ``south`` then picks among the four (see geometry.orient).
Step 4, the measured board, is ``crokinole_figures``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy.ndimage import median_filter

from tracker.calibration.crokinole_seed import REF_MM
from tracker.calibration.features import lineness, odd, sample_polar
from tracker.calibration.geometry import apply_h
from tracker.errors import CalibrationError


# ---------------------------------------------------------------------- 3. rotation
def rectified_size(extent: float, mm_per_px: float) -> tuple[int, np.ndarray]:
    """Side (px) of the top-down image of ``rectified`` and its matrix rectified px -> board mm."""
    n = int(math.ceil(2 * extent / mm_per_px))
    M = np.array([[mm_per_px, 0, 0.5 * mm_per_px - extent], [0, -mm_per_px, extent - 0.5 * mm_per_px], [0, 0, 1.0]])
    return n, M


def rectified(image: np.ndarray, G: np.ndarray, extent: float, mm_per_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Top-down image (north up) and its matrix rectified px -> board mm."""
    import cv2

    n, M = rectified_size(extent, mm_per_px)
    top = cv2.warpPerspective(image, G @ M, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return top, M


def _polar(img: np.ndarray, M: np.ndarray, radii: np.ndarray, angles: np.ndarray) -> np.ndarray:
    Minv = np.linalg.inv(M)
    A = Minv.copy()
    return sample_polar(img, A, radii, angles)


def rectified_grey_polar(image: np.ndarray, G: np.ndarray, extent: float, mm_per_px: float,
                         radii: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """What ``_polar`` of the grey of ``rectified(image, G, extent, mm_per_px)`` gives, with
    only the rectified pixels the samples read computed (the four around each sample), not
    the whole top-down image: the same numbers (to the interpolation tables' rounding) at a
    small part of the cost, for checks whose thresholds were set on the rectified image."""
    import cv2

    M, px, w = _rectified_taps(extent, mm_per_px, radii, angles)
    xy = apply_h(G @ M, px).astype(np.float32)
    shape = (4 * len(radii), len(angles))  # (remap's maps must stay under 32767 px a side)
    bgr = cv2.remap(image, xy[:, 0].reshape(shape), xy[:, 1].reshape(shape), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    grey = (cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if bgr.ndim == 3 else bgr).astype(np.float32).reshape(4, -1)
    return np.sum(w * grey, axis=0).reshape(len(radii), len(angles))


_TAPS: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _rectified_taps(extent: float, mm_per_px: float, radii: np.ndarray, angles: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rectified px -> board mm, the rectified pixels the samples read, their bilinear
    weights) of :func:`rectified_grey_polar`: they do not depend on the fit, and one
    calibration asks for the same grid for every guess it checks (``line_or_edge``)."""
    key = (extent, mm_per_px, radii.tobytes(), angles.tobytes())
    if key in _TAPS:
        return _TAPS[key]
    _n, M = rectified_size(extent, mm_per_px)
    R, T = np.meshgrid(radii, angles, indexing="ij")
    pts = np.stack([R.ravel() * np.cos(T.ravel()), R.ravel() * np.sin(T.ravel())], axis=1)
    uv = apply_h(np.linalg.inv(M), pts)  # rectified px
    u0, v0 = np.floor(uv[:, 0]), np.floor(uv[:, 1])
    fu, fv = uv[:, 0] - u0, uv[:, 1] - v0
    corners = [(0, 0), (1, 0), (0, 1), (1, 1)]
    px = np.concatenate([np.stack([u0 + du, v0 + dv], axis=1) for du, dv in corners])
    w = np.stack([(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv, fu * fv])
    if len(_TAPS) >= 8:
        _TAPS.pop(next(iter(_TAPS)))
    _TAPS[key] = (M, px, w)
    return M, px, w


PEG_SEEN = 0.3  # high-passed peg harmonic strength above which the pegs are taken as seen
PEG_ON_LINE_DEG = 11.25  # pegs nearer the lines than this sit on them: not a crokinole board's lines
PICK_RATIO = 2.0  # the pegs' two candidate line placements: the lines must pick one this clearly ...
PICK_MIN = 3.0  # ... and at this signal at least
LINES_ALONE_SNR = 8.0  # quadrant lines this clear are believed without the pegs (when the pegs are seen)
WEAK_SNR_MIN = 2.0  # fainter lines are believed when the pegs put them within PEG_AGREE_DEG ...
PEG_AGREE_DEG = 2.0  # ... of the same place (noise peaks land within 3 degrees too often)
NO_PEGS_SNR = 4.0  # without seen pegs, lines are believed from this signal on
# Boards with no quadrant lines at all (``bench_calibration.py --lineless``): the pegs allow two
# placements 45 degrees apart and noise picked one, wrongly in 2 of 40 synthetic frames (2 of
# the 5 accepted): a weak "line" signal confirmed by the pegs, and a speck that made the mean of
# the 4 lines on a clean board whose line-ness noise was 0 (signals of 10^5). Now the placement
# must win by the median of its 4 lines too (``picks``): by WEAK_PICK_RATIO over the other
# placement for weak lines (noise: 1.0-1.5; the rendered fixture video's faint lines 2.2), by
# PICK_RATIO when the pegs decide. The noise is floored at LINE_NOISE_FLOOR grey levels.
LINE_NOISE_FLOOR = 0.01  # grey levels of line-ness
# ... and the winning placement's median line must be this high (grey levels of line-ness): a
# clean line-less board's noise reached 0.15 there, QN0uEWqa-X4's faint real lines 0.32, the
# fixture video's 0.81
LINE_MEDIAN_MIN = 0.22
WEAK_PICK_RATIO = 1.6


def _rotation_refusal(why: str) -> CalibrationError:
    return CalibrationError(f"rings found but not the rotation: {why}; give --points or --markers")


def picks(line_median: Callable[[float], float], c: float, ratio: float, info: dict[str, float]) -> bool:
    """Do the quadrant lines placed by ``c`` stand ``ratio`` times above those at the pegs'
    other placement (``c`` + 45 degrees), by the median of the 4 lines? (The mean of the 4 let
    one speck on a board with no lines at all pick a placement, 45 degrees off: see
    ``bench_calibration.py --lineless``.)"""
    here, other = line_median(c), line_median(c + math.pi / 4)
    info["median_here"], info["median_other"] = here, other
    return here >= LINE_MEDIAN_MIN and here >= ratio * max(other, 0.0)


def _pick_by_pegs(p8: float, pegs_ok: bool, line_score: Callable[[float], float], snr4: float,
                  on_pegs: float | None, s8: float, s8h: float, info: dict[str, float],
                  line_median: Callable[[float], float] | None = None) -> float:
    """The pegs fix the angle modulo 45 degrees (lines at ``p8`` or ``p8`` + 45): the quadrant
    lines must pick one of the two clearly (PICK_MIN, PICK_RATIO) or the fit is refused.
    ``on_pegs``: how far (degrees) the strongest line-like directions were from where the pegs
    put the lines, when that is why the pegs decide."""
    if not pegs_ok:
        raise _rotation_refusal(
            f"no quadrant lines (signal {snr4:.1f}) nor pegs (strength {s8:.2f}, contrast {s8h:.2f})")
    cands = [p8, p8 + math.pi / 4]
    scores = [line_score(c) for c in cands]
    i = int(np.argmax(scores))
    info["peg_pick_best"], info["peg_pick_other"] = scores[i], scores[1 - i]
    if scores[i] >= PICK_MIN and scores[i] >= PICK_RATIO * max(scores[1 - i], 0.0) \
            and (line_median is None or picks(line_median, cands[i], PICK_RATIO, info)):
        return cands[i] % (math.pi / 2)
    why = (f"the strongest line-like directions (signal {snr4:.1f}) run through the pegs "
           f"({on_pegs:.0f} deg from where the pegs put the quadrant lines)" if on_pegs is not None
           else f"the quadrant lines are too faint (signal {snr4:.1f})")
    raise _rotation_refusal(
        f"{why}, and the lines between the pegs do not pick one of the two ways the pegs allow "
        f"(signals {scores[i]:.1f} and {scores[1 - i]:.1f})")


def fit_rotation(image: np.ndarray, G: np.ndarray, radii: dict[str, float]) -> tuple[float, dict[str, float]]:
    """Angle (radians) by which the current board frame must turn so the quadrant lines sit at
    45 + k90 degrees, and quality figures (harmonic strengths, residuals in mm).

    Two rules came from a rendered video (480x270, faint lines, glare over the pegs) that was
    "calibrated" 67.6 degrees off with its lines through the pegs. (1) Texture: the video's
    compression blocks are lines along the image axes all over the board, and in the 5 zone
    they outscored the faint quadrant lines 50 to 1 in noise units. The quadrant lines cross
    the 5 zone only, so the line-ness profile of the 10 zone (no lines, no pegs) is taken off
    the 5 zone's before anything is read from it: directions that are line-like everywhere are
    texture. (2) The pegs sit 22.5 degrees off the quadrant lines; when the pegs are seen
    (high-passed against glare) and the "lines" run within 11.25 degrees of them, the lines
    are not believed: the pegs fix the angle modulo 45 degrees and the lines must pick one of
    the two clearly, or the fit is refused. A rotation whose lines pass through seen pegs is
    never returned. (3) Faint lines: the line signal is the mean of the 4 window maxima, so on
    a board with no quadrant lines at all noise alone reaches 3 to 7 and its peak was accepted
    (at 4) anywhere, often 45 degrees off. With the pegs seen, lines under LINES_ALONE_SNR are
    believed only where the pegs put them (within PEG_AGREE_DEG); otherwise the fit is refused
    rather than guessed. The fixture video's own lines are that faint (signal 2.5, 0.5 degrees
    from the pegs' placement)."""
    import cv2

    mmpp = 0.5
    top, M = rectified(image, G, radii["shooting"] + 40, mmpp)
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
    ln = lineness(top, odd(4 / mmpp + 1))
    angles = np.linspace(0, 2 * math.pi, 1440, endpoint=False)
    r10, r15, rs = radii["ten"], radii["fifteen"], radii["shooting"]
    band = np.linspace(r10 + 0.12 * (rs - r10), rs - 0.12 * (rs - r10), 24)
    q = _polar(ln, M, band, angles)
    q = np.median(q, axis=0)  # a radial line lights every radius; a disc only a few
    q = q - np.median(q)
    inner = np.linspace(r15 + 0.3 * (r10 - r15), r10 - 0.15 * (r10 - r15), 16)
    texture = np.median(_polar(ln, M, inner, angles), axis=0)
    q = q - np.clip(texture - np.median(texture), 0, None)
    z4 = np.sum(q * np.exp(-4j * angles))
    s4 = float(abs(z4) / (np.sum(np.abs(q)) + 1e-9))
    pg = _polar(grey.astype(np.float32), M, np.linspace(r15 - 3, r15 + 3, 7), angles).mean(axis=0)
    pg = np.abs(pg - np.median(pg))
    z8 = np.sum(pg * np.exp(-8j * angles))
    s8 = float(abs(z8) / (np.sum(pg) + 1e-9))
    phi4 = (-np.angle(z4) / 4 - math.pi / 4) % (math.pi / 2)  # quadrant lines at 45 + phi4
    phi8 = (-np.angle(z8) / 8 - math.pi / 8) % (math.pi / 4)  # pegs at 22.5 + phi8
    # The same with the broad part of the profile taken away (a glare spot or a shadow over
    # a few pegs swamps the plain harmonic; a peg is ~5 degrees wide, so a 15-degree running
    # median leaves the pegs and removes the light): a second, independent cue to confirm weak
    # quadrant lines with.
    hp = np.abs(pg - median_filter(pg, size=61, mode="wrap"))
    z8h = np.sum(hp * np.exp(-8j * angles))
    s8h = float(abs(z8h) / (np.sum(hp) + 1e-9))
    phi8h = (-np.angle(z8h) / 8 - math.pi / 8) % (math.pi / 4)
    # (floored: on a clean board the line-ness is zero almost everywhere, its spread nearly
    # 0, and a noise speck then scored hundreds of thousands; see LINE_NOISE_FLOOR)
    noise = max(1.4826 * float(np.median(np.abs(q))), LINE_NOISE_FLOOR)

    def line_median(c: float) -> float:
        """The median of the 4 lines' heights in grey levels of line-ness (not in noise
        units, see LINE_MEDIAN_MIN): one speck cannot make it."""
        vals = []
        for k in range(4):
            d = (angles - (math.pi / 4 + c + k * math.pi / 2) + math.pi) % (2 * math.pi) - math.pi
            vals.append(float(q[np.abs(d) < math.radians(2.5)].max()))
        return float(np.median(vals))

    def line_score(c: float) -> float:
        """Mean height of the strongest line-ness within 1 degree of the 4 predicted lines."""
        vals = []
        for k in range(4):
            d = (angles - (math.pi / 4 + c + k * math.pi / 2) + math.pi) % (2 * math.pi) - math.pi
            vals.append(float(q[np.abs(d) < math.radians(2.5)].max()))
        return float(np.mean(vals)) / noise

    def off_pegs(c: float) -> float:
        """Degrees between the lines placed by ``c`` and where the seen pegs put them (0: the
        pegs sit midway between the lines; 22.5: on them)."""
        return abs(math.degrees((phi8h - c + math.pi / 8) % (math.pi / 4) - math.pi / 8))

    # the harmonic's phase can be pulled by glare or a broad shadow; the strongest single peak
    # is another guess: keep whichever explains all four lines better
    phi_peak = (float(angles[int(np.argmax(q))]) - math.pi / 4) % (math.pi / 2)
    if line_score(phi_peak) > line_score(float(phi4)):
        phi4 = phi_peak
    snr4 = line_score(phi4)
    info = {"quadrant_strength": s4, "quadrant_snr": snr4, "peg_strength": s8, "peg_contrast": s8h,
            "other_placement_snr": line_score(float(phi4) + math.pi / 4)}
    pegs_seen = s8h >= PEG_SEEN
    dpeg_h = off_pegs(float(phi4))
    info["lines_vs_pegs_deg"] = dpeg_h
    lines_on_pegs = pegs_seen and dpeg_h > PEG_ON_LINE_DEG
    if lines_on_pegs or (not pegs_seen and snr4 < NO_PEGS_SNR):
        phi = _pick_by_pegs(float(phi8h if pegs_seen else phi8), s8 >= 0.15 or pegs_seen, line_score,
                            snr4, dpeg_h if lines_on_pegs else None, s8, s8h, info, line_median)
    elif not pegs_seen or (snr4 >= LINES_ALONE_SNR and picks(line_median, float(phi4), WEAK_PICK_RATIO, info)):
        # (with the pegs seen, clear lines must still beat the pegs' other placement: on a board
        # with no lines, specks scored "clear" at both)
        phi = float(phi4)
    elif snr4 >= WEAK_SNR_MIN and dpeg_h <= PEG_AGREE_DEG \
            and picks(line_median, float(phi4), WEAK_PICK_RATIO, info):
        # weak lines are believed when the pegs, on their own, put them in the same place
        phi = float(phi4)
    else:
        raise _rotation_refusal(
            f"the quadrant lines are too faint to place (signal {snr4:.1f}, {LINES_ALONE_SNR:.0f} "
            f"needed alone) and the pegs do not confirm them ({dpeg_h:.1f} deg from where the "
            f"pegs put them, {PEG_AGREE_DEG:.0f} allowed; median line "
            f"{info.get('median_here', 0.0):.2f} grey levels there and {info.get('median_other', 0.0):.2f} "
            f"at the pegs' other placement, 45 deg away): the pegs alone cannot tell the two placements apart")
    # pegs agree when they sit 22.5 degrees off the lines
    dpeg = (phi8 - phi + math.pi / 8) % (math.pi / 4) - math.pi / 8
    info["peg_vs_quadrant_deg"] = abs(math.degrees(dpeg))
    # refine on the peaks of the quadrant lines: the strongest peak near each predicted line
    # (a disc or a painted digit can pull the harmonic by a few degrees, not a peak), then a
    # weighted centroid over +-1.5 degrees of it. Only lines whose peak stands out count (a
    # faint line's "peak" is noise anywhere in the window): they set the angle, and their
    # spread about it is the residual reported
    if line_score(phi) >= 3.0:
        offs: list[float] = []
        strong: list[bool] = []
        for k in range(4):
            a0 = math.pi / 4 + phi + k * math.pi / 2
            d = (angles - a0 + math.pi) % (2 * math.pi) - math.pi
            win = np.nonzero(np.abs(d) < math.radians(12))[0]
            j = win[int(np.argmax(q[win]))]
            near = np.abs((angles - angles[j] + math.pi) % (2 * math.pi) - math.pi) < math.radians(1.5)
            wts = np.clip(q[near], 0, None)
            dd = (angles[near] - a0 + math.pi) % (2 * math.pi) - math.pi
            offs.append(float(np.sum(wts * dd) / np.sum(wts)) if wts.sum() > 0 else float(d[j]))
            strong.append(bool(q[j] >= 3.0 * noise))
        off = np.array(offs)[np.array(strong)]
        if len(off) >= 2:
            refined = phi + float(np.median(off))
            # with the pegs seen, the peaks may not pull the lines away from where the pegs
            # put them (a line-less board's specks moved it 4.7 degrees); the pegs then stand
            if not pegs_seen or off_pegs(refined) <= max(off_pegs(phi), PEG_AGREE_DEG):
                phi = refined
        # residual: each line seen within 2.5 degrees of where the fit puts it (the peak
        # search above looks 12 degrees wide, where a disc or a hand can be the strongest)
        res: list[float] = []
        for k in range(4):
            a0 = math.pi / 4 + phi + k * math.pi / 2
            d = (angles - a0 + math.pi) % (2 * math.pi) - math.pi
            near = np.abs(d) < math.radians(2.5)
            if q[near].max() < 3.0 * noise:
                continue  # not seen there
            wts = np.clip(q[near] - 0.5 * q[near].max(), 0, None)
            res.append(float(np.sum(wts * d[near]) / np.sum(wts)))
        if res:
            rmid = (r10 + rs) / 2
            info["quadrant_lines"] = float(np.sqrt(np.mean(np.square(res)))) * rmid
    if pegs_seen and off_pegs(phi) > PEG_ON_LINE_DEG:
        raise _rotation_refusal(
            f"the quadrant lines found ({math.degrees(phi) % 90:.1f} deg) run through the pegs "
            f"({off_pegs(phi):.0f} deg from where the pegs put them)")
    return phi, info


LINE_STEP_MAX = 0.6  # see line_or_edge
EDGE_BAND = (1.05, 1.11)  # playing-surface edge / shooting line: 1.072-1.090 measured on real boards (nominal 1.083)
FAINT_STEP_MAX = 0.25  # a faint line's step across it, as a fraction of the surface edge's
FAINT_DEPTH_MIN = 1.5  # grey levels: a faint line must still be a line


def _step_at(prof: np.ndarray, rr: np.ndarray, half_mm: float = 4.0) -> tuple[float, float]:
    """(radius, size) of the strongest step in ``prof``: |mean of the next half_mm - mean of
    the last half_mm| at each radius."""
    n = max(1, int(round(half_mm / (rr[1] - rr[0]))))
    c = np.concatenate([[0.0], np.cumsum(prof)])
    i = np.arange(n, len(prof) - n + 1)
    steps = np.abs((c[i + n] - c[i]) - (c[i] - c[i - n])) / n
    j = int(np.argmax(steps))
    return float(rr[i[j]]), float(steps[j])


def line_or_edge(image: np.ndarray, G: np.ndarray) -> float:
    """Refuse a fit whose "shooting line" is the edge of the playing surface: with the 10 and
    15 lines a little off, surface edge : 10 : 15 fits rings nearly as well as the real lines
    do (broadcast frames did, with rms 1 mm). A painted line has the same surface on both
    sides; the surface edge has surface inside and ditch outside. Returns that step (across /
    depth of the line): right fits of real photos give under 0.1, the wrong ones 1.3 to 1.9.

    A faint line under a light ramp (a broadcast lit from one side: a line 2 grey levels deep,
    the surface 5 levels lighter outside it than inside) has a large step for its depth too.
    It is told from an edge by the board around it: the surface edge, a far stronger step,
    lies just outside a real shooting line (at 1.05-1.11 times its radius), while outside an
    edge taken for the line lies the ditch, where no such step is. Such a line is accepted
    when its own step is under a quarter of that edge's and it is at least a little deep."""

    extent = REF_MM * EDGE_BAND[1] + 8  # (the thresholds were set on a rectified image at 0.5 mm/px)

    def polar(rr: np.ndarray, a: np.ndarray) -> np.ndarray:
        return rectified_grey_polar(image, G, extent, 0.5, rr, a)

    a = np.linspace(0, 2 * math.pi, 360, endpoint=False)
    a_deg = np.degrees(a) % 45.0
    a = a[(np.abs(a_deg - 22.5) > 6) & (a_deg > 4) & (a_deg < 41)]
    rr = np.linspace(REF_MM - 6, REF_MM + 6, 49)
    prof = np.median(polar(rr, a), axis=1)
    inner, outer = float(np.median(prof[:8])), float(np.median(prof[-8:]))
    depth = float(np.abs(prof - 0.5 * (inner + outer)).max())
    step = abs(inner - outer) / max(depth, 1.0)
    if step <= LINE_STEP_MAX:
        return step
    ro = np.arange(REF_MM * EDGE_BAND[0] - 4, REF_MM * EDGE_BAND[1] + 4, 0.5)
    _r_edge, edge = _step_at(np.median(polar(ro, a), axis=1), ro)
    if depth >= FAINT_DEPTH_MIN and abs(inner - outer) <= FAINT_STEP_MAX * edge:
        return step
    raise CalibrationError(
        f"the ring taken for the shooting line is an edge (step across it {step:.1f} of its "
        f"depth), not a painted line: probably the playing surface's edge; refusing a bad "
        f"calibration (give --points or --markers)")
