"""Korona discs lying against a rim, found from the strip of board along the rim.

A disc laid against a korona rim is the detector's hardest case at fixture sizes (480x270: a disc
is 6-9 image pixels across). Its outer side shows no edge (a dark disc against the dark rim, or a
light one lost in the rim's shadow), a row of them shares every side with a neighbour, and a disc
of a colour close to the board's wood shows almost no face either. The ring filter and the
occlusion-aware fits need most of an outline, so they find such discs one time in two (the
red-brown south row of korona_2p_game one time in eight), and the row completion of ``rows.py``
needs two found discs of a row to start from.

What is certain about the board along a rim is that, bare, it looks the same all along the rim:
the rim's shadow, the wood's colour and the light change slowly along it, and a disc against the
rim interrupts that. So this pass reads, for each rim, the coarse view's Lab on a strip of board
along the rim (a grid in board millimetres: along the rim x depth from it, each sample taken
half-way up a disc's side), takes the bare strip's profile as the median over the rim's length at
each depth (discs cover a small part of a rim: a row of eight is 200 of its 740 mm), and scores
each position along the rim by how far the strip there differs from that profile over a disc's
depth (``DEPTH``). Whatever differs -- the face's colour, the outline's dark ring, the shadow a
disc casts, the light on its top edge -- counts, so a disc the colour of the wood still stands out
from the bare board's noise (a pale-wood row on birch scores 15-40 against a bare board's 5).

Runs: where the score passes a low threshold and somewhere a high one (the median plus a multiple
of the score's robust spread over the rim: hysteresis, so the dips between light discs do not cut
a row), measured where the score crosses half-way between the bare board's level and the run's
(the discs' ends, whatever the blur: a coarse view pixel is a sixth of a disc at fixture sizes),
split where it stays below that for a third of a disc (board between two discs). A stretch of
length ``L`` within ``LENGTH_TOL`` of ``n * 2 r`` plus up to a shadow (``SHADOW``: the
shadow of a 12 mm thick disc lengthens a row by 12 / tan(elevation) mm along the light: up to 8 mm
under a lamp 55 degrees up or more, 12 mm at 45; k4h_9306's east row after the camera's refit read
212.7 mm for 8 discs, 12.7 over, and was refused while a shadow was taken for at most 9 mm) is ``n`` touching discs on the rim line
``half - r``, placed by the deep dips of the score where two discs meet when it shows them (light
discs), else from the stretch's end on the light's side: a disc's shadow lengthens the stretch at
the end away from the light, and the light's side along the rim is told by the rims across it
(the rim towards the light shades the board beside it, the opposite one is lit: ``shadow_lean``).
Centred on the stretch, a row sat up to half a shadow off (rendered 480x360 stills under a lamp
38-50 degrees up: 2.8-5.3 mm; k4h_9306's west row -4.7 mm); measured from its lit end, within
1.4 mm (1280x720: 1.2 mm). Where the rims do not tell (the light across the row), it is centred.
Opt-in (``DetectorSettings.rim_lean``): figures there. The count ``n`` is the
length less ``COUNT_SHIFT`` radii in disc widths, rounded (a shadow of ``SHADOW`` is allowed only
with ``DetectorSettings.rim_shadow``; by default 0.7 r).

Light along the rim: a pool of light or a colour change along a rim (a lamp's spot towards a
corner) differs from the rim's median profile too, over the board beyond a disc's depth as much
as at it (k4h_9306 at 0 s: six phantom discs towards the south-west pocket). With that light
taken off (the strip less the difference of the bare band beyond a disc, ``_light``, at the same
place along the rim), a disc still differs from the board beside it across the strip; the
light does not. A stretch keeping less than ``LIGHT_SHARE`` of its rise is light (measured over
the korona dev and fixture stills: the phantom kept 0.14, every true row 0.79-1.0).

Rows of light discs on a light board, whose faces show no difference from the board and whose
score is a comb of their edges cut into pieces by the runs, are read from that comb
(``ladder.py``).

What this pass will not report:
* a stretch that differs deeper than a disc and its shadow (``DEEP``) over more than
  ``DEEP_SHARE`` of it, by at least ``DEEP_REL`` of what it differs by at a disc's depth: a
  striker (as wide as two discs, but twice as deep), a hand or an arm reaching over the rim, a
  second row in front of the first (a row far off, small and blurred, bleeds into the band by
  a fifth to a third of its own difference: k4h_9306's red row at 0.6 s was refused as deep);
* a stretch that leaves the board next to the rim bare (``NEAR``): a disc a little way in from
  the rim only shades the strip;
* a stretch whose length is no whole number of disc widths (a rim mark, a hand's edge, a row
  partly hidden), or whose deep dips are out of step (discs laid a fraction of a disc apart);
* a row of several places of which one shows the board's colour when the row's colour stands
  clear of it (a stretch bridging a gap);
* anything near a known disc (``CLEAR`` radii) or near the corner pockets. Known discs off the
  row line (a striker, a disc in front) are taken out of the strip first, with a margin for their
  shadow, so a row beside a striker is measured up to the striker's edge;
* anything but on full passes (``detector.py`` calls ``rows.row_fill``, which calls this).
Places are reported as predicted, not fitted, with the modest confidence of ``rows.py``.

Measured on full passes with the true calibration, every disc at rest at 6-8 sampled frames
(``bench_detect.py --fixtures``-like): recall korona_2p_game 0.51 -> 0.69, korona_4p_part 0.76 ->
0.84, korona_ru_part 0.38 -> 0.53, with one more detection near no disc on 2p_game (a disc 7 mm in
from the rim, placed on the rim line: 9 mm off) and none more on the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, ON_SURFACE, Detections
from tracker.detect.ladder import contact_rows
from tracker.detect.rim_strip import DEEP, STEP, W, shadow_lean, strip_scores

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

SPREAD = 5.0  # threshold: median score + SPREAD * (robust spread of the scores along the rim)
LOW_SPREAD = 2.5  # ... and the low threshold of a run (hysteresis)
FLOOR = 5.0  # ... and at least this (weighted 8-bit Lab units)
LENGTH_TOL = 0.3  # of r: a run within this of n * 2 r (plus up to a shadow) is n discs
COUNT_SHIFT = 0.7  # of r: a run's length less this, in disc widths, rounded, is its count of discs
SHADOW = 1.0  # of r: with the light low, a run of discs reads this much longer than the discs (``DetectorSettings.rim_shadow``, 0.7 by default)
DEEP_SHARE = 0.15  # a run differing deeper than a disc over more of its length is something else
CLEAR = 1.6  # of r: a place this near a known disc is taken
GAP = 3  # samples: a gap this short inside a run is closed (a light disc's face between its edges)
DIP_DEPTH = 0.6  # of the stretch's level above the board's: a dip below it is deep
DIP_TOL = 0.15  # of 2 r: deep dips this near a whole number of disc widths apart are a row's contacts
SPLIT = 6  # samples: a dip below half the run's level this long is board between discs
MAX_RUN = 12  # discs: a longer run is not a row laid by hand
CONFIDENCE = 0.4
# The bare rim's level next to the rim, not the whole rim's, is what a row must stand above there
# (``_near_low``), when the bare rim is at least this share of it. False: the whole rim's.
NEAR_BARE = True
BARE_SHARE = 0.25
LIGHT_SHARE = 0.5  # a stretch keeping less than this share of its rise with the light taken off is light
DEEP_REL = 0.4  # ... and only where it differs there by this share of the disc's depth's
EDGE = 0.5  # of the coarse view's pixel: a stretch's end reads this much past a disc's edge (blur)


def rim_discs(det: DiscDetector, lab: np.ndarray, found: Detections,
              trace: list[tuple[int, float, float, float, int, str]] | None = None) -> Detections:
    """Discs against the four rims of a korona board that ``found`` does not hold (``lab``: the
    coarse view in OpenCV 8-bit Lab, float32). ``trace`` collects each run considered, as
    (axis, sign, start mm, length mm, discs, verdict), for tests and benchmarks."""
    b = det.board
    if not isinstance(b, KoronaBoard):
        return Detections.empty()
    r = float(b.disc_radius)
    line = b.half - r
    # Along a rim, a disc's centre stays clear of the corner pockets.
    end = b.half - b.pocket_inset - b.pocket_radius - r
    along = np.arange(-end - r, end + r + STEP / 2, STEP)
    depth = np.arange(0.5 * STEP, DEEP[1] * r, STEP)
    known = [(p, float(rad)) for p, rad in zip(found.xy, found.radius, strict=True)]
    shadow = float(det.settings.rim_shadow)
    board = np.median(lab[det._valid], axis=0)
    out: list[np.ndarray] = []
    strips = {(axis, sign): strip_scores(det, lab, axis, sign, along, depth, r, found)
              for axis in (0, 1) for sign in (1.0, -1.0)}
    for axis in (0, 1):
        for sign in (1.0, -1.0):
            scores = strips[(axis, sign)]
            if scores is None:
                continue
            score, deep, near, lit, tone, _ = scores
            lean = shadow_lean(strips, axis) if det.settings.rim_lean else 0.0
            thr = _threshold(score)
            # Where the board differs deeper than a disc, over the rim or not, something else is
            # there (an arm, a cue, a striker, a second row): those places and a disc's width
            # around them are no part of a row.
            # It must also differ there by a good share of what it differs by at a disc's depth
            # (over a disc's width): a row seen far off, small and blurred, bleeds a little
            # into the band beyond it; a striker, an arm or a second row differ there as much.
            width = np.ones(int(2 * r / STEP) + 1)
            deep_hit = (deep > thr) & (np.convolve(deep, width, "same") > DEEP_REL * np.convolve(score, width, "same"))
            deep_on = np.convolve(deep_hit.astype(float), width, "same") > 0
            # Hysteresis: a run is where the score passes a low threshold (the dips between
            # two light discs, whose faces hardly differ from the board, stay above it) and it
            # must pass the high one somewhere.
            low = _threshold(score, LOW_SPREAD)
            near_low = _near_low(near, score <= low)
            for a0, a1 in _runs(score > low, GAP):
                if float(score[a0: a1 + 1].max()) <= thr:
                    continue
                if float(np.mean(deep_on[a0: a1 + 1])) > DEEP_SHARE:
                    _note(trace, axis, sign, along[a0], (a1 - a0) * STEP, 0, "deep")
                    continue
                # The run's ends where the score crosses half-way from the bare board's to
                # the run's own level: where the discs end, whatever the blur (a view pixel is
                # a sixth of a disc at fixture sizes). A disc's shadow still lengthens it.
                for lo, hi in _half_way(score, a0, a1, float(np.median(score))):
                    seen = (hi - lo) * STEP
                    if float(np.median(near[int(np.ceil(lo)): int(np.floor(hi)) + 1])) <= near_low:
                        _note(trace, axis, sign, along[0] + lo * STEP, seen, 0, "off the rim")
                        continue
                    n = int(round((seen - COUNT_SHIFT * r) / (2 * r)))
                    if n < 1 or n > MAX_RUN or not -LENGTH_TOL * r <= seen - n * 2 * r <= (shadow + LENGTH_TOL) * r:
                        _note(trace, axis, sign, along[0] + lo * STEP, seen, n, "length")
                        continue
                    if _light_only(score, lit, lo, hi):
                        _note(trace, axis, sign, along[0] + lo * STEP, seen, n, "light")
                        continue
                    first = _first_centre(score, along, lo, hi, n, r, float(np.median(score)), shadow,
                                          lean, EDGE * det.mm_per_px)
                    if first is None:
                        _note(trace, axis, sign, along[0] + lo * STEP, seen, n, "dips")
                        continue
                    places = [first + 2 * k * r for k in range(n)]
                    row = [np.array([a, sign * line]) if axis == 0 else np.array([sign * line, a]) for a in places]
                    if not _one_colour(det, lab, row, board):
                        _note(trace, axis, sign, along[0] + lo * STEP, seen, n, "colour")
                        continue
                    _note(trace, axis, sign, along[0] + lo * STEP, seen, n, "row")
                    out += [xy for a, xy in zip(places, row, strict=True) if abs(a) <= end and _free(xy, known, out, r)]
            # Light discs on a light board: a comb of their edges (``ladder.py``).
            idx = np.searchsorted(along, [a for a in contact_rows(score, tone, along, r, float(np.median(score)), FLOOR)])
            light = [(float(along[i]), np.array([along[i], sign * line]) if axis == 0 else np.array([sign * line, along[i]]))
                     for i in idx if i < len(along) and not deep_on[i]]
            if light and _one_colour(det, lab, [xy for _, xy in light], board):
                _note(trace, axis, sign, light[0][0] - r, 2 * r * len(light), len(light), "contacts")
                out += [xy for a, xy in light if abs(a) <= end and _free(xy, known, out, r)]
    if not out:
        return Detections.empty()
    from tracker.detect.fitpass import _cie
    from tracker.detect.rows import _lab_at

    xy = np.array(out)
    cols = [_lab_at(det, lab, p) for p in xy]
    col = np.array([_cie(c if c is not None else board) for c in cols])
    return Detections(xy=xy, radius=np.full(len(xy), r), color=col,
                      confidence=np.full(len(xy), CONFIDENCE), kind=np.full(len(xy), DISC),
                      where=np.full(len(xy), ON_SURFACE), surround=np.tile(_cie(board), (len(xy), 1)))


def _near_low(near: np.ndarray, bare: np.ndarray) -> float:
    """The level next to the rim (``near``) below which a stretch leaves it bare: the bare rim's
    own (``bare``: where the strip reads as board), when it holds at least ``BARE_SHARE`` of the
    rim; else the whole rim's. The statistics of a whole rim that a long row covers are the row's
    own: k4h_10212's west row, 8 discs against the rim (212 mm of the 790 sampled), read 20-35
    next to the rim against 2-5 bare, and lifted the rim's median and spread so far (median 9.7,
    threshold 27.1) that the row's own median, 26, fell below it: "off the rim", the row never
    found, two of its discs' fates (off at 8.3 s, pocketed at 37.8 s) lost."""
    if NEAR_BARE and int(bare.sum()) >= BARE_SHARE * len(near):
        return _threshold(near[bare], LOW_SPREAD)
    return _threshold(near, LOW_SPREAD)


