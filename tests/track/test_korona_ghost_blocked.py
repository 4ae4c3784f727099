"""Korona: a ghost (a disc knocked away unseen) is not found beyond a disc resting across its way.

k2e_9983 at 26.9-27.9 s (30 fps), the detector's finds by the north rim (the south player's
row): the striker comes up the board and knocks s6 (resting at (42.5, 411.5)) east along the rim,
by a blow forecast 65 degrees off into the field; s6 strikes s7 (resting 30 mm east) and stops
by its place, at (76.7, 409.9); s7 runs on east and comes to rest at (165.5, 410.2). Before, s6's
ghost took s7's first find beyond s6's place ((106.8, 411.5): 28 mm "ahead" along the forecast
course) while s7's track, resting there, took s6's find by its own place: the two swapped names.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.track.korona_frames import KB, names_through
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track.association import BIG
from tracker.track.datatypes import Track
from tracker.track.ghost_course import across_rest, behind_blow
from tracker.track.tracker import Tracker, TrackerConfig

D, S = DISC, STRIKER
REST = [(-107.4, 411.5, D), (125.4, 412.0, D), (19.0, 391.4, D), (72.5, 411.7, D), (42.5, 411.5, D),
        (-68.1, 412.1, D), (-40.0, 411.3, D)]
END = [(-85.2, 411.3, D), (76.7, 409.9, D), (-47.1, 410.9, D), (44.9, 383.1, S), (-19.5, 396.5, D)]
FRAMES: list[list[tuple[float, float, int]]] = [
    *[REST] * 8,
    [*REST, (-15.4, -18.2, S)],
    [*REST, (-13.0, 32.1, S)],
    REST,
    [*REST, (-2.3, 128.0, S)],
    [*REST, (3.5, 173.2, S)],
    [*REST, (8.4, 219.7, S)],
    [*REST, (13.5, 264.9, S)],
    [*REST, (18.5, 305.6, S)],  # 27.167
    [(-107.4, 411.5, D), (125.4, 412.0, D), (72.5, 411.7, D), (42.5, 411.5, D), (-68.1, 412.1, D),
     (-40.0, 411.3, D), (19.5, 393.0, D), (22.4, 349.1, S)],
    [(-107.4, 411.5, D), (125.4, 412.0, D), (-68.1, 412.1, D), (-39.9, 411.2, D), (49.3, 410.0, D),
     (78.7, 411.5, D), (28.8, 374.2, S)],
    [(-82.8, 411.6, D), (125.1, 412.0, D), (-15.2, 409.0, D), (-44.5, 411.3, D), (36.5, 379.9, S)],
    [(-85.2, 411.3, D), (75.5, 410.2, D), (140.9, 411.4, D), (-17.1, 403.4, D), (106.8, 411.5, D),
     (-47.1, 410.7, D), (40.7, 381.4, S)],  # 27.300: s7's first find beyond s6's place
    [(-85.2, 411.3, D), (164.2, 411.3, D), (119.0, 411.9, D), (77.6, 410.1, D), (-17.8, 400.0, D),
     (-47.1, 410.9, D), (43.7, 382.5, S)],
    [(-85.2, 411.3, D), (128.9, 411.6, D), (183.6, 411.1, D), (76.7, 409.9, D), (-18.2, 397.3, D),
     (-47.1, 410.9, D), (44.9, 383.1, S)],
    [*END, (202.7, 411.5, D), (138.8, 410.9, D)],  # 27.400
    [*END, (220.8, 409.7, D), (145.9, 411.3, D)],
    [*END, (236.7, 410.5, D), (153.0, 410.5, D)],
    [*END, (252.8, 410.2, D), (158.3, 410.4, D)],
    [*END, (267.6, 410.2, D), (162.0, 410.7, D)],
    [*END, (164.3, 410.6, D), (279.6, 410.4, D)],
    *[[*END, (165.5, 410.2, D), (x, 410.0, D)] for x in (291.1, 301.2, 309.6, 318.1, 322.7, 326.7, 331.9, 333.4)],
    *[[*END, (165.5, 410.2, D), (334.6, 409.4, D)]] * 12,
]


def _names(cfg: TrackerConfig) -> tuple[tuple[int, int], tuple[int, int]]:
    """(s6, s7) track ids before the blow and at rest after it."""
    return names_through(cfg, FRAMES, 26.667, 7, ((42.5, 411.5), (72.5, 411.7)), ((76.7, 409.9), (165.5, 410.2)))


def test_a_ghost_does_not_take_a_find_beyond_a_disc_resting_in_its_way() -> None:
    """s6's name does not ride s7 to its rest (main before: s6's ghost took s7's find at 27.30 s
    and its name came to rest at (165.5, 410.2); s7's took s6's place: a swap). Left: s7's
    track, resting unseen at 27.27 s, still takes s6's find 3 mm from its place at 27.30 s (the
    first stage), so s7's run starts a new track (in the full match it is joined to another
    disc's track: the replay's switch count is 0 there, as with ``ghost_ahead`` off)."""
    before, after = _names(TrackerConfig())
    assert -1 not in before and before[0] != before[1]
    assert after[1] not in before  # s7's rest place: neither s6's name nor s7's
    off_before, off_after = _names(replace(TrackerConfig(), ghost_ahead=False))
    assert (off_before, off_after[1] in off_before) == (before, False)  # as with the ghost left out


def test_across_rest_is_a_disc_on_the_straight_run() -> None:
    tk = Tracker(KB)
    r = KB.disc_radius
    ghost = Track(id=6, kind=DISC, radius=r, xy=np.array([50.7, 394.5]), v=np.array([256.0, -620.0]), state="moving",
                  rest_xy=(42.5, 411.5), last_seen=27.233)
    s7 = Track(id=7, kind=DISC, radius=r, xy=np.array([72.5, 411.7]), anchor=np.array([72.5, 411.7]), anchor_n=50)
    tk.tracks += [ghost, s7]
    tk._ghosts.add(6)
    tk._t_now = 27.3
    p = np.array([42.5, 411.5])
    assert across_rest(tk, ghost, p, np.array([106.8, 411.5]))  # beyond s7 along the rim
    assert not across_rest(tk, ghost, p, np.array([58.6, 375.4]))  # into the field, clear of s7
    assert not across_rest(tk, ghost, p, np.array([62.0, 411.0]))  # short of s7's place
    dets = Detections(xy=np.array([[106.8, 411.5], [58.6, 375.4]]), kind=np.array([DISC, DISC]))
    out = behind_blow(tk, [ghost, s7], [0], dets, [0, 1])
    assert out[0, 0] >= BIG and out[0, 1] == 0.0
    s7.state = "moving"  # a disc no longer resting there is in nobody's way
    assert not across_rest(tk, ghost, p, np.array([106.8, 411.5]))
