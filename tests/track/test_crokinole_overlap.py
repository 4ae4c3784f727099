"""Crokinole: a mover lost as it strikes a resting disc does not take that disc's finds: not the
first, on its place behind the mover's run (two discs cannot overlap: ``overlap.
mover_on_rest_place``, ``TrackerConfig.crokinole_no_overlap``), nor the next, as far again along
the disc's first step off its place (``prediction.leaving``, ``TrackerConfig.leaving_ahead``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.track.crokinole_frames import BOARD, FPS, R
from tracker.detect.datatypes import Detections
from tracker.track import Tracker, TrackerConfig

Find = tuple[float, float, float] | tuple[float, float, float, tuple[float, float]]

# c2h_10208 at 19.13-20.3 s (30 fps), the detector's finds near the middle (x, y, radius, blur;
# no colour: the sides' were 42 Lab apart there, a penalty only): north's n1 (30.6, 62.5) and n3
# (-70.2, 33.7, beside a peg) at rest; south's s4, flicked up the board, strikes s2 (126.9, -97.1),
# runs on north-west, is found 10 mm off on a blurred frame (19.33 s), strikes n3 at 19.34 s and
# goes unseen for three frames while n3, knocked off the peg, is found 11 mm south-east of its
# place (19.40 s), then 8 mm further. Truth at rest after: n3 at (-40.1, 10.7), s4 at (9.0, 157.2).
N1, N3, S2 = (30.6, 62.5, 17.6), (-70.2, 33.7, 17.3), (126.9, -97.1, 16.4)
S2_AT = [(117.9, -102.2, 15.9, (39.0, 22.0)), (144.5, -81.7, 15.7), (154.7, -71.3, 15.9),
         (160.8, -61.5, 17.5), None, (180.8, -43.9, 17.0), (187.7, -35.8, 17.2),
         (190.7, -30.4, 17.5), (196.6, -25.5, 17.4), (202.6, -21.5, 16.0),
         (206.4, -17.1, 16.3), (207.3, -15.1, 17.4), (208.9, -13.5, 16.7),
         (209.2, -12.9, 16.3), *[(209.4, -12.8, 16.3)] * 22]
N3_AT = [*[N3] * 7, (-69.2, 32.5, 16.7), (-61.2, 26.7, 17.1), (-54.8, 21.9, 17.7),
         (-49.9, 18.1, 17.5), (-45.9, 15.1, 17.5), (-42.9, 12.7, 17.5), (-41.0, 11.5, 17.5),
         (-40.2, 10.7, 17.5), *[(-40.1, 10.8, 17.5)] * 21]
S4_AT = [None, None, None, (32.1, -39.8, 15.9, (11.0, 1.0)), (11.1, -18.3, 15.9, (11.0, 1.0)),
         (-13.2, 2.7, 15.9), (-27.7, 31.1, 15.9, (9.0, 21.0)), None, None, None,
         (-20.0, 84.6, 17.9), (-14.5, 98.3, 16.7), (-9.5, 108.7, 16.7), (-4.8, 119.4, 17.0),
         (-2.4, 128.4, 17.4), (1.3, 136.8, 16.9), (3.3, 143.3, 16.9), (5.9, 149.3, 16.4),
         (7.3, 152.3, 16.9), (8.3, 154.9, 17.5), (8.9, 156.5, 17.7),
         *[(9.1, 157.3, 16.8)] * 15]
T0 = 19.1333  # the first frame of ``S2_AT``; before it, 20 frames of the three discs at rest
FRAMES: list[list[Find]] = [*[[N1, N3, S2]] * 20,
                            *[[N1, *(f for f in fs if f is not None)] for fs in zip(N3_AT, S2_AT, S4_AT, strict=True)]]
BLOW = 26  # the frame s4 is found beside n3, before it strikes (19.33 s)


def _frame(finds: list[Find]) -> Detections:
    return Detections(xy=np.array([f[:2] for f in finds], float), radius=np.array([f[2] for f in finds], float),
                      streak=np.array([f[3] if len(f) > 3 else (0.0, 0.0) for f in finds], float))  # type: ignore[misc]


def _near(tk: Tracker, at: tuple[float, float]) -> int:
    """The id of the live track nearest ``at`` within a radius, else -1."""
    live = [tr for tr in tk.tracks if tr.alive and float(np.hypot(*(tr.position() - np.asarray(at)))) <= R]
    return live[0].id if live else -1


def _names(cfg: TrackerConfig) -> tuple[tuple[int, int], tuple[int, int]]:
    """(n3, s4) track ids as s4 nears n3 and at rest after the blow."""
    tk = Tracker(BOARD, cfg)
    before = (-1, -1)
    for k, finds in enumerate(FRAMES):
        tk.update(_frame(finds), T0 + (k - 20) / FPS)
        if k == BLOW:
            before = (_near(tk, (-70.2, 33.7)), _near(tk, (-27.7, 31.1)))
    return before, (_near(tk, (-40.1, 10.7)), _near(tk, (9.0, 157.2)))


def test_a_mover_lost_as_it_strikes_does_not_take_the_struck_disc_finds() -> None:
    before, after = _names(TrackerConfig())
    assert -1 not in before and before[0] != before[1]
    assert after == before  # n3 and s4 kept their names


def test_either_rule_alone_leaves_the_two_names_swapped() -> None:
    """Without the no-overlap rule s4's track took n3's first find off its place (as before);
    without the step ahead it took the next, 19 mm from n3's place, beyond its gate."""
    for cfg in (replace(TrackerConfig(), crokinole_no_overlap=False), replace(TrackerConfig(), leaving_ahead=False)):
        before, after = _names(cfg)
        assert -1 not in before
        assert after == (before[1], before[0])
