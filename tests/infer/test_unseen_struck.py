"""A disc nobody saw shot, struck by a later shot (known-truth physics of
``tracker.track.synthetic``): its shot is logged, read from where it lay, and the hit on it is a
hit (``pipeline.missed``, ``rules.crokinole.predicates.judged_on_must_hit``)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.track.synthetic import World

from .scenes import feed, shots

BOARD = CrokinoleBoard()


def test_a_struck_disc_whose_shot_was_missed_is_logged_and_hit_is_no_foul() -> None:
    """South's s1 and north's n1 are seen shot. North's n2 is never seen waiting or flying
    (red on a red board, c2h_9202): it is first seen at rest at (150, -20). South's s2 then
    strikes it. Before, the rules did not know n2 (its move was ignored), so with n1 on the board
    s2's shot was "foul: no opponent disc hit" and s2 went to the ditch."""
    w = World(BOARD, fps=30, seed=3)
    w.place("s1", 0, -300, cls=0)
    w.run(0.5)
    w.shoot("s1", 0, 930)  # at rest in the 15 zone
    w.settle(0.6)
    w.place("n1", -40, 300, cls=1)
    w.run(0.5)
    w.shoot("n1", 40 * 3.5, -312 * 3.5)  # at s1
    w.settle(0.6)
    w.place("n2", 150, -20, cls=1)  # its shot unseen: first seen at rest
    w.run(1.0)
    w.place("s2", 150, -260, cls=0)
    w.run(0.5)
    w.shoot("s2", 0, 1100)
    w.settle(0.8)
    assert {c[1:] for c in w.contacts} & {("s2", "n2"), ("n2", "s2")}
    p = feed(w.frames)
    log = shots(p)
    assert [s.seat for s in log] == ["south", "north", "north", "south"], log
    missed, last = log[2], log[3]
    assert missed.unseen and missed.start is None and not missed.contacts
    at = missed.end[missed.disc]
    assert isinstance(at, tuple) and np.hypot(at[0] - 150, at[1] + 20) < 3
    assert (last.disc, missed.disc) in last.contacts or (missed.disc, last.disc) in last.contacts
    assert not [e for e in p.events if e.type == "removed"], [e.to_json() for e in p.events if e.type == "removed"]
    assert last.disc in p.engine.on_board  # type: ignore[attr-defined]
