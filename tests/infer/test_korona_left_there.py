"""Korona: a striker run from where the last shot left it at rest is a hand carrying it, not a
shot (``judge.left_there``): players set the striker on their line by hand for every shot.
k4h_10212 at 16.6 s: north's striker, left by its shot 3 mm off south's line, was carried by a
hand to north's line (the hand lowering it read as a bounce off the north rim) and logged as a
south shot. The carry's samples are the rendered match's detections of the striker."""

from __future__ import annotations

import numpy as np

from tests.infer.scenes import slide_to
from tracker.boards import KoronaBoard
from tracker.detect.datatypes import STRIKER, Detections
from tracker.infer import judge, striker_motion
from tracker.pipeline import Pipeline

B = KoronaBoard()
DT = 1.0 / 30


def _striker_at(xy: tuple[float, float] | None) -> Detections:
    if xy is None:
        return Detections(xy=np.zeros((0, 2)))
    return Detections(xy=np.array([xy], float), radius=np.array([B.striker_radius]), kind=np.array([STRIKER]))


def _review() -> Pipeline:
    line, left = (50.0, 320.0), (275.0, -323.0)
    run: list[tuple[float, float] | None] = [line] * 15 + slide_to(line, left, 18) + [left] * 40
    run += [None] * 12  # a hand over it as it is taken up
    run += [(237.0, 77.0), (229.0, 134.0), (221.0, 195.0), (212.0, 257.0), (206.0, 309.0), (203.0, 352.0)]
    run += [None] * 4 + [(205.0, 300.0), (200.0, 318.0), (199.5, 319.1)] + [(199.8, 319.9)] * 30
    p = Pipeline("korona", 4)
    p.start_tracking(B)
    for i, xy in enumerate(run):
        p.process_detections(_striker_at(xy), i * DT, i)
    p.finish()
    return p


def test_a_striker_carried_from_where_its_shot_left_it_is_no_shot(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # (the shots judged: the rules refuse them all, the scene has no setup line)
    assert len(_review().segmenter._shot_spans) == 1  # (both carry checks on)
    # this check alone: north's striker, left in south's zone, is also ``left_by_another``'s case
    monkeypatch.setattr(striker_motion, "LEFT_BY_ANOTHER", False)
    p = _review()
    assert len(p.segmenter._shot_spans) == 1
    assert p.segmenter.rejected[-1][1].endswith("a hand carried it")
    monkeypatch.setattr(judge, "LEFT_THERE", False)
    assert len(_review().segmenter._shot_spans) == 2
