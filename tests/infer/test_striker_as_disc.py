"""Korona: a resting striker the detector reads as a disc (its groove's ring is disc-sized) is
still the shot's start, so the shot is its seat's (hand-made detections, board mm).

k2e_9205: south's striker waits at (50, -320) read as a disc; it is not seen on its way, and is
first seen as a striker near the north rim. The shot was taken to start where the striker was
first seen, and logged as north's (3.1 s); later (17.1 s) the striker left by the last shot at
(50, 278) was lifted unseen, south's striker was put down at (100, -321) read as a disc, and the
flicked striker, first seen passing (50, 278), was taken for the one left there."""

from __future__ import annotations

import numpy as np

from tests.infer.scenes import shots
from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.pipeline import Pipeline
from tracker.rules.korona.setup import standard_setup
from tracker.shotlog import Shot

KB = KoronaBoard()
FPS = 30.0
LAB = {"south": (59.0, 10.0, 28.0), "north": (77.0, 4.0, 8.0), "striker": (40.0, 0.0, 0.0)}
GROOVE = 13.4  # mm: the ring in a striker's top, as the detector fits it at rest
Row = tuple[tuple[float, float], str, int]  # (where, colour, kind)


def _frame(rows: list[Row]) -> Detections:
    return Detections(xy=np.array([xy for xy, _, _ in rows], float).reshape(-1, 2),
                      radius=np.array([KB.striker_radius if k == STRIKER else (GROOVE if c == "striker" else
                                                                              KB.disc_radius) for _, c, k in rows]),
                      kind=np.array([k for _, _, k in rows], int),
                      color=np.array([LAB[c] for _, c, _ in rows], float).reshape(-1, 3))


def _line(a: tuple[float, float], b: tuple[float, float], n: int) -> list[tuple[float, float]]:
    return [(a[0] + (b[0] - a[0]) * i / (n - 1), a[1] + (b[1] - a[1]) * i / (n - 1)) for i in range(n)]


def _review(striker: list[Row | None]) -> list[Shot]:
    """The setup's rows all along, and per frame the striker's detection (or none)."""
    return _review_rows([[s] if s is not None else [] for s in striker])


def _review_rows(extra: list[list[Row]]) -> list[Shot]:
    """The setup's rows all along, and per frame the detections ``extra``."""
    discs = [(xy, owner, DISC) for owner, xy in standard_setup(2, 8, KB).discs.values()]
    p = Pipeline("korona", 2)
    p.start_tracking(KB)
    for k, rows in enumerate(extra):
        p.process_detections(_frame(discs + rows), k / FPS, k)
    p.finish()
    return shots(p)


def _seq(kind: int, pts: list[tuple[float, float]]) -> list[Row | None]:
    return [(xy, "striker", kind) for xy in pts]


def test_a_striker_read_as_a_disc_and_first_seen_in_flight_is_shot_from_where_it_waited() -> None:
    """k2e_9205 at 3.1 s, its striker's detections frame by frame (30 fps). The flight is a new
    track, and the shot is read from rest states (``unseen.unseen_shot``): the "disc" where
    south's striker waited vanished, and the striker first seen in flight came to rest on
    north's striking line, where a hand sets a striker to be shot (with
    ``TrackerConfig.striker_rings`` it keeps its striker track there, read as its groove's
    ring: no striker vanished, and it was no "fresh" track; the motion had "no disc that rested
    before it")."""
    frames = ([None] * 63 + _seq(DISC, [(50.0, -321.0)] * 30)  # put down; at rest, its groove
              + [None] * 14  # flicked, and unseen on its way up
              + _seq(STRIKER, [(72.0, 373.0), (64.0, 363.0), (56.0, 354.0), (49.0, 346.0), (43.0, 339.0),
                               (37.0, 333.0)])  # back off the north rim
              + _seq(DISC, [(32.0, 329.0), (29.0, 325.0), (29.0, 325.0)] + [(24.0, 320.0)] * 90))
    shots = _review(frames)
    assert [s.seat for s in shots] == ["south"]
    assert shots[0].start is not None and abs(shots[0].start[1] + 320.0) < 5.0, shots[0].start


def test_a_striker_put_down_unseen_as_a_disc_is_the_shot_not_the_one_lifted_before() -> None:
    """k2e_9205 at 17.1 s, its striker's detections frame by frame (30 fps)."""
    frames = (_seq(STRIKER, [(50.0, 278.0)] * 30)  # where the last shot left it
              + _seq(DISC, [(53.0, 293.0)] * 30) + [None] * 7  # read as a disc, then lifted
              + _seq(DISC, [(100.0, -321.0)] * 30)  # put down behind south's line, read as a disc
              + _seq(STRIKER, [(101.0, -316.0)]) + [None] * 10  # flicked, unseen on its way up
              + _seq(STRIKER, [(60.0, 218.0), (60.0, 262.0), (56.0, 298.0), (53.0, 337.0), (49.0, 376.0),
                               (49.0, 366.0), (49.0, 354.0), (49.0, 343.0), (49.0, 333.0), (49.0, 325.0),
                               (49.0, 318.0)])
              + _seq(DISC, [(50.0, 314.0), (50.0, 310.0)] + [(50.0, 306.0)] * 90))
    shots = _review(frames)
    assert [s.seat for s in shots] == ["south"], [(s.seat, s.start) for s in shots]


