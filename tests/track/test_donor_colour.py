"""A resting disc hidden by an arm is not taken for "knocked away" by finds of the arm itself:
a disc knocked away unseen keeps its colour (``merge.unlike_blurred``). Hand-made detections in
board mm, with the colours (CIE Lab) measured on c2h_9702 at 15.4 s: s3, light on a light board,
was covered by the arm reaching for n2, whose dark skin the detector found twice on its way,
190 mm off; s3 was taken to have been knocked there."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

BOARD = CrokinoleBoard()
LIGHT, BOARD_LIGHT = (84.6, -0.8, 34.7), (69.8, 4.8, 37.0)  # s3's top face, the board around it
S3 = (-75.0, 28.0)


def _dets(*finds: tuple[tuple[float, float], tuple[float, float, float], tuple[float, float, float]]) -> Detections:
    """Discs found at (place, colour, surround colour)."""
    if not finds:
        return Detections.empty()
    return Detections(xy=np.array([f[0] for f in finds], float), radius=np.full(len(finds), 15.9),
                      color=np.array([f[1] for f in finds], float), surround=np.array([f[2] for f in finds], float))


def _run(find_colour: tuple[float, float, float]) -> tuple[Tracker, int]:
    """s3 rests for a second, is hidden for 0.4 s while two finds of ``find_colour`` run north
    140 mm from it at 1400 mm/s, then is seen in place again. Returns the tracker and s3's track."""
    fps = 30.0
    tk = Tracker(BOARD)
    s3 = (S3, LIGHT, BOARD_LIGHT)
    arm = {34: ((-4.0, 156.0), find_colour, (55.2, 4.9, 32.1)), 35: ((1.0, 202.0), find_colour, (54.0, 6.1, 32.6))}
    first = -1
    for k in range(90):
        t = k / fps
        hidden = 30 <= k < 42
        tk.update(_dets(*([arm[k]] if k in arm else [])) if hidden else _dets(s3), t)
        if first < 0 and tk.tracks:
            first = tk.tracks[0].id
    return tk, first


def test_an_arm_found_as_discs_does_not_carry_off_a_hidden_disc() -> None:
    tk, s3 = _run((16.6, 6.0, 13.0))  # the dark skin of the arm
    tr = tk.get(s3)
    assert tr is not None and tr.state == "rest"
    assert np.hypot(*(np.array(tr.position()) - S3)) < 2.0
    assert all(o.id == s3 or o.state != "rest" or np.hypot(*(np.array(o.position()) - S3)) > 20.0 for o in tk.tracks)


def test_a_find_of_the_hidden_discs_colour_may_still_be_it_knocked_away() -> None:
    """The same finds in s3's colour, blurred over the board: s3 knocked away unseen (the
    tracker's donor join still stands for a disc of its colour)."""
    tk, s3 = _run((78.0, 2.0, 36.0))
    tr = tk.get(s3)
    assert tr is not None
    assert any(np.hypot(sm.x - 1.0, sm.y - 202.0) < 2.0 for sm in tr.path if sm.measured)
