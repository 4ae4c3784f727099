"""Tracking faults seen at 10 fps on rendered korona games, on hand-made detections with known
truth: a disc knocked over the rim between two frames, a new row of discs with a detection
missing on each of the first two frames, a disc seen at rest a little off the 20-hole's centre."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track import Tracker
from tracker.track.tracker import TrackerConfig

KB = KoronaBoard()


def dets(items: list[tuple[float, float, int]]) -> Detections:
    if not items:
        return Detections.empty()
    a = np.array(items, float)
    return Detections(xy=a[:, :2], kind=a[:, 2].astype(int))


def test_disc_knocked_over_the_rim_unseen_is_off() -> None:
    """The striker drives a disc resting against the north rim straight outward, fast enough to
    jump it (1800 mm/s; ``track.rims.RIM_JUMP_SPEED``: a blow slower than 1500 mm/s only presses
    it into the rim); the next frame the disc is gone (over the rim) and the striker stands
    where it hit: with ``TrackerConfig.unseen_over_rim``, the disc is off. (Off by default: the
    tracker keeps it covered where it rested, and the shot's judge calls it off,
    ``infer.rim_gone``: :func:`test_disc_knocked_hard_into_the_rim_unseen_is_left_to_the_judge`.)"""
    tr = Tracker(KB, TrackerConfig(unseen_over_rim=True))
    rim_y = KB.half - KB.disc_radius
    frames: list[tuple[float, list[tuple[float, float, int]]]] = []
    for k in range(5):  # both at rest
        frames.append((0.1 * k, [(0.0, 150.0, STRIKER), (0.0, rim_y, DISC)]))
    frames.append((0.5, [(0.0, 330.0, STRIKER), (0.0, rim_y, DISC)]))  # striker on its way
    for k in range(6, 14):  # the disc has gone; the striker stopped where it hit
        frames.append((0.1 * k, [(0.0, 372.0, STRIKER)]))
    for t, items in frames:
        tr.update(dets(items), t)
    disc = next(x for x in tr.tracks if x.kind == DISC)
    striker = next(x for x in tr.tracks if x.kind == STRIKER)
    assert disc.state == "off"
    assert striker.state == "rest"
    assert len(tr.tracks) == 2


def test_disc_knocked_hard_into_the_rim_unseen_is_left_to_the_judge() -> None:
    """The same blow by default: the disc is kept covered where it rested, unseen (struck hard
    into a rim a disc jumps it only now and then), for the shot's judge (``infer.rim_gone``)."""
    tr = Tracker(KB)
    rim_y = KB.half - KB.disc_radius
    frames: list[tuple[float, list[tuple[float, float, int]]]] = []
    for k in range(5):
        frames.append((0.1 * k, [(0.0, 150.0, STRIKER), (0.0, rim_y, DISC)]))
    frames.append((0.5, [(0.0, 330.0, STRIKER), (0.0, rim_y, DISC)]))
    for k in range(6, 14):
        frames.append((0.1 * k, [(0.0, 372.0, STRIKER)]))
    for t, items in frames:
        tr.update(dets(items), t)
    disc = next(x for x in tr.tracks if x.kind == DISC)
    assert disc.state == "rest" and disc.occluded
    assert abs(float(disc.xy[1])) <= rim_y + 1.0
    assert len(tr.tracks) == 2


def test_unseen_disc_not_struck_stays_covered() -> None:
    """The same disc vanishing with nothing moving near it is covered (a hand), not off."""
    tr = Tracker(KB)
    rim_y = KB.half - KB.disc_radius
    for k in range(5):
        tr.update(dets([(0.0, 150.0, STRIKER), (0.0, rim_y, DISC)]), 0.1 * k)
    for k in range(5, 12):
        tr.update(dets([(0.0, 150.0, STRIKER)]), 0.1 * k)
    disc = next(x for x in tr.tracks if x.kind == DISC)
    assert disc.state == "rest" and disc.occluded


