"""20s whose flight nobody saw but for its last stretch into the hole (known-truth physics of
``tracker.track.synthetic``; a "hand" hides the discs where the camera lost them on the rendered
matches): the shot is logged, from the right seat, with its disc in the hole."""

from __future__ import annotations

import numpy as np

from tests.infer.scenes import discs_at, feed, shots
from tracker.boards import CrokinoleBoard
from tracker.track.synthetic import World

BOARD = CrokinoleBoard()
# a flick from the south shooting line that comes to a stop in the hole (the world's friction)
TO_THE_HOLE = 965.0


def _to_the_hole(hand_from: float) -> World:
    """s1 waits on the south shooting line and is flicked straight into the hole; a hand hides
    every disc centre from ``hand_from`` mm inside the line (negative: outside it) to 30 mm from
    the hole: in flight the disc is seen only on its last, slow stretch."""
    w = World(BOARD, fps=30, seed=3)
    w.place("s1", 0.0, -BOARD.shooting_line_radius)
    far, near = -BOARD.shooting_line_radius + hand_from, -30.0
    w.hand(0.0, 0.5 * (far + near), 0.5 * (near - far), 10.0)
    w.run(0.6)
    w.shoot("s1", 0.0, TO_THE_HOLE)
    w.settle(1.0)
    assert w.truth_end()["s1"] == "hole"
    return w


def test_a_twenty_seen_at_rest_on_the_line_and_then_only_by_the_hole() -> None:
    """s1 seen waiting on the line, then first again 30 mm from the hole, slowing (c4h_9703 at
    5.8 s: w1, flicked from the west line, was next seen near the hole, and the two sightings
    were joined to its track at once; the episode began with the first of them, left the flick
    out, and read as a hand's nudge at 226 mm/s: the 20 was lost)."""
    w = _to_the_hole(hand_from=20.0)
    assert max(float(np.hypot(*d.streak[0])) * w.fps for t, d in w.frames if len(d) and t > 0.6
               and float(np.hypot(*d.xy[0])) > BOARD.hole_radius) < 350.0  # seen only slow
    log = shots(feed(w.frames))
    assert [(s.seat, s.end.get(s.disc)) for s in log] == [("south", "hole")]


def test_a_twenty_never_seen_on_the_line() -> None:
    """s1 hidden by the hand on the line and on its way, seen only on its last stretch into the
    hole (c4h_9703 at 12.8 s: e1, twice within 21 mm of the hole, then in it: "motion with no
    disc that rested before it", and the 20 was lost). Its course, run back, meets the south
    shooting line."""
    w = _to_the_hole(hand_from=-20.0)
    log = shots(feed(w.frames))
    assert [(s.seat, s.end.get(s.disc)) for s in log] == [("south", "hole")]
    start = log[0].start
    assert start is not None and abs(float(np.hypot(*start)) - BOARD.shooting_line_radius) < 1.0
    assert BOARD.seat_of(*start) == "south"


def test_a_disc_put_by_the_hole_and_nudged_in_is_no_shot() -> None:
    """A disc first seen at rest beside the hole (put down by a hand) and nudged in slowly: it
    rested before it moved, so it is no shot nobody saw."""
    w = World(BOARD, fps=30, seed=3)
    w.run(0.3)
    w.place("s1", 0.0, -30.0)
    w.run(0.6)
    w.shoot("s1", 0.0, 330.0)
    w.settle(1.0)
    assert w.truth_end()["s1"] == "hole"
    assert shots(feed(w.frames)) == []


def test_a_disc_seen_once_on_the_line_as_it_is_flicked_is_the_shot_disc() -> None:
    """s1, hidden under the hand on the south line until the moment it is flicked, is seen there
    once and then on its way: it strikes n1 (north's) and drives it on (c2h_9702 at 13.6 s: s3's
    single sighting on the line began its track, so it had no rest place before the episode;
    the motion was judged from n2, the disc it struck, "not where a shot starts", and lost)."""
    w = World(BOARD, fps=30, seed=4)
    w.place("n1", -70.0, 60.0, cls=1)
    start = np.array([-78.0, -BOARD.shooting_line_radius + 10.0])
    w.place("s1", *start, cls=0)
    w.hand(*start, 30.0, 0.59)  # off the disc one frame before the flick
    w.run(0.6)
    v = np.array([-70.0, 60.0 - 31.0]) - start
    w.shoot("s1", *(v / np.hypot(*v) * 1400.0))
    w.settle(1.0)
    assert any({a, b} == {"s1", "n1"} for _, a, b in w.contacts)
    seen = [t for t, d in w.frames if t < 0.6 + 1e-6 and len(d) == 2]
    assert len(seen) == 1  # s1 seen once at rest
    log = shots(feed(w.frames))
    assert len(log) == 1 and log[0].seat == "south"
    assert log[0].contacts[0] == (log[0].disc, "n1")


def test_a_find_first_seen_as_the_shot_began_is_not_a_disc_it_struck() -> None:
    """North's n1 is shot; then south's s1 rests on its line, and as it is flicked the detector
    finds something at rest by the line for two frames (the shooter's fingers) while s1 is
    first seen again well on its way. The find rested nowhere before the motion began: it is no
    disc the shot struck, and no shot of its own is logged for it (crokinole_2p_round at 55.9 s,
    replayed on an earlier detector's finds)."""
    fps, line = 10.0, BOARD.shooting_line_radius
    frames = []
    for k in range(90):
        n1 = (0.0, line) if k <= 5 else (-15.0 * min(k - 5, 4), line - 51.0 * min(k - 5, 4))
        rows = [n1]
        if k <= 50:
            rows.append((0.0, -line))
        elif k == 51:
            rows.append((0.0, -200.0))  # a lone sighting in flight
        else:
            j = min(k - 52, 4)
            rows.append((0.0, -110.0 + 20.0 * j - 2.0 * j * j))
        if k in (51, 52):
            rows.append((45.0, -268.0))  # the fingers, found as a disc at rest
        frames.append((k / fps, discs_at(*rows)))
    log = shots(feed(frames))
    assert [s.seat for s in log] == ["north", "south"], log
    assert set(log[1].end) == {log[1].disc}
