"""A dark disc resting over the edge of the dark 20-hole (issue #5), on rendered still frames.

Its centre 10-20 mm from the board's centre (hole radius 17.5 mm, disc radius 15.9 mm; such a disc
stays up while the board carries its centre, beyond about 7 mm), the disc and the hole merge into
one dark blob: the ring filter's peak and the first fit are pulled onto the hole, and the
occlusion-aware pass used to search only outside the hole's radius, so the disc was not found at
all. The empty hole must still never be a disc, and a disc sunk in the hole is still found there.
The detector is given the empty board first, as the review pipeline does.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import IN_HOLE, ON_SURFACE, Detections
from tracker.detect.detector import DiscDetector
from tracker.render.sampling import sample_look
from tracker.render.still import still_frame

SIZE = (640, 360)
BOARD = CrokinoleBoard()
# Seed 7951 (easy): black discs, a near-black hole, on a light board.
SEED = 7951


def _dark_side(seed: int) -> int:
    look = sample_look("easy", np.random.default_rng(seed), "crokinole")
    return int(np.argmin([sum(c) for c in look.disc_colors]))


@functools.lru_cache(maxsize=2)
def _empty(seed: int) -> tuple[np.ndarray, object]:
    return still_frame(BOARD, "easy", SIZE, seed, lambda rng: [])


def _detect(seed: int, x: float, y: float) -> Detections:
    side = _dark_side(seed)
    img, calib = still_frame(BOARD, "easy", SIZE, seed, lambda rng: [(x, y, side)])
    empty, _ = _empty(seed)
    det = DiscDetector(calib, "crokinole")
    det.set_background(empty, det.detect(empty))
    return det.detect(img)


@pytest.mark.parametrize(("dist", "deg"), [(14.0, 0.0), (14.0, 120.0), (17.0, 120.0), (17.0, 240.0)])
def test_dark_disc_over_the_hole_edge_is_found_where_it_is(dist: float, deg: float) -> None:
    x, y = dist * np.cos(np.radians(deg)), dist * np.sin(np.radians(deg))
    dets = _detect(SEED, x, y)
    assert len(dets) == 1, f"found {dets.xy.round(1).tolist()} for a disc at ({x:.1f}, {y:.1f})"
    err = float(np.hypot(dets.xy[0, 0] - x, dets.xy[0, 1] - y))
    assert err < 2.0, f"found at {dets.xy[0].round(1).tolist()}, true ({x:.1f}, {y:.1f})"
    assert dets.where[0] == ON_SURFACE


@pytest.mark.parametrize("seed", [SEED, 7952])
def test_empty_hole_is_no_disc(seed: int) -> None:
    """With the empty board known, the hole-edge seeds never make the empty hole a disc. (Not
    covered: at this size, on these looks, the very first call, with no empty board known yet,
    takes the empty near-black hole for a black disc sunk in it, a known weakness.)"""
    empty, calib = _empty(seed)
    det = DiscDetector(calib, "crokinole")  # type: ignore[arg-type]
    det.set_background(empty)
    assert len(det.detect(empty)) == 0
    det.refresh()
    assert len(det.detect(empty)) == 0


def test_disc_sunk_in_the_hole_is_in_the_hole() -> None:
    # Seed 7950: a dark disc in the hole, its face unlike the empty hole's.
    dets = _detect(7950, 0.0, 0.0)
    assert len(dets) == 1
    assert np.hypot(*dets.xy[0]) < 3.0
    assert dets.where[0] == IN_HOLE
