"""Korona rim discs knocked away unseen (``infer.rim_gone.knocked_out_unseen``): a disc struck
along its rim into a corner pocket between frames is seen at most once as it starts and never
again. Hand-made tracks at 10 fps: the judge never looks at pixels."""

from __future__ import annotations

import numpy as np
import pytest

import tracker.infer.rim_gone as rim_gone
from tracker.boards import KoronaBoard
from tracker.infer.rim_gone import knocked_out_unseen
from tracker.track.datatypes import Sample, Track

from .resting import flicked_striker, seen_at_rest

B = KoronaBoard()
R = B.disc_radius
RIM = B.half - R  # a disc's centre against the north rim
NOW = 2.0  # when the shot is judged
T0 = 1.0  # the shot's first motion


def _disc(tid: int, x: float, y: float = RIM, until: float = NOW) -> Track:
    """A disc seen at rest at (x, y) every 0.1 s from 0 s to ``until``."""
    return seen_at_rest(tid, x, y, until)


def _striker(run: list[tuple[float, float]]) -> Track:
    """South's striker at rest at ``run[0]`` until the flick at ``T0``, then one sighting a frame
    along ``run``, then at rest at its last place until ``NOW``."""
    return flicked_striker(9, run, T0, NOW)


def _struck_unseen(tr: Track, first: tuple[float, float] | None) -> None:
    """``tr`` leaves at ``T0 + 0.1``: seen once more at ``first`` (blurred, still about its place)
    if given, then never again; the tracker has left it covered where it was last seen."""
    tr.path = [s for s in tr.path if s.t <= T0]
    if first is not None:
        tr.path.append(Sample(T0 + 0.1, first[0], first[1], True))
    last = tr.path[-1]
    tr.xy, tr.state, tr.occluded, tr.last_seen = np.array([last.x, last.y]), "rest", True, last.t


# the striker runs up at s6, 33 mm along the north rim, from the south-west: it meets it 25 degrees
# off the rim's normal, pushing it east along the rim (k2e_9953 at 21.8 s)
RUN = [(-60.0, 80.0), (-10.0, 230.0), (22.0, 376.0), (10.0, 300.0)]


def _scene(first: tuple[float, float] | None = (34.0, RIM - 0.5)) -> tuple[list[Track], dict[int, tuple[float, float]]]:
    s6, s7 = _disc(1, 33.0), _disc(2, 6.0)
    _struck_unseen(s6, first)
    s = _striker(RUN)
    tracks = [s6, s7, s]
    before = {tr.id: (tr.path[0].x, tr.path[0].y) for tr in tracks}
    return tracks, before


def test_a_rim_disc_seen_once_as_it_left_and_never_again_went_down_the_corner_it_was_struck_towards() -> None:
    """The tracker saw s6 once as the striker hit it (blurred, still in its place) and counted it
    a mover; lost, it was left covered there and its end was its place. It was never seen again
    while its row-mate is seen in place: knocked away between frames, along the rim (the blow
    came 25 degrees off the rim's normal, from the west) into the ne pocket."""
    tracks, before = _scene()
    s6 = tracks[0]
    ends = {s6.id: (float(s6.xy[0]), float(s6.xy[1])), 9: RUN[-1]}
    got = knocked_out_unseen(B, tracks, ends, 9, before, {s6.id, 9}, T0, NOW)
    assert got == {s6.id: "pocket:ne"}


def test_a_rim_disc_struck_obliquely_into_the_rim_and_never_seen_again_is_pocketed_not_off() -> None:
    """s6 never seen once the shot starts (not a mover): the blow pressed it into the rim 25
    degrees off its normal. The rim takes the part into it; the rest sends it along the rim."""
    tracks, before = _scene(first=None)
    got = knocked_out_unseen(B, tracks, {9: RUN[-1]}, 9, before, {9}, T0, NOW)
    assert got == {tracks[0].id: "pocket:ne"}


