"""Who is who: korona colours to seats from the starting rows, and a disc lost during a shot
joined to the nameless track it became."""

from __future__ import annotations

import numpy as np

from tests.pipeline.tracks import track_at as _track
from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC
from tracker.infer import ShotRecord
from tracker.pipeline.identity import owners_from_rows, reconcile
from tracker.track import Track
from tracker.track.datatypes import Sample

KB = KoronaBoard()
RIM = KB.half - KB.disc_radius
SEATS = ("south", "west", "north", "east")


def test_colours_belong_to_the_seat_opposite_their_row() -> None:
    # class 0 along the north rim, 1 along the east rim, 2 south, 3 west (colour order arbitrary)
    rows = {0: [(x, RIM) for x in (-25.0, 0.0, 25.0)], 1: [(RIM, y) for y in (-25.0, 0.0, 25.0)],
            2: [(x, -RIM) for x in (-25.0, 0.0, 25.0)], 3: [(-RIM, y) for y in (-25.0, 0.0, 25.0)]}
    at = [xy for k in rows for xy in rows[k]]
    classes = [k for k in rows for _ in rows[k]]
    owner = owners_from_rows(KB, SEATS, at, classes)
    assert {c: SEATS[i] for c, i in owner.items()} == {0: "south", 1: "west", 2: "north", 3: "east"}
    # scattered discs: no rows to read, the colour convention stands
    assert owners_from_rows(KB, SEATS, [*at[:-1], (0.0, 0.0)], classes) == {}


def test_a_disc_lost_in_the_shot_is_the_new_track_nearest_it() -> None:
    tracks = {
        1: _track(1, (0.0, -300.0), 0.0, last_seen=3.0),  # the striker
        5: _track(5, (-411.0, -91.0), 0.0, occluded=True, last_seen=1.1),  # named, vanished at 1.1 s
        6: _track(6, (-411.0, 40.0), 0.0, occluded=True, last_seen=0.5),  # named, covered before the shot
        9: _track(9, (-413.0, -208.0), 1.2, state="pocket"),  # new during the shot
    }
    names = {5: "e1", 6: "e6"}
    rec = ShotRecord(disc=1, start=(0.0, -320.0), t_start=1.0, t_end=2.0, frame_start=10, frame_end=20,
                     ends={1: (0.0, 0.0), 9: "pocket:sw"}, before={1: (0.0, -320.0), 5: (-411.0, -91.0)})
    assert reconcile(rec, tracks, names) == [(9, 5)]
    far = dict(tracks)
    far[9] = _track(9, (300.0, 300.0), 1.2, state="pocket")
    assert reconcile(rec, far, names) == []


def test_a_korona_rim_disc_covered_since_before_the_shot_that_the_striker_reached() -> None:
    """korona_ru_part at 9.1 s: the detector had lost the north rim row since 4.8 s; north's
    striker runs into its west end, and a disc of it is first seen knocked away 190 mm off, as
    a new nameless track. The covered row disc the striker reached is that disc (its pocketing
    at 19.3 s counts); a covered disc nearer the new track but far from any mover is not."""
    striker = _track(1, (0.0, -320.0), 0.0, last_seen=9.4)
    striker.path = [Sample(9.1, 0.0, -320.0), Sample(9.2, -25.0, -340.0), Sample(9.3, -50.0, -360.0),
                    Sample(9.4, -70.0, -380.0)]
    tracks = {
        1: striker,
        11: _track(11, (-87.5, -RIM), 0.0, occluded=True, last_seen=4.8),  # reached by the striker
        12: _track(12, (-250.0, -RIM), 0.0, occluded=True, last_seen=4.8),  # nothing came near
        27: _track(27, (-274.0, -366.0), 9.9),  # new, nameless, knocked away
    }
    names = {11: "n8", 12: "n1"}
    rec = ShotRecord(disc=1, start=(0.0, -320.0), t_start=9.1, t_end=10.4, frame_start=91, frame_end=104,
                     ends={1: (-70.0, -380.0), 27: (-316.0, -357.0)}, before={1: (0.0, -320.0)})
    assert reconcile(rec, tracks, names, korona=True) == [(27, 11)]
    assert reconcile(rec, tracks, names) == []  # crokinole: a disc covered before the shot stays out


