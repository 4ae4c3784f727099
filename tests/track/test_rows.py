"""Identities through blows at low frame rates, on detections with known truth: a row of
touching korona discs pushed along in one frame, two discs running one behind the other, a
disc lost in blur with a stray detection behind it, and a 20 taken out of the hole."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import DISC, IN_HOLE, Detections
from tracker.track import Tracker

KB = KoronaBoard()
CB = CrokinoleBoard()


def dets(points: list[tuple[float, float]], where: list[int] | None = None) -> Detections:
    if not points:
        return Detections.empty()
    a = np.array(points, float)
    return Detections(xy=a, kind=np.full(len(a), DISC), where=np.array(where or [0] * len(a)))


def _ids_at(tr: Tracker, points: list[tuple[float, float]]) -> list[int]:
    """The track nearest each point (within 3 mm), or -1."""
    out = []
    for p in points:
        best = min(tr.tracks, key=lambda x: float(np.hypot(*(x.xy - np.array(p)))))
        out.append(best.id if float(np.hypot(*(best.xy - np.array(p)))) < 3.0 else -1)
    return out


def test_a_row_pushed_along_in_one_frame_keeps_its_identities() -> None:
    """Four touching discs stand in a row along the west rim (korona_4p_part at 22 s). A blow
    nobody saw coming (the hitter was not detected that frame) pushes the far three along the
    row by 6 to 21 mm: the third disc's detection falls in the fourth one's rest gate and the
    fourth one's in none; the last two run on one behind the other, a frame's run apart.
    Every disc must keep its own identity, frame after frame."""
    x = -412.0
    frames = [
        [(x, 13.0), (x, 38.0), (x, 63.0), (x, 91.0)],
        [(x + 5, 13.0), (x + 7, 44.0), (x, 84.0), (x, 111.0)],
        [(x + 5, 13.0), (x + 8, 45.0), (x + 1, 126.0), (x, 152.0)],
        [(x + 5, 13.0), (x + 8, 45.0), (x + 1, 157.0), (x, 184.0)],
        [(x + 5, 13.0), (x + 8, 45.0), (x + 2, 176.0), (x, 204.0)],
        [(x + 5, 13.0), (x + 8, 45.0), (x + 2, 184.0), (x, 211.0)],
    ]
    tr = Tracker(KB)
    for k in range(6):  # at rest first
        tr.update(dets(frames[0]), 0.1 * k)
    ids = _ids_at(tr, frames[0])
    assert len(set(ids)) == 4 and -1 not in ids
    for k, pts in enumerate(frames[1:], start=6):
        tr.update(dets(pts), 0.1 * k)
        assert _ids_at(tr, pts) == ids, f"frame {k}"
    assert len(tr.tracks) == 4


def test_a_mover_beside_a_resting_disc_does_not_swap_with_it() -> None:
    """30 fps: a struck disc runs west past the end of a resting one, 11 mm from its rest place;
    the resting one is hit too and starts after it. The detection nearest the resting disc's
    rest place is the mover's; identities must follow the motion (korona_2_easy at 22.1 s)."""
    tr = Tracker(KB)
    a0, b0 = (-28.0, -375.0), (-79.0, -396.0)
    for k in range(6):
        tr.update(dets([a0, b0]), k / 30)
    ida, idb = _ids_at(tr, [a0, b0])
    path = [([(-30.0, -389.0), b0]), ([(-42.0, -399.0), b0]), ([(-70.0, -403.0), (-92.0, -389.0)]),
            ([(-86.0, -386.0), (-114.0, -377.0)]), ([(-101.0, -369.0), (-135.0, -364.0)])]
    for k, pts in enumerate(path, start=6):
        tr.update(dets(pts), k / 30)
    assert _ids_at(tr, path[-1]) == [ida, idb]


def test_a_disc_lost_in_blur_does_not_take_a_stray_detection_behind_it() -> None:
    """A disc slides north up the board and is lost in blur for four frames; a stray detection
    turns up in the ditch behind it by the shooter. It must not be taken (the disc would be
    called off the board); the disc is found again ahead when it slows."""
    tr = Tracker(CB)
    for k in range(6):
        tr.update(dets([(-16.0, -297.0)]), k / 30)
    ys = [-276, -251, -227, -201, None, None, None, None, -335, None, -73, -62, -47]
    t = 6 / 30
    for y in ys:
        if y is None:
            tr.update(dets([]), t)
        elif y == -335:
            tr.update(dets([(-11.0, -335.0)], [2]), t)  # stray, in the ditch
        else:
            tr.update(dets([(-8.0, float(y))]), t)
        t += 1 / 30
    assert len([x for x in tr.tracks if x.state != "lifted"]) == 1
    disc = tr.tracks[0]
    assert disc.state == "moving" and abs(disc.xy[1] + 47) < 3
    assert all(s.y > -300 for s in disc.path if s.measured and s.t > 0.25)  # never went back


def test_a_twenty_taken_out_of_the_hole_is_gone_for_good() -> None:
    """A disc lies in the 20-hole, then is taken out (unseen for over a second); a later disc
    dropping in the hole is a new disc, not the old one back."""
    tr = Tracker(CB)
    t = 0.0
    for _ in range(10):
        tr.update(dets([(0.5, -0.5)], [IN_HOLE]), t)
        t += 0.1
    first = tr.tracks[0]
    assert first.state == "hole"
    for _ in range(15):
        tr.update(dets([]), t)
        t += 0.1
    assert first.state == "lifted"
    for _ in range(5):
        tr.update(dets([(0.2, 0.3)], [IN_HOLE]), t)
        t += 0.1
    live = [x for x in tr.tracks if x.state == "hole"]
    assert len(live) == 1 and live[0].id != first.id



def test_a_blow_shared_by_two_discs_moves_each_along() -> None:
    """10 fps (korona_2p_game at 14 s): two resting discs 29 mm apart by the north rim are
    knocked the same way, the first 18 mm, the second 25 mm; the first one's new place is
    11 mm from the second one's rest place, and an earlier stage matched them swapped. The
    last stage gives each its own (least total displacement)."""
    from tracker.track import blows

    tr = Tracker(KB)
    a0, b0 = (44.0, 398.0), (70.0, 411.0)
    for k in range(6):
        tr.update(dets([a0, b0]), 0.1 * k)
    ida, idb = _ids_at(tr, [a0, b0])
    rows = [x for x in tr.tracks]
    ia = next(k for k, x in enumerate(rows) if x.id == ida)
    ib = next(k for k, x in enumerate(rows) if x.id == idb)
    after = dets([(60.0, 406.0), (94.0, 405.0)])
    pairs = [(ib, 0), (ia, 1)]  # swapped, as the greedy stages had it
    blows.least_displacement(tr, rows, after, pairs)
    assert sorted(pairs) == sorted([(ia, 0), (ib, 1)])
    # a disc knocked on its own is left alone
    single = [(ia, 1)]
    blows.least_displacement(tr, rows, after, single)
    assert single == [(ia, 1)]
