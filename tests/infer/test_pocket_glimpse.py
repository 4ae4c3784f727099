"""Korona rim discs pushed down a corner pocket along their row and seen only as a lone glimpse in
the pocket's mouth (``infer.pocket_glimpse``). Hand-made tracks at 10 fps: a north row of eight
touching discs, struck at its west end by south's striker; the detector loses the row as it is
struck (k4h_9996 at 3.6 s), and the row's east end runs along the rim into the ne pocket, found
once on its way."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, IN_POCKET, STRIKER, Detections
from tracker.infer.datatypes import End
from tracker.infer.pocket_glimpse import glimpsed_pockets, glimpses, mouth_of
from tracker.infer.segmenter import ShotSegmenter
from tracker.track.datatypes import Sample, Track

from .resting import flicked_striker, seen_at_rest

B = KoronaBoard()
R = B.disc_radius
RIM = B.half - R  # a disc's centre against the north rim
T0 = 1.0  # the striker's flick
NOW = 2.5  # when the shot is judged
ROW = [-87.5 + 2 * R * k for k in range(8)]  # s1 (west end) .. s8 (east end), touching
GLIMPSE = (1.4, 330.0, RIM - 8.0)  # s8 found once on its way into the ne pocket
S1_END = (-77.0, 381.0)


def _disc(tid: int, x: float, y: float = RIM, until: float = NOW) -> Track:
    """A disc seen at rest at (x, y) every 0.1 s from 0 s to ``until``."""
    return seen_at_rest(tid, x, y, until)


def _covered(tr: Track, since: float = T0) -> None:
    """``tr`` unseen from ``since`` on: the tracker holds it covered where it rested."""
    tr.path = [s for s in tr.path if s.t <= since]
    tr.state, tr.occluded, tr.last_seen = "rest", True, tr.path[-1].t


def _moved(tr: Track, to: tuple[float, float]) -> None:
    """``tr`` knocked at ``T0`` to ``to``, seen there from then on."""
    tr.path = [s for s in tr.path if s.t <= T0] + [Sample(T0 + k / 10, *to, True) for k in range(1, 16)]
    tr.xy, tr.last_seen = np.array(to), tr.path[-1].t


def _striker(run: list[tuple[float, float]]) -> Track:
    """South's striker at rest at ``run[0]`` until ``T0``, then one sighting a frame along ``run``,
    then at rest at its last place until ``NOW``."""
    return flicked_striker(99, run, T0, NOW)


# the striker runs up the board from south's line into s1, the row's west end
RUN = [(-25.0, -320.0), (-55.0, -57.0), (-86.0, 216.0), (-103.0, 372.0), (-210.0, 398.0), (-290.0, 393.0)]


def _scene() -> tuple[list[Track], dict[int, tuple[float, float]], set[int], dict[int, End]]:
    """The row struck: s1 knocked off the rim, s2..s8 covered since the blow."""
    row = [_disc(k + 1, x) for k, x in enumerate(ROW)]
    _moved(row[0], S1_END)
    for tr in row[1:]:
        _covered(tr)
    s = _striker(RUN)
    before = {tr.id: (tr.path[0].x, tr.path[0].y) for tr in [*row, s]}
    moved = {row[0].id, s.id}
    ends: dict[int, End] = {row[0].id: S1_END, s.id: RUN[-1]}
    return [*row, s], before, moved, ends


def test_the_far_end_of_a_struck_row_glimpsed_in_the_pocket_mouth_went_down_that_pocket() -> None:
    """The blow ran along the row to s8, which slid along the rim into the ne pocket, found once
    66 mm from its centre: no mover came near s8, but the row it ended was struck."""
    tracks, before, moved, ends = _scene()
    assert glimpsed_pockets(B, tracks, ends, 99, before, moved, T0, [GLIMPSE]) == {8: "pocket:ne"}


def test_without_a_glimpse_the_covered_row_is_left_to_the_detector() -> None:
    tracks, before, moved, ends = _scene()
    assert glimpsed_pockets(B, tracks, ends, 99, before, moved, T0, []) == {}


def test_a_disc_found_resting_in_the_mouth_after_the_glimpse_stopped_there() -> None:
    """A disc seen at rest beside the glimpse since: the row's end stopped short of the pocket."""
    tracks, before, moved, ends = _scene()
    found = _disc(20, 352.0)
    found.born = 1.6
    found.path = [s for s in found.path if s.t >= 1.6]
    assert glimpsed_pockets(B, [*tracks, found], ends, 99, before, moved, T0, [GLIMPSE]) == {}


def test_a_row_nothing_struck_sends_nothing_down() -> None:
    """The striker ran up the middle of the board and stopped; s1 never moved: the row was only
    lost by the detector, and the glimpse is no disc of it."""
    tracks, before, _, _ = _scene()
    tracks[0].path = [Sample(k / 10, ROW[0], RIM, True) for k in range(int(NOW * 10) + 1)]
    tracks[0].xy = np.array([ROW[0], RIM])
    s = _striker([(0.0, -320.0), (0.0, -100.0), (0.0, 20.0), (0.0, 60.0)])
    tracks[-1] = s
    before[s.id] = (0.0, -320.0)
    got = glimpsed_pockets(B, tracks, {s.id: (0.0, 60.0)}, 99, before, {s.id}, T0, [GLIMPSE])
    assert got == {}