def test_a_nameless_korona_disc_sent_down_a_pocket_takes_the_name_of_an_unseen_disc_of_its_colour() -> None:
    """korona_2p_game: rim discs the detector lost came back as nameless tracks between shots,
    rested, and were later pocketed; their pockets were left out of the shot log (pockets 20%).
    The pocketed nameless track is the unseen named disc of its colour class, wherever that lay;
    never one of another class, one still seen, or when the nameless track has no class."""
    def classed(tr: Track, cls: int) -> Track:
        tr.cls = cls
        return tr

    tracks = {
        1: _track(1, (0.0, -300.0), 0.0, last_seen=3.0),  # the striker
        4: classed(_track(4, (350.0, 411.0), 0.0, occluded=True, last_seen=0.4), 0),  # s3: lost long ago
        5: classed(_track(5, (-100.0, 411.0), 0.0, occluded=True, last_seen=0.4), 1),  # n2, other colour, nearer
        6: classed(_track(6, (-300.0, 300.0), 0.0, last_seen=3.0), 0),  # s5, still seen
        9: classed(_track(9, (-380.0, 380.0), 0.7, state="pocket"), 0),  # nameless since 0.7 s
    }
    names = {4: "s3", 5: "n2", 6: "s5"}
    rec = ShotRecord(disc=1, start=(0.0, -320.0), t_start=1.0, t_end=2.0, frame_start=10, frame_end=20,
                     ends={1: (0.0, 0.0), 9: "pocket:nw"}, before={1: (0.0, -320.0), 9: (-380.0, 380.0)})
    assert reconcile(rec, tracks, names, korona=True) == [(9, 4)]
    assert reconcile(rec, tracks, names, korona=False) == []  # crokinole has no pockets
    unclassed = dict(tracks)
    unclassed[9] = _track(9, (-380.0, 380.0), 0.7, state="pocket")
    assert reconcile(rec, unclassed, names, korona=True) == []


def test_a_nameless_track_lying_on_a_named_disc_does_not_take_a_pocketed_name() -> None:
    """k4h_9706 at 36.8 s: a nameless track that rested 20 mm from e7 (radii 12.5 mm: two discs
    cannot lie so) was called down the sw pocket when e7 was knocked onto its place, took the name
    of w6 (lifted since 9 s) and scored a pocket nobody made. A track overlapping a named disc is
    that disc seen twice; one beside it, touching (a disc's width away), is a disc of its own."""
    def classed(tr: Track, cls: int) -> Track:
        tr.cls = cls
        return tr

    e7 = (-RIM, 240.0)
    tracks = {
        1: _track(1, (-125.0, 354.0), 30.0, last_seen=36.0),  # the striker
        23: classed(_track(23, (-RIM, 226.0), 0.0, last_seen=36.8), 3),  # e7, knocked 14 mm
        8: classed(_track(8, (98.0, 63.0), 0.0, state="lifted", last_seen=9.2), 1),  # w6, lifted
        56: classed(_track(56, (-RIM, 220.0), 24.2, state="pocket"), 1),  # nameless since 24 s
    }
    names = {23: "e7", 8: "w6"}

    def shot(beside: float) -> ShotRecord:
        return ShotRecord(disc=1, start=(-49.0, -320.0), t_start=35.5, t_end=36.8, frame_start=1060,
                          frame_end=1100, ends={1: (-125.0, 354.0), 23: (-RIM, 226.0), 56: "pocket:sw"},
                          before={1: (-49.0, -320.0), 23: e7, 56: (-RIM, 240.0 - beside)})

    assert reconcile(shot(20.0), tracks, names, korona=True) == []
    assert reconcile(shot(2 * KB.disc_radius), tracks, names, korona=True) == [(56, 8)]


