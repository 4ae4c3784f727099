"""Korona rows against the rim (``rows.py``): the discs between two found ones of a row are put
in where the picture shows the row's colour, and not where it shows bare board."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import DISC, Detections
from tracker.detect.detector import DiscDetector
from tracker.detect.rows import row_fill

render = pytest.importorskip("tracker.render")

SIZE = (480, 360)
BOARD = KoronaBoard()
R = BOARD.disc_radius
LINE = -(BOARD.half - R)  # the south rim's row line
ROW = [-87.5 + 2 * R * k for k in range(8)]  # a setup row: 8 discs touching, centred


@functools.lru_cache(maxsize=2)
def _shot(xs: tuple[float, ...]) -> tuple[np.ndarray, Calibration]:
    look = render.Look(surface="birch", disc_colors=((40, 40, 40), (170, 110, 40)), noise_sigma=1.0)
    cam = render.Camera(height=1500.0, tilt=15.0, focal=340.0)
    sprites = tuple(render.DiscSprite(id=f"d{i}", x=x, y=LINE, radius=R, thickness=BOARD.disc_thickness,
                                      side=0, kind="disc") for i, x in enumerate(xs))
    img = render.Renderer(BOARD, look, SIZE, seed=3).render([render.SceneFrame(t=0.0, discs=sprites)], cam)
    K, dist = render.intrinsics(cam, SIZE)
    calib = Calibration(homography=render.true_homography(cam, SIZE), image_size=SIZE, rms_mm=0.0,
                        board=BOARD, camera_matrix=K, dist_coeffs=dist)
    return img, calib


def _found(xs: list[float]) -> Detections:
    xy = np.array([[x, LINE] for x in xs])
    return Detections(xy=xy, radius=np.full(len(xs), R), kind=np.full(len(xs), DISC))


def _fill(img: np.ndarray, calib: Calibration, known: list[float]) -> np.ndarray:
    det = DiscDetector(calib, "korona")
    view = det.rectify(img)
    lab = det._lab(view)
    board = np.median(lab[det._valid], axis=0)
    return row_fill(det, lab, _found(known), board).xy


def test_the_discs_between_the_ends_of_a_row_are_put_in() -> None:
    img, calib = _shot(tuple(ROW))
    got = _fill(img, calib, [ROW[0], ROW[-1]])
    assert len(got) == 6
    for x in ROW[1:-1]:
        assert np.hypot(*(got - [x, LINE]).T).min() < 1.0


def test_bare_board_between_two_discs_is_not_filled() -> None:
    xs = ROW[:2] + ROW[5:]  # three places of the row are empty
    img, calib = _shot(tuple(xs))
    got = _fill(img, calib, [ROW[1], ROW[5]])
    for x in ROW[2:5]:  # the empty places stay empty
        assert np.hypot(*(got - [x, LINE]).T).min() > 2 * R, got.round(1).tolist()
    # (the discs past the two given ones are found: a dark row is followed past its ends)
    assert len(got) == 3


def test_a_dark_row_is_followed_past_its_found_end() -> None:
    img, calib = _shot(tuple(ROW))
    got = _fill(img, calib, [ROW[2], ROW[3]])
    assert len(got) == 6
    for x in ROW[:2] + ROW[4:]:
        assert np.hypot(*(got - [x, LINE]).T).min() < 1.0
