"""Forgetting finished tracks at the end of a round (a long live match must not grow)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker
from tracker.track.synthetic import World

from .test_tracker import run


def test_drop_finished_forgets_lifted_and_unseen_discs_only() -> None:
    w = World(CrokinoleBoard(), seed=9)  # type: ignore[arg-type]
    w.place("a", 0, -290)
    w.place("b", 150, -250)
    w.place("c", -120, 60)
    w.place("d", 80, 40)
    w.run(0.3)
    w.shoot("a", 0, 1280)  # stops in the hole
    w.shoot("b", 700, 1800)  # into the ditch
    w.settle()
    w.lift("c")
    w.run(5.0)  # c unseen long enough to count as lifted
    tk, seen = run(w)
    ids = {k: next(iter(v)) for k, v in seen.items()}
    states = {k: tk.get(ids[k]).state for k in ids}  # type: ignore[union-attr]
    assert states == {"a": "hole", "b": "off", "c": "lifted", "d": "rest"}
    # the hole and ditch discs are still seen: only the lifted one goes
    assert tk.drop_finished() == [ids["c"]]
    assert tk.get(ids["c"]) is None and len(tk.tracks) == 3
    # the board is cleared: nothing seen for a while, then everything is finished and forgotten
    t = w.frames[-1][0]
    for k in range(1, 60):
        tk.update(Detections.empty(), t + k * 0.1)
    assert tk.drop_finished() == sorted(ids[k] for k in "abd")
    assert tk.tracks == []
    # a disc put down where d lay is a new disc, not d revived
    det = Detections(xy=np.array([[80.0, 40.0]]))
    for k in range(3):
        tk.update(det, t + 6.0 + k * 0.1)
    assert [tr.id for tr in tk.tracks] == [max(ids.values()) + 1]


def test_drop_finished_on_a_fresh_tracker_is_a_no_op() -> None:
    tk = Tracker(CrokinoleBoard())
    assert tk.drop_finished() == []
