"""Crokinole: a foul called on a shot that passed an opponent disc by a hair, and the players leave
the fouled disc on the board (hand-made detections, board mm).

North's first disc rests at (0, 60). South shoots straight up the board past it, ``gap`` mm from
touching, and stops beyond; the rules see no contact and call a foul (south's disc to the ditch).
The players do not lift it; north shoots next. A pass that close is a touch the camera cannot rule
out, so the players' ruling is taken: the contact goes into the log and the foul is withdrawn. A
clear miss keeps the foul (the disc is reported not removed), and so does a near pass whose disc
the players did lift."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.pipeline import Pipeline
from tracker.pipeline.players_ruling import closest_pass, found_in_place, left_on
from tracker.pipeline.withdraw import standing
from tracker.shotlog import Shot
from tracker.track import Track
from tracker.track.blows import distance_along
from tracker.track.datatypes import Sample

CB = CrokinoleBoard()
R = CB.disc_radius
FPS = 30.0
LINE = CB.shooting_line_radius


def dets(rows: list[tuple[float, float]]) -> Detections:
    return Detections(xy=np.array(rows, float).reshape(-1, 2), where=np.full(len(rows), ON_SURFACE, int),
                      radius=np.full(len(rows), R))


def _play(gap: float, lifted: bool) -> Pipeline:
    north_rest = (0.0, 60.0)
    x = 2 * R + gap
    s_start, s_stop = (x, -LINE), (x, 150.0)
    n_start, n_stop = (-100.0, float(np.sqrt(LINE**2 - 100.0**2))), (-160.0, 120.0)
    p = Pipeline("crokinole", 2)
    p.start_tracking(CB)
    k = 0

    def step(rows: list[tuple[float, float]]) -> None:
        nonlocal k
        p.process_detections(dets(rows), k / FPS, k)
        k += 1

    n1_start = (0.0, LINE)
    for _ in range(20):  # north's first disc put down on north's line, shot to the centre
        step([n1_start])
    for i in range(1, 16):
        step([(0.0, n1_start[1] + i / 15 * (north_rest[1] - n1_start[1]))])
    for _ in range(45):
        step([north_rest])
    for _ in range(30):  # south's put down on the line
        step([north_rest, s_start])
    for i in range(1, 21):  # the shot, straight up past north's disc
        a = i / 20
        step([north_rest, (x, s_start[1] + a * (s_stop[1] - s_start[1]))])
    for _ in range(45):
        step([north_rest, s_stop])
    for _ in range(30):  # the players' turn: south's disc left where it is, or lifted off
        step([north_rest] + ([] if lifted else [s_stop]))
    for _ in range(20):  # north's disc put down on north's line
        step([north_rest, n_start] + ([] if lifted else [s_stop]))
    for i in range(1, 16):  # north's shot, nowhere near
        a = i / 15
        step([north_rest, (n_start[0] + a * (n_stop[0] - n_start[0]), n_start[1] + a * (n_stop[1] - n_start[1]))] + ([] if lifted else [s_stop]))
    for _ in range(45):
        step([north_rest, n_stop] + ([] if lifted else [s_stop]))
    p.finish()
    return p


def _calls(p: Pipeline) -> tuple[list[dict], list[dict]]:
    events = [e.to_json() for e in p.sorted_events()]
    return events, standing(events)


def test_a_near_pass_left_on_the_board_withdraws_the_foul() -> None:
    p = _play(gap=1.5, lifted=False)
    shots = [e for e in p.entries if isinstance(e, Shot)]
    assert [s.seat for s in shots] == ["north", "south", "north"], shots
    events, now = _calls(p)
    assert [e["reason"] for e in events if e["type"] == "removed" and e["disc"] == "s1"] == ["foul"]  # called...
    fixed = [e for e in events if e["type"] == "corrected"]
    assert len(fixed) == 1 and fixed[0]["was"] == "foul" and fixed[0]["line"] == 1, events
    assert 0.5 < fixed[0]["gap_mm"] < 2.5
    assert not [e for e in now if e["type"] == "removed" and e["disc"] == "s1"]  # ... and withdrawn
    assert not [e for e in events if e["type"] == "not_removed" and e["disc"] == "s1"]
    mover, other = fixed[0]["add_contacts"][0]
    assert (mover, other) == (shots[1].disc, shots[1].contacts[0][1]) and other != mover
    on_board = p.engine.on_board  # type: ignore[attr-defined]
    assert "s1" in on_board and abs(on_board["s1"].y - 150.0) < 3.0  # south's disc is in play


@pytest.mark.parametrize(("gap", "lifted"), [(12.0, False), (1.5, True)])
def test_a_clear_miss_or_a_disc_lifted_keeps_the_foul(gap: float, lifted: bool) -> None:
    p = _play(gap=gap, lifted=lifted)
    events, now = _calls(p)
    assert not [e for e in events if e["type"] == "corrected"]
    assert [e["reason"] for e in now if e["type"] == "removed" and e["disc"] == "s1"] == ["foul"]
    assert bool([e for e in events if e["type"] == "not_removed" and e["disc"] == "s1"]) is not lifted
    assert "s1" not in p.engine.on_board  # type: ignore[attr-defined]


def test_distance_along_a_path_measures_between_samples() -> None:
    path = np.array([[-100.0, 5.0], [100.0, 5.0]])  # a pass sampled only far either side
    assert distance_along(path, (0.0, 0.0)) == pytest.approx(5.0)
    assert distance_along(path[:1], (0.0, 0.0)) == pytest.approx(np.hypot(100.0, 5.0))
    tr = Track(id=1, kind=0, radius=R, xy=np.zeros(2), born=0.0)
    tr.path = [Sample(0.0, -100.0, 2 * R + 1.0), Sample(0.1, 100.0, 2 * R + 1.0), Sample(5.0, 0.0, 0.0)]
    near = closest_pass([("s1", tr)], {"n1": (0.0, 0.0), "n2": (50.0, 200.0)}, 0.0, 1.0)
    assert near is not None and near[:2] == ("s1", "n1") and near[2] == pytest.approx(1.0)


def test_a_fouled_disc_given_up_as_lifted_but_found_in_place_was_left_on() -> None:
    """The tracker calls a disc the rules said must leave lifted the moment it is unseen (a hand
    passing over it); a new track at rest where it lay is that disc, left on the board."""
    gone = Track(id=1, kind=0, radius=R, xy=np.array([30.0, 150.0]), born=0.0)
    gone.state = "lifted"
    again = Track(id=7, kind=0, radius=R, xy=np.array([31.0, 150.5]), born=3.0)
    again.state = "rest"
    elsewhere = Track(id=8, kind=0, radius=R, xy=np.array([80.0, 150.0]), born=3.0)
    elsewhere.state = "rest"
    names = {1: "s1"}
    assert left_on(["s1"], names, [gone, again])
    assert not left_on(["s1"], names, [gone, elsewhere])
    assert not left_on(["s2"], names, [gone, again])
    assert found_in_place(gone, [gone, elsewhere, again], names) == 7  # it takes s1's name
    assert found_in_place(gone, [gone, elsewhere, again], {**names, 7: "n3"}) is None
    assert found_in_place(again, [gone, again], names) is None  # only a track given up as lifted