def test_a_striker_waiting_on_its_line_and_unseen_in_flight_is_shot_from_there() -> None:
    """k4h_9506 at 7.2 s: south's striker, set with its centre on south's striking line
    (y = -320), read 0.9 mm past it into the field; the detector sees it at rest on a few frames
    only, not at all on its way, and first again 1.1 s later near the north rim, slowing to rest.
    The flight was a new track, so the shot is read from rest states: the striker vanished from
    where it waited, on its line, and turned up away from every rim zone."""
    frames = (_seq(STRIKER, [(223.0, -319.1)] * 20) + [None] * 32
              + _seq(STRIKER, _line((-194.0, 239.0), (-236.0, 297.0), 8)) + _seq(STRIKER, [(-236.0, 297.0)] * 90))
    shots = _review(frames)
    assert [s.seat for s in shots] == ["south"], [(s.seat, s.start) for s in shots]
    assert shots[0].start is not None and np.hypot(shots[0].start[0] - 223.0, shots[0].start[1] + 320.0) < 5.0
    end = shots[0].end.get("S")
    assert isinstance(end, tuple) and np.hypot(end[0] + 236.0, end[1] - 297.0) < 3.0


def test_a_striker_slid_by_hand_from_mid_board_to_a_striking_line_is_no_shot() -> None:
    """k4h_9306 at 10.4 s: west's striker, left mid-board by west's shot, is slid by a hand at
    ~2000 mm/s to west's striking line. It starts far in front of every striking line (more
    than a striker's radius), where no shot starts: no shot (it was logged as south's)."""
    frames = (_seq(STRIKER, [(183.0, -236.0)] * 30)
              + _seq(STRIKER, _line((176.0, -217.0), (-315.0, 247.0), 8)) + _seq(STRIKER, [(-319.0, 249.0)] * 90))
    assert _review(frames) == []


def test_a_striker_set_on_its_line_by_hand_from_against_the_rim_is_no_shot() -> None:
    """korona_2p_game at 73.7 s: south's striker, laid against the south rim (its centre 400 mm
    out: touching the rim, no finger gets behind it to flick it), is set on south's striking
    line by a hand at ~850 mm/s: no shot."""
    frames = (_seq(STRIKER, [(196.0, -400.0)] * 30) + [None] * 5
              + _seq(STRIKER, [(205.0, -346.0)] + [(126.0, -324.0)] * 90))
    assert _review(frames) == []


def test_a_striker_carried_to_the_far_line_while_a_waiting_disc_is_covered_is_no_shot() -> None:
    """The same scene, but the striker first seen moving is carried: first seen by the north
    rim, it runs 100 mm in 0.1 s (1000 mm/s) and stops dead on north's striking line, in far
    less room than a free slide needs (``ends.stopped_by_hand``): a hand set it there, while
    another covered the "disc" where south's striker waits. No shot, though the "disc"
    vanished and a new striker came to rest on a striking line."""
    frames = ([None] * 63 + _seq(DISC, [(50.0, -321.0)] * 30) + [None] * 14
              + _seq(STRIKER, _line((100.0, 384.0), (24.0, 320.0), 4) + [(24.0, 320.0)] * 90))
    assert _review(frames) == []


def test_a_striker_carried_off_past_a_covered_waiting_disc_is_no_shot() -> None:
    """k4h_9924 at 31.4 s, turned to south's side: a false striker find rests mid-board at
    (-5, -144) (it was a disc there); a false "disc" rests by the south rim at (-84, -366), where
    a striker waits. A hand carries a striker fast (2200 mm/s) off the board over the south rim;
    the false striker takes it up, first seen on its way at (68, -238), and the "disc" is covered
    as it passes. The run comes back towards the "disc", in the open: the striker was not put
    down there and flicked (``unseen.striker_put_down``), it started mid-board: no shot (a
    south shot with the striker off the board was logged)."""
    waiting: Row = ((-84.0, -366.0), "striker", DISC)
    phantom: Row = ((-5.0, -144.0), "striker", STRIKER)
    run = [(68.0, -238.0), (80.0, -310.0), (91.0, -381.0), (102.0, -450.0)]
    frames = ([[waiting, phantom]] * 40 + [[waiting]] * 8 + [[]] * 7
              + [[(xy, "striker", STRIKER)] for xy in run] + [[]] * 90)
    assert _review_rows(frames) == []