def test_new_rows_with_missed_detections_make_no_motion() -> None:
    """Two rows of discs appear (along the south and the west rim); one disc is missed on the
    first frame and another, 584 mm away, on the second. No track may link the two: a disc
    "born moving" across the board makes a false shot before the game has started."""
    rim = KB.half - KB.disc_radius
    south = [(float(x), -rim) for x in np.arange(-87.5, 88, 25.0)]
    west = [(-rim, float(y)) for y in np.arange(-87.5, 88, 25.0)]
    every = [(x, y, DISC) for x, y in south + west]
    tr = Tracker(KB)
    tr.update(dets([d for d in every if d[:2] != west[4]]), 0.0)
    tr.update(dets([d for d in every if d[:2] != south[3]]), 0.1)
    for k in range(2, 8):
        tr.update(dets(every), 0.1 * k)
        assert not [x for x in tr.tracks if x.state == "moving"]
    assert len(tr.tracks) == 16
    assert all(x.state == "rest" for x in tr.tracks)


def test_disc_seen_a_little_off_the_hole_centre_is_in_the_hole() -> None:
    """A detector reading 2.8 mm off the centre for a disc down in the 20-hole (and no hole
    verdict): a disc cannot rest flat with its centre over the hole, so it is in the hole. One
    resting 20 mm out, just clear of the hole, stays on the surface."""
    board = CrokinoleBoard()
    tr = Tracker(board)
    for k in range(8):
        tr.update(dets([(2.8, 0.4, DISC), (0.0, -(board.hole_radius + 2.5), DISC)]), 0.1 * k)
    states = sorted((float(np.hypot(*x.xy)), x.state) for x in tr.tracks)
    assert [s for _, s in states] == ["hole", "rest"]


def test_disc_resting_over_the_hole_edge_stays_on_the_surface() -> None:
    """A disc that stopped 9.8 mm from the hole's centre overhangs the hole but does not tip in
    (rendered match, seed 7501: the simulator drops a disc only within 0.55 hole radii, 9.6 mm);
    it is on the surface, not a 20, and a disc seen 5 mm off the centre is in the hole."""
    board = CrokinoleBoard()
    tr = Tracker(board)
    for k in range(8):
        tr.update(dets([(-9.0, 4.0, DISC), (150.0, 5.0, DISC)]), 0.1 * k)
    tr2 = Tracker(board)
    for k in range(8):
        tr2.update(dets([(4.0, -3.0, DISC)]), 0.1 * k)
    assert sorted(x.state for x in tr.tracks) == ["rest", "rest"]
    assert [x.state for x in tr2.tracks] == ["hole"]


def test_a_disc_lost_on_its_way_off_is_the_one_then_seen_in_the_ditch() -> None:
    """A disc knocked straight off at 750 mm/s is lost before the ditch (it is placed off the
    board where it was heading) and then seen resting in the ditch on its line: that is the
    same disc, not a new one (seed 7506: the new "disc" was taken for an unseen shot's end)."""
    board = CrokinoleBoard()
    tr = Tracker(board)
    t = 0.0
    for _ in range(6):
        tr.update(dets([(0.0, 250.0, DISC)]), t)
        t += 1 / 30
    for y in (270.0, 295.0, 318.0):
        tr.update(dets([(0.0, y, DISC)]), t)
        t += 1 / 30
    for _ in range(12):
        tr.update(dets([]), t)
        t += 1 / 30
    assert [x.state for x in tr.tracks] == ["off"]
    for _ in range(10):
        tr.update(dets([(3.0, 356.0, DISC)]), t)
        t += 1 / 30
    assert len(tr.tracks) == 1 and tr.tracks[0].state == "off"
    assert np.hypot(tr.tracks[0].xy[0] - 3.0, tr.tracks[0].xy[1] - 356.0) < 1.0


