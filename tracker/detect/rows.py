"""Korona rows against the rim: the discs between (and beyond) the ones the fits found.

A korona round starts with each player's discs laid in a row against their rim, side by side.
At fixture sizes (480x270: a disc is 6-9 image pixels across) such a row shows almost no outline
of its own: each disc touches two neighbours and the rim, and a dark disc against the dark rim
shows an edge only on its board side. The ring filter and the occlusion-aware fits
(``clusters.py``) find a few of the row, typically its ends or a disc a little out of line, and
miss the rest (recall at rest 0.48-0.65 on the korona fixtures, nearly all in these rows).

What is certain about such a row is its geometry: a disc touching the rim has its centre on the
line ``half - r`` from the board's centre, and touching neighbours are ``2 r`` apart. So along each
rim line this pass takes the discs already found on it and
* between two of them ``L`` apart, with ``L`` within a fraction of a disc of ``n`` times the row's
  pitch (n >= 2), puts the ``n - 1`` places evenly between them;
* beyond the row's ends, steps the row's pitch outward.

The pitch is ``2 r`` for touching discs; a row laid a little loosely (a few millimetres between
discs) has its own, measured from the spacings of its found discs (``_pitch``);
and keeps a place when the coarse view's colour there is a disc's, not the board's: nearer the
colour of the row's found discs than the bare board's (twice as near beyond the ends, and only
for a row that stands well off the board: a light row against the far rim differs from the board
by less than the rim's shadow does, measured on korona_2p_game). The bare board is the median
colour along the row's own line (``_line_board``), in the rim's shadow as the places are: against
the whole board's median, the shadowed bare board between two pale discs of k4h_9606's south row
was nearer the discs' colour, and five phantom places stood there from 10 s to the end. Opt-in
(``DetectorSettings.row_line_board``): figures there. A gap between two found discs is
filled whole or not at all, and a place must be clear of every known disc by nearly a disc's
width. A hand reaching over the rim between two discs has neither the discs' colour nor, usually,
the spacing; a gap of bare board between two discs fails the colour test, so a row with holes in
it is not filled.

Rows of which no disc was found at all, and discs of the board's own colour, are left to the strip
along each rim (``rim.py``), which ``row_fill`` runs after the gaps and ends here.

The places are reported as predicted (no fit: there is hardly an outline to fit), with a modest
confidence, only on full passes and where no disc is known. Measured with the true calibration
on every 20th frame: 78 of 87 places within 8 mm of a true disc on korona_4p_part, 81 of 90 on
korona_ru_part, 25 of 28 on korona_2p_game. The wrong ones were nearly all real discs of a row laid
a few millimetres looser than touching: stepping ``2 r`` past the row's end drifted off them (now
the row's own pitch).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, ON_SURFACE, Detections
from tracker.detect.lab_weights import WEIGHTS32 as W
from tracker.detect.reuse import changed_share

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

ON_LINE = 0.4  # of r: a found disc this close to a rim line is in that row
SPACING_TOL = 0.3  # of r: a gap within this of a whole number of disc widths is filled
CLEAR = 1.8  # of r: a place this near a known disc is taken (touching discs are 2 r apart)
MAX_STEPS = 8  # beyond a row's end, at most this many discs
LOOSE = 0.3  # of r: a row's discs at most this much further apart than touching are one row
PITCH_SPAN = 3  # a row's pitch is measured over gaps of at most this many discs
DISTINCT_ROW = 30.0  # weighted 8-bit Lab: a row this unlike the board is followed past its ends
CONFIDENCE = 0.4


def _lab_at(det: DiscDetector, lab: np.ndarray, xy: np.ndarray) -> np.ndarray | None:
    """The coarse view's mean Lab (OpenCV 8-bit) over 3x3 pixels at the disc's top face."""
    s, _ = det.pose.top_shift(xy[None], det.thickness)
    u, v = det.view.to_px((xy + 0.5 * s[0])[None])[0]
    iu, iv = int(round(u)), int(round(v))
    h, w = lab.shape[:2]
    if not (1 <= iu < w - 1 and 1 <= iv < h - 1) or not det._valid[iv, iu]:
        return None
    return np.asarray(lab[iv - 1: iv + 2, iu - 1: iu + 2].reshape(-1, 3).mean(axis=0), np.float32)


def row_fill(det: DiscDetector, lab: np.ndarray, found: Detections, board_lab: np.ndarray,
             fitted_ends: bool = False) -> Detections:
    """Discs of the korona rows against the rim that ``found`` (this pass's detections) misses:
    the gaps and ends of rows (below), then whatever the strip along each rim shows
    (``rim.py``: rows of which no disc was found, discs of the board's colour). ``fitted_ends``:
    a row is followed past its ends only from discs the fits found, not from places this pass
    put in before (kept since: ``row_memory.py`` keeps them, and each full pass then stepped one
    place further along a light row against the far rim, korona_2p_game: 11 phantoms)."""
    from tracker.detect.rim import rim_discs

    filled = _gaps_and_ends(det, lab, found, board_lab, fitted_ends)
    more = rim_discs(det, lab, Detections.merge([found, filled]))
    return Detections.merge([filled, more]) if len(more) else filled


def predicted(dets: Detections) -> np.ndarray:
    """Which of ``dets`` are places put in by the row pass or the rim strip (their confidence
    is this module's ``CONFIDENCE``; a fit's is its own measure)."""
    return np.abs(dets.confidence - CONFIDENCE) < 1e-9


def held_places(det: DiscDetector, last: Detections, moved: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``keep`` (which of the ``last`` call's detections stand unrefitted: ``reuse.untouched``)
    with the places this module put in kept too while under ``DetectorSettings.row_hold`` of
    their silhouette's pixels changed (``reuse.changed_share``): the incremental passes never put
    them back, and a few pixels of the picture's grain dropped a whole row until the next full
    pass. A disc knocked away or a hand over it changes nearly all of its silhouette."""
    hold = det.settings.row_hold
    if hold <= 0 or not isinstance(det.board, KoronaBoard):
        return keep
    at = np.flatnonzero(predicted(last) & ~keep)
    if not len(at):
        return keep
    share = changed_share(last[at], moved, det.view, det.pose, det.thickness)
    out = keep.copy()
    out[at[share < hold]] = True
    return out


def _gaps_and_ends(det: DiscDetector, lab: np.ndarray, found: Detections, board_lab: np.ndarray,
                   fitted_ends: bool = False) -> Detections:
    b = det.board
    if not isinstance(b, KoronaBoard) or not len(found):
        return Detections.empty()
    r = float(b.disc_radius)
    line = b.half - r
    # Along a rim, a disc's centre stays clear of the corner pockets.
    end = b.half - b.pocket_inset - b.pocket_radius - r
    discs = found.xy[found.kind == DISC]
    taken = found.xy
    out: list[tuple[np.ndarray, np.ndarray]] = []  # place, its colour
    for axis in (0, 1):  # rows along x (north and south rims) and along y (east and west)
        for sign in (1.0, -1.0):
            perp = discs[:, 1 - axis] * sign
            on = discs[np.abs(perp - line) < ON_LINE * r]
            if not len(on):
                continue
            along = np.sort(on[:, axis])
            row_cols = [c for c in (_lab_at(det, lab, _at(axis, sign, line, a)) for a in along) if c is not None]
            if not row_cols:
                continue
            disc_col = np.mean(row_cols, axis=0)
            # A light row against the far rim differs from the board by less than the rim's own
            # shadow: it must look twice as near its discs' colour, and is not followed past
            # its ends.
            distinct = float(np.linalg.norm((disc_col - board_lab) * W)) >= DISTINCT_ROW
            nearer = 1.0 if distinct else 0.5

            # The bare board on this row's line: the median colour along it (a row covers a
            # third of a rim at most), in the rim's shadow as the places are.
            line_board = _line_board(det, lab, axis, sign, line, end, board_lab) if det.settings.row_line_board \
                else board_lab
            pitch = _pitch(along, r) if det.settings.row_pitch else 2 * r
            for a0, a1 in zip(along[:-1], along[1:], strict=True):
                n = int(round((a1 - a0) / pitch))
                if n < 2 or abs((a1 - a0) - n * pitch) > SPACING_TOL * r:
                    continue
                # The whole gap is one row or nothing: every place in it must show a disc.
                gap = [_at(axis, sign, line, a0 + k * (a1 - a0) / n) for k in range(1, n)]
                got = [(xy, _row_colour(det, lab, xy, disc_col, line_board, nearer)) for xy in gap]
                if all(c is not None and _free(xy, taken, out, r) for xy, c in got):
                    out += [(xy, c) for xy, c in got if c is not None]
            if fitted_ends:  # the row's ends among the discs the fits found
                fit = found.xy[(found.kind == DISC) & ~predicted(found)]
                fit_on = fit[np.abs(fit[:, 1 - axis] * sign - line) < ON_LINE * r][:, axis] if len(fit) else fit[:0, 0]
                ends = [a for a in (along[-1], along[0]) if np.any(np.abs(fit_on - a) < 1e-9)]
            else:
                ends = [along[-1], along[0]]
            if distinct:
                for a_end, step in ((along[-1], pitch), (along[0], -pitch)):
                    if a_end not in ends:
                        continue
                    for k in range(1, MAX_STEPS + 1):
                        xy = _at(axis, sign, line, a_end + k * step)
                        if abs(a_end + k * step) > end:
                            break
                        if not _free(xy, taken, out, r):  # a disc known a little out of line
                            continue
                        c = _row_colour(det, lab, xy, disc_col, line_board, 0.5)
                        if c is None:
                            break
                        out.append((xy, c))
    if not out:
        return Detections.empty()
    from tracker.detect.fitpass import _cie

    xy = np.array([q for q, _ in out])
    return Detections(xy=xy, radius=np.full(len(xy), r), color=np.array([_cie(c) for _, c in out]),
                      confidence=np.full(len(xy), CONFIDENCE), kind=np.full(len(xy), DISC),
                      where=np.full(len(xy), ON_SURFACE), surround=np.tile(_cie(board_lab), (len(xy), 1)))


def _line_board(det: DiscDetector, lab: np.ndarray, axis: int, sign: float, line: float, end: float,
                board_lab: np.ndarray) -> np.ndarray:
    """The median colour of the coarse view along a rim's row line (every half disc between the
    pockets), or ``board_lab`` where too little of it is seen."""
    cols = [c for c in (_lab_at(det, lab, _at(axis, sign, line, a)) for a in np.arange(-end, end + 1e-9, 6.25))
            if c is not None]
    return np.median(np.array(cols), axis=0) if len(cols) >= 10 else board_lab


def _pitch(along: np.ndarray, r: float) -> float:
    """The distance between neighbouring centres of the row whose found discs lie at ``along``
    (sorted, mm along the rim): ``2 r`` for touching discs, more for a row laid a little
    loosely. Measured from the found discs' spacings, each gap read as the whole number of discs
    nearest it (neighbours or a few places apart) and only when its per-disc spacing is within
    ``LOOSE`` of touching; the median of those, never under ``2 r``. Stepped ``2 r`` at a time
    past the end of a row laid 2 mm a disc looser, the sixth place lay 12 mm off its disc."""
    gaps = np.diff(along)
    n = np.round(gaps / (2 * r))
    ok = (n >= 1) & (n <= PITCH_SPAN)
    per = gaps[ok] / n[ok]
    per = per[(per >= 2 * r - SPACING_TOL * r) & (per <= 2 * r + LOOSE * r)]
    return float(np.clip(np.median(per), 2 * r, 2 * r + LOOSE * r)) if len(per) else 2 * r


def _at(axis: int, sign: float, line: float, a: float) -> np.ndarray:
    return np.array([a, sign * line]) if axis == 0 else np.array([sign * line, a])


def _free(xy: np.ndarray, taken: np.ndarray, out: list[tuple[np.ndarray, np.ndarray]], r: float) -> bool:
    """Clear of every disc known (touching ones are 2 r apart) and of the places put in."""
    if len(taken) and float(np.hypot(*(taken - xy).T).min()) < CLEAR * r:
        return False
    return not any(np.hypot(*(q - xy)) < CLEAR * r for q, _ in out)


def _row_colour(det: DiscDetector, lab: np.ndarray, xy: np.ndarray, disc_col: np.ndarray,
                board_lab: np.ndarray, nearer: float) -> np.ndarray | None:
    """The view's colour at ``xy`` when it is the row's (``nearer`` times nearer the row's discs'
    colour than the board's), else None. (Also asking for the board to show beside the place on
    its inner side, against an arm over the rim, lost right places and no wrong ones on the
    korona fixtures.)"""
    col = _lab_at(det, lab, xy)
    if col is None:
        return None
    to_board = float(np.linalg.norm((col - board_lab) * W))
    to_disc = float(np.linalg.norm((col - disc_col) * W))
    return col if to_disc < nearer * to_board else None
