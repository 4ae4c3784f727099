"""Crokinole calibration, steps 3 and 4: the rotation and the measured board.

On the rectified top-down image of a ring fit (north arbitrary), the quadrant lines (45 + k90
degrees) give the phase of the 4th angular harmonic of line-ness in the 5 zone and the pegs
(22.5 + k45) the 8th harmonic of darkness on the 15 line; the strongest single peak is a second
guess when glare pulls the harmonic. ``south`` then picks among the four (see geometry.orient).
The measurements (line width, playing-surface edge, hole radius, peg circle) are radial profiles
of the same rectified image, in the scale where the shooting line is 304.8 mm.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy.ndimage import median_filter

from tracker.boards import CrokinoleBoard
from tracker.calibration.features import lineness, odd, sample_polar
from tracker.calibration.geometry import apply_h
from tracker.errors import CalibrationError


# ---------------------------------------------------------------------- 3. rotation
def rectified(image: np.ndarray, G: np.ndarray, extent: float, mm_per_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Top-down image (north up) and its matrix rectified px -> board mm."""
    import cv2

    n = int(math.ceil(2 * extent / mm_per_px))
    M = np.array([[mm_per_px, 0, 0.5 * mm_per_px - extent], [0, -mm_per_px, extent - 0.5 * mm_per_px], [0, 0, 1.0]])
    top = cv2.warpPerspective(image, G @ M, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return top, M


def _polar(img: np.ndarray, M: np.ndarray, radii: np.ndarray, angles: np.ndarray) -> np.ndarray:
    Minv = np.linalg.inv(M)
    A = Minv.copy()
    return sample_polar(img, A, radii, angles)


PEG_SEEN = 0.3  # high-passed peg harmonic strength above which the pegs are taken as seen
PEG_ON_LINE_DEG = 11.25  # pegs nearer the lines than this sit on them: not a crokinole board's lines
PICK_RATIO = 2.0  # the pegs' two candidate line placements: the lines must pick one this clearly ...
PICK_MIN = 3.0  # ... and at this signal at least
LINES_ALONE_SNR = 8.0  # quadrant lines this clear are believed without the pegs (when the pegs are seen)
WEAK_SNR_MIN = 2.0  # fainter lines are believed when the pegs put them within PEG_AGREE_DEG ...
PEG_AGREE_DEG = 2.0  # ... of the same place (noise peaks land within 3 degrees too often)
NO_PEGS_SNR = 4.0  # without seen pegs, lines are believed from this signal on


def _rotation_refusal(why: str) -> CalibrationError:
    return CalibrationError(f"rings found but not the rotation: {why}; give --points or --markers")


def _pick_by_pegs(p8: float, pegs_ok: bool, line_score: Callable[[float], float], snr4: float,
                  on_pegs: float | None, s8: float, s8h: float, info: dict[str, float]) -> float:
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
    if scores[i] >= PICK_MIN and scores[i] >= PICK_RATIO * max(scores[1 - i], 0.0):
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
    noise = 1.4826 * float(np.median(np.abs(q))) + 1e-6

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
    info = {"quadrant_strength": s4, "quadrant_snr": snr4, "peg_strength": s8, "peg_contrast": s8h}
    pegs_seen = s8h >= PEG_SEEN
    dpeg_h = off_pegs(float(phi4))
    info["lines_vs_pegs_deg"] = dpeg_h
    lines_on_pegs = pegs_seen and dpeg_h > PEG_ON_LINE_DEG
    if lines_on_pegs or (not pegs_seen and snr4 < NO_PEGS_SNR):
        phi = _pick_by_pegs(float(phi8h if pegs_seen else phi8), s8 >= 0.15 or pegs_seen, line_score,
                            snr4, dpeg_h if lines_on_pegs else None, s8, s8h, info)
    elif snr4 >= LINES_ALONE_SNR or not pegs_seen:
        phi = float(phi4)
    elif snr4 >= WEAK_SNR_MIN and dpeg_h <= PEG_AGREE_DEG:
        # weak lines are believed when the pegs, on their own, put them in the same place
        phi = float(phi4)
    else:
        raise _rotation_refusal(
            f"the quadrant lines are too faint to place (signal {snr4:.1f}, {LINES_ALONE_SNR:.0f} "
            f"needed alone) and the pegs do not confirm them ({dpeg_h:.1f} deg from where the "
            f"pegs put them, {PEG_AGREE_DEG:.0f} allowed)")
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
            phi += float(np.median(off))
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
    import cv2

    top, M = rectified(image, G, 304.8 * EDGE_BAND[1] + 8, 0.5)
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32)
    a = np.linspace(0, 2 * math.pi, 360, endpoint=False)
    a_deg = np.degrees(a) % 45.0
    a = a[(np.abs(a_deg - 22.5) > 6) & (a_deg > 4) & (a_deg < 41)]
    rr = np.linspace(304.8 - 6, 304.8 + 6, 49)
    prof = np.median(_polar(grey, M, rr, a), axis=1)
    inner, outer = float(np.median(prof[:8])), float(np.median(prof[-8:]))
    depth = float(np.abs(prof - 0.5 * (inner + outer)).max())
    step = abs(inner - outer) / max(depth, 1.0)
    if step <= LINE_STEP_MAX:
        return step
    ro = np.arange(304.8 * EDGE_BAND[0] - 4, 304.8 * EDGE_BAND[1] + 4, 0.5)
    _r_edge, edge = _step_at(np.median(_polar(grey, M, ro, a), axis=1), ro)
    if depth >= FAINT_DEPTH_MIN and abs(inner - outer) <= FAINT_STEP_MAX * edge:
        return step
    raise CalibrationError(
        f"the ring taken for the shooting line is an edge (step across it {step:.1f} of its "
        f"depth), not a painted line: probably the playing surface's edge; refusing a bad "
        f"calibration (give --points or --markers)")


