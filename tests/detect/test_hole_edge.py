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
from tracker.render import sprites
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


@pytest.mark.parametrize("true_size", [False, True])
def test_empty_hole_taken_for_a_disc_on_the_first_frame_is_dropped_and_stays_no_disc(
        true_size: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The review starts the empty-board model from the first frame and the discs found on it.
    At 480x270 that first call takes the empty near-black hole for a black disc sunk in it
    (crokinole_4p_part: from frame 0 on), which hid the empty hole's colour from the 20-hole
    check for good: the false find stayed, and once a shot passing by had hidden it a while it
    came back as a new disc in the hole, west's 20. The first frame's find centred on the hole
    and as dark as the hole is the hole: dropped, its colour the reference from then on, also
    for the new detector of a new fit after the camera moved. A disc sunk in the hole later is
    still found. Discs drawn at their true size too (``sprites.TRUE_SIZE``): the light disc sunk
    in the hole is then measured 3.9 mm off the centre, where no disc can rest on the surface
    (``CrokinoleBoard.tips_into_hole``), so it is in the hole."""
    monkeypatch.setattr(sprites, "TRUE_SIZE", true_size)
    size = (480, 270)
    discs = [(120.0, -60.0, 0), (-90.0, 150.0, 1)]
    img, calib = still_frame(BOARD, "easy", size, SEED, lambda rng: discs)
    det = DiscDetector(calib, "crokinole")
    det.set_background(img, det.detect(img))
    for d in (det, None):
        if d is None:  # a new fit (here the same) after a bump
            d = DiscDetector(calib, "crokinole")
            d.carry_over(det)
        d.refresh()
        got = d.detect(img)
        assert len(got) == 2 and np.hypot(*got.xy.T).min() > 100.0, got.xy.round(1).tolist()
    light = 1 - _dark_side(SEED)
    sunk, _ = still_frame(BOARD, "easy", size, SEED, lambda rng: [*discs, (0.0, 0.0, light)])
    got = det.detect(sunk)
    assert int(np.sum(got.where == IN_HOLE)) == 1 and len(got) == 3


@pytest.mark.parametrize("true_size", [False, True])
@pytest.mark.parametrize("seed", [6001, 6026])
def test_empty_hole_found_off_its_centre_under_a_tilted_camera_is_dropped(
        seed: int, true_size: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under an oblique camera (hard look, 480x270) the first call fits the empty hole's outline
    off its centre and carries it a disc's thickness towards the camera: found 6-7 mm from the
    centre, it was kept as a black disc beside the hole (a 15 on the surface), the hole's colour
    never learned, and the find stayed for good (real clip triple.mp4: 6.3 mm, the whole clip).
    A find centred within half the hole's radius (no disc can rest there: it is smaller than
    the hole and tips in) and as dark as the hole is the hole. Drawn at true size (seed 6001)
    the find is reported 7.3 mm from the centre but was kept by the detector at its
    square-edged centre 9.1 mm off, beyond the test, and came back on every later call: the
    kept copy goes with it."""
    monkeypatch.setattr(sprites, "TRUE_SIZE", true_size)
    disc = (120.0, -60.0, 0)
    img, calib = still_frame(BOARD, "hard", (480, 270), seed, lambda rng: [disc])
    det = DiscDetector(calib, "crokinole")
    first = det.detect(img)
    # The case: the first call finds the empty hole off its centre (seed 6026). At seed 6001 the
    # hole's rim, fitted flat from its centre, already explains that find's outline, so it is
    # the hole from the first call on (``verify.seen_within_hole``; before, 5-9 mm off the centre).
    off = any(5.0 < float(np.hypot(*xy)) < 0.5 * BOARD.hole_radius for xy in first.xy)
    assert off == (seed == 6026)
    det.set_background(img, first)
    assert det.hole_lab is not None
    det.refresh()
    got = det.detect(img)
    assert np.hypot(*got.xy.T).min() > BOARD.hole_radius + BOARD.disc_radius, got.xy.round(1).tolist()
    assert np.hypot(got.xy[:, 0] - disc[0], got.xy[:, 1] - disc[1]).min() < 3.0  # the disc is still found


def test_after_a_cut_to_another_camera_the_empty_hole_is_learned_again() -> None:
    """A broadcast cuts to a camera across the table: the board is fitted again and the new
    detector carries the first view's empty-hole colour, which no longer matches the hole in the
    new picture (other light, other angle), so the empty hole was found as a disc for the rest of
    the clip (triple.mp4, a 15 beside the hole). The hole's colour is learned again from the new
    view: no disc in the hole, every other find as before."""
    disc = (120.0, -60.0, 0)
    first, calib1 = still_frame(BOARD, "easy", (480, 270), 7952, lambda rng: [disc])
    old = DiscDetector(calib1, "crokinole")
    old.set_background(first, old.detect(first))
    second, calib2 = still_frame(BOARD, "hard", (480, 270), 6003, lambda rng: [disc])
    found = {}
    for restart in (False, True):
        new = DiscDetector(calib2, "crokinole")
        new.carry_over(old)
        if restart:
            new.relearn_hole(second)
        new.refresh()
        found[restart] = new.detect(second).xy
    r_old, r_new = np.hypot(*found[False].T), np.hypot(*found[True].T)
    assert r_old.min() < 0.5 * BOARD.hole_radius  # the case: the old view's colour takes the hole for a disc
    assert r_new.min() > BOARD.hole_radius + BOARD.disc_radius, found[True].round(1).tolist()
    assert np.allclose(found[True], found[False][r_old > BOARD.hole_radius])  # the rest as before
