"""Korona, stage 2: a resting disc does not jump to a detection beyond another disc resting across
its way there; that disc, unseen in its place, takes it (``TrackerConfig.korona_passed_on``,
``passed_on``).

The detector's finds of korona_2p_game (10 fps) at 12.8-14.3 s, after the south row seen at rest:
south's striker drives s6 into the row along the north rim; s7 (at (70, 412)) strikes s8 (at
(117, 413), 47 mm east), which is next found at (165, 406). Neither s7 nor s8 is seen in flight, and
no mover came near s8, so only s7 (a row-mate of a struck disc) could jump: it took s8's find
through s8's place, and s8, lost where it rested, was called off the board.
"""

from __future__ import annotations

from tests.track.korona_frames import Frame, names_through
from tracker.track.tracker import TrackerConfig

S8, S7 = (116.9, 413.2), (70.0, 412.0)
# the south row as the tracker last saw it at rest (s1..s5, s7), with s6 and s8
ROW: Frame = [(-88.0, 412.0, 0), (-63.0, 412.0, 0), (-38.0, 412.0, 0), (-13.0, 412.0, 0), (9.0, 411.0, 0),
              (*S7, 0), (*S8, 0), (42.6, 397.8, 0)]
SEEN: Frame = [(*S8, 0), (42.6, 397.8, 0)]  # the row lost by the detector
STRIKER = [(72.3, -177.8), (67.1, -24.4), (63.8, 115.0), (62.5, 244.2)]
FRAMES: list[Frame] = [ROW] * 10 + [SEEN] * 7 + [[*SEEN, (x, y, 1)] for x, y in STRIKER] + [
    [(*S8, 0)],
    [(75.3, 363.5, 1)],
    [(-37.7, 368.4, 0)],
    [(164.8, 406.0, 0), (-189.9, 414.1, 0), (-61.5, 361.9, 0), (105.3, 348.7, 1)],
    [(164.8, 406.0, 0), (105.3, 348.7, 1), (-72.6, 356.9, 0)],
]
T0 = 11.8


def _ids(on: bool) -> tuple[tuple[int, int], tuple[int, int]]:
    return names_through(TrackerConfig(korona_passed_on=on), FRAMES, T0, 9, (S8, S7), ((164.8, 406.0), S7),
                         fps=10.0)


def test_the_struck_disc_takes_the_find_beyond_it() -> None:
    before, after = _ids(True)
    assert -1 not in before, before
    assert after == before, (before, after)  # s8's track on s8's find, s7's left where it rested


def test_without_it_the_disc_behind_took_it_through_the_struck_discs_place() -> None:
    before, after = _ids(False)
    assert -1 not in before, before
    assert after[0] == before[1] and after[1] == -1, (before, after)  # s7's track on s8's find