def _light_only(score: np.ndarray, lit: np.ndarray, lo: float, hi: float) -> bool:
    """Whether the stretch ``lo..hi`` (fractional sample indices) differs from the rim's bare
    level only by the light: with the light along the rim taken off (``lit``), less than
    ``LIGHT_SHARE`` of its rise above the bare level is left. A disc differs from the board
    beyond it across the strip (its face, outline and shadow lie within a disc's depth of the
    rim); a pool of light or a colour change along the rim shifts the board beyond as much."""
    i0, i1 = int(np.ceil(lo)), int(np.floor(hi)) + 1
    rise = float(np.median(score[i0:i1])) - float(np.median(score))
    left = float(np.median(lit[i0:i1])) - float(np.median(lit))
    return rise > 0 and left < LIGHT_SHARE * rise


def _threshold(score: np.ndarray, k: float = SPREAD) -> float:
    med = float(np.median(score))
    spread = 1.4826 * float(np.median(np.abs(score - med)))
    return max(med + k * spread, med + FLOOR)


def _first_centre(score: np.ndarray, along: np.ndarray, lo: float, hi: float, n: int, r: float,
                  bare: float, shadow: float = SHADOW, lean: float = 0.0, edge: float = 0.0) -> float | None:
    """Where the first of ``n`` touching discs in the stretch ``lo..hi`` (fractional sample
    indices) has its centre, or None when the stretch is no row of touching discs.

    Where two discs of a row meet, the strip shows a little board on either side of the contact:
    the score dips. Light discs, whose faces hardly differ from the board, dip deeply there;
    dark ones hardly at all (their shadows fill the notch). Deep dips (below ``DIP_DEPTH`` of the
    stretch's level above the board's) must then lie a whole number of disc widths apart -- discs spaced
    loosely, a gap of board between them a third of a disc wide, dip as deeply, but not in step
    -- and they place the row; without them, the row is centred on the stretch less what its
    shadow adds at the end ``lean`` says it falls to (-1: the low end, +1: the high end, 0: not
    known): the stretch's excess over ``n`` discs and a blurred ``edge`` at each end."""
    i0, i1 = int(np.ceil(lo)), int(np.floor(hi))
    v = score[i0: i1 + 1]
    mid = float(along[0]) + 0.5 * (lo + hi) * STEP
    # The shadow lengthens the stretch at the end it falls to (``lean``): the row is measured
    # from the other end, which reads ``edge`` longer than the discs (the blur), as the
    # shadow's end does besides its shadow.
    over = (hi - lo) * STEP - 2 * n * r - 2 * edge
    mid -= lean * float(np.clip(over, 0.0, shadow * r)) / 2
    first = mid - (n - 1) * r
    if len(v) < 3:
        return first
    deep = bare + DIP_DEPTH * (float(np.percentile(v, 90)) - bare)
    # the lowest point within a disc's width, away from the stretch's ends
    w = max(1, int(0.6 * r / STEP))
    k = np.arange(w, len(v) - w)
    low = np.array([v[i] <= v[i - w: i + w + 1].min() for i in k], bool) if len(k) else np.zeros(0, bool)
    dips = along[i0 + k[low & (v[k] < deep)]] if len(k) else np.zeros(0)
    # the contacts are at first + (2 j + 1) r, j = 0 .. n - 2 (a dip past them: between the
    # last disc and its shadow)
    j = np.round((dips - first - r) / (2 * r))
    dips = dips[(j >= 0) & (j <= n - 2)]
    if not len(dips):
        return first
    gaps = np.diff(dips) / (2 * r)
    if np.any(np.abs(gaps - np.round(gaps)) > DIP_TOL) or np.any(np.round(gaps) < 1):
        return None
    # the phase that puts the dips on the contacts
    j = np.round((dips - first - r) / (2 * r))
    shift = float(np.mean(dips - (first + (2 * j + 1) * r)))
    return first + shift if abs(shift) <= shadow * r else None