def test_a_find_seen_while_the_lost_disc_was_still_seen_is_not_that_disc() -> None:
    """c4h_9803 at 23.1 s: n2, knocked against a peg, was last seen at 23.1 s and hidden by the
    peg after; a false find at rest in the ditch 290 mm off, first seen at 23.07 s, is another
    thing (one disc is not in two places at once), so it does not take n2's name. First seen
    after n2 was last seen, in time for a disc to get there, it would be n2."""
    rec = ShotRecord(disc=1, start=(300.0, 0.0), t_start=22.5, t_end=23.6, frame_start=675, frame_end=708,
                     ends={1: (54.0, 124.0), 2: (-22.7, 151.2), 18: (258.0, 221.0)},
                     before={1: (300.0, 0.0), 2: (25.4, 114.8)})
    tracks = {
        1: _track(1, (54.0, 124.0), 21.7, last_seen=23.6),  # the shot disc
        2: _track(2, (-22.7, 151.2), 19.4, occluded=True, last_seen=23.1),  # named, hidden from 23.1 s
        18: _track(18, (258.0, 221.0), 23.07, last_seen=23.6),  # nameless, seen from 23.07 s
    }
    names = {1: "e2", 2: "n2"}
    assert reconcile(rec, tracks, names) == []
    later = dict(tracks)
    later[18] = _track(18, (258.0, 221.0), 23.2, last_seen=23.6)  # first seen 0.1 s after n2 vanished
    assert reconcile(rec, later, names) == [(18, 2)]


def test_a_disc_found_again_where_it_rested_is_that_disc_though_its_track_went_on() -> None:
    """c2h_9802 at 18.1 s: n3 struck s1 and s3, which lay unseen beside it; s1's track followed
    s3 away to (-108, 6) and was last seen there at 18.1 s, while s1 itself was found again 22 mm
    from where it rested, at 18.07 s. Seen at once, but where the disc rested before the shot: s1's
    track had gone off with another disc, and the new track is s1."""
    rec = ShotRecord(disc=7, start=(0.0, 300.0), t_start=17.5, t_end=18.6, frame_start=525, frame_end=558,
                     ends={7: (29.6, 3.2), 1: (-107.9, 5.6), 8: (12.2, -38.5)},
                     before={7: (0.0, 300.0), 1: (33.9, -34.8)})
    tracks = {
        7: _track(7, (29.6, 3.2), 16.8, last_seen=18.6),  # the shot disc
        1: _track(1, (-107.9, 5.6), 1.4, occluded=True, last_seen=18.1),  # s1's track, gone off with s3
        8: _track(8, (12.2, -38.5), 18.07, last_seen=18.6),  # nameless, at s1's place from 18.07 s
    }
    names = {7: "n3", 1: "s1"}
    assert reconcile(rec, tracks, names) == [(8, 1)]
    away = dict(tracks)
    away[8] = _track(8, (-60.0, -120.0), 18.07, last_seen=18.6)  # seen at once, far from both places
    assert reconcile(rec, away, names) == []


def test_a_crokinole_disc_covered_since_before_the_shot_found_beside_its_place_is_that_disc() -> None:
    """c2h_9802 at 18.1 s: s1 lay unseen against s3 by the 20-hole since 14.9 s; n3 struck it, and
    it was found 23 mm from its place as a new track. s3, struck on by s1 and lost at rest in the
    same shot, was also nameless-track material: nearest first, the new track took s3's name and s3
    was named anew. The covered disc the shot reached, found beside its place, is that disc.
    Found far from it (c2h_9944 at 10.7 s: 113 mm off), the find tells nothing of which covered
    disc it is, and is left to the discs lost in the shot."""
    r = 15.875
    n3 = _track(7, (30.0, 3.0), 16.8, last_seen=18.6)
    n3.radius = r
    n3.path = [Sample(17.7, 75.0, 119.0), Sample(17.8, 42.0, 23.0), Sample(17.87, 31.0, 1.0), Sample(18.6, 30.0, 3.0)]
    s1 = _track(1, (34.0, -35.0), 1.4, occluded=True, last_seen=14.9)  # covered since before the shot
    s3 = _track(6, (-108.0, 6.0), 14.7, occluded=True, last_seen=18.1)  # lost at rest in the shot
    new = _track(8, (12.0, -39.0), 18.07, last_seen=18.6)  # found beside s1's place
    for tr in (s1, s3, new):
        tr.radius = r
    rec = ShotRecord(disc=7, start=(75.0, 290.0), t_start=17.56, t_end=18.6, frame_start=527, frame_end=558,
                     ends={7: (30.0, 3.0), 6: (-108.0, 6.0), 8: (12.0, -39.0)}, before={7: (75.0, 290.0), 6: (4.0, -17.0)})
    tracks = {7: n3, 1: s1, 6: s3, 8: new}
    names = {7: "n3", 1: "s1", 6: "s3"}
    assert reconcile(rec, tracks, names) == [(8, 1)]
    far = dict(tracks)
    far[8] = _track(8, (-60.0, -120.0), 18.07, last_seen=18.6)
    far[8].radius = r
    assert reconcile(rec, far, names) == []  # not s1 (far from its place), nor s3 (seen elsewhere then)


