"""Korona discs against a rim found from the strip of board along it (``rim.py``): whole rows of
which no disc was found, rows of the board's own colour; not a striker, not bare board, not a row
that is no whole number of discs."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import DISC, Detections
from tracker.detect.detector import DiscDetector
from tracker.detect.rim import rim_discs
from tracker.detect.settings import DetectorSettings
from tracker.detect.view_colours import lab_of

pytest.importorskip("tracker.render")
from tests.detect.korona_row import DARK, LINE, ROW, WOOD, R, render_row  # noqa: E402

SIZE = (480, 360)


def _rim(img: np.ndarray, calib: Calibration, known: Detections | None = None, shadow: float = 0.7,
         lean: bool = False) -> np.ndarray:
    det = DiscDetector(calib, "korona", settings=DetectorSettings(rim_shadow=shadow, rim_lean=lean))
    lab = lab_of(det.rectify(img))
    return rim_discs(det, lab, known if known is not None else Detections.empty()).xy


def _near(got: np.ndarray, xs: list[float], tol: float) -> list[bool]:
    return [len(got) > 0 and float(np.hypot(*(got - [x, LINE]).T).min()) < tol for x in xs]


@pytest.mark.parametrize("side", [DARK, WOOD])
def test_a_whole_row_is_found_with_none_of_it_known(side: int) -> None:
    img, calib = render_row(ROW, SIZE, 340.0, side)
    got = _rim(img, calib)
    assert len(got) == len(ROW), got.round(1).tolist()
    # placed, not fitted: the run of discs reads longer by their shadow (about 10 mm here), and
    # the places sit within half of that of the truth
    assert all(_near(got, list(ROW), 0.5 * R)), got.round(1).tolist()


@pytest.mark.parametrize("side,azimuth,elevation", [(DARK, 0.0, 38.0), (DARK, 180.0, 38.0), (1, 20.0, 35.0)])
def test_a_row_under_a_low_lamp_is_found(side: int, azimuth: float, elevation: float) -> None:
    # a lamp 35-38 degrees up (the hard preset's lowest) casts dark shadows along the rim: the
    # run reads 12-16 mm longer than the eight discs (k4h_9306's east row after the refit:
    # 212.7 mm), refused on its length when a shadow is taken for at most 9 mm (the default)
    img, calib = render_row(ROW, SIZE, 340.0, side, light=(azimuth, elevation, 0.6))
    got = _rim(img, calib, shadow=1.0)
    assert len(got) == len(ROW), got.round(1).tolist()
    assert all(_near(got, list(ROW), 0.5 * R)), got.round(1).tolist()


@pytest.mark.parametrize("side,azimuth,elevation", [(DARK, 0.0, 38.0), (DARK, 180.0, 38.0), (DARK, 315.0, 45.0),
                                                     (1, 135.0, 45.0), (1, 0.0, 50.0), (DARK, 90.0, 38.0)])
def test_a_row_is_placed_on_its_discs_whichever_way_its_shadow_falls(side: int, azimuth: float, elevation: float) -> None:
    # a hard lamp's shadow lengthens the row's stretch at the end away from the light (by
    # 5-10 mm here): centred on the stretch, the whole row sat 2.8-5.3 mm off its discs
    # (k4h_9306's west row: -4.7 mm). The rims' own shadows tell the light's side, and the
    # row is measured from the lit end (``rim_lean``).
    img, calib = render_row(ROW, SIZE, 340.0, side, light=(azimuth, elevation, 0.6))
    got = _rim(img, calib, shadow=1.0, lean=True)
    assert len(got) == len(ROW), got.round(1).tolist()
    err = [float(np.hypot(*(got - [x, LINE]).T).min()) for x in ROW]
    assert max(err) < 2.0, (np.round(err, 2).tolist(), got.round(1).tolist())


def test_known_discs_are_not_reported_again() -> None:
    img, calib = render_row(ROW, SIZE, 340.0, DARK)
    known = Detections(xy=np.array([[ROW[0], LINE], [ROW[3], LINE]]), radius=np.full(2, R), kind=np.full(2, DISC))
    got = _rim(img, calib, known)
    assert len(got) == len(ROW) - 2
    assert not any(_near(got, [ROW[0], ROW[3]], 2 * R * 0.8))


def test_bare_rims_give_nothing() -> None:
    img, calib = render_row((), SIZE, 340.0)
    assert len(_rim(img, calib)) == 0


def test_a_striker_against_the_rim_is_not_two_discs() -> None:
    img, calib = render_row((), SIZE, 340.0, DARK, striker_x=100.0)
    assert len(_rim(img, calib)) == 0


def test_a_row_of_discs_a_half_disc_apart_is_not_filled() -> None:
    # discs not touching: the run is no whole number of disc widths
    xs = (-60.0, -60.0 + 3 * R, -60.0 + 6 * R)
    img, calib = render_row(xs, SIZE, 340.0, DARK)
    got = _rim(img, calib)
    # nothing is put between discs (a place there would be a ghost)
    for gap in (-60.0 + 1.5 * R, -60.0 + 4.5 * R):
        assert not any(_near(got, [gap], 0.8 * R)), got.round(1).tolist()


def test_a_disc_a_little_way_in_from_the_rim_is_not_put_against_it() -> None:
    # 15 mm in: it and its shadow reach the strip along the rim, but also deeper than a disc
    # against the rim would
    img, calib = render_row((40.0,), SIZE, 340.0, DARK, inset=1.2 * R)
    det = DiscDetector(calib, "korona")
    trace: list[tuple[int, float, float, float, int, str]] = []
    got = rim_discs(det, lab_of(det.rectify(img)), Detections.empty(), trace).xy
    assert not any(_near(got, [40.0], 2 * R)), got.round(1).tolist()
    seen = [t for t in trace if t[:2] == (0, -1.0) and abs(t[2] + 0.5 * t[3] - 40.0) < 2 * R]
    assert seen and all(t[-1] != "row" for t in seen), trace


def _light_bump(img: np.ndarray, calib: Calibration, at: tuple[float, float], gain: float,
                sigma_px: float) -> np.ndarray:
    """``img`` lit brighter around the board point ``at`` (mm): a gaussian pool of light (a
    lamp's spot), ``gain`` at its centre."""
    h, w = img.shape[:2]
    c = calib.to_image(np.array([at]))[0]
    U, V = np.meshgrid(np.arange(w), np.arange(h))
    ramp = 1.0 + gain * np.exp(-((U - c[0]) ** 2 + (V - c[1]) ** 2) / (2 * sigma_px ** 2))
    return np.clip(img.astype(np.float32) * ramp[:, :, None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("gain", [0.15, 0.25])
def test_a_pool_of_light_along_a_bare_rim_is_no_row(gain: float) -> None:
    # k4h_9306: the light grew brighter towards one corner along a rim, and the strip there
    # differed from its median over the rim like a row of six discs. The light shifts the
    # board beyond a disc's depth as much as the strip next to the rim: no disc.
    img, calib = render_row((), SIZE, 340.0)
    lit = _light_bump(img, calib, (-330.0, LINE - R), gain, 40.0)
    assert len(_rim(lit, calib)) == 0, _rim(lit, calib).round(1).tolist()



def test_column_medians_are_numpys_median_of_each_columns_samples() -> None:
    """``_column_medians`` (all columns from one sort) gives each column's ``np.median`` of its
    band's samples bit for bit, odd and even counts, ties included."""
    from tracker.detect.rim_strip import _column_medians

    rng = np.random.default_rng(7)
    for trial in range(60):
        depth, along = int(rng.integers(1, 30)), int(rng.integers(1, 40))
        off = rng.normal(size=(depth, along, 3)).astype(np.float32)
        if trial % 2:
            off = np.round(off * 2) / 2  # ties
        band = rng.random((depth, along)) < 0.5
        if not band.any():
            continue
        got = _column_medians(off, band)
        for i in np.flatnonzero(band.any(0)):
            want = np.median(off[band[:, i], i], axis=0)
            assert got[i].dtype == want.dtype and np.array_equal(got[i], want)


# Rows of five against each of the four rims (two of the dark side, two of the light), for the
# rim strip to find with none of them known.
_FIVE = [-75.0 + 2 * R * k for k in range(5)]
_EDGE = -LINE  # 412.5 mm: a disc touching a rim
FOUR_ROWS = ([(x, _EDGE, 0) for x in _FIVE] + [(60.0 - x, -_EDGE, 1) for x in _FIVE]
             + [(_EDGE, x - 40.0, 1) for x in _FIVE] + [(-_EDGE, 20.0 - x, 0) for x in _FIVE])


@pytest.mark.parametrize("seed", [601, 602])
def test_rows_against_each_rim_under_a_hard_look_sit_on_their_discs(seed: int) -> None:
    # hard looks (``render.still``, the true calibration): seed 601's lamp 35 degrees up at
    # azimuth 245, 602's 42 degrees at 166. Centred on their stretches, the west row sat 4.0 mm
    # off its discs on 601 and the north row 6.3 mm on 602; measured from the lit ends, every
    # disc of every row is within 2 mm (row means 0.1-1.6 mm).
    from tracker.boards import KoronaBoard
    from tracker.render.still import still_frame

    img, calib = still_frame(KoronaBoard(), "hard", (1280, 720), seed, lambda rng: FOUR_ROWS)
    got = _rim(img, calib, shadow=1.0, lean=True)
    truth = np.array([(x, y) for x, y, _ in FOUR_ROWS])
    err = np.array([float(np.hypot(*(got - p).T).min()) if len(got) else np.inf for p in truth])
    assert np.all(err < 2.0), np.round(err, 2).tolist()
