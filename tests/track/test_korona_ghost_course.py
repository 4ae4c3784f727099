"""Korona: a disc knocked away unseen (a ghost) is found again off its blow's forecast course,
and its unseen coast strikes the resting disc in its way instead of running on through it.

k2e_9995 at 22.3-23.0 s (30 fps), the detector's finds by the north rim: the striker comes up
the board and strikes s3 (resting at (-41, 373)) a glancing blow west; s3 goes unseen for two
frames (a ghost whose forecast course, from the striker's blurred heading, runs 33 degrees
south of the true one at half its speed), is seen once at (-114, 385), then strikes s2 (resting
against the rim at (-140, 412)); both go unseen, s2 is found coming back off the rim (-154,
405), s3 only three frames later at (-201, 346). Truth at rest: s3 (-280, 301), s2 (-184, 373).
Before, the one sight of s3 started a tentative track that took s2's next find and was merged
into s3's ghost: s3's name rode s2 to the rim, and s2's track, left covered at its place, took
s3's finds (an identity switch)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.track.korona_frames import KB, names_through
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track.association import BIG
from tracker.track.datatypes import Sample, Track
from tracker.track.ghost_course import behind_blow, may_seek
from tracker.track.hidden_blows import coast_into_disc
from tracker.track.tracker import Tracker, TrackerConfig

D, S = DISC, STRIKER
RIGHT = [(-12.3, 412.6, D), (15.3, 413.7, D), (43.9, 413.5, D)]  # the row east of the blow, pushed a little
REST = [(-12.6, 412.3, D), (-139.6, 411.8, D), (-181.7, 410.2, D), (-40.7, 372.5, D), (68.9, 413.3, D),
        (39.8, 412.6, D), (13.1, 412.4, D)]
S1 = (-182.2, 410.2, D)  # s1, west of s2: not struck
FRAMES: list[list[tuple[float, float, int]]] = [
    *[REST] * 8,
    [*REST, (56.4, 330.8, S)],
    [*REST, (33.6, 353.3, S)],
    [(-139.6, 411.8, D), (-181.7, 410.2, D), (68.9, 413.3, D), (-40.7, 372.6, D), (40.1, 412.7, D),
     (-12.5, 412.6, D), (9.8, 374.0, S)],
    [(-139.6, 411.8, D), (-181.7, 410.2, D), (44.0, 413.2, D), (-12.3, 412.6, D), (15.3, 413.7, D), (-11.7, 358.7, S)],
    [(-139.6, 411.8, D), (-181.7, 410.2, D), *RIGHT, (-27.0, 342.7, S)],
    [(-181.7, 410.2, D), *RIGHT, (-139.7, 412.1, D), (-41.0, 329.6, S), (-113.8, 385.4, D)],
    [(-181.7, 410.2, D), *RIGHT, (-55.1, 315.6, S)],
    [*RIGHT, (-182.4, 409.8, D), (-153.7, 405.2, D), (-66.9, 303.6, S)],
    [*RIGHT, (-161.1, 393.0, D), (-78.5, 293.0, S)],
    [*RIGHT, (-167.2, 388.2, D), (-89.7, 281.8, S)],
    [*RIGHT, (-182.2, 409.8, D), (-172.5, 383.1, D), (-200.7, 346.1, D), (-99.0, 272.3, S)],
    [*RIGHT, (-182.0, 409.7, D), (-176.5, 380.6, D), (-213.7, 337.9, D), (-108.1, 263.4, S)],
    [*RIGHT, S1, (-225.3, 331.6, D), (-180.8, 376.8, D), (-115.7, 255.7, S)],
    [*RIGHT, S1, (-236.5, 325.4, D), (-181.9, 374.7, D)],
    [*RIGHT, S1, (-244.6, 320.6, D), (-183.3, 373.9, D)],
    [*RIGHT, S1, (-183.3, 373.9, D), (-253.2, 315.4, D)],
    [*RIGHT, S1, (-183.3, 373.9, D), (-260.1, 311.6, D)],
    [*RIGHT, S1, (-183.3, 373.9, D), (-266.4, 308.1, D)],
    [*RIGHT, S1, (-183.3, 373.9, D), (-272.0, 305.8, D)],
    [*RIGHT, S1, (-183.3, 373.9, D), (-275.8, 302.8, D)],
    [*RIGHT, S1, (-183.3, 373.9, D), (-278.3, 301.8, D)],
    *[[*RIGHT, S1, (-183.3, 373.9, D), (-279.6, 300.8, D)]] * 3,
]


def _names(cfg: TrackerConfig) -> tuple[tuple[int, int], tuple[int, int]]:
    """(s3, s2) track ids before the blow and at rest after it."""
    return names_through(cfg, FRAMES, 21.9, 7, ((-40.7, 372.5), (-139.6, 411.8)), ((-279.6, 300.8), (-183.3, 373.9)))


def test_a_ghost_seen_off_its_forecast_course_keeps_its_name() -> None:
    before, after = _names(TrackerConfig())
    assert -1 not in before and before[0] != before[1]
    assert after == before


def test_either_alone_loses_it() -> None:
    """As before (both off), and with either alone: the coast alone runs s3 on through s2's place
    unseen but s3's one sight still starts a new track; the wide stage alone lets s3 take that
    sight but its coast then runs through s2 and takes s2's finds."""
    for coast, ahead in ((False, False), (True, False), (False, True)):
        before, after = _names(replace(TrackerConfig(), korona_coast_blow=coast, ghost_ahead=ahead))
        assert after != before, (coast, ahead)


