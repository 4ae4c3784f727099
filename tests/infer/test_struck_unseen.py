"""A crokinole shot disc first seen only as it strikes a disc at rest (hand-made detections, board
mm): ``tracker.infer.struck_unseen.struck_by_unseen``."""

from __future__ import annotations

import math

from tests.infer.scenes import discs_at, feed, shots, slide_to
from tracker.boards import CrokinoleBoard

FPS = 30.0
R = 15.875  # the board's disc radius


def test_a_shot_disc_first_seen_striking_a_disc_is_the_shot_disc() -> None:
    """South's second disc (black on a dark board) is never seen on the shooting line, and in
    flight only once, 45 mm short of north's disc at rest, then as it stops against it; north's
    disc sets off away from it and stops past the shooting line (c4h_9951 at 17.3 s). It is
    south's shot that hit an opponent: north's disc comes off for the shooting line. Before, the
    struck disc was taken for the shot disc: a foul, both discs to the ditch, and the removal
    never judged."""
    board = CrokinoleBoard()
    x = 60.0  # every run along x = 60 mm, clear of the hole
    y = math.sqrt(board.shooting_line_radius ** 2 - x * x)
    south, north = (x, -y), (x, y)
    s1_end, s1_knocked = (x, 30.0), (100.0, -150.0)
    n1_end = (x, 30.0 + 2 * R + 0.5)  # stops against s1, s1 knocked away
    s2_seen, s2_end = (x, n1_end[1] - 2 * R - 45.0), (x, n1_end[1] - 2 * R - 0.5)
    n1_out = (x, math.sqrt(325.0 ** 2 - x * x))  # 325 mm out: past the shooting line
    frames: list[list[tuple[float, float]]] = []
    frames += [[south]] * 20 + [[q] for q in slide_to(south, s1_end, 20)] + [[s1_end]] * 30  # south: s1
    frames += [[s1_end, north]] * 20 + [[s1_end, q] for q in slide_to(north, n1_end, 20)]  # north: n1 hits s1
    frames += [[q, n1_end] for q in slide_to(s1_end, s1_knocked, 15)] + [[s1_knocked, n1_end]] * 30
    frames += [[s1_knocked, n1_end, s2_seen], [s1_knocked, n1_end]]  # south: s2, seen once in flight
    frames += [[s1_knocked, s2_end, q] for q in slide_to(n1_end, n1_out, 20)] + [[s1_knocked, s2_end, n1_out]] * 40
    p = feed([(k / FPS, discs_at(*rows)) for k, rows in enumerate(frames)])
    log = shots(p)
    assert [s.seat for s in log] == ["south", "north", "south"], log
    last = log[-1]
    end = last.end[last.disc]
    assert isinstance(end, tuple) and math.dist(end, s2_end) < 3.0
    removed = [e for e in p.events if e.type == "removed"]
    assert [(e.data.get("disc"), e.data.get("reason")) for e in removed] == [(log[1].disc, "shooting_line")], removed
