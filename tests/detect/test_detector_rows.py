"""Korona rows against the rim (``rows.py``): the discs between two found ones of a row are put
in where the picture shows the row's colour, and not where it shows bare board."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import DISC, Detections
from tracker.detect.detector import DiscDetector
from tracker.detect.rows import row_fill
from tracker.detect.settings import DetectorSettings
from tracker.detect.view_colours import lab_of

pytest.importorskip("tracker.render")
from tests.detect.korona_row import LINE, R, render_row  # noqa: E402
from tests.detect.korona_row import ROW as SETUP_ROW  # noqa: E402

SIZE = (480, 360)
ROW = list(SETUP_ROW)


def _shot(xs: tuple[float, ...]) -> tuple[np.ndarray, Calibration]:
    return render_row(xs, SIZE, 340.0)


def _found(xs: list[float]) -> Detections:
    xy = np.array([[x, LINE] for x in xs])
    return Detections(xy=xy, radius=np.full(len(xs), R), kind=np.full(len(xs), DISC))


def _fill(img: np.ndarray, calib: Calibration, known: list[float], pitch: bool = False,
          line_board: bool = False) -> np.ndarray:
    det = DiscDetector(calib, "korona", settings=DetectorSettings(row_pitch=pitch, row_line_board=line_board))
    view = det.rectify(img)
    lab = lab_of(view)
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


@pytest.mark.parametrize("known", [(0, 1), (3, 4), (0, 2)])
def test_a_loosely_laid_row_is_stepped_at_its_own_pitch(known: tuple[int, int]) -> None:
    # discs 2 mm apart: stepped a disc's width at a time from the found ones, the sixth place
    # lay 12 mm off its disc (and the gap across a missing one was no whole number of widths)
    xs = [-94.5 + (2 * R + 2.0) * k for k in range(8)]
    img, calib = _shot(tuple(xs))
    got = _fill(img, calib, [xs[i] for i in known], pitch=True)
    assert len(got) == 6, got.round(1).tolist()
    for x in (x for i, x in enumerate(xs) if i not in known):
        assert np.hypot(*(got - [x, LINE]).T).min() < 0.2 * R, got.round(1).tolist()


def test_bare_board_in_the_rims_shadow_between_two_light_discs_is_not_filled() -> None:
    """Two pale discs against the rim six disc widths apart, the lamp low (30 degrees) on the
    far side of that rim: the board between them lies in the rim's shadow, darker than the board
    elsewhere and so nearer the discs' colour than the board's median is. Measured against the
    bare board along the row's own line (``DetectorSettings.row_line_board``, opt-in), it is bare
    board: no place is put in (without it, five places are; k4h_9606 kept five such phantoms on
    its south rim from 10 s to the end)."""
    from tests.detect.korona_row import WOOD

    img, calib = render_row((-150.0, 0.0), SIZE, 340.0, side=WOOD, light=(270.0, 30.0, 0.8))
    got = _fill(img, calib, [-150.0, 0.0], line_board=True)
    assert len(got) == 0, got.round(1).tolist()
