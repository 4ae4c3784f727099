"""The occlusion-aware second pass (``tracker/detect/clusters.py``) at fixture resolution.

At 320x180 a disc is about seven pixels across: a dark disc overhanging the dark 20-hole, or two
touching discs, show no edge on the side they share, and the ring filter alone misses them; so
does a korona row of discs against the rim. Those tests check that the first pass alone does miss
the case (so they measure the second pass) and that the full detector finds every disc, near its
true contact point, with nothing extra. The others check that a hand beside a found disc is still
no disc, and what the masking does to one refit.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.detect.drawing import DARK, LIGHT, DrawnDisc, DrawnHand, render
from tracker.detect.datatypes import Detections
from tracker.detect.detector import DetectorSettings, DiscDetector

LOW = (320, 180)  # about 4.5 mm per image pixel, as the 480x270 fixtures see the board
R = 15.875


def _errors(dets: Detections, discs: list[DrawnDisc]) -> np.ndarray:
    if len(dets) == 0:
        return np.full(len(discs), np.inf)
    return np.array([np.hypot(*(dets.xy - [d.x, d.y]).T).min() for d in discs])


def _both(discs: list[DrawnDisc], tilt: float, seed: int, **kw: object) -> tuple[Detections, Detections]:
    shot = render(discs, LOW, tilt_deg=tilt, seed=seed, **kw)  # type: ignore[arg-type]
    first = DiscDetector(shot.calib, "crokinole", settings=DetectorSettings(clusters=False)).detect(shot.image)
    full = DiscDetector(shot.calib, "crokinole").detect(shot.image)
    return first, full


@pytest.mark.parametrize("tilt", [0.0, 20.0])
def test_dark_disc_overhanging_the_dark_hole_is_found(tilt: float) -> None:
    hanging = DrawnDisc(14.0, -17.0, DARK)  # centre 21.9 mm out: over the 17.5 mm hole's edge
    discs = [hanging, DrawnDisc(120.0, 150.0, LIGHT)]
    first, full = _both(discs, tilt, seed=11)
    assert _errors(first, discs)[0] > 8.0, "the first pass alone should miss it (else this tests nothing)"
    errs = _errors(full, discs)
    assert np.all(errs < 3.0), errs  # a pixel is ~4.5 mm here
    assert len(full) == len(discs), full.xy.round(1).tolist()


def test_touching_pairs_of_one_colour_are_both_found() -> None:
    a = np.array([150.0, -220.0])
    b = a + 2 * R * np.array([np.cos(0.6), np.sin(0.6)])
    discs = [DrawnDisc(float(a[0]), float(a[1]), LIGHT), DrawnDisc(float(b[0]), float(b[1]), LIGHT), DrawnDisc(-200.0, 60.0, DARK),
             DrawnDisc(-200.0 + 2 * R, 60.0, DARK)]
    first, full = _both(discs, 0.0, seed=11)
    assert np.sum(_errors(first, discs) > 8.0) >= 2, "the first pass alone should miss some"
    errs = _errors(full, discs)
    assert np.all(errs < 2.5), errs
    assert len(full) == len(discs), full.xy.round(1).tolist()


def test_a_hand_beside_a_disc_is_not_taken_for_its_neighbour() -> None:
    """The disc found masks its side; the hand's outline beside it must still fail. (At 480x270:
    at 320x180 the first pass itself already takes the dark hand's fingertips for a disc.)"""
    discs = [DrawnDisc(-60.0, -200.0, LIGHT), DrawnDisc(150.0, 150.0, DARK)]
    hands = [DrawnHand(-60.0 + 2 * R + 4.0, -200.0, 0.0),
             DrawnHand(150.0, 150.0 + 2 * R + 4.0, 1.57, color=(60, 80, 120))]
    shot = render(discs, (480, 270), tilt_deg=15.0, seed=6, hands=hands)
    dets = DiscDetector(shot.calib, "crokinole").detect(shot.image)
    errs = _errors(dets, discs)
    assert np.all(errs < 3.0), errs
    assert len(dets) == len(discs), f"hand taken for a disc: {dets.xy.round(1).tolist()}"


def test_refit_leaves_occluded_rays_out_of_the_coverage() -> None:
    """A touching neighbour as an occluder: the rays facing it are hidden (and only those), the
    coverage is counted over the others, and the centre comes out where it should."""
    a, b = DrawnDisc(0.0, -150.0, LIGHT), DrawnDisc(2 * R, -150.0, LIGHT)
    shot = render([a, b], LOW, tilt_deg=0.0, seed=2)
    det = DiscDetector(shot.calib, "crokinole")
    guess = np.array([a.x - 2.0, a.y + 2.0])
    plain = det.refiner.refine(shot.image, guess, R, with_colors=False)
    masked = det.refiner.refine(shot.image, guess, R, with_colors=False,
                                occluders=np.array([[b.x, b.y, R + 2.0]]))
    assert plain.visible == 1.0
    assert 0.6 < masked.visible < 0.95
    assert masked.hidden is not None
    toward = det.refiner.dirs[masked.hidden] @ np.array([1.0, 0.0])
    assert np.all(toward > 0.7), toward  # within ~45 degrees of the neighbour's direction
    assert masked.quarter_coverage >= plain.quarter_coverage
    assert np.hypot(*(masked.centre - [a.x, a.y])) < 2.5


def test_korona_row_against_the_rim_is_followed_disc_by_disc() -> None:
    """Four light discs touching each other and the south rim (the setup row): the ring filter
    finds at most the ends; the second pass follows the row from them."""
    render_mod = pytest.importorskip("tracker.render")
    from tracker.boards import KoronaBoard
    from tracker.calibration.datatypes import Calibration

    board = KoronaBoard()
    size = (640, 360)
    y = -(board.half - board.disc_radius)
    row = [(-100.0 + 2 * board.disc_radius * i, y) for i in range(4)]
    alone = [(120.0, 60.0), (-200.0, -100.0)]
    look = render_mod.Look(surface="birch", disc_colors=((40, 40, 40), (200, 215, 225)), noise_sigma=1.0)
    cam = render_mod.Camera(height=1500.0, tilt=10.0, focal=560.0)
    sprites = tuple(render_mod.DiscSprite(id=f"d{i}", x=x, y=yy, radius=board.disc_radius,
                                          thickness=board.disc_thickness, side=1, kind="disc")
                    for i, (x, yy) in enumerate(row + alone))
    img = render_mod.Renderer(board, look, size, seed=5).render([render_mod.SceneFrame(t=0.0, discs=sprites)], cam)
    K, dist = render_mod.intrinsics(cam, size)
    calib = Calibration(homography=render_mod.true_homography(cam, size), image_size=size, rms_mm=0.0,
                        board=board, camera_matrix=K, dist_coeffs=dist)
    truth = [DrawnDisc(x, yy, LIGHT, radius=board.disc_radius) for x, yy in row + alone]
    first = DiscDetector(calib, "korona", settings=DetectorSettings(clusters=False, rows=False)).detect(img)
    assert np.sum(_errors(first, truth[:4]) > 8.0) >= 2, "the first pass alone should miss the inner discs"
    full = DiscDetector(calib, "korona").detect(img)
    errs = _errors(full, truth)
    assert np.all(errs < 3.0), errs
    assert len(full) == len(truth), full.xy.round(1).tolist()
