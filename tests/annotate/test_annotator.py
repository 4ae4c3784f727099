"""What the annotated video says about each shot."""

from __future__ import annotations

from tracker import events as ev
from tracker.annotate.annotator import shot_lines, zone_shown
from tracker.boards import CrokinoleBoard


def test_each_shot_is_one_line_with_what_went_off_and_in_the_hole() -> None:
    events = [
        ev.calibrated(0.0, 0, [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]], 0.5),
        ev.shot(1.5, 38, "north", "n1", 0.4, 1.5),
        ev.off_board(1.5, 38, "s2"),
        ev.twenty(1.5, 38, "north", "n1"),
        ev.shot(4.2, 105, "south", "s1", 2.8, 4.2),
        ev.off_board(4.2, 105, "n1"),
        ev.off_board(4.2, 105, "s1"),
        ev.off_board(6.0, 150, "n2"),  # a later event of another shot: not this one's
    ]
    assert shot_lines(events) == ["north shot n1: off s2, 20 n1", "south shot s1: off n1 s1"]


def test_a_shot_with_nothing_off_is_just_who_shot() -> None:
    assert shot_lines([ev.shot(1.0, 25, "south", "s3", 0.2, 1.0)]) == ["south shot s3"]


def test_a_disc_in_the_hole_shows_20_even_measured_off_its_centre() -> None:
    board = CrokinoleBoard()
    # 6 mm off the centre: on the surface that place is in the 15 ring
    assert board.zone(6.0, 0.0, board.disc_radius) == 15
    assert zone_shown(board, "hole", 6.0, 0.0, board.disc_radius) == 20
    assert zone_shown(board, "rest", 6.0, 0.0, board.disc_radius) == 15
    assert zone_shown(board, "rest", 0.0, -150.0, board.disc_radius) == 10
