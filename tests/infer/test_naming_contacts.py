"""Reading a shot at a low frame rate: which came first when a disc hit and a rim bounce fall in
one frame, which rim it was, the korona indirect call, and discs the rules never met."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER
from tracker.infer.contacts import infer_contacts, rim_side
from tracker.infer.datatypes import Contact, ShotRecord
from tracker.infer.naming import Namer
from tracker.track.datatypes import Track

KB = KoronaBoard()


def test_rim_sides_follow_the_board_frame() -> None:
    h = KB.half
    assert rim_side(np.array([10.0, h])) == "rim:north"
    assert rim_side(np.array([-5.0, -h])) == "rim:south"
    assert rim_side(np.array([h, 30.0])) == "rim:east"
    assert rim_side(np.array([-h, -30.0])) == "rim:west"


def test_disc_hit_next_to_the_rim_comes_before_the_bounce() -> None:
    """The striker runs north at 1200 mm/s into a disc resting 6 mm off the north rim and stops
    against the rim; frames 0.1 s apart hold both contacts. The disc was hit first."""
    rim = KB.half
    r_s, r_d = KB.striker_radius, KB.disc_radius
    disc_at = (40.0, rim - r_d - 6.0)
    hit_y = disc_at[1] - r_s - r_d  # where the striker touches the disc
    striker = np.array([[0.0, 0.0, hit_y - 240.0], [0.1, 0.0, hit_y - 120.0], [0.2, 6.0, hit_y + 2.0],
                        [0.3, -30.0, hit_y - 20.0], [0.4, -40.0, hit_y - 30.0]])
    disc = np.array([[0.0, *disc_at], [0.1, *disc_at], [0.2, 80.0, rim - r_d], [0.3, 120.0, rim - r_d],
                     [0.4, 130.0, rim - r_d]])
    out = infer_contacts({1: striker, 2: disc}, {1: (0.0, hit_y - 240.0), 2: disc_at}, {1: r_s, 2: r_d}, 1, KB)
    mine = [c.b for c in out if c.a == 1]
    assert mine and mine[0] == 2, out
    assert all(not isinstance(b, str) or b.startswith("rim:") for b in mine)


def _track(tid: int, xy: tuple[float, float], kind: int = DISC) -> Track:
    return Track(id=tid, kind=kind, radius=12.5, xy=np.array(xy), anchor=np.array(xy), anchor_n=5)


def test_korona_rim_first_shot_is_logged_as_announced_indirect() -> None:
    namer = Namer("korona", 2, KB)
    namer.names = {2: "s1", 3: "n1"}
    rec = ShotRecord(disc=1, start=(0.0, -320.0), t_start=0.0, t_end=1.0, frame_start=0, frame_end=10,
                     contacts=(Contact(0.2, 1, "rim:east"), Contact(0.3, 1, 2)),
                     ends={1: (10.0, 10.0), 2: "pocket:nw"}, before={2: (0.0, 300.0), 3: (0.0, -300.0)})
    tracks = {1: _track(1, (10.0, 10.0), STRIKER), 2: _track(2, (0.0, 300.0)), 3: _track(3, (0.0, -300.0))}
    shot = namer.shot(rec, tracks, "south")
    assert shot.announced.indirect
    assert shot.contacts[0] == ("S", "rim:east")
    direct = ShotRecord(disc=1, start=(0.0, -320.0), t_start=2.0, t_end=3.0, frame_start=20, frame_end=30,
                        contacts=(Contact(2.2, 1, 2),), ends={1: (5.0, 5.0), 2: (0.0, 350.0)},
                        before={2: (0.0, 300.0)})
    assert not namer.shot(direct, tracks, "south").announced.indirect


def test_crokinole_discs_never_shot() -> None:
    """South shoots s1 (colour 0) into a disc first seen at rest on the surface (its shot was
    missed; colour 1) and knocks it into the ditch; a disc that was waiting in the ditch
    (never on the surface) is nudged too. The resting disc is named for the only seat left
    for its colour (north); the ditch disc stays out of the log (no "x8")."""
    board = CrokinoleBoard()
    namer = Namer("crokinole", 2, board)
    rec = ShotRecord(disc=1, start=(0.0, -300.0), t_start=0.0, t_end=1.0, frame_start=0, frame_end=10,
                     contacts=(Contact(0.4, 1, 7), Contact(0.6, 7, 8)), ends={1: (0.0, -60.0), 7: "off", 8: "off"},
                     before={1: (0.0, -300.0), 7: (0.0, -40.0)})
    tracks = {1: _track(1, (0.0, -60.0)), 7: _track(7, (0.0, 400.0)), 8: _track(8, (300.0, 330.0))}
    tracks[1].cls, tracks[7].cls, tracks[8].cls = 0, 1, 1
    shot = namer.shot(rec, tracks, "south")
    assert shot.disc == "s1"
    assert shot.end == {"s1": (0.0, -60.0), "n1": "off"}
    assert shot.contacts == (("s1", "n1"),)
    assert namer.left_out == ["x8"]


def test_korona_setup_with_a_spurious_disc_is_evened_out() -> None:
    """Eight discs a side, plus something taken for a north disc that turned up 2.5 s later (a
    hand near the striking line): the setup keeps eight each and drops the late one."""
    namer = Namer("korona", 2, KB)
    rim = KB.half - KB.disc_radius
    tracks: dict[int, Track] = {}
    before: dict[int, tuple[float, float]] = {}
    for i in range(8):
        for tid, xy, cls in ((1 + i, (-87.5 + 25 * i, rim), 0), (20 + i, (-87.5 + 25 * i, -rim), 1)):
            tracks[tid] = _track(tid, xy)
            tracks[tid].cls, tracks[tid].hits = cls, 40
            before[tid] = xy
    tracks[99] = _track(99, (-176.0, -405.0))
    tracks[99].cls, tracks[99].born, tracks[99].hits = 1, 2.5, 11
    before[99] = (-176.0, -405.0)
    setup = namer.setup(tracks, before, striker=50)
    owners = [o for o, _ in setup.discs.values()]
    assert owners.count("south") == 8 and owners.count("north") == 8
    assert namer.dropped == [99]
    assert 99 not in namer.names