def _croki(tid: int, xy: tuple[float, float], born: float, path: list[tuple[float, float, float]] | None = None,
           **kw: object) -> Track:
    r = 15.875
    tr = Track(id=tid, kind=DISC, radius=r, xy=np.array(xy), anchor=np.array(xy), born=born, **kw)  # type: ignore[arg-type]
    tr.path = [Sample(t, x, y) for t, x, y in path] if path else [Sample(born, xy[0], xy[1])]
    return tr


def _n2_run() -> list[tuple[float, float, float]]:
    """North's n2 (c4h_9981 at 19.5 s): flicked from the north line, stopping at (78, 14)."""
    return [(19.50 + 0.033 * k, x, y) for k, (x, y) in enumerate(
        [(-129.0, 277.0), (-91.0, 231.0), (-64.0, 195.0), (-39.0, 162.0), (-13.0, 130.0), (10.0, 99.0),
         (34.0, 67.0), (56.0, 39.0), (74.0, 15.0), (76.0, 14.0), (78.0, 14.0)])]


def test_a_crokinole_disc_lost_before_the_shot_and_struck_is_the_new_track_it_became() -> None:
    """c4h_9981 at 19.8 s: east's dark e1, lost on its way to rest at 10.7 s, was kept where its
    course ended (77, -23), never seen there (it lay at (90, -12)), and lifted for it after 8 s
    unseen. North's n2 struck it; it was found flying to the ditch as a new nameless track, left
    out of the shot: its off_board missed, n2 called a foul (no opponent disc hit). The disc the
    shot came to touch (within a radius of its estimated place) is the new track; a disc nothing
    came near, one the rules sent out, or a new track first seen before the blow, is not."""
    n2 = _croki(7, (78.0, 14.0), 19.2, _n2_run(), last_seen=20.5)
    e1 = _croki(4, (77.0, -23.0), 10.1, [(10.60, -52.0, -140.0), (10.70, 77.0, -23.0)], state="lifted",
                last_seen=10.67, anchor_n=1, rest_xy=(278.0, 128.0))
    w1 = _croki(2, (-200.0, 150.0), 4.0, state="lifted", last_seen=14.0, anchor_n=20)  # far from n2's run
    new = _croki(8, (290.0, 166.0), 19.83, [(19.83, 148.0, 29.0), (19.87, 160.0, 42.0), (19.90, 176.0, 59.0)],
                 state="off", last_seen=20.5)
    tracks = {7: n2, 4: e1, 2: w1, 8: new}
    names = {7: "n2", 4: "e1", 2: "w1"}
    rec = ShotRecord(disc=7, start=(-129.0, 277.0), t_start=19.5, t_end=20.52, frame_start=585, frame_end=620,
                     ends={7: (78.0, 14.0), 8: "off"}, before={7: (-129.0, 277.0)})
    assert reconcile(rec, tracks, names) == [(8, 4)]
    assert reconcile(rec, tracks, names, unseen_struck=False) == []
    e1.leaving = True  # the rules sent it out: gone for good
    assert reconcile(rec, tracks, names) == []
    e1.leaving = False
    early = dict(tracks)  # first seen before n2 came near e1: something else
    early[8] = _croki(8, (290.0, 166.0), 19.55, [(19.55, 148.0, 29.0)], state="off", last_seen=20.5)
    assert reconcile(rec, early, names) == []
    far = dict(tracks)  # n2 stopped short of e1's place: nothing struck it
    far[7] = _croki(7, (10.0, 99.0), 19.2, _n2_run()[:6], last_seen=20.5)
    assert reconcile(rec, far, names) == []


