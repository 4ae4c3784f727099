"""A 20 whose disc is never seen down in the hole (a disc of the hole's colour: c4h_9921, blue on
the blue board, at 7.6 s): the detector finds it twice over the hole as it tips in, then never
again; the tracker calls it in the hole, and a second after its last sighting calls it taken out
by hand. The disc it struck on its way in may still be sliding then; the shot, judged once that
one stops, is the 20 all the same (known-truth physics of ``tracker.track.synthetic``, its
friction lowered so the struck disc slides long enough)."""

from __future__ import annotations

import numpy as np

from tests.infer.scenes import feed, shots
from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import IN_HOLE, ON_SURFACE, Detections
from tracker.track.synthetic import World
from tracker.track.tracker import TrackerConfig

BOARD = CrokinoleBoard()
# where the detector finds the sinking disc's face on the two frames it still sees it (mm)
TIPPING_IN = [(-2.0, 2.0), (-4.0, 0.5)]


def _never_seen_in_the_hole(w: World) -> list[tuple[float, Detections]]:
    """``w``'s frames with each disc down in the hole seen over it as it tips in
    (``TIPPING_IN``), then not at all."""
    out: list[tuple[float, Detections]] = []
    k = 0
    for t, d in w.frames:
        sunk = d.where == IN_HOLE
        if sunk.any() and k < len(TIPPING_IN):
            xy, where, streak = d.xy.copy(), d.where.copy(), d.streak.copy()
            xy[sunk], where[sunk], streak[sunk] = TIPPING_IN[k], ON_SURFACE, (0.0, 0.0)
            k += 1
            out.append((t, Detections(xy=xy, radius=d.radius, cls=d.cls, kind=d.kind, where=where,
                                      streak=streak, color=d.color)))
        else:
            out.append((t, d[~sunk]))
    return out


def test_a_twenty_never_seen_in_the_hole_is_a_twenty_while_the_disc_it_struck_slides_on() -> None:
    """n1, flicked from the north line, clips s1 (resting over the hole's edge) and drops into the
    hole; s1 slides on for about a second. Before: "the moved disc was carried away by a hand",
    no shot logged."""
    w = World(BOARD, fps=30, seed=5, decel=500.0)
    w.place("s1", -25.0, -20.0, cls=0)
    start = np.array([-30.0, BOARD.shooting_line_radius])
    w.place("n1", *start, cls=1)
    w.run(0.6)
    w.shoot("n1", *(-start / np.hypot(*start) * 1100.0))
    w.settle(1.0)
    truth = w.truth_end()
    assert truth["n1"] == "hole" and isinstance(truth["s1"], tuple)
    sunk = min(t for t, d in w.frames if (d.where == IN_HOLE).any())
    still = min(t for t, d in w.frames if t > sunk and not (np.hypot(*d.streak.T) > 0).any())
    # n1 is called taken out (unseen for ``hole_gone``) before s1 is at rest
    assert still + TrackerConfig.rest_time - sunk > TrackerConfig.hole_gone
    log = shots(feed(_never_seen_in_the_hole(w)))
    assert [(s.seat, s.disc) for s in log] == [("north", "n1")]
    assert log[0].end["n1"] == "hole"
    end = log[0].end["s1"]
    assert isinstance(end, tuple) and np.hypot(end[0] - truth["s1"][0], end[1] - truth["s1"][1]) < 3.0
