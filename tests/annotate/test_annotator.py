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
    assert zone_shown(board, "hole", 6.0, 0.0) == 20
    assert zone_shown(board, "rest", 6.0, 0.0) == 15
    assert zone_shown(board, "rest", 0.0, -150.0) == 10


def test_the_points_beside_a_disc_are_the_ones_the_score_counts() -> None:
    """The calibration measures a board's rings (a real board's 15 line lay 1.2 mm further out
    than the rulebook's in ricochet.mp4); the rules engine scores on its own board. A disc whose
    edge is over the rules' 15 line but inside the measured one was labelled 15 while the score
    line counted it 10."""
    import numpy as np

    from tracker.calibration.datatypes import Calibration
    from tracker.pipeline.pipeline import Pipeline
    from tracker.track.datatypes import Track

    rules = CrokinoleBoard()
    measured = rules.with_measured(fifteen_line_radius=rules.fifteen_line_radius + 1.5)
    p = Pipeline("crokinole", 2)
    calib = Calibration(homography=np.eye(3), image_size=(800, 800), rms_mm=0.0, board=measured)
    p.set_calibration(calib, np.full((800, 800, 3), 128, np.uint8))
    assert p.board == measured
    d = rules.fifteen_line_radius - rules.line_width / 2 - rules.disc_radius + 0.4  # over the rules' line
    tr = Track(id=1, kind=0, radius=rules.disc_radius - 0.5, xy=np.array([0.0, -d]))
    assert measured.zone(0.0, -d) == 15 and rules.zone(0.0, -d) == 10
    from tracker.annotate.annotator import disc_label

    assert disc_label(p, tr, "s1") == "s1 10"
    tr.state = "moving"
    assert disc_label(p, tr, "s1") == "s1"


def test_a_disc_in_the_hole_not_seen_in_a_new_view_is_not_drawn() -> None:
    """ricochet.mp4 cut to a view where the red 20 had been taken out of the hole; the tracker
    keeps a 20 unseen for a second before calling it taken out, and the annotated video showed
    "s2 20" over the empty hole all that time. A 20 sunk in this view stays drawn unseen (a black
    disc down in the dark hole is seldom found there)."""
    import numpy as np

    from tracker.annotate.annotator import draw_frame
    from tracker.calibration.datatypes import Calibration
    from tracker.pipeline.pipeline import FrameResult, Pipeline
    from tracker.track.datatypes import Track

    board = CrokinoleBoard()
    H = np.linalg.inv(np.array([[1.0, 0, 400], [0, -1.0, 400], [0, 0, 1]]))  # image -> board: 1 px a mm, centre at (400, 400)
    p = Pipeline("crokinole", 2, fps=25.0)
    blank = np.zeros((800, 800, 3), np.uint8)
    p.set_calibration(Calibration(homography=H, image_size=(800, 800), rms_mm=0.0, board=board), blank)
    curves = [np.zeros((0, 2), np.int32)]  # no board outline: only the disc is drawn
    tr = Track(id=1, kind=0, radius=board.disc_radius, xy=np.zeros(2), state="hole", last_seen=2.0)

    def drawn(t: float, view_began: float) -> int:
        img = draw_frame(blank, FrameResult(index=0, t=t, tracks=[tr]), p, curves, view_began)
        return int(np.count_nonzero(img[370:430, 370:430]))

    assert drawn(2.0, 0.0) > 0  # seen in the hole: "s1 20" drawn
    assert drawn(2.6, 0.0) > 0  # sunk in this view and not seen since: still drawn
    assert drawn(2.6, 2.04) == 0  # a new view began at 2.04 s and has not shown it: not drawn
    tr.last_seen = 2.08
    assert drawn(2.6, 2.04) > 0  # seen in the new view
    tr.state = "rest"
    tr.last_seen = 1.0
    assert drawn(2.6, 2.04) > 0  # at rest, not marked hidden: drawn
