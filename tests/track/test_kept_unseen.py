"""A crokinole disc never seen at the place it is kept (lost while it slid, and the detector does
not see it there: a disc of the board's colour, the lamp's glare) is not taken for lifted by a hand
after ``lift_after``: nothing says a hand took it (``TrackerConfig.kept_unseen_lift_after``).

c4h_9963 at 15.6 s: e1, knocked by s2 to (-163, 98), was lost as it stopped and never found
there; 'lifted' 4 s later, the shot that knocked it off at 20.5 s hit no opponent disc on the
board as far as the rules knew: a false foul, n2 removed. Discs move in the known-truth physics
of ``tracker.track.synthetic``; a "hand" that never lifts stands for the glare: nothing is seen
within it."""

from __future__ import annotations

from dataclasses import replace

from tracker.boards import CrokinoleBoard
from tracker.track import Tracker
from tracker.track.synthetic import World
from tracker.track.tracker import TrackerConfig

BOARD = CrokinoleBoard()


def _run(cfg: TrackerConfig, seen_at_rest: bool) -> tuple[World, Tracker]:
    """s1 shot north from the south line into the glare round (60, -80) (on from the start, or,
    ``seen_at_rest``, only once it has rested in view for a second), then 5.5 s more (past ``lift_after``)."""
    w = World(BOARD, fps=30, seed=3)
    w.place("s1", 60.0, -290.0, cls=0)
    w.run(0.5)
    if not seen_at_rest:
        w.hand(60.0, -80.0, 70.0, 30.0)
    w.shoot("s1", 0.0, 800.0)
    w.settle(1.0)
    if seen_at_rest:
        w.hand(60.0, -80.0, 70.0, 30.0)
    w.run(5.5)
    tk = Tracker(BOARD, cfg)
    for t, det in w.frames:
        tk.update(det, t)
    return w, tk


def test_a_disc_lost_as_it_slid_to_rest_is_kept_while_unseen() -> None:
    w, tk = _run(TrackerConfig(), seen_at_rest=False)
    true = w.truth_end()["s1"]
    assert isinstance(true, tuple) and -130.0 < true[1] < 10.0  # it stopped in the glare
    s1 = [tr for tr in tk.tracks if tr.born < 0.5]
    assert len(s1) == 1 and s1[0].state == "rest", [tr.state for tr in s1]
    assert s1[0].anchor_n <= 1  # never seen there


def test_without_the_setting_it_was_lifted() -> None:
    _, tk = _run(replace(TrackerConfig(), kept_unseen_lift_after=None), seen_at_rest=False)
    s1 = [tr for tr in tk.tracks if tr.born < 0.5]
    assert len(s1) == 1 and s1[0].state == "lifted"


def test_a_disc_seen_at_rest_and_covered_still_counts_as_lifted() -> None:
    """One seen resting there and then covered for longer than ``lift_after``: a hand took it."""
    _, tk = _run(TrackerConfig(), seen_at_rest=True)
    s1 = [tr for tr in tk.tracks if tr.born < 0.5]
    assert len(s1) == 1 and s1[0].state == "lifted"