def _one_colour(det: DiscDetector, lab: np.ndarray, row: list[np.ndarray], board: np.ndarray) -> bool:
    """Whether the places of a run of several discs all show the row's colour: when the row's
    colour (the median over its places) stands clear of the board's, every place must be nearer
    it than the board's. A run that bridges a gap between two rows (a strip of board a disc's
    shadow darkens) puts a place in the gap, which shows the board. (A row of the board's own
    colour cannot be told this way and passes.)"""
    from tracker.detect.rows import DISTINCT_ROW, _lab_at

    if len(row) < 2:
        return True
    cols = [_lab_at(det, lab, xy) for xy in row]
    if any(c is None for c in cols):
        return True
    row_col = np.median(np.array(cols), axis=0)
    if float(np.linalg.norm((row_col - board) * W)) < DISTINCT_ROW:
        return True
    return all(float(np.linalg.norm((c - row_col) * W)) < float(np.linalg.norm((c - board) * W))
               for c in cols if c is not None)


def _note(trace: list[tuple[int, float, float, float, int, str]] | None, axis: int, sign: float,
          start: float, length: float, n: int, verdict: str) -> None:
    if trace is not None:
        trace.append((axis, sign, round(float(start), 1), round(float(length), 1), n, verdict))


def _half_way(score: np.ndarray, a0: int, a1: int, bare: float) -> list[tuple[float, float]]:
    """The run's stretches of discs: where ``score`` stays above half-way between ``bare`` and
    the run's median level, as fractional sample indices of their ends. A dip below that level
    longer than ``SPLIT`` samples is bare board between discs (the narrow dip where two touching
    discs meet is not), so the run is split there."""
    level = 0.5 * (bare + float(np.median(score[a0: a1 + 1])))
    above = score[a0: a1 + 1] > level
    out: list[tuple[float, float]] = []
    for i0, j0 in _runs(above, SPLIT):
        i, j = i0 + a0, j0 + a0
        lo = float(i) - 0.5 if i == 0 else i - (score[i] - level) / max(float(score[i] - score[i - 1]), 1e-6)
        hi = float(j) + 0.5 if j == len(score) - 1 else j + (score[j] - level) / max(float(score[j] - score[j + 1]), 1e-6)
        out.append((lo, hi))
    return out


def _runs(on: np.ndarray, gap: int = 0) -> list[tuple[int, int]]:
    """(first, last) index of each run of True, gaps of up to ``gap`` samples closed."""
    on = on.copy()
    idx = np.flatnonzero(on)
    for a, b in zip(idx[:-1], idx[1:], strict=True):
        if 1 < b - a <= gap + 1:
            on[a:b] = True
    out: list[tuple[int, int]] = []
    i = 0
    n = len(on)
    while i < n:
        if on[i]:
            j = i
            while j + 1 < n and on[j + 1]:
                j += 1
            out.append((i, j))
            i = j + 1
        else:
            i += 1
    return out


def _free(xy: np.ndarray, known: list[tuple[np.ndarray, float]], out: list[np.ndarray], r: float) -> bool:
    if any(np.hypot(*(xy - p)) < CLEAR * 0.5 * (r + pr) + 0.5 * max(pr - r, 0.0) for p, pr in known):
        return False
    return not any(np.hypot(*(xy - q)) < CLEAR * r for q in out)
