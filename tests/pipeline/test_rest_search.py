"""Where a shot reports a crokinole disc lost while it slid, resting far from its forecast
(``pipeline.rest_search``): found by what changed since the last shot was judged. Two rendered
still frames of known places (``render.still.still_frame``, 640x360, the same look and camera):
the board as the last shot was judged (the lost disc at its old place, the shooter on the
shooting line, a disc that stays), and as this one settled (the lost disc 40 mm past its last
sighting, against a peg or in the open; the shooter where it stopped)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.detector import DiscDetector
from tracker.infer.datatypes import ShotRecord
from tracker.pipeline import rest_search
from tracker.pipeline.rest_places import refit_ends
from tracker.track.datatypes import Track

pytest.importorskip("tracker.render")

BOARD = CrokinoleBoard()
R = BOARD.disc_radius
PEG = np.asarray(BOARD.peg_positions()[0])  # (93.9, 38.9)
_out = PEG / np.hypot(*PEG)
AT_PEG = tuple(PEG - _out * (R + BOARD.peg_diameter / 2 + 0.3))  # against the peg, inside (c2h_9986 n2)
OPEN = (-150.0, 120.0)
STAYS = (40.0, -150.0)  # a disc at rest all along
START = (0.0, -304.8)  # the shooter on the shooting line
SHOT_END = (-30.0, -90.0)  # where the shooter stopped


@functools.lru_cache(maxsize=8)
def _frame(seed: int, places: tuple[tuple[float, float], ...]) -> tuple[np.ndarray, Calibration]:
    from tracker.render.still import still_frame

    return still_frame(BOARD, "easy", (640, 360), seed, lambda rng: [(x, y, i % 2) for i, (x, y) in enumerate(places)])


def _track(i: int, p: tuple[float, float], n: int = 5) -> Track:
    return Track(id=i, kind=0, radius=R, xy=np.array(p, float), anchor=np.array(p, float), anchor_n=n,
                 occluded=n < 2)


def _reported(seed: int, old: tuple[float, float], new: tuple[float, float] | None,
              forecast: tuple[float, float], judged: bool = True) -> tuple[float, float] | str:
    """The lost disc's place as the shot reports it; ``new`` None: the disc is not on the board."""
    before, _ = _frame(seed, (old, STAYS, START))
    after, calib = _frame(seed, ((new,) if new is not None else ()) + (STAYS, SHOT_END))
    det = DiscDetector(calib, "crokinole")
    tracks = [_track(0, forecast, 1), _track(1, STAYS), _track(2, SHOT_END)]
    rec = ShotRecord(disc=2, start=START, t_start=0.0, t_end=1.0, frame_start=0, frame_end=30,
                     ends={0: forecast, 2: SHOT_END}, before={0: old, 1: STAYS})
    memo = rest_search.Judged(before, [old, STAYS, START]) if judged else None
    out = refit_ends(det, after, rec, tracks, memo)
    assert out.ends[2] == SHOT_END  # a place sightings back stays
    got = out.ends[0]
    assert not isinstance(got, str)
    return got


def _off(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


@pytest.mark.parametrize("seed", [710, 711])
def test_a_disc_lost_in_the_open_far_from_its_forecast_is_reported_where_it_lies(seed: int) -> None:
    forecast = (OPEN[0] + 25.0, OPEN[1] - 31.0)  # 40 mm off (c4h_9993 s2: last seen 40 mm short)
    got = _reported(seed, (-60.0, 40.0), OPEN, forecast)
    assert isinstance(got, tuple) and _off(got, OPEN) < 1.5, got


def test_a_disc_lost_against_a_peg_far_from_its_forecast_is_reported_by_it() -> None:
    """c2h_9986 n2: last seen coming off one peg, at rest against the next, 40 mm on."""
    forecast = (AT_PEG[0] - 2.0, AT_PEG[1] - 40.0)
    got = _reported(712, (20.0, -55.0), AT_PEG, forecast)
    assert isinstance(got, tuple) and _off(got, AT_PEG) < 3.0, got


def test_without_the_last_judged_frame_the_forecast_stands() -> None:
    forecast = (OPEN[0] + 25.0, OPEN[1] - 31.0)
    assert _reported(710, (-60.0, 40.0), OPEN, forecast, judged=False) == forecast


def test_off_leaves_the_forecast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rest_search, "ON", False)
    forecast = (OPEN[0] + 25.0, OPEN[1] - 31.0)
    assert _reported(710, (-60.0, 40.0), OPEN, forecast) == forecast


def test_nothing_unexplained_finds_nothing() -> None:
    """The lost disc is not on the board (gone unseen): the shooter's start and end, the disc that
    stays and the lost disc's old place explain all the change; the forecast stands."""
    forecast = (OPEN[0] + 25.0, OPEN[1] - 31.0)
    assert _reported(710, (-60.0, 40.0), None, forecast) == forecast


@pytest.mark.parametrize("seed", [712, 713])
def test_a_disc_whose_fits_the_detector_turns_down_is_placed_from_its_blob(seed: int,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """c2h_9986 n2 against its peg: no fit of it passes the detector's checks (coverage 0.53), so
    a loose fit that explains the blob, placed by the region model, stands (the edge fits alone
    scattered 5-6 mm there)."""
    monkeypatch.setattr(DiscDetector, "_accept", lambda self, fit, radius, residual_scale=1.0: False)
    forecast = (AT_PEG[0] - 2.0, AT_PEG[1] - 40.0)
    got = _reported(seed, (20.0, -55.0), AT_PEG, forecast)
    assert isinstance(got, tuple) and _off(got, AT_PEG) < 1.5, got
