"""A shot disc last found as one blob with the disc it struck, never found at rest: its end is where
the blow was, not inside the struck disc's place (hand-made detections, board mm):
``tracker.infer.clear_of_struck``."""

from __future__ import annotations

import math

import numpy as np

from tests.infer.scenes import discs_at, feed, shots, slide_to
from tracker.boards import CrokinoleBoard
from tracker.infer.clear_of_struck import clear_of_struck
from tracker.infer.datatypes import Contact

R = 15.875  # the board's disc radius


def test_a_shot_disc_last_found_as_one_blob_with_the_disc_it_struck_ends_where_it_struck() -> None:
    """South's s1 rests at (60, 30); north's n1, flicked from the north line straight at it, is
    found on its way, then once as one blob with s1 midway between the two (the frame of the
    blow), and never again: a dark disc on a dark board (c4h_9975 at 22.5 s, e2 into n1). s1 flies
    off and is found at rest. n1 stopped where it struck, two radii from s1's place; before, its
    end was the blob, a radius from it (and n1 scored in the 15 ring for the 10 it lay in)."""
    board = CrokinoleBoard()
    line = board.shooting_line_radius
    south, s1_rest = (60.0, -math.sqrt(line ** 2 - 60.0 ** 2)), (60.0, 30.0)
    side = np.array([math.sin(math.radians(30.0)), math.cos(math.radians(30.0))])  # struck off-centre
    blow = tuple(np.add(s1_rest, 2 * R * side))  # n1's centre as it meets s1
    north = (blow[0], math.sqrt(line ** 2 - blow[0] ** 2))
    s1_off = tuple(np.subtract(s1_rest, 180.0 * side))  # s1 leaves along the line of centres
    rows: list[list[tuple[float, float]]] = []
    rows += [[south]] * 20 + [[q] for q in slide_to(south, s1_rest, 20)] + [[s1_rest]] * 40  # south: s1
    rows += [[s1_rest, north]] * 20
    rows += [[s1_rest, (blow[0], north[1] + (blow[1] - north[1]) * k / 6)] for k in range(1, 6)]  # n1 on its way
    rows += [[((s1_rest[0] + blow[0]) / 2, (s1_rest[1] + blow[1]) / 2)], []]  # the two as one blob, then none
    rows += [[q] for q in slide_to(s1_rest, s1_off, 15)[2:]] + [[s1_off]] * 40  # n1 never found again
    log = shots(feed([(k / 30.0, discs_at(*r)) for k, r in enumerate(rows)]))
    assert [s.seat for s in log] == ["south", "north"], log
    last = log[-1]
    end = last.end["n1"]
    assert isinstance(end, tuple) and math.dist(end, blow) < 3.0, last


def test_an_end_seen_at_rest_or_clear_of_the_struck_place_stays() -> None:
    """Only a place fewer than two sightings at rest back, inside the struck disc's place (which
    it left), moves; the rest stay."""
    before = {1: (0.0, 0.0), 2: (0.0, -200.0)}
    radius = {1: R, 2: R}
    contacts = [Contact(1.0, 2, 1)]
    inside = {1: (0.0, 150.0), 2: (0.0, 14.0)}
    moved = clear_of_struck(inside, before, radius, contacts, {1: 10, 2: 1})
    assert moved[1] == inside[1] and np.allclose(moved[2], (0.0, 2 * R))
    assert clear_of_struck(inside, before, radius, contacts, {1: 10, 2: 5}) == inside  # seen at rest
    clear = {1: (0.0, 150.0), 2: (0.0, 0.8 * 2 * R)}
    assert clear_of_struck(clear, before, radius, contacts, {1: 10, 2: 1}) == clear  # near the blow already
    stayed = {1: (0.0, 3.0), 2: (0.0, 14.0)}
    assert clear_of_struck(stayed, before, radius, contacts, {1: 10, 2: 1}) == stayed  # the struck disc stayed
