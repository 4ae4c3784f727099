"""Naming the south seat (``geometry.orient``): the seat nearest the side of the image, and a
documented tie-break when two seats are equally near (a board seen on its diagonal)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tracker.calibration.geometry import SEAT_TIE, apply_h, orient, rotation_h

# a top-down view: board mm -> image px, board y up = image y down, centre mid-image
TOPDOWN = np.array([[1.0, 0.0, 640.0], [0.0, -1.0, 360.0], [0.0, 0.0, 1.0]])


def _south(turn_deg: float, side: str | None = None) -> np.ndarray:
    """Image point of the named south seat's shooting position, the board turned by ``turn_deg``."""
    G = TOPDOWN @ rotation_h(math.radians(turn_deg))
    H = orient(np.linalg.inv(G), (1280, 720), side)
    return apply_h(np.linalg.inv(H), np.array([[0.0, -300.0]]))[0]


def test_nearest_seat_is_south_away_from_the_diagonal() -> None:
    for turn in (0.0, 20.0, -30.0, 40.0, 50.0, 130.0):
        p = _south(turn)
        centre = np.array([640.0, 360.0])
        d = p - centre
        # no other seat lies further down (the four seats are the point turned by quarter turns)
        assert d[1] >= max(d[1], -d[0], d[0], -d[1]) - 1e-9, (turn, p)


@pytest.mark.parametrize("turn", [44.0, 45.0, 46.0, -44.5, -45.0, -45.5, 135.2])
def test_diagonal_view_names_the_bottom_left_seat(turn: float) -> None:
    """Within the tie margin of the diagonal, south is the seat clockwise on the screen of the
    bottom, the bottom-left one, whichever of the two is a hair nearer: a fit that moves by a
    fraction of a degree cannot flip the seats."""
    p = _south(turn)
    assert p[0] < 640.0 and p[1] > 360.0, (turn, p)


def test_tie_margin_is_a_couple_of_degrees() -> None:
    # 1.414 sin(theta) = SEAT_TIE at theta degrees off the diagonal
    theta = math.degrees(math.asin(SEAT_TIE / math.sqrt(2.0)))
    assert 1.0 < theta < 3.0
    # just outside it the nearer seat wins again, on either side of the diagonal
    assert _south(45.0 - theta - 0.5)[0] > 640.0
    assert _south(45.0 + theta + 0.5)[0] < 640.0


@pytest.mark.parametrize(("side", "quadrant"), [("top", (1, -1)), ("left", (-1, -1)), ("right", (1, 1))])
def test_tie_break_on_other_sides_is_clockwise_of_the_side(side: str, quadrant: tuple[int, int]) -> None:
    p = _south(45.0, side) - np.array([640.0, 360.0])
    assert np.sign(p[0]) == quadrant[0] and np.sign(p[1]) == quadrant[1], (side, p)