def test_a_disc_struck_into_the_rim_keeps_its_rebound_detection() -> None:
    """The striker drives the east end disc of a row along the south rim straight into the rim;
    the disc rebounds and is seen 6 mm back out from where it rested (against the push). That
    detection is its own, at once (seed 7504, truth detections: a new track took it and, the
    disc's next detection dropped, the far end of the row next), and every disc keeps its name."""
    rim = -(KB.half - KB.disc_radius)
    row = [(87.5 - 25.0 * k, rim) for k in range(4)]
    tr = Tracker(KB)
    t = 0.0

    def frame(striker: tuple[float, float], discs: list[tuple[float, float]]) -> None:
        nonlocal t
        tr.update(dets([(striker[0], striker[1], STRIKER)] + [(x, y, DISC) for x, y in discs]), t)
        t += 1 / 30

    for _ in range(6):
        frame((88.0, -250.0), row)
    for y in (-286.7, -323.3, -360.0):
        frame((88.0, y), row)
    ids = {round(x.xy[0]): x.id for x in tr.tracks if x.kind == DISC}
    frame((88.0, -370.0), [(87.5, rim + 6.0), *row[1:3], (row[3][0] - 4.0, rim)])  # the blow
    assert tr.det_track[1] == ids[88]  # (the striker is detection 0)
    frame((88.0, -366.0), [*row[1:3], (row[3][0] - 12.0, rim)])  # the struck disc unseen
    for k in range(4):
        frame((88.0, -366.0), [(87.5, rim + 12.0 + 6.0 * k), *row[1:3], (row[3][0] - 16.0, rim)])
    discs = {x.id: x for x in tr.tracks if x.kind == DISC}
    assert len(discs) == 4 and not tr._tentative
    assert float(np.hypot(*(discs[ids[88]].xy - np.array([87.5, rim + 30.0])))) < 3.0
    assert float(np.hypot(*(discs[ids[12]].xy - np.array([row[3][0] - 16.0, rim])))) < 3.0


def test_a_disc_lost_beside_the_hole_is_not_a_twenty() -> None:
    """A disc sliding past the 20-hole 30 mm to its side stops dead (a head-on hit) 35 mm from
    the centre and is not seen for 0.6 s: it did not drop in, and is found where it stopped
    (seed 7507: it was called a 20). One lost sliding straight at the hole, slowing under
    friction, is in it, but not one that reaches it too fast to drop in
    (``hole_course.passes_over_hole``: at 1050 mm/s it slides on over the hole, c2h_8902 at 11.0 s),
    nor one whose slide stops short of the hole's capture zone (``hole_course.short_of_hole``): last
    seen 31 mm out at 180 mm/s, it stops 20 mm out, over the hole's edge. (That run was seed
    7501's disc sinking into the hole unseen, taken for a 20 then; c2e_7501 rendered again at
    this commit shows no such loss: its 20 is seen. c4h_9921's blue discs, lost 37 and 41 mm
    out at about 260 mm/s, stopped over the hole's edge and were called 20s.)"""
    board = CrokinoleBoard()
    fast = (190.0, 150.0, 150.0, 150.0, 150.0, 150.0, 150.0, 110.0, 70.0, 35.0)
    # from rest at 150 mm flicked in at 720 mm/s, slowed by the tracker's friction (1500 mm/s^2)
    steady = (150.0, 150.0, 150.0, 150.0, 150.0, 126.8, 105.3, 85.5, 67.3, 50.8, 36.0)
    slow = (60.0, 60.0, 60.0, 60.0, 60.0, 60.0, 54.0, 48.0, 43.0, 37.0, 31.0)
    for x, ys, end in ((30.0, fast, "rest"), (0.0, fast, "rest"), (0.0, steady, "hole"), (-6.0, slow, "rest")):
        tr = Tracker(board)
        t = 0.0
        for y in ys:
            tr.update(dets([(x, y, DISC)]), t)
            t += 1 / 30
        for _ in range(20):
            tr.update(dets([]), t)
            t += 1 / 30
        if end == "rest":
            for _ in range(10):
                tr.update(dets([(x, 30.0, DISC)]), t)
                t += 1 / 30
        assert [d.state for d in tr.tracks] == [end]