def test_a_ghost_is_not_found_behind_its_place() -> None:
    """A ghost knocked east is not offered a find west of where it lay (k2e_9911 at 35.83 s)."""
    tk = Tracker(KB)
    ghost = Track(id=7, kind=DISC, radius=KB.disc_radius, xy=np.array([0.0, 402.0]), v=np.array([512.0, -185.0]),
                  state="moving", rest_xy=(-18.4, 408.9), last_seen=0.0)
    tk.tracks.append(ghost)
    tk._ghosts.add(7)
    tk._t_now = 0.1
    dets = Detections(xy=np.array([[-121.0, 409.0], [30.0, 395.0]]), kind=np.array([DISC, DISC]))
    out = behind_blow(tk, [ghost], [0], dets, [0, 1])
    assert out[0, 0] >= BIG and out[0, 1] == 0.0
    assert may_seek(tk, ghost)
    tk._t_now = 0.3  # unseen 0.3 s: its forecast has drifted, not in the wide stage at all
    assert not may_seek(tk, ghost)
    tk._t_now = 0.1
    tk.tracks.append(Track(id=8, kind=DISC, radius=KB.disc_radius, xy=np.array([6.5, 408.9]), anchor=np.array([6.5, 408.9]),
                           anchor_n=50))
    assert not may_seek(tk, ghost)  # knocked from a row


def _coast(neighbour: tuple[float, float] | None) -> tuple[np.ndarray, np.ndarray] | None:
    """s3's unseen coast at k2e_9995 22.47 s into s2 resting against the north rim, with one
    more disc resting at ``neighbour``."""
    tk = Tracker(KB)
    r = KB.disc_radius
    s2 = Track(id=1, kind=DISC, radius=r, xy=np.array([-139.6, 411.8]), anchor=np.array([-139.6, 411.8]), anchor_n=50)
    s3 = Track(id=2, kind=DISC, radius=r, xy=np.array([-113.8, 385.4]), v=np.array([-700.0, 150.0]), state="moving",
               rest_xy=(-40.6, 372.5))
    tk.tracks += [s2, s3]
    if neighbour is not None:
        tk.tracks.append(Track(id=3, kind=DISC, radius=r, xy=np.array(neighbour), anchor=np.array(neighbour), anchor_n=50))
    return coast_into_disc(tk, s3, 22.467, 1 / 30)


def test_an_unseen_coast_strikes_a_free_korona_disc_but_not_a_row() -> None:
    free = _coast((-181.7, 410.2))  # s1, 42 mm away: s2 is free
    assert free is not None and free[1][0] > -700.0  # turned by the blow, slowed along x
    assert _coast((-164.6, 411.8)) is None  # a disc touching s2: a row passes the blow on


def test_a_mover_last_seen_overlapping_a_disc_does_not_strike_it() -> None:
    """k2e_9953 at 18.83 s: n6, covered, took n4's find 53 mm away (15 mm from n4's place):
    its one-step course "struck" n4 from inside it."""
    tk = Tracker(KB)
    r = KB.disc_radius
    n4 = Track(id=1, kind=DISC, radius=r, xy=np.array([18.9, -394.2]), anchor=np.array([18.9, -394.2]), anchor_n=50)
    n6 = Track(id=2, kind=DISC, radius=r, xy=np.array([13.1, -379.6]), v=np.array([441.0, -1846.0]), state="moving",
               rest_xy=(-38.9, -411.3), path=[Sample(18.833, 13.1, -379.6)])
    tk.tracks += [n4, n6]
    assert coast_into_disc(tk, n6, 18.867, 1 / 30) is None
    n6.path = [Sample(18.833, 13.1, -355.0)]  # last seen clear of n4: its coast strikes it
    assert coast_into_disc(tk, n6, 18.867, 1 / 30) is not None
