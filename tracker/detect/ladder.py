"""Korona rows of light discs against a rim, found from the notches between them (``rim.py``'s
strip score along one rim).

A disc the colour of a light board (white on cream) hardly differs from the board by its face:
the strip along the rim differs only at the disc's edges, where two discs of a row meet (the
dark notch of their outlines and the shade of one beside the other) and at the row's far end. The
score along the rim is then a comb: sharp peaks a disc's width apart, with deep dips between
them where the faces show (k4h_9306's white row at 0.6 s: peaks 32-54 at the contacts, dips
11-21 over the faces, 7-18 over the bare board beside it). ``rim.py``'s runs need the score
to stay above a threshold over the whole row, so the dips cut such a row into contacts a few
millimetres long, each no whole number of discs.

Korona discs in a row touch each other, so the row's period is the disc's diameter: peaks in
step with it (``STEP_TOL`` of a diameter), ``MIN_PEAKS`` or more of them in a chain, each two
neighbours with a deep dip between them (below ``DIP`` of the way from the bare board's level
up to the lower peak), are a row. The peaks are either the dark notches where discs meet (faces
the board's colour: k4h_9306) or the faces themselves (faces lighter than the board, the notches
dipping to its level: a white row on the white board at 640x360); the discs' faces are the
lighter of the two (the strip's lightness, ``tone``, at the peaks against half-way between
them), so the discs lie half-way between neighbouring peaks in the first case and at the peaks
in the second. Places are placed, not fitted (within 3-6 mm at 480x270-1280x720). Discs beyond
a chain's end notches are not guessed (``rows.py`` completes a row from the discs found). A row
of dark discs does not dip between its discs (their shadows fill the notch) and gives no chain;
``rim.py`` keeps the places free of every disc already found, away from anything deeper than a
disc, and of one colour.
"""

from __future__ import annotations

import numpy as np

STEP_TOL = 0.15  # of 2 r: neighbouring peaks this near a disc's diameter apart are in step
MIN_PEAKS = 5  # a chain of at least this many peaks (four discs)
DIP = 0.6  # of the way from the bare level to the lower peak: the dip between two peaks is below it
PEAK_WINDOW = 0.6  # of r: a peak is the highest score this far either side


def contact_rows(score: np.ndarray, tone: np.ndarray, along: np.ndarray, r: float, bare: float,
                 floor: float) -> list[float]:
    """Centres (mm along the rim) of the discs of light rows seen as a comb of peaks of ``score``
    in step with the disc's diameter; ``tone``: the strip's lightness along the rim (which of
    peaks and dips are the faces). ``bare``: the bare board's score level; a peak must rise
    ``floor`` above it."""
    step = float(along[1] - along[0]) if len(along) > 1 else 1.0
    w = max(1, int(PEAK_WINDOW * r / step))
    n = len(score)
    peaks = [i for i in range(w, n - w)
             if score[i] >= score[i - w: i + w + 1].max() and score[i] > bare + floor]
    out: list[float] = []
    chain: list[int] = []
    for i in peaks + [-1]:
        if chain and i >= 0 and _in_step(along[i] - along[chain[-1]], r) and _dips(score, chain[-1], i, bare):
            chain.append(i)
            continue
        if len(chain) >= MIN_PEAKS:
            mids = [(a + b) // 2 for a, b in zip(chain[:-1], chain[1:], strict=True)]
            # The discs' faces are the lighter of the two: between the peaks (the peaks are the
            # dark notches where discs meet) or at them (faces lighter than the board, the
            # notches between them dipping to the board's level).
            if float(np.median(tone[mids])) >= float(np.median(tone[chain])):
                out += [0.5 * float(along[a] + along[b]) for a, b in zip(chain[:-1], chain[1:], strict=True)]
            else:
                out += [float(along[i]) for i in chain]
        chain = [i] if i >= 0 else []
    return out


def _in_step(gap: float, r: float) -> bool:
    return abs(gap - 2 * r) <= STEP_TOL * 2 * r


def _dips(score: np.ndarray, i: int, j: int, bare: float) -> bool:
    """Whether the score between the peaks ``i`` and ``j`` dips deeply (a light disc's face)."""
    low = float(score[i + 1: j].min()) if j > i + 1 else float(score[i])
    return low < bare + DIP * (min(float(score[i]), float(score[j])) - bare)