def test_a_rim_disc_struck_head_on_into_the_rim_and_never_seen_again_is_off() -> None:
    """Struck straight into the rim (the striker runs up right at it): it jumped the rim."""
    global RUN
    keep = RUN
    RUN = [(33.0, 80.0), (33.0, 230.0), (33.0, 376.0), (33.0, 300.0)]
    try:
        tracks, before = _scene(first=None)
    finally:
        RUN = keep
    got = knocked_out_unseen(B, tracks, {9: (33.0, 300.0)}, 9, before, {9}, T0, NOW)
    assert got == {tracks[0].id: "off"}


def test_a_rim_disc_found_again_along_its_rim_short_of_the_pocket_is_not_pocketed() -> None:
    """A disc first found after the shot rests against the north rim between s6's place and the
    ne pocket: s6 slid there and stopped short (korona_2p_game at 70.3 s: n5 came to rest 37 mm
    short of the sw pocket's circle, found by a new track)."""
    tracks, before = _scene()
    s6 = tracks[0]
    found = _disc(5, 300.0)
    found.born = 1.5
    found.path = [sm for sm in found.path if sm.t >= 1.5]
    ends = {s6.id: (float(s6.xy[0]), float(s6.xy[1])), 9: RUN[-1]}
    got = knocked_out_unseen(B, tracks + [found], ends, 9, before, {s6.id, 9}, T0, NOW)
    assert got == {}


def test_a_rim_disc_whose_place_another_disc_holds_now_is_not_judged_gone() -> None:
    """A disc is seen now overlapping s6's place: that is s6, its detection taken by another
    track (k2e_9941 at 21.2 s)."""
    tracks, before = _scene()
    s6 = tracks[0]
    other = _disc(6, 120.0)
    before[other.id] = (120.0, RIM)
    other.path.append(Sample(NOW, 40.0, RIM, True))
    other.xy = np.array([40.0, RIM])
    ends = {s6.id: (float(s6.xy[0]), float(s6.xy[1])), 9: RUN[-1], other.id: (40.0, RIM)}
    got = knocked_out_unseen(B, tracks + [other], ends, 9, before, {s6.id, 9, other.id}, T0, NOW)
    assert s6.id not in got


def test_a_mover_that_only_shifted_beside_a_rim_disc_knocked_nothing_away() -> None:
    """No striker came near: only s7, a row-mate, re-found 4 mm along the rim, "reached" s6 (a
    detection's shift read as a knock; k4h_9966 at 7.5 s). s6, counted a mover and lost, ends in
    its place: it is not judged knocked away."""
    s6, s7 = _disc(1, 33.0), _disc(2, 6.0)
    _struck_unseen(s6, (34.0, RIM - 0.5))
    s7.path.append(Sample(NOW, 10.0, RIM, True))
    s7.xy = np.array([10.0, RIM])
    before = {1: (33.0, RIM), 2: (6.0, RIM)}
    ends = {1: (float(s6.xy[0]), float(s6.xy[1])), 2: (10.0, RIM)}
    got = knocked_out_unseen(B, [s6, s7], ends, 99, before, {1, 2}, T0, NOW)
    assert got == {}


def test_a_row_mate_struck_out_of_the_row_away_from_a_lost_disc_knocked_nothing_away() -> None:
    """s7 leaves the north row straight into the field (off the rim, away from s6 beside it);
    the detector loses s6 with the row meanwhile and s5 is found in place again. s7 touched s6
    only where it started: running away, it knocked nothing (k4h_9606 at 22.6 s, e3 and e6
    called down two pockets)."""
    s5, s6, s7 = _disc(1, 8.0), _disc(2, 33.0), _disc(3, 58.0)
    _struck_unseen(s6, None)
    s7.path = [sm for sm in s7.path if sm.t <= T0]
    s7.path += [Sample(T0 + 0.1 * k, 58.0, RIM - 60.0 * k, True) for k in range(1, 4)]
    s7.path += [Sample(T0 + 0.1 * k, 58.0, RIM - 180.0, True) for k in range(4, 11)]
    s7.xy = np.array([58.0, RIM - 180.0])
    before = {1: (8.0, RIM), 2: (33.0, RIM), 3: (58.0, RIM)}
    got = knocked_out_unseen(B, [s5, s6, s7], {3: (58.0, RIM - 180.0)}, 99, before, {3}, T0, NOW)
    assert got == {}


