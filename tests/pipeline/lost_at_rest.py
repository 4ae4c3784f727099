"""A crokinole disc lost at rest, as the shot log's refit of its end (``rest_places.refit_ends``)
reports it: shared by the tests of ``rest_unseen`` and ``rest_model``. Rendered still frames of known
places (``render.still.still_frame``, 640x360, the renderer's true calibration); the lost disc's
track stands at rest, unseen (``occluded``), at a forecast some millimetres off; the others where
they lie, seen."""

from __future__ import annotations

import functools

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.detector import DiscDetector
from tracker.infer.datatypes import ShotRecord
from tracker.pipeline.rest_places import refit_ends
from tracker.track.datatypes import Track

BOARD = CrokinoleBoard()
R = BOARD.disc_radius
Places = tuple[tuple[float, float], ...]


@functools.lru_cache(maxsize=8)
def still(places: Places, seed: int) -> tuple[np.ndarray, Calibration]:
    """The still frame of discs at ``places`` (alternate colours) and its calibration."""
    from tracker.render.still import still_frame

    return still_frame(BOARD, "easy", (640, 360), seed, lambda rng: [(x, y, i % 2) for i, (x, y) in enumerate(places)])


def reported(places: Places, seed: int, lost: int, off: tuple[float, float],
             camouflage: bool = False) -> tuple[float, float]:
    """The lost disc's error (mm) at its forecast ``off`` its place and as the shot reports it;
    with ``camouflage`` no fit's outline is accepted (a disc of the board's colour)."""
    img, calib = still(places, seed)
    det = DiscDetector(calib, "crokinole")
    if camouflage:
        det._accept = lambda *a, **k: False  # type: ignore[method-assign]
    tracks = [Track(id=i, kind=0, radius=R, xy=np.array(p), anchor=np.array(p), anchor_n=5)
              for i, p in enumerate(places)]
    forecast = np.asarray(places[lost]) + np.asarray(off)
    tracks[lost] = Track(id=lost, kind=0, radius=R, xy=forecast.copy(), anchor=forecast.copy(), anchor_n=1,
                         occluded=True)
    ends = {tr.id: (float(tr.xy[0]), float(tr.xy[1])) for tr in tracks}
    rec = ShotRecord(disc=lost, start=(0.0, -320.0), t_start=0.0, t_end=1.0, frame_start=0, frame_end=30,
                     ends=dict(ends))
    out = refit_ends(det, img, rec, tracks)
    for k in ends:
        if k != lost:
            assert out.ends[k] == ends[k]  # the places sightings back stay
    truth = np.asarray(places[lost])
    got = out.ends[lost]
    assert isinstance(got, tuple)
    return float(np.hypot(*(np.asarray(ends[lost]) - truth))), float(np.hypot(*(np.asarray(got) - truth)))
