"""Reading a shot at a low frame rate: which came first when a disc hit and a rim bounce fall in
one frame, which rim it was, the korona indirect call, and discs the rules never met."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER
from tracker.infer.contacts import grazed_rim, infer_contacts, rim_side
from tracker.infer.datatypes import Contact, ShotRecord
from tracker.infer.naming import Namer
from tracker.track.datatypes import Sample, Track

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


# k2e_9911 at 30.5-31.0 s, every frame of the render's truth (30 fps): north's striker, shot at
# n7, touched the south rim at 30.747 s and n7 at 30.752 s (the renderer's collision log), its
# run in passing 2 mm clear of n7; the rules call the unannounced indirect shot a foul.
GRAZE_STRIKER = np.array([
    (30.5, -32.48, -179.21), (30.5333, -51.43, -212.7), (30.5667, -69.74, -245.04), (30.6, -87.39, -276.25),
    (30.6333, -104.41, -306.32), (30.6667, -120.78, -335.25), (30.7, -136.51, -363.04),
    (30.7333, -151.59, -389.7), (30.7667, -163.23, -393.48), (30.8, -170.57, -383.95),
    (30.8333, -177.11, -375.45), (30.8667, -182.86, -367.99), (30.9, -187.8, -361.57),
    (30.9333, -191.95, -356.18), (30.9667, -195.3, -351.83), (31.0, -197.85, -348.51)])
GRAZE_N7 = np.array([
    (30.6667, -189.44, -375.67), (30.7, -189.44, -375.67), (30.7333, -189.44, -375.67),
    (30.7667, -200.37, -367.45), (30.8, -224.45, -349.34), (30.8333, -247.48, -332.02),
    (30.8667, -269.47, -315.48), (30.9, -290.42, -299.72), (30.9333, -310.31, -284.76)])


def _graze_contacts() -> tuple[list[Contact], dict[int, np.ndarray], dict[int, tuple[float, float]], dict[int, float]]:
    paths = {1: GRAZE_STRIKER, 2: GRAZE_N7}
    rest = {1: (250.0, 320.0), 2: (-189.44, -375.67)}
    radius = {1: KB.striker_radius, 2: KB.disc_radius}
    return infer_contacts(paths, rest, radius, 1, KB), paths, rest, radius


def test_a_rim_met_a_frame_before_a_disc_the_run_in_passed_clear_of_comes_first() -> None:
    """k2e_9911's grazing shot: the rim bounce and the hit on n7 fall between the same two
    frames; the run into the rim passes clear of n7, so the rim came first."""
    out, *_ = _graze_contacts()
    mine = [c.b for c in out if c.a == 1]
    assert mine[:2] == ["rim:south", 2], out


def test_a_striker_grazing_the_rim_into_its_disc_is_logged_uncalled() -> None:
    """The grazing shot's indirect call is not assumed (it was a shot at n7 that touched the rim
    on its way in, rulebook 2.6: a foul); a bank shot off the rim to a disc away from it (the
    same run, n7 moved 120 mm along the rim) is still logged as called."""
    out, paths, rest, radius = _graze_contacts()
    assert grazed_rim(out, paths, rest, radius, 1, KB)
    namer = Namer("korona", 2, KB)
    namer.names = {2: "n7"}
    rec = ShotRecord(disc=1, start=(250.0, 320.0), t_start=30.1, t_end=31.5, frame_start=0, frame_end=10,
                     contacts=tuple(out), ends={1: (-200.0, -344.0), 2: (-377.0, -163.0)}, before=rest,
                     grazed=True)
    tracks = {1: _track(1, (-200.0, -344.0), STRIKER), 2: _track(2, (-377.0, -163.0))}
    assert not namer.shot(rec, tracks, "north").announced.indirect
    far = {**rest, 2: (-309.44, -375.67)}
    assert not grazed_rim(out, paths, far, radius, 1, KB)


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


def _korona_rows(unseen: int | None = None) -> tuple[dict[int, Track], dict[int, tuple[float, float]]]:
    """Eight discs a side in rows along two opposite rims (ids 1-8, colour 0, at y = +rim; ids
    20-27, colour 1, at y = -rim), long seen at rest; ``unseen``: one id the detector never saw."""
    rim = KB.half - KB.disc_radius
    tracks: dict[int, Track] = {}
    before: dict[int, tuple[float, float]] = {}
    for i in range(8):
        for tid, xy, cls in ((1 + i, (-87.5 + 25 * i, rim), 0), (20 + i, (-87.5 + 25 * i, -rim), 1)):
            if tid == unseen:
                continue
            tracks[tid] = _track(tid, xy)
            tracks[tid].cls, tracks[tid].hits = cls, 40
            before[tid] = xy
    return tracks, before


def test_korona_setup_with_a_spurious_disc_is_evened_out() -> None:
    """Eight discs a side, plus something taken for a north disc that turned up 2.5 s later (a
    hand near the striking line): the setup keeps eight each and drops the late one."""
    namer = Namer("korona", 2, KB)
    tracks, before = _korona_rows()
    tracks[99] = _track(99, (-176.0, -405.0))
    tracks[99].cls, tracks[99].born, tracks[99].hits = 1, 2.5, 11
    before[99] = (-176.0, -405.0)
    setup = namer.setup(tracks, before, striker=50)
    owners = [o for o, _ in setup.discs.values()]
    assert owners.count("south") == 8 and owners.count("north") == 8
    assert namer.dropped == [99]
    assert 99 not in namer.names


def test_korona_setup_drops_a_false_disc_that_moved_before_the_first_shot() -> None:
    """korona_ru_part at 2.6 s: the player's fingers behind the north striker are taken for a
    north disc, which jumps 20 mm on its next sighting (0.4 s before the flick) and then keeps
    still. The episode opened with that jump, so the shot's ``before`` is where it was born; it
    moved before the shot, not by it, and is the one dropped (not a real disc of the row)."""
    namer = Namer("korona", 2, KB)
    tracks, before = _korona_rows()
    for tr in tracks.values():
        tr.born = 0.9
        tr.path = [Sample(0.9, float(tr.xy[0]), float(tr.xy[1])), Sample(3.0, float(tr.xy[0]), float(tr.xy[1]))]
    tracks[99] = _track(99, (-100.0, -383.0))
    tracks[99].cls, tracks[99].born, tracks[99].hits = 1, 2.6, 3
    tracks[99].path = [Sample(2.6, -103.0, -363.0), Sample(2.7, -100.0, -383.0), Sample(3.3, -100.0, -386.0)]
    before[99] = (-103.0, -363.0)
    setup = namer.setup(tracks, before, striker=50, t_start=3.1)
    owners = [o for o, _ in setup.discs.values()]
    assert owners.count("south") == 8 and owners.count("north") == 8
    assert namer.dropped == [99]


def test_korona_setup_never_drops_a_disc_the_first_shot_moved() -> None:
    """korona_pocket: one north disc is never seen, so south counts one more. The south disc
    set down last is the one the first shot pockets: a disc that answered a blow is real and is
    kept. South shows the standard eight, so nothing is dropped: north's unseen disc is assumed
    at its row place instead (``setup_counts``)."""
    namer = Namer("korona", 2, KB)
    tracks, before = _korona_rows(unseen=27)  # the north disc nobody saw
    tracks[8].born = 0.6  # set down last ...
    tracks[8].state, tracks[8].pocket = "pocket", "ne"  # ... and pocketed by the first shot
    setup = namer.setup(tracks, before, striker=50)
    owners = [o for o, _ in setup.discs.values()]
    assert owners.count("south") == 8 and owners.count("north") == 8
    assert 8 in namer.names and namer.dropped == []
    (at,) = namer.assumed.values()
    assert np.hypot(at[0] - 87.5, at[1] + KB.half - KB.disc_radius) < 1.0  # where 27 stood


def test_korona_setup_with_a_short_spurious_seat_still_drops_down_to_the_standard() -> None:
    """A hand taken for a ninth south disc while north shows eight: the count is the standard
    eight, the late south find is dropped and nothing is assumed."""
    namer = Namer("korona", 2, KB)
    tracks, before = _korona_rows()
    tracks[99] = _track(99, (150.0, KB.half - KB.disc_radius))
    tracks[99].cls, tracks[99].born, tracks[99].hits = 0, 2.5, 11
    before[99] = (150.0, KB.half - KB.disc_radius)
    setup = namer.setup(tracks, before, striker=50)
    owners = [o for o, _ in setup.discs.values()]
    assert owners.count("south") == 8 and owners.count("north") == 8
    assert namer.dropped == [99] and namer.assumed == {}


def test_rim_bounce_between_frames_with_a_slow_return_is_found() -> None:
    """10 fps: the striker is seen at y = 320 running north at 2460 mm/s, then at y = 309 coming
    back at 1230 mm/s (the bounce took speed). Straight runs at constant speed put the corner
    at y = 395, short of the rim (400 for the striker's centre): the bounce is found because
    the forward run reaches the rim and the velocity across it turned back; then the disc hit."""
    s = np.array([[13.8, 179.0, -184.0], [13.9, 147.0, 74.0], [14.0, 117.0, 320.0], [14.1, 89.0, 309.0],
                  [14.2, 60.0, 186.0], [14.3, 40.0, 66.0], [14.4, 32.0, -29.0]])
    d = np.array([[14.3, -20.0, -20.0], [14.4, -58.0, -35.0], [14.5, -143.0, -95.0]])
    before = {1: (200.0, -360.0), 2: (-20.0, -20.0)}
    out = infer_contacts({1: s, 2: d}, before, {1: KB.striker_radius, 2: KB.disc_radius}, 1, KB)
    mine = [(c.b, round(c.t, 2)) for c in out if c.a == 1]
    assert mine[0][0] == "rim:north" and 14.0 <= mine[0][1] <= 14.1, out
    assert any(c.a == 1 and c.b == 2 for c in out)


def test_a_called_pocket_is_assumed_for_an_indirect_pot_behind_the_line() -> None:
    """Korona: south banks the striker off the north rim and pots its own disc in the sw pocket
    (behind south's own line). That counts only if called; the camera cannot hear calls, so an
    indirect pot behind the line is logged as called. A direct pot there stays uncalled."""
    namer = Namer("korona", 2, KB)
    namer.names = {2: "s1", 3: "n1"}
    tracks = {1: _track(1, (10.0, 10.0), STRIKER), 2: _track(2, (-300.0, -300.0)), 3: _track(3, (0.0, 300.0))}
    bank = ShotRecord(disc=1, start=(50.0, -320.0), t_start=0.0, t_end=1.0, frame_start=0, frame_end=10,
                      contacts=(Contact(0.2, 1, "rim:north"), Contact(0.5, 1, 2)),
                      ends={1: (-380.0, -300.0), 2: "pocket:sw"}, before={2: (-300.0, -300.0), 3: (0.0, 300.0)})
    shot = namer.shot(bank, tracks, "south")
    assert shot.announced.indirect and shot.announced.pocket == "sw"
    direct = ShotRecord(disc=1, start=(50.0, -320.0), t_start=2.0, t_end=3.0, frame_start=20, frame_end=30,
                        contacts=(Contact(2.2, 1, 2),), ends={1: (-300.0, -250.0), 2: "pocket:sw"},
                        before={2: (-300.0, -300.0)})
    shot = namer.shot(direct, tracks, "south")
    assert not shot.announced.indirect and shot.announced.pocket is None


def test_a_disc_first_seen_at_rest_is_named_for_the_seat_of_its_colour() -> None:
    """Crokinole: south shoots light discs, north dark ones (colours learned from the shots
    seen). A light disc first seen at rest on north's half (its shot was missed), knocked by
    north's next shot, is south's: named ``s2``, not for the half it lies on."""
    cb = CrokinoleBoard()
    namer = Namer("crokinole", 2, cb)
    light, dark = np.array([80.0, 5.0, 20.0]), np.array([30.0, 10.0, -5.0])

    def disc(tid: int, xy: tuple[float, float], colour: np.ndarray) -> Track:
        t = Track(id=tid, kind=DISC, radius=15.875, xy=np.array(xy), anchor=np.array(xy), anchor_n=5)
        t.color, t.color_n = colour + np.array([1.0, -1.0, 0.5]) * (tid % 3), 20
        return t

    tracks = {1: disc(1, (0.0, -60.0), light), 2: disc(2, (10.0, 80.0), dark), 3: disc(3, (-60.0, 120.0), light),
              4: disc(4, (-150.0, 260.0), dark)}
    s1 = ShotRecord(disc=1, start=(0.0, -304.0), t_start=0.0, t_end=1.0, frame_start=0, frame_end=10,
                    ends={1: (0.0, -60.0)}, before={})
    n1 = ShotRecord(disc=2, start=(0.0, 304.0), t_start=2.0, t_end=3.0, frame_start=20, frame_end=30,
                    ends={2: (10.0, 80.0)}, before={1: (0.0, -60.0)})
    assert namer.shot(s1, tracks, "south").disc == "s1"
    assert namer.shot(n1, tracks, "north").disc == "n1"
    n2 = ShotRecord(disc=4, start=(-150.0, 260.0), t_start=5.0, t_end=6.0, frame_start=50, frame_end=60,
                    contacts=(Contact(5.5, 4, 3),), ends={4: (-60.0, 100.0), 3: (-80.0, 40.0)},
                    before={1: (0.0, -60.0), 2: (10.0, 80.0), 3: (-60.0, 120.0)})
    namer.shot(n2, tracks, "north")
    assert namer.names[3] == "s2"
    # a disc of neither colour (a hand, the board seen through a gap): by where it lies
    odd = disc(5, (40.0, 150.0), np.array([55.0, 40.0, 40.0]))
    assert namer.seat_by_colour(odd) is None
