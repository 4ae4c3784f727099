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


def _fill(img: np.ndarray, calib: Calibration, known: list[float], pitch: bool = False) -> np.ndarray:
    det = DiscDetector(calib, "korona", settings=DetectorSettings(row_pitch=pitch))
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
