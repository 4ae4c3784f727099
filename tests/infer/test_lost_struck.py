"""A disc the detector lost at rest, struck and found again only where it stopped (known-truth
physics of ``tracker.track.synthetic``; ``infer.struck_pending``, ``identity.reconcile``).

North's n1 goes down the 20-hole and is taken out. North's n2 comes to rest near the centre, is
seen there for a moment and then lost (a light disc on a light board: c4e_10104's n2). South's
s1 strikes it; n2 slides across the 20-hole's place, unseen, and is found again at rest 0.2 s
after it stopped. Before, the shot was closed as soon as s1 stopped, with n2 at its old place
(15 points instead of 10); waited for, n2's new track took the name of n1, the 20 taken out of
the hole, which "lay across" its way; and the blow, read on n2's old place, went to a disc named
anew (a collision "s1-x3", left out of the log)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track.synthetic import World

from .scenes import feed, shots

BOARD = CrokinoleBoard()
R = BOARD.shooting_line_radius


def stopped(w: World, name: str, after: float) -> float:
    """When ``name`` first stood still after ``after`` (truth)."""
    ts = [t for t in sorted(w.truth_at) if t >= after and name in w.truth_at[t]]
    return next(b for a, b in zip(ts, ts[1:], strict=False) if np.hypot(*np.subtract(w.truth_at[b][name], w.truth_at[a][name])) < 1e-6)


def hidden(w: World, name: str, lo: float, hi: float) -> list[tuple[float, Detections]]:
    """``w``'s frames with ``name``'s detections dropped from ``lo`` to ``hi`` seconds."""
    out = []
    for t, det in w.frames:
        at = w.truth_at[t].get(name)
        if at is not None and lo <= t < hi and len(det.xy):
            keep = np.hypot(det.xy[:, 0] - at[0], det.xy[:, 1] - at[1]) > 8.0
            det = Detections(xy=det.xy[keep], radius=det.radius[keep], cls=det.cls[keep], kind=det.kind[keep],
                             where=det.where[keep], streak=det.streak[keep], color=det.color[keep])
        out.append((t, det))
    return out


def test_a_struck_disc_lost_at_rest_ends_the_shot_where_it_was_found() -> None:
    w = World(BOARD, fps=30, seed=5)
    w.place("n1", 0, R, cls=0)
    w.run(0.5)
    w.shoot("n1", 0, -1122)  # down the 20-hole
    w.settle(0.3)
    w.run(0.4)
    w.lift("n1")  # taken out
    w.run(1.6)
    start, rest = np.array([40.0, np.sqrt(R ** 2 - 40.0 ** 2)]), np.array([-45.0, -60.0])
    w.place("n2", *start, cls=0)
    w.run(0.5)
    t_n2 = w.t
    run = rest - start
    w.shoot("n2", *(run / np.hypot(*run) * np.sqrt(2 * w.decel * np.hypot(*run))))
    w.settle(0.3)
    at = np.array([w.bodies["n2"].x, w.bodies["n2"].y])
    u = np.array([1.0, 1.0]) / np.sqrt(2.0)  # s1 drives n2 up and right, across the hole's place
    k = float(at @ u + np.sqrt((at @ u) ** 2 - at @ at + R ** 2))
    w.place("s1", *(at - u * k), cls=1)
    w.run(0.6)
    t_s1 = w.t
    w.shoot("s1", *(u * 1200))
    w.settle(1.0)
    assert {frozenset(c[1:]) for c in w.contacts if c[0] >= t_s1} == {frozenset(("s1", "n2"))}
    truth = w.truth_end()["n2"]
    assert isinstance(truth, tuple) and np.hypot(*np.subtract(truth, at)) > 150  # it went far
    lost_from = stopped(w, "n2", t_n2 + 0.1) + 0.1  # seen at rest for 0.1 s, then lost
    p = feed(hidden(w, "n2", lost_from, stopped(w, "n2", t_s1 + 0.2) + 0.2))
    log = shots(p)
    assert [(s.seat, s.disc) for s in log] == [("north", "n1"), ("north", "n2"), ("south", "s1")], log
    end = log[-1].end.get("n2")
    assert isinstance(end, tuple) and np.hypot(*np.subtract(end, truth)) < 3.0, log[-1].end
    assert "n1" not in log[-1].end, log[-1].end
    # the blow, read on n2's old place, is n2's (not a disc named anew, left out of the log)
    assert log[-1].contacts == (("s1", "n2"),), log[-1].contacts
    assert [e.data["discs"] for e in p.events if e.type == "collision"] == [["s1", "n2"]]
    assert not p.warnings, p.warnings
