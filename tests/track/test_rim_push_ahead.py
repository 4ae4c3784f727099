"""Korona: a resting disc that a mover's forecast drives over the rim within the frame comes back
off the rim, so its detection a little back from its place, against the push, is its own, even
when it rested a few mm short of the rim (``TrackerConfig.rim_push_ahead``,
``prediction.pushed_into_rim``).

The detector's finds on the south half of k2e_10105 (1280x720), frames 380-398 (12.67-13.27 s):
south's striker drives s7 (resting at (50, 375)) north into s6 (at (34, 409), 3.6 mm short of the
rim as measured) and the rim. s7 is missed on the frame of the blow; the next frame s6 is found
11 mm back from its place, driven into the rim and come back, and s7 at (67, 408) on its way east
along the rim. s6's forecast (from s7's unseen course) lay over the rim, and without the rebound
s6 was refused its own find: s7's track took it, s6's ran off the board (called off) and s7's run
along the rim became a new disc, whose pocket at 17.5 s then went to nobody.
"""

from __future__ import annotations

from tests.track.korona_frames import Frame, names_through
from tracker.track.tracker import TrackerConfig

T0 = 380 / 30
# (x, y, kind) per frame; kind 1: the striker
ROW = [(104.3, 387.8, 0), (-59.5, 411.4, 0), (50.3, 375.2, 0), (-20.6, 411.7, 0), (34.1, 409.0, 0), (6.8, 412.5, 0),
       (-276.6, 411.9, 0), (-130.4, 411.4, 0)]
STRIKER = [None, None, None, (77.9, 49.9), None, (70.9, 132.9), (68.3, 183.1), (66.0, 223.2), (62.6, 263.6),
           (60.5, 304.6)]
FRAMES: list[Frame] = [ROW + ([] if s is None else [(s[0], s[1], 1)]) for s in STRIKER] + [
    [(104.3, 387.8, 0), (-59.5, 411.4, 0), (-20.6, 411.7, 0), (6.8, 412.5, 0), (-276.6, 411.9, 0),
     (-130.4, 411.4, 0), (32.2, 409.4, 0), (58.2, 340.8, 1)],
    [(-276.6, 411.9, 0), (-130.4, 411.4, 0), (104.3, 387.8, 0), (3.7, 411.1, 0), (-64.4, 411.0, 0),
     (-35.8, 411.7, 0), (67.3, 407.8, 0), (31.4, 397.8, 0), (58.1, 364.0, 1)],
    [(-276.6, 411.9, 0), (-130.7, 411.2, 0), (-90.5, 411.5, 0), (23.5, 395.3, 0), (106.0, 386.5, 0),
     (-9.8, 411.6, 0), (-37.9, 411.7, 0), (63.0, 376.6, 1)],
    [(-276.6, 411.9, 0), (25.1, 390.3, 0), (-12.6, 411.5, 0), (-138.9, 410.8, 0), (-106.0, 411.6, 0),
     (113.7, 409.2, 0), (110.0, 375.5, 0), (67.3, 383.2, 1)],
    [(-276.6, 411.9, 0), (-12.6, 411.5, 0), (24.4, 387.1, 0), (113.6, 362.2, 0), (-82.6, 411.3, 0),
     (-160.0, 411.5, 0), (-117.0, 411.8, 0), (135.9, 403.9, 0), (70.5, 388.0, 1)],
    [(-276.6, 411.9, 0), (-12.6, 411.5, 0), (118.6, 350.1, 0), (25.0, 384.6, 0), (-82.8, 411.2, 0),
     (157.6, 398.9, 0), (-181.3, 411.0, 0), (-142.1, 410.8, 0), (73.3, 392.3, 1)],
    [(-276.6, 411.9, 0), (-12.6, 411.5, 0), (-82.8, 411.2, 0), (25.6, 384.2, 0), (122.6, 339.1, 0),
     (177.3, 394.9, 0), (-201.1, 412.1, 0), (-165.0, 411.6, 0), (75.1, 395.2, 1)],
    [(-276.6, 411.9, 0), (-12.6, 411.5, 0), (-82.8, 411.2, 0), (25.6, 384.2, 0), (196.1, 391.6, 0),
     (127.7, 328.9, 0), (-220.3, 410.8, 0), (-187.6, 411.3, 0), (76.4, 397.2, 1)],
    [(-12.6, 411.5, 0), (-82.8, 411.2, 0), (25.6, 384.2, 0), (213.3, 387.4, 0), (130.1, 321.0, 0),
     (-276.9, 411.7, 0), (-207.3, 410.5, 0), (-238.0, 411.5, 0), (77.1, 397.5, 1)],
]
BEFORE = ((34.1, 409.0), (50.3, 375.2))  # s6, s7 at rest before the blow
AFTER = ((25.6, 384.2), (213.3, 387.4))  # s6 come back off the rim, s7 on its way east along it


def _ids(on: bool) -> tuple[tuple[int, int], tuple[int, int]]:
    return names_through(TrackerConfig(rim_push_ahead=on), FRAMES, T0, 9, BEFORE, AFTER)


def test_the_disc_driven_over_the_rim_keeps_its_find_come_back_off_it() -> None:
    before, after = _ids(True)
    assert -1 not in before, before
    assert after == before, (before, after)


def test_without_it_the_striking_disc_took_the_struck_discs_find() -> None:
    before, after = _ids(False)
    assert -1 not in before, before
    assert after[0] == before[1], (before, after)  # s7's track on s6's place
    assert after[1] != before[1], (before, after)