def test_a_row_mate_knocked_along_the_rim_into_a_lost_disc_sends_it_on() -> None:
    """s7 knocked west along the north rim into s6 (lost since): s6 went on along the rim, and
    never seen again (s5, resting off the rim beside it, is seen in place) went down the nw
    pocket."""
    s5, s6, s7 = _disc(1, 10.0, RIM - 40.0), _disc(2, 33.0), _disc(3, 80.0)
    _struck_unseen(s6, None)
    s7.path = [sm for sm in s7.path if sm.t <= T0]
    s7.path += [Sample(T0 + 0.1 * k, 80.0 - 20.0 * k, RIM, True) for k in range(1, 3)]
    s7.path += [Sample(T0 + 0.1 * k, 40.0, RIM, True) for k in range(3, 11)]
    s7.xy = np.array([40.0, RIM])
    before = {1: (10.0, RIM - 40.0), 2: (33.0, RIM), 3: (80.0, RIM)}
    got = knocked_out_unseen(B, [s5, s6, s7], {3: (40.0, RIM)}, 99, before, {3}, T0, NOW)
    assert got == {2: "pocket:nw"}


def test_a_rim_disc_driven_straight_into_the_rim_beside_a_jittering_row_mate_went_off() -> None:
    """North's striker runs straight up at s6 (a few degrees off the rim's normal) and drives it
    over the rim; s5, touching s6 in the row, is nudged 4 mm away and its detection jitters by a
    millimetre. s5 was nearer s6 than the striker ever came, but never ran at it: the blow was
    the striker's, head-on, and s6 went off, not along the rim into the nw pocket
    (korona_2p_game at 8.0 s on the truth's detections)."""
    s5, s6, s7 = _disc(1, -12.5), _disc(2, -37.5), _disc(3, -62.5)
    _struck_unseen(s6, None)
    s5.path = [sm for sm in s5.path if sm.t <= T0]
    s5.path += [Sample(T0 + 0.1 * k, x, RIM - 1.0, True)
                for k, x in enumerate([-8.0, -9.0, -8.0, -9.0, -8.0, -8.5, -8.0, -9.0, -8.0, -8.0], start=1)]
    s5.xy = np.array([-8.0, RIM - 1.0])
    s = _striker([(-51.0, 60.0), (-45.0, 180.0), (-39.0, 300.0), (-39.0, RIM - 37.5)])
    before = {1: (-12.5, RIM), 2: (-37.5, RIM), 3: (-62.5, RIM), 9: (-51.0, 60.0)}
    ends = {1: (-8.0, RIM - 1.0), 9: (-39.0, RIM - 37.5)}
    got = knocked_out_unseen(B, [s5, s6, s7, s], ends, 9, before, {1, 9}, T0, NOW)
    assert got == {2: "off"}


