"""Matching a review's events and shot ends with the truth's (``tracker.pipeline.compare`` and the
benchmark's position error at rest)."""

from __future__ import annotations

import sys
from pathlib import Path

from tracker.pipeline.compare import match_events, pair_events
from tracker.shotlog import Shot

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_review import end_errors_and_switches  # noqa: E402


def _shot(t: float, seat: str = "south") -> dict[str, object]:
    return {"type": "shot", "t": t, "seat": seat}


def test_events_pair_nearest_in_time_one_to_one() -> None:
    mine = [_shot(1.0), _shot(5.1), _shot(9.0, "north"), _shot(20.0)]
    truth = [_shot(1.2), _shot(5.0), _shot(9.1), _shot(14.0)]
    assert pair_events(mine, truth, "shot") == [(0, 0), (1, 1), (2, 2)]
    assert pair_events(mine, truth, "shot", key="seat") == [(0, 0), (1, 1)]
    m = match_events(mine, truth, "shot", key="seat")
    assert (m.tp, m.fp, m.fn) == (2, 2, 2)


def test_a_missed_shot_does_not_shift_the_later_shots_ends() -> None:
    """The review missed the truth's second shot: its second and third shot ends are the truth's
    third and fourth. Paired in order they were compared with the ends of other shots (a disc
    that moved since, up to 15 mm "off"); paired by the matched shot events they are exact."""
    ends: list[dict[str, tuple[float, float] | str]] = [{"s1": (0.0, 0.0)}, {"s1": (8.0, 0.0)}, {"s1": (16.0, 0.0)}, {"s1": (24.0, 0.0)}]
    truth = [Shot(seat="south", disc="s1", end=e) for e in ends]
    mine = [truth[0], truth[2], truth[3]]
    in_order, _ = end_errors_and_switches(mine, truth)
    assert max(in_order) == 8.0
    tev = [_shot(1.0), _shot(5.0), _shot(9.0), _shot(13.0)]
    ev = [_shot(1.1), _shot(9.1), _shot(13.1)]
    paired, switches = end_errors_and_switches(mine, truth, pair_events(ev, tev, "shot"))
    assert paired == [0.0, 0.0, 0.0] and switches == 0


def test_a_switch_is_reported_with_the_shot_and_both_true_discs() -> None:
    """Two reviewed names swap their true discs after the second shot: two switches, each told
    with the truth's shot, the true disc the name stood for before and now, and the place
    (``bench_review.py --explain`` prints them)."""
    truth = [Shot(seat="south", disc="s1", end={"a": (0.0, 0.0), "b": (100.0, 0.0)}),
             Shot(seat="south", disc="s1", end={"a": (0.0, 0.0), "b": (100.0, 0.0)})]
    mine = [Shot(seat="south", disc="s1", end={"s1": (1.0, 0.0), "s2": (99.0, 0.0)}),
            Shot(seat="south", disc="s1", end={"s1": (99.0, 0.0), "s2": (1.0, 0.0)})]
    switched: list[tuple[int, str, str, str, tuple[float, float]]] = []
    _, switches = end_errors_and_switches(mine, truth, switched=switched)
    assert switches == 2
    assert sorted(switched) == [(1, "s1", "a", "b", (99.0, 0.0)), (1, "s2", "b", "a", (1.0, 0.0))]
