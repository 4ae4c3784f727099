"""Crokinole calibration: first guesses for a board whose painted lines are partly missing.

Real boards differ: some have no 15 line painted (OO-iiTEaz-w: the 8 pegs stand on the 15
circle and nothing is drawn there), and on an oblique broadcast frame the shooting line is
faint and cut by cups and hands. The 1:2:3 ring pattern (``crokinole_seed``) is then not in
the picture, and the guesses from it lead no ring fit onto the board. What such a board still
shows clearly is its playing-surface edge, the strongest ellipse inside the rim. Here each of
the best few ellipses (joined from arcs, ``arcs``) is taken for the surface edge, under a few
perspectives (``crokinole_seed.PERSPECTIVE_SHIFTS``), at the board model's surface radius: a
guess whose shooting and 10 lines lie where the model's proportions put them. The ring fit then
fits the shooting and 10 lines only (``crokinole_rings.fit_rings``'s ``rings``, the 15 held at
the model's radius), and a fit that is accepted must be confirmed by the pegs on the 15 circle
and the surface edge where real boards have it (``crokinole_checks.check_unpainted``).
The ~36 guesses are first screened by one wide pass of the quick fit each (``screen``), and
only the best ``SCREEN_KEEP`` go on: that search had been the costliest part of a refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.crokinole_seed import (
    NOMINAL_RADII,
    REF_MM,
    Guess,
    ellipses,
    reduced,
    tilted_guesses,
)
from tracker.calibration.features import (
    edge_contours,
    ellipse_affine,
)

if TYPE_CHECKING:
    from tracker.calibration.crokinole_rings import RingFit

EDGE_TOP = 4  # this many best-supported ellipses are each taken for the surface edge
PARTIAL_RINGS = ("shooting", "ten")  # the lines fitted on a board with no 15 line
SCREEN_KEEP = 16  # guesses kept after the one-pass screen (``screen``) of the ~36 edge guesses (8 kept: OO-iiTEaz-w calibrated shifted by 1 of -1, 0, 1, 2 px; 16: 3 of 4)
SCREEN_SCHEDULE = (20.0,)  # the screen: the quick fit's first, widest pass ...
AFTER_SCREEN = (10.0, 5.0)  # ... and the rest of the quick fit, for the guesses kept


def screen(guesses: list[Guess], small: np.ndarray, S: np.ndarray, board: CrokinoleBoard,
           maps: dict, quality: Callable[[RingFit], float]) -> list[Guess]:
    """The ``SCREEN_KEEP`` guesses whose first, widest quick-fit pass (``SCREEN_SCHEDULE``)
    scored best by ``quality``, each moved to where that pass left it (its fit then goes on
    with ``AFTER_SCREEN``: the quick fit's passes, split). The edge guesses are ~36 (4
    ellipses, each face on and under 8 perspectives) and neighbouring perspectives lock onto
    the same lines: their full quick fits were 0.8 s of every refusal (GN3T9IrPbKE,
    iMgYR7GklqE), the one pass of each and the rest of the 16 kept half of that."""
    from tracker.calibration.crokinole_rings import fit_rings
    from tracker.errors import CalibrationError

    Sinv = np.linalg.inv(S)
    scored: list[tuple[float, int, Guess]] = []
    for j, (score, G0, radii0) in enumerate(guesses):
        try:
            f = fit_rings(small, S @ G0, board, radii0, schedule=SCREEN_SCHEDULE, cache=maps, rings=PARTIAL_RINGS)
        except CalibrationError:
            continue
        scored.append((quality(f), j, (score, Sinv @ f.G, dict(f.radii))))
    kept = sorted(scored, key=lambda t: -t[0])[:SCREEN_KEEP]
    return [g for _q, _j, g in sorted(kept, key=lambda t: t[1])]  # in the guesses' own order


def edge_guesses(image: np.ndarray, work_size: int, ctx: dict, board: CrokinoleBoard) -> list[Guess]:
    """Guesses (as ``crokinole_seed.find_board``'s: full-resolution board mm -> px) that take
    each of the ``EDGE_TOP`` best ellipses joined from arcs for the playing-surface edge, face
    on and under perspective. ``ctx``: the calibration's scratch (the arcs search has filled
    it: its ellipses are reused)."""
    import cv2

    small, _s = reduced(image, work_size, ctx)
    maps = ctx.setdefault(("seed_maps", work_size), {})
    if "grey" not in maps:
        maps["grey"] = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    if "contours" not in maps:
        maps["contours"] = edge_contours(maps["grey"])
    h, w = image.shape[:2]
    s = min(1.0, work_size / max(h, w))
    to_full = np.diag([1 / s, 1 / s, 1.0])
    edge = board.surface_radius * REF_MM / board.shooting_line_radius  # in the fits' unit
    unit = np.diag([1 / edge, -1 / edge, 1.0])  # board mm -> unit circle
    out: list[Guess] = []
    for (cx, cy), (a, b), theta, support in ellipses(maps, True)[:EDGE_TOP]:
        homs = [ellipse_affine((cx, cy), (a, b), theta), *tilted_guesses((cx, cy), (a, b), theta)]
        out += [(float(support), to_full @ A @ unit, dict(NOMINAL_RADII)) for A in homs]
    return out
