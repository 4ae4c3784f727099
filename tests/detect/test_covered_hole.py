"""A disc of the board's own colour resting over the 20-hole's edge, on rendered still frames.

c4h_9921: a blue disc on the blue board, noisy and compressed (hard look), came to rest 12 mm and
24 mm from the hole's centre; no outline of it stood out of the board's noise, no candidate or fit
found it, and the review took it for a 20. The part of the hole it covers gives it away
(``twenty_hole.covering_disc``). Seed 7081 draws such a disc (side 0, BGR (170, 100, 40), on the
blue board, noise 7 grey levels, JPEG 58) under a 15-degree camera; 7001 the same under 40
degrees. The detector is given the empty board first, and the disc is looked for by a full pass,
as the review does once the board settles.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.detect.detector import DiscDetector
from tracker.detect.settings import DetectorSettings
from tracker.render.sampling import sample_look
from tracker.render.scene import DiscSprite
from tracker.render.still import sprites_frame

BOARD = CrokinoleBoard()
SIZE = (1280, 720)


def _frame(seed: int, discs: tuple[DiscSprite, ...]) -> tuple[np.ndarray, Calibration]:
    return sprites_frame(BOARD, "hard", SIZE, seed, discs)


@functools.lru_cache(maxsize=2)
def _empty(seed: int) -> tuple[np.ndarray, Calibration]:
    return _frame(seed, ())


def _detect(seed: int, disc: DiscSprite | None) -> Detections:
    empty, calib = _empty(seed)
    det = DiscDetector(calib, "crokinole", settings=DetectorSettings(covered_hole=True))
    det.set_background(empty, det.detect(empty))
    img = empty if disc is None else _frame(seed, (disc,))[0]
    det.refresh()  # the board settled: a full pass
    return det.detect(img)


def test_the_look_hides_the_disc() -> None:
    """The case this is about: the disc's face is about the board's colour."""
    look = sample_look("hard", np.random.default_rng(7081), "crokinole")
    assert look.surface == "blue" and look.disc_colors[0] == (170, 100, 40)


@pytest.mark.parametrize(("x", "y"), [(0.0, -12.0), (10.4, 6.0), (-10.4, 6.0), (0.0, 20.0)])
def test_disc_of_the_boards_colour_over_the_hole_edge_is_found(x: float, y: float) -> None:
    dets = _detect(7081, DiscSprite("s1", x, y, BOARD.disc_radius, BOARD.disc_thickness, 0))
    assert len(dets) == 1, f"found {dets.xy.round(1).tolist()} for a disc at ({x}, {y})"
    assert float(np.hypot(dets.xy[0, 0] - x, dets.xy[0, 1] - y)) < 2.5, f"found at {dets.xy[0].round(1).tolist()}"
    assert dets.where[0] == ON_SURFACE


@pytest.mark.parametrize("seed", [7081, 7001])
def test_empty_hole_is_no_disc(seed: int) -> None:
    assert len(_detect(seed, None)) == 0


def test_disc_sunk_in_the_hole_is_not_put_on_the_surface() -> None:
    """Under 40 degrees a sunk disc's face shows shifted towards the camera, the hole's far wall
    open beside it: the pattern of a disc resting over the edge on the camera's side too. It is
    left to the sunk-disc checks (it must not become a disc on the surface)."""
    sunk = DiscSprite("s1", 0.0, 0.0, BOARD.disc_radius, BOARD.disc_thickness, 0, z=-BOARD.disc_thickness,
                      state="hole")
    dets = _detect(7001, sunk)
    on = dets.where == ON_SURFACE
    near = np.hypot(*dets.xy.T) < BOARD.hole_radius + BOARD.disc_radius
    assert not (on & near).any(), f"found {dets.xy.round(1).tolist()} where {dets.where.tolist()}"