# ---------------------------------------------------------------------- 4. measure
def _edge_radius(profile: np.ndarray, radii: np.ndarray) -> float:
    g = np.abs(np.gradient(profile))
    j = int(np.argmax(g))
    if 0 < j < len(g) - 1:
        a, b, c = g[j - 1], g[j], g[j + 1]
        den = a - 2 * b + c
        frac = 0.5 * (a - c) / den if abs(den) > 1e-9 else 0.0
        return float(radii[j] + np.clip(frac, -0.5, 0.5) * (radii[1] - radii[0]))
    return float(radii[j])


def measure_board(image: np.ndarray, G: np.ndarray, radii: dict[str, float],
                  board: CrokinoleBoard) -> tuple[CrokinoleBoard, dict[str, float]]:
    """The board with measured figures (in the scale where the shooting line is 304.8 mm)."""
    import cv2

    mmpp = 0.25
    extent = radii["shooting"] * 1.2
    top, M = rectified(image, G, extent, mmpp)
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32)
    angles = np.linspace(0, 2 * math.pi, 720, endpoint=False)
    # avoid the quadrant lines and pegs when averaging radial profiles
    a_deg = np.degrees(angles) % 45.0
    clean = (np.abs(a_deg - 22.5) > 6) & (a_deg > 4) & (a_deg < 41)
    ang = angles[clean]
    out: dict[str, float] = {}
    figures: dict[str, float] = {"shooting_line_radius": 304.8, "ten_line_radius": radii["ten"],
                                 "fifteen_line_radius": radii["fifteen"]}
    # line width: full width at half depth of the shooting line's cross profile
    rr = np.linspace(304.8 - 6, 304.8 + 6, 97)
    prof = np.median(_polar(grey, M, rr, ang), axis=1)
    bg = np.median(np.concatenate([prof[:15], prof[-15:]]))
    dev = np.abs(prof - bg)
    peak = dev.max()
    if peak > 8:
        above = np.nonzero(dev >= peak / 2)[0]
        width = float((above[-1] - above[0] + 1) * (rr[1] - rr[0]))
        # the image blurs the line: remove about one image pixel of blur
        ppm = float(np.median(np.linalg.norm(apply_h(G, np.array([[305.0, 0.0], [0.0, 305.0]])) - apply_h(G, np.array([[304.0, 0.0], [0.0, 304.0]])), axis=1)))
        blur_mm = 1.0 / max(ppm, 1e-6)
        width = math.sqrt(max(width**2 - blur_mm**2, (0.5 * width) ** 2))
        if 0.5 <= width <= 8:
            figures["line_width"] = width
    # playing-surface edge: strongest radial step outside the shooting line
    rr = np.linspace(304.8 + 8, min(304.8 * 1.16, extent - 2), 120)
    prof = np.median(_polar(grey, M, rr, ang), axis=1)
    sr = _edge_radius(cv2.GaussianBlur(prof.reshape(-1, 1), (1, 5), 0).ravel(), rr)
    if 304.8 + 10 < sr < 304.8 * 1.15:
        figures["surface_radius"] = sr
    # hole: darkest disc at the centre, edge = strongest radial step within 8..30 mm
    rr = np.linspace(6, 30, 97)
    prof = np.median(_polar(grey, M, rr, angles), axis=1)
    hr = _edge_radius(prof, rr)
    if prof[:10].mean() < prof[-10:].mean() - 10 and 8 < hr < 29:
        figures["hole_radius"] = hr
    # peg circle: radial position of the darkest/lightest blob at each peg angle
    r15 = radii["fifteen"]
    pr: list[float] = []
    rr = np.linspace(r15 - 8, r15 + 8, 65)
    for k in range(board.peg_count):
        a = math.radians(board.peg_angle_offset_deg + 360.0 * k / board.peg_count)
        col = _polar(grey, M, rr, np.linspace(a - 0.02, a + 0.02, 5)).mean(axis=1)
        ref = np.median(_polar(grey, M, rr, np.linspace(a + 0.12, a + 0.2, 5)).mean(axis=1))
        d = np.abs(col - ref)
        if d.max() > 20:
            w8 = np.clip(d - d.max() / 2, 0, None)
            pr.append(float(np.sum(w8 * rr) / np.sum(w8)))
    if len(pr) >= 4:
        figures["peg_circle_radius"] = float(np.median(pr))
        out["pegs"] = float(np.sqrt(np.mean((np.array(pr) - np.median(pr)) ** 2)))
    return board.with_measured(**figures), out