def test_a_pocket_the_tracker_already_called_is_not_called_twice() -> None:
    tracks, before, moved, ends = _scene()
    ends[8] = "pocket:ne"
    assert glimpsed_pockets(B, tracks, ends, 99, before, moved, T0, [GLIMPSE]) == {}


def test_a_row_end_whose_track_took_its_strikers_detection_in_its_place_went_down() -> None:
    """s8 found again 5 mm from its place after the blow (its track took s7's detection: s7,
    pushed along the rim into s8, stopped where s8 was, and s8 carried the blow on into the
    pocket; k4h_9984 at 35.1 s): a disc glimpsed beyond s8 cannot have passed it along the rim."""
    tracks, before, moved, ends = _scene()
    s8 = tracks[7]
    _moved(s8, (ROW[7] - 4.0, RIM - 3.0))
    s8.state, s8.occluded = "rest", False
    moved.add(s8.id)
    ends[s8.id] = (ROW[7] - 4.0, RIM - 3.0)
    assert glimpsed_pockets(B, tracks, ends, 99, before, moved, T0, [GLIMPSE]) == {8: "pocket:ne"}


def test_a_glimpse_on_the_row_side_of_its_end_is_not_beyond_it() -> None:
    """A detection in the nw pocket's mouth, behind the row's west end (the way the striker
    came): nothing of the row was pushed that way."""
    tracks, before, moved, ends = _scene()
    assert glimpsed_pockets(B, tracks, ends, 99, before, moved, T0, [(1.4, -330.0, RIM - 8.0)]) == {}


def test_glimpses_are_detections_in_a_pocket_mouth_no_track_on_the_board_took() -> None:
    """The pipeline keeps as glimpses a detection in the mouth that no track took, or that a
    disc down that pocket long unseen took (the tracker lets it see a disc within its pocket's
    circle); not one a live track took, nor a striker, nor one in the open."""
    down = _disc(50, 395.0, 395.0, until=0.3)
    down.state = "pocket"
    live = _disc(51, -350.0, RIM)
    dets = Detections(xy=np.array([[330.0, 405.0], [369.0, 406.0], [-350.0, RIM], [0.0, 0.0], [-390.0, -405.0]]),
                      radius=np.full(5, R), kind=np.array([DISC, DISC, DISC, DISC, STRIKER]),
                      where=np.array([0, IN_POCKET, 0, 0, 0]))
    got = glimpses(B, dets, np.array([-1, 50, 51, -1, -1]), [down, live], 1.4)
    assert got == [(1.4, 330.0, 405.0), (1.4, 369.0, 406.0)]
    down.path.append(Sample(1.37, 395.0, 395.0, True))  # seen down there a frame before: itself
    assert glimpses(B, dets, np.array([-1, 50, 51, -1, -1]), [down, live], 1.4) == [(1.4, 330.0, 405.0)]
    assert mouth_of(B, 0.0, RIM) is None


def _at(tr: Track, t: float, x: float, y: float, state: str = "rest") -> None:
    tr.xy, tr.last_seen, tr.occluded = np.array([x, y]), t, False
    if state == "moving" and tr.state == "rest":
        tr.rest_xy = (float(tr.path[-1].x), float(tr.path[-1].y))
    tr.state = state  # type: ignore[assignment]
    tr.path.append(Sample(t, x, y, True))
    if state == "rest":
        tr.anchor, tr.anchor_n = tr.xy.copy(), 1


def test_the_segmenter_judges_the_glimpsed_row_end_down_the_pocket() -> None:
    """Frame by frame at 10 fps: the striker is flicked at 1.0 s into s1; the detector loses the
    whole row at once and never finds it by the shot's end (the segmenter waits for it in vain:
    ``rim_wait``); the pipeline keeps one glimpse in the ne pocket's mouth at 1.4 s. The shot is
    logged with s8 down the ne pocket, and nothing else of the row judged gone."""
    seg = ShotSegmenter(B)
    row = [Track(id=k + 1, kind=DISC, radius=R, xy=np.array([x, RIM]), born=0.0) for k, x in enumerate(ROW)]
    s = Track(id=99, kind=STRIKER, radius=B.striker_radius, xy=np.array(RUN[0]), born=0.0)
    records = []
    for k in range(45):
        t = round(k / 10, 3)
        for tr in row:
            if t <= T0:
                _at(tr, t, float(tr.xy[0]), RIM)
            else:
                tr.occluded = True
        if t <= T0:
            _at(s, t, *RUN[0])
        elif t < T0 + 0.6:
            _at(s, t, *RUN[min(int(round((t - T0) * 10)), len(RUN) - 1)], "moving")
        else:
            _at(s, t, *RUN[-1])
        if abs(t - GLIMPSE[0]) < 1e-6 and seg.in_shot:
            seg.glimpses.append(GLIMPSE)
        got, _ = seg.update([*row, s], t, k)
        records += got
    assert [r.disc for r in records] == [99]
    assert {i: e for i, e in records[0].ends.items() if i != 99} == {8: "pocket:ne"}
