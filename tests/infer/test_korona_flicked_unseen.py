"""A korona striker first seen in flight, its wait on the striking line unseen
(``flicked_unseen._korona_line``): simulated detections (``track.synthetic.World``) with the
striker's left out until some time after the flick."""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.infer import flicked_unseen
from tracker.pipeline import Pipeline
from tracker.shotlog import Shot
from tracker.track.synthetic import World

B = KoronaBoard()
LINE = B.half - B.striking_line_offset


def _review(w: World, unseen_until: float) -> Pipeline:
    """The pipeline fed ``w``'s frames, the striker's detections left out before ``unseen_until``."""
    p = Pipeline("korona", 2)
    p.start_tracking(B)
    for i, (t, det) in enumerate(w.frames):
        if t < unseen_until and len(det):
            det = det[det.kind != STRIKER]
        p.process_detections(det, t, i)
    p.finish()
    return p


def _shots(p: Pipeline) -> list[Shot]:
    return [e for e in p.entries if isinstance(e, Shot)]


def _south_shot_up_the_board() -> tuple[World, float, tuple[float, float]]:
    """South's striker, behind its line, shot up the board past two discs resting aside; the
    time of the flick and where the striker waited."""
    w = World(B, fps=30.0, seed=3)
    w.place("d1", -200.0, 120.0, cls=0)
    w.place("d2", 220.0, -60.0, cls=1)
    start = (30.0, -LINE - 10.0)
    w.place("S", *start, kind=STRIKER, cls=2)
    w.run(1.0)
    t_flick = w.t
    w.shoot("S", 60.0, 1500.0)
    w.settle(1.0)
    return w, t_flick, start


@pytest.fixture
def korona_on() -> Iterator[None]:
    was = flicked_unseen.KORONA
    flicked_unseen.KORONA = True
    try:
        yield
    finally:
        flicked_unseen.KORONA = was


@pytest.mark.usefixtures("korona_on")
def test_a_striker_first_seen_in_flight_was_flicked_from_its_line() -> None:
    """The striker is not found waiting on south's line nor in its first 0.3 s of flight (k4h_10006
    at 3.1 s: its outline on the line was turned down); first seen mid-board, heading north. It
    is south's shot from south's line (it was lost: "motion with no disc that rested before it")."""
    w, t_flick, start = _south_shot_up_the_board()
    p = _review(w, t_flick + 0.3)
    log = _shots(p)
    assert [(s.seat, s.disc) for s in log] == [("south", "S")], log
    assert log[0].start is not None and math.dist(log[0].start, start) < 20.0
    end = log[0].end["S"]
    truth = w.truth_end()["S"]
    assert isinstance(end, tuple) and isinstance(truth, tuple) and math.dist(end, truth) < 3.0


def test_off_it_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``KORONA`` off the shot is lost, as before it."""
    monkeypatch.setattr(flicked_unseen, "KORONA", False)
    w, t_flick, _ = _south_shot_up_the_board()
    assert _shots(_review(w, t_flick + 0.3)) == []


@pytest.mark.usefixtures("korona_on")
def test_first_seen_behind_a_line_is_not_a_flight_from_it() -> None:
    """A striker first seen in a rim zone (behind a striking line: coming back off the rim) was
    not flicked from a line on its way back: no start is read from it."""
    p = np.array([[0.0, 20.0, LINE + 40.0], [0.05, 20.0, LINE - 40.0], [0.1, 20.0, LINE - 120.0]])
    assert flicked_unseen.flicked_unseen(B, p, 350.0, striker=True) is None
    # the same run first seen just past the line, heading away from it: from that line
    q = p.copy()
    q[:, 2] -= 60.0
    got = flicked_unseen.flicked_unseen(B, q, 350.0, striker=True)
    assert got is not None and math.dist(got[0], (20.0, LINE)) < 1.0 and got[1] < 0.0
    # a disc (not the striker) is never read so
    assert flicked_unseen.flicked_unseen(B, q, 350.0, striker=False) is None



def _west_shot_back_off_the_east_rim(players: int, seen_at_rest: bool,
                                     next_seat: str | None) -> tuple[Pipeline, tuple[float, float]]:
    """West's striker (seen resting behind its line, or never: ``seen_at_rest``) shot east across
    the board; its way out and into the east rim unseen, first seen coming back 140 mm inside
    east's line at about 750 mm/s (k4h_9506 at 12.6 s and 17.4 s). ``next_seat``: whose shot the
    rules expect. The pipeline and where the striker waited."""
    w = World(B, fps=30.0, seed=5)
    w.place("d1", -150.0, 250.0, cls=0)
    w.place("d2", 120.0, -260.0, cls=1)
    start = (-LINE - 10.0, 40.0)
    w.place("S", *start, kind=STRIKER, cls=2)
    w.run(1.0)
    t_flick = w.t
    w.shoot("S", 2000.0, 0.0)
    w.settle(1.0)
    # first seen back inside east's line by 140 mm, heading west
    back = min(t for t, at in w.truth_at.items() if t > t_flick + 0.3 and at["S"][0] < LINE - 140.0)
    p = Pipeline("korona", players)
    p.start_tracking(B)
    p.segmenter.next_seat = lambda: next_seat
    for i, (t, det) in enumerate(w.frames):
        if (t_flick <= t < back if seen_at_rest else t < back) and len(det):
            det = det[det.kind != STRIKER]
        p.process_detections(det, t, i)
    p.finish()
    return p, start


def _from_east_line(log: list[Shot]) -> list[Shot]:
    return [s for s in log if s.start is not None and s.start[0] > LINE - 20.0]


@pytest.mark.usefixtures("korona_on")
@pytest.mark.parametrize(("players", "next_seat"), [(2, None), (4, "west")])
def test_first_seen_back_off_the_far_rim_was_not_flicked_from_that_line(players: int, next_seat: str | None) -> None:
    """West's striker never seen at rest, first seen coming back off the east rim: it runs back to
    east's line, but east's line is no seat's in a two-player game (south and north), and in a
    four-player one the rules expected west's shot: no shot from east's line."""
    p, _ = _west_shot_back_off_the_east_rim(players, seen_at_rest=False, next_seat=next_seat)
    log = _shots(p)
    assert _from_east_line(log) == [], log


@pytest.mark.usefixtures("korona_on")
def test_first_seen_back_off_the_far_rim_after_resting_on_its_line() -> None:
    """West's striker seen resting behind its line, gone unseen as it was flicked, first seen
    coming back off the east rim (the rules not knowing whose turn it is): the rest states tell
    west's shot from where it waited, not east's from east's line."""
    p, start = _west_shot_back_off_the_east_rim(4, seen_at_rest=True, next_seat=None)
    log = _shots(p)
    assert [s.seat for s in log] == ["west"], log
    assert log[0].start is not None and math.dist(log[0].start, start) < 20.0
