"""A disc the detector found in the 20-hole as it slid over it, and then sliding on beyond it, is
the same disc: it crossed the hole (hand-made frames, 30 fps).

c2h_9932 at 14.0 s: n2, struck by s3, crossed the hole 10 mm from its centre at about 500 mm/s.
The detector, whose picture of the empty hole blends with a disc sliding over it, found it in the
hole on two frames running, and the tracker called it a 20; the disc then found sliding on beyond
the hole was a new one (a false 20 for north, and a disc nobody shot, later a phantom shot)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import IN_HOLE, ON_SURFACE, Detections
from tracker.track import Tracker
from tracker.track.tracker import TrackerConfig

DT = 1.0 / 30
END = (60.0, -35.0)


def dets(*rows: tuple[float, float, int]) -> Detections:
    return Detections(xy=np.array([(x, y) for x, y, _ in rows], float).reshape(-1, 2),
                      where=np.array([w for _, _, w in rows], int))


def _crossed(cfg: TrackerConfig, back: bool = False, finds_back: bool = False) -> Tracker:
    """n2 rests at (-81, 16), is knocked towards the hole, seen once on the way, twice "in the
    hole", and then (``back``: a disc coming back the way n2 came, which n2 is not) sliding on.
    ``finds_back``: its second find in the hole lies a little back the way it came from the
    first (the finds are the empty hole's picture: where they lie says nothing of its way)."""
    tk = Tracker(CrokinoleBoard(), cfg)
    rest = (-81.0, 16.0, ON_SURFACE)
    frames: list[list[tuple[float, float, int]]] = [[rest]] * 20
    frames += [[(-75.0, 13.0, ON_SURFACE)], [(-60.0, 10.0, ON_SURFACE)], [(-41.0, 6.0, ON_SURFACE)]]
    frames += [[], []]  # lost in a blur
    finds = [(-1.0, -1.0), (0.0, -2.0)]
    if finds_back:
        finds.reverse()
    frames += [[(*finds[0], IN_HOLE)], [(*finds[1], IN_HOLE), (-7.0, -27.0, ON_SURFACE)], []]
    run = [(27.5, -24.0), (38.0, -27.0), (46.0, -30.0), (52.0, -32.0), (56.0, -33.5), (58.5, -34.5)]
    if back:
        run = [(-x - 10.0, -y) for x, y in run]
    frames += [[(*xy, ON_SURFACE)] for xy in run]
    last = run[-1]
    frames += [[(last[0] + 1.5 * np.sign(last[0]), last[1], ON_SURFACE)]] * 40
    for k, rows in enumerate(frames):
        tk.update(dets(*rows), k * DT)
    return tk


def test_a_disc_found_sliding_on_beyond_the_hole_crossed_it() -> None:
    tk = _crossed(TrackerConfig())
    n2 = next(tr for tr in tk.tracks if tr.born == 0.0)
    assert n2.state == "rest", n2.state
    assert np.hypot(n2.xy[0] - END[0], n2.xy[1] - END[1]) < 3.0, n2.xy
    assert not [tr for tr in tk.tracks if tr.state == "hole"]
    assert len([tr for tr in tk.tracks if tr.state == "rest"]) == 1


def test_its_way_onto_the_hole_is_read_from_before_it_came_over_it() -> None:
    """Its two finds in the hole lying a little back the way it came (as found, a tenth of a
    mm to a few apart) do not turn it back: its way onto the hole runs from its last sighting
    before it (``hole_course.arrival_over_hole``)."""
    tk = _crossed(TrackerConfig(), finds_back=True)
    n2 = next(tr for tr in tk.tracks if tr.born == 0.0)
    assert n2.state == "rest", n2.state
    assert np.hypot(n2.xy[0] - END[0], n2.xy[1] - END[1]) < 3.0, n2.xy
    assert not [tr for tr in tk.tracks if tr.state == "hole"]


def test_without_the_setting_it_was_a_20_and_a_new_disc() -> None:
    tk = _crossed(replace(TrackerConfig(), hole_passed=False))
    n2 = next(tr for tr in tk.tracks if tr.born == 0.0)
    assert n2.state in ("hole", "lifted")  # in the hole, then "taken out" (``hole_gone``)
    assert [tr for tr in tk.tracks if tr.state == "rest" and tr.born > 0.0]


def test_a_disc_coming_back_over_the_hole_is_not_the_one_in_it() -> None:
    """A disc does not turn back over an empty hole: one found going back the way the disc in
    the hole came is another."""
    tk = _crossed(TrackerConfig(), back=True)
    n2 = next(tr for tr in tk.tracks if tr.born == 0.0)
    assert n2.state in ("hole", "lifted")