def test_a_lost_rim_disc_with_a_row_mate_between_it_and_the_corner_was_only_squeezed_along() -> None:
    """s5 knocked east along the north rim into s6 (lost since with its row); s7, between s6 and
    the ne pocket before the shot, is seen again against the rim there after it, 4 mm on. s6
    cannot have slid past it along the rim into the pocket: it was squeezed along its row, where
    the detector lost it (k4h_9972 at 8.4 s: w5, called down the se pocket, and the rules refused
    the next shot, which moved it)."""
    s4, s5, s6, s7 = _disc(4, -16.0), _disc(1, 5.0), _disc(2, 33.0), _disc(3, 62.0)
    _struck_unseen(s6, None)
    s5.path = [sm for sm in s5.path if sm.t <= T0]
    s5.path += [Sample(T0 + 0.1 * k, 5.0 + 7.5 * k, RIM, True) for k in range(1, 3)]
    s5.path += [Sample(T0 + 0.1 * k, 20.0, RIM, True) for k in range(3, 11)]
    s5.xy = np.array([20.0, RIM])
    s7.path.append(Sample(NOW, 66.0, RIM, True))
    s7.xy = np.array([66.0, RIM])
    before = {1: (5.0, RIM), 2: (33.0, RIM), 3: (62.0, RIM), 4: (-16.0, RIM)}
    got = knocked_out_unseen(B, [s4, s5, s6, s7], {1: (20.0, RIM), 3: (66.0, RIM)}, 99, before, {1, 3}, T0, NOW)
    assert got == {}
    # with s7 gone from the rim between (struck into the field first), s6 may have gone on
    s4.path.append(Sample(NOW + 1e-3, -16.0, RIM, True))
    s4.last_seen = NOW + 1e-3
    s7.path.append(Sample(NOW + 1e-3, 66.0, RIM - 150.0, True))
    s7.xy = np.array([66.0, RIM - 150.0])
    got = knocked_out_unseen(B, [s4, s5, s6, s7], {1: (20.0, RIM), 3: (66.0, RIM - 150.0)}, 99, before, {1, 3}, T0,
                             NOW + 1e-3)
    assert got == {2: "pocket:ne"}


def test_a_rim_disc_knocked_off_while_its_row_mates_were_shuffled_along_the_rim_is_judged() -> None:
    """South's striker runs straight up at s6 in the north row and drives it over the rim; the
    blow shuffles s7 and s5, its row-mates either side, along the rim, where the detector finds
    them again at rest 36 and 40 mm from s6's place (clear of it: neither stands on its
    detection). No mate is seen in its own place, yet the detector has looked at the row again:
    s6, never seen since, went off (korona_ru_part at 3.6 s: s3 over the north rim, its mates
    pushed along the row; unjudged, the rules never sent it to the centre)."""
    s5, s6, s7 = _disc(1, 58.0), _disc(2, 33.0), _disc(3, 8.0)
    _struck_unseen(s6, None)
    for mate, x in ((s5, 73.0), (s7, -3.0)):
        mate.path = [sm for sm in mate.path if sm.t <= T0]
        x0 = mate.path[-1].x
        mate.path += [Sample(T0 + 0.1 * k, x0 + (x - x0) * min(k, 3) / 3, RIM, True) for k in range(1, 11)]
        mate.xy = np.array([x, RIM])
    s = _striker([(33.0, 80.0), (33.0, 230.0), (33.0, 376.0), (33.0, 300.0)])
    before = {1: (58.0, RIM), 2: (33.0, RIM), 3: (8.0, RIM), 9: (33.0, 80.0)}
    ends = {1: (73.0, RIM), 3: (-3.0, RIM), 9: (33.0, 300.0)}
    got = knocked_out_unseen(B, [s5, s6, s7, s], ends, 9, before, {1, 3, 9}, T0, NOW)
    assert got == {2: "off"}


def test_a_row_mate_shuffled_onto_a_lost_discs_place_is_no_sign_the_row_was_looked_at() -> None:
    """As above, but s7 was shuffled 10 mm, onto s6's place: it may stand on s6's detection (the
    detector found one disc there), so nothing shows the row was looked at again and s6 is not
    judged gone (korona_4p_part at 4.8 s)."""
    s5, s6, s7 = _disc(1, 58.0), _disc(2, 33.0), _disc(3, 8.0)
    _struck_unseen(s6, None)
    s5.path = [sm for sm in s5.path if sm.t <= T0]
    s5.xy, s5.state, s5.occluded, s5.last_seen = np.array([58.0, RIM]), "rest", True, T0
    s7.path = [sm for sm in s7.path if sm.t <= T0]
    s7.path += [Sample(T0 + 0.1 * k, 8.0 + 10.0 * min(k, 3) / 3 + 5.0, RIM, True) for k in range(1, 11)]
    s7.xy = np.array([23.0, RIM])
    s = _striker([(33.0, 80.0), (33.0, 230.0), (33.0, 376.0), (33.0, 300.0)])
    before = {1: (58.0, RIM), 2: (33.0, RIM), 3: (8.0, RIM), 9: (33.0, 80.0)}
    ends = {3: (23.0, RIM), 9: (33.0, 300.0)}
    got = knocked_out_unseen(B, [s5, s6, s7, s], ends, 9, before, {3, 9}, T0, NOW)
    assert 2 not in got


