"""Korona: a striker carried by a hand and set down in the open (``set_down_by_hand``) is no shot,
even when rim-row discs far from it are measured a few mm off their places meanwhile, or when it
is flicked again from where it was set down before the episode is judged. The runs are the
measured samples of the rendered matches' striker tracks (k4h_9996 at 5.4 s, k4h_9942 at 35.7 s)."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER
from tracker.infer.start_places import lines_up_with_its_rest, set_down_by_hand
from tracker.track.datatypes import Sample, Track

B = KoronaBoard()
FAST = 350.0  # the segmenter's shot speed (mm/s)


def _striker(state: str, at: tuple[float, float]) -> Track:
    tr = Track(id=24, kind=STRIKER, radius=B.striker_radius, xy=np.array(at), born=0.0)
    tr.state = state  # type: ignore[assignment]
    return tr


def _disc(i: int, at: tuple[float, float]) -> Track:
    return Track(id=i, kind=DISC, radius=B.disc_radius, xy=np.array(at), born=0.0)


def test_a_striker_set_down_while_far_rim_discs_jitter_is_no_shot() -> None:
    """k4h_9996 at 5.4 s: south's striker, carried at 2.4 m/s to north's line and set down dead at
    (-149, -320), was logged as a north shot: four discs of the north row, 700 mm away from where
    it stopped, were measured 10 mm off their places (a rim row's finds jitter), read as discs
    it struck. Only a disc within reach of where it stopped could have stopped it."""
    run = np.array([[5.40, -287.0, 387.0], [5.43, -288.0, 391.0], [5.90, -195.0, -91.0],
                    [5.93, -181.0, -172.0], *[[6.27 + 0.033 * k, -149.0, -320.0] for k in range(20)]])
    s = _striker("rest", (-149.0, -320.0))
    row = [_disc(10 + k, (-60.0 + 25.0 * k, 412.0)) for k in range(4)]
    paths = {s.id: run} | {d.id: np.array([[5.5, d.xy[0], d.xy[1]], [5.6, d.xy[0] + 10.0, d.xy[1]]])
                           for d in row}
    before = {s.id: (-287.0, 387.0)} | {d.id: (float(d.xy[0]), float(d.xy[1])) for d in row}
    assert set_down_by_hand(B, s, paths, [s, *row], before, FAST)
    # a disc it stopped against, by where it stopped, that moved: it struck it (a shot)
    hit = _disc(30, (-149.0, -320.0 - B.striker_radius - B.disc_radius))
    paths[hit.id] = np.array([[6.27, -149.0, -350.0], [6.4, -149.0, -400.0]])
    before[hit.id] = (-149.0, -320.0 - B.striker_radius - B.disc_radius)
    assert not set_down_by_hand(B, s, paths, [s, *row, hit], before, FAST)


def test_a_striker_set_down_and_flicked_again_before_the_judgement_is_no_shot() -> None:
    """k4h_9942 at 35.7 s: west's striker, carried at 2.1 m/s from the east rim to west's line at
    (-320, 249) and set down dead, rested there a second and was flicked again (the next shot)
    before the episode was judged: moving then, its carry was logged as an east shot. Its run up
    to where it was set down is the carry's."""
    run = np.array([[34.90, 386.0, 0.0], [35.20, 384.0, 0.0], [35.67, -115.0, 193.0], [35.70, -184.0, 214.0],
                    [35.73, -251.0, 236.0], *[[36.03 + 0.033 * k, -320.0, 249.0] for k in range(30)],
                    [37.03, -305.0, 236.0], [37.07, -275.0, 212.0], [37.10, -242.0, 187.0]])
    s = _striker("moving", (-242.0, 187.0))
    assert set_down_by_hand(B, s, {s.id: run}, [s], {s.id: (386.0, 0.0)}, FAST)
    # one that slid on from its line and never stopped: no set-down place, judged as a shot
    slid = np.array([[0.0, -320.0, 0.0], [0.1, -200.0, 0.0], [0.2, -90.0, 0.0], [0.3, 10.0, 0.0]])
    assert not set_down_by_hand(B, s, {s.id: slid}, [s], {s.id: (-320.0, 0.0)}, FAST)


def _carried(run: list[tuple[float, float, float]]) -> Track:
    tr = Track(id=40, kind=STRIKER, radius=B.striker_radius, xy=np.array(run[-1][1:]), born=0.0)
    tr.path.extend(Sample(t, x, y, True) for t, x, y in run)
    return tr


def test_a_striker_carried_off_from_its_own_place_was_not_put_down_elsewhere() -> None:
    """k4h_10106 at 15.5 s: north's striker, at rest mid-board at (-190, -185) after its shot, is
    carried off over the north rim under a hand and first seen 500 mm on at (-126, 321) and
    (-118, 379). A "disc" in south's rim zone at (-54, -372), covered by the hand, was taken for
    it put down and flicked from there (a south shot, striker off). Its line runs back through
    its own place, 170 mm wide of that one."""
    rest, put = (-190.0, -185.0), (-54.0, -372.0)
    tr = _carried([(14.9, *rest), (15.03, *rest), (15.5, -126.0, 321.0), (15.53, -118.0, 379.0)])
    assert lines_up_with_its_rest(B, tr, put, rest, 15.53)
    # flicked from where it was put down: its line runs back through that place
    flicked = _carried([(14.9, *rest), (15.03, *rest), (15.5, -62.0, -250.0), (15.53, -63.0, -200.0)])
    assert not lines_up_with_its_rest(B, flicked, put, rest, 15.53)