def test_a_blow_carried_through_a_lost_disc_lying_across_the_way_goes_to_that_disc() -> None:
    """c2h_9944 at 10.5 s: north's n2 struck s2, which struck s1 into the ditch, both red on the
    red board and lost at rest. s1 lay across the way from s2's place to where the new track was
    first seen: a disc cannot pass through another, the new track is s1 (not s2, which n2
    touched)."""
    n2 = _croki(4, (47.0, -40.0), 3.0, [(10.30, 124.0, 125.0), (10.37, 82.0, 65.0), (10.43, 43.0, 7.0),
                                         (10.50, 34.0, -18.0), (10.57, 39.0, -30.0), (10.63, 45.0, -38.0)],
                last_seen=11.1)
    s1 = _croki(1, (-57.0, -68.0), 1.5, state="rest", occluded=True, last_seen=5.0, anchor_n=30)
    s2 = _croki(3, (6.0, -30.0), 7.0, state="rest", occluded=True, last_seen=7.5, anchor_n=30)
    new = _croki(6, (-245.0, -247.0), 10.70, [(10.70, -145.0, -164.0), (10.77, -170.0, -187.0)], state="off",
                 last_seen=11.1)
    tracks = {4: n2, 1: s1, 3: s2, 6: new}
    names = {4: "n2", 1: "s1", 3: "s2"}
    rec = ShotRecord(disc=4, start=(197.0, 234.0), t_start=10.27, t_end=11.15, frame_start=308, frame_end=339,
                     ends={4: (47.0, -40.0), 6: "off"}, before={4: (197.0, 234.0)})
    assert reconcile(rec, tracks, names) == [(6, 1)]
    aside = dict(tracks)  # s1 off the way: the disc n2 struck is the new track
    aside[1] = _croki(1, (-57.0, 68.0), 1.5, state="rest", occluded=True, last_seen=5.0, anchor_n=30)
    assert reconcile(rec, aside, names) == [(6, 3)]


def test_a_new_track_that_jumped_onto_a_disc_lost_in_the_shot_ends_as_that_disc() -> None:
    """c2h_9944 at 16.9 s: north's n3 struck s2 (lost at rest, red on the red board) into s3.
    The track found on s2's way jumped 74 mm onto s3 as s3 moved off (s3's own track lost at
    its place at 16.90 s) and ended at s3's rest: it is s3 (the disc it ends as), not s2 (the
    disc it began on), which took s3's place in the next shots (12.5 switches per 100 shots)."""
    n3 = _croki(8, (-35.0, -20.0), 15.9, [(16.70, -46.0, 19.0), (16.73, -41.0, -10.0), (16.77, -37.0, -20.0)],
                last_seen=17.4)
    s2 = _croki(3, (6.0, -30.0), 7.2, state="lifted", last_seen=7.5, anchor_n=1, rest_xy=(6.0, -30.0))
    s3 = _croki(7, (56.0, -70.0), 14.5, [(14.50, 56.0, -70.0), (16.90, 56.0, -79.0)], state="rest",
                occluded=True, last_seen=16.90)
    run = [(16.77, -17.0, -66.0), (16.80, -11.0, -71.0), (16.83, 10.0, -88.0), (16.93, 82.0, -70.0),
           (17.10, 112.0, -99.0)]
    new = _croki(9, (112.0, -99.0), 16.77, run, state="rest", last_seen=17.1)
    tracks = {8: n3, 3: s2, 7: s3, 9: new}
    names = {8: "n3", 3: "s2", 7: "s3"}
    rec = ShotRecord(disc=8, start=(-104.0, 287.0), t_start=16.47, t_end=17.45, frame_start=494, frame_end=523,
                     ends={8: (-35.0, -20.0), 9: (112.0, -99.0)}, before={8: (-104.0, 287.0), 7: (56.0, -70.0)})
    assert reconcile(rec, tracks, names) == [(9, 7)]
    stayed = dict(tracks)  # the new track stayed where it was, away from s3: no jump onto s3
    stayed[9] = _croki(9, (10.0, -88.0), 16.77, run[:3] + [(16.93, 12.0, -87.0)], state="rest", last_seen=17.1)
    assert (9, 7) not in reconcile(rec, stayed, names)
