"""A crokinole shot whose disc is found only on the last stretch of its way, coming to rest in the
open (hand-made detections, board mm): ``tracker.infer.landed_unseen``."""

from __future__ import annotations

import math

from tests.infer.scenes import discs_at, feed, shots, slide_to
from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections

R = 15.875  # the board's disc radius


def _scene(seen_from: float) -> tuple[list[tuple[float, Detections]], tuple[float, float], tuple[float, float]]:
    """South's s1 shot to rest off to the side; north's n1, set on the north line, found there
    once (a lone find under the player's hand), missed in flight, and found again only within
    ``seen_from`` mm of where it stops, 14 mm from the centre (c4h_9945 at 27.1 s: east's dark
    e2 on the dark board). The frames, n1's rest place and where it was flicked from."""
    board = CrokinoleBoard()
    line = board.shooting_line_radius
    south, s1_rest = (60.0, -math.sqrt(line ** 2 - 60.0 ** 2)), (-120.0, -60.0)
    north, n1_rest = (-40.0, math.sqrt(line ** 2 - 40.0 ** 2)), (-2.0, 14.0)
    rows: list[list[tuple[float, float]]] = []
    rows += [[south]] * 20 + [[q] for q in slide_to(south, s1_rest, 20)] + [[s1_rest]] * 40  # south: s1
    rows += [[s1_rest]] * 10 + [[s1_rest, north]] + [[s1_rest]] * 10  # n1 on the line, found once
    rows += [[s1_rest, q] if math.dist(q, n1_rest) <= seen_from else [s1_rest]
             for q in slide_to(north, n1_rest, 20)]
    rows += [[s1_rest, n1_rest]] * 40
    return [(k / 30.0, discs_at(*r)) for k, r in enumerate(rows)], n1_rest, north


def test_a_disc_first_found_as_it_slows_to_a_stop_in_the_open_was_shot() -> None:
    """North's shot is logged, by n1, from the north line, ending where n1 came to rest. Before,
    the motion had "no disc that rested before it": the shot was lost and n1 never named."""
    frames, rest, north = _scene(seen_from=35.0)
    log = shots(feed(frames))
    assert [s.seat for s in log] == ["south", "north"], log
    last = log[-1]
    end = last.end[last.disc]
    assert last.disc == "n1" and isinstance(end, tuple) and math.dist(end, rest) < 1.0, last
    assert math.dist(last.start, north) < 3.0, last  # from where it waited on the north line


def test_a_disc_set_down_on_the_shooting_line_is_no_shot() -> None:
    """A disc found only at rest on the shooting line (a hand set it down there, its way in
    unseen) is no shot: the hands put discs there."""
    board = CrokinoleBoard()
    line = board.shooting_line_radius
    south, s1_rest = (60.0, -math.sqrt(line ** 2 - 60.0 ** 2)), (-120.0, -60.0)
    north = (-40.0, math.sqrt(line ** 2 - 40.0 ** 2))
    near = (-42.0, north[1] - 20.0)
    rows: list[list[tuple[float, float]]] = []
    rows += [[south]] * 20 + [[q] for q in slide_to(south, s1_rest, 20)] + [[s1_rest]] * 40
    rows += [[s1_rest, near], [s1_rest, north]] + [[s1_rest, north]] * 40
    log = shots(feed([(k / 30.0, discs_at(*r)) for k, r in enumerate(rows)]))
    assert [s.seat for s in log] == ["south"], log


def test_two_finds_in_flight_never_seen_at_rest_are_no_shot() -> None:
    """Two finds 18 mm apart on two frames, sliding in near the centre and never seen again (a
    hand's fingers reaching for the 20: c2e_10207 at 3.3 s) are kept at rest by the tracker
    where they were lost, unseen there: no disc was seen landing, so no shot (it was read as
    south's, and the phantom disc made north's next shots fouls)."""
    board = CrokinoleBoard()
    line = board.shooting_line_radius
    south, s1_rest = (60.0, -math.sqrt(line ** 2 - 60.0 ** 2)), (-120.0, -60.0)
    rows: list[list[tuple[float, float]]] = []
    rows += [[south]] * 20 + [[q] for q in slide_to(south, s1_rest, 20)] + [[s1_rest]] * 40  # south: s1
    rows += [[s1_rest, (-36.9, -11.3)], [s1_rest, (-34.7, 6.6)]] + [[s1_rest]] * 60  # the fingers
    p = feed([(k / 30.0, discs_at(*r)) for k, r in enumerate(rows)])
    assert [s.seat for s in shots(p)] == ["south"], shots(p)