def _pushed_along_by_a_coasting_mate(found: list[Track]) -> dict[int, object]:
    """s7, west of s6 in the north row, is struck east and coasts unseen (the tracker's forecast)
    along the rim right through s6's place, its course 0.7 mm off s6's centre; s6, lost since
    the flick, is never seen again, and s5 is seen in place west of them (k2e_9983 at 8.4 s:
    n1 pushed 84 mm along the south rim by its neighbour)."""
    s5, s6, s7 = _disc(1, -17.0), _disc(2, 33.0), _disc(3, 8.0)
    _struck_unseen(s6, None)
    s7.path = [sm for sm in s7.path if sm.t <= T0]
    s7.path += [Sample(T0 + 0.1 * k, x, RIM - 0.7, False)
                for k, x in enumerate([17.0, 25.0, 31.0, 36.0, 38.0, 38.0], start=1)]
    s7.xy, s7.state, s7.occluded, s7.last_seen = np.array([38.0, RIM - 0.7]), "rest", True, T0
    before = {1: (-17.0, RIM), 2: (33.0, RIM), 3: (8.0, RIM)}
    return knocked_out_unseen(B, [s5, s6, s7, *found], {3: (38.0, RIM - 0.7)}, 99, before, {3}, T0, NOW)


def test_a_rim_disc_pushed_along_the_rim_by_a_mate_coasting_through_its_place_is_not_off() -> None:
    """The blow is along the line of centres where s7 touched s6 (from the west, along the rim),
    not from the nearest point of s7's course (beside s6's centre: "straight into the rim"). s6
    slid east along the rim: never found, it went down the ne pocket, not over the rim."""
    assert _pushed_along_by_a_coasting_mate([]) == {2: "pocket:ne"}


def test_a_rim_disc_pushed_along_by_a_coasting_mate_and_found_further_along_the_rim_stays() -> None:
    """A disc first found after the shot rests against the north rim east of s6's place: s6,
    slid there, is judged neither off nor pocketed."""
    found = _disc(5, 117.0)
    found.born = 1.5
    found.path = [sm for sm in found.path if sm.t >= 1.5]
    assert _pushed_along_by_a_coasting_mate([found]) == {}


def test_a_lost_rim_disc_whose_way_to_the_corner_a_disc_stands_in_is_not_pocketed(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the squeezed row above, but s7's own track is lost too and the disc seen now at rest on
    s7's place, 6.5 mm on along the rim, is held by s5's track (it took the detection, as a
    row-mate's track may take a lost disc's): a disc still stands in s6's way to the ne pocket,
    whichever track holds it, and s6 was not pocketed (k4h_10006 at 4.2 s: s7 called down the
    ne pocket, s5's track on the disc at s8's place). Without ``STAND_IN`` it was."""
    def judged() -> dict[int, object]:
        s4, s5, s6, s7 = _disc(4, -16.0), _disc(1, 5.0), _disc(2, 33.0), _disc(3, 62.0)
        _struck_unseen(s6, None)
        _struck_unseen(s7, None)
        s5.path = [sm for sm in s5.path if sm.t <= T0]
        s5.path += [Sample(T0 + 0.1, 45.0, RIM - 30.0, True)]  # jumped onto the disc at s7's place
        s5.path += [Sample(T0 + 0.1 * k, 68.0, RIM, True) for k in range(2, 11)]
        s5.xy = np.array([68.0, RIM])
        before = {1: (5.0, RIM), 2: (33.0, RIM), 3: (62.0, RIM), 4: (-16.0, RIM)}
        return knocked_out_unseen(B, [s4, s5, s6, s7], {1: (68.0, RIM)}, 99, before, {1}, T0, NOW)

    assert 2 not in judged()
    monkeypatch.setattr(rim_gone, "STAND_IN", False)
    assert judged().get(2) == "pocket:ne"
