"""Korona owners at the setup from the standard rows (where a disc stands as well as its colour),
rows found only during the first shot, and the tracks' colour classes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER
from tracker.infer import ShotRecord
from tracker.pipeline import Pipeline
from tracker.pipeline.colours import korona_owners
from tracker.pipeline.identity import reconcile
from tracker.pipeline.korona_rows import late_row_discs, row_seat
from tracker.rules.korona.setup import standard_setup
from tracker.track import Track
from tracker.track.datatypes import Sample
from tracker.track.synthetic import detections_from_truth

KB = KoronaBoard()
SEATS = ("south", "west", "north", "east")
# Mean Lab of the discs at rest before the first shot of k4h_9906 (korona 4p, hard preset):
# east's green row, south's tan row, west's black row; north's white row was under the hand.
MEASURED = {"east": (42.0, -36.0, 33.0), "south": (59.0, 10.0, 28.0), "west": (14.0, 1.5, 2.0),
            "north": (77.0, 4.0, 8.0)}


def _track(tid: int, xy: tuple[float, float], lab: tuple[float, float, float] = (0.0, 0.0, 0.0),
           born: float = 0.0, kind: int = DISC, moved: float = 0.0) -> Track:
    tr = Track(id=tid, kind=kind, radius=12.5, xy=np.array(xy), anchor=np.array(xy), anchor_n=5, born=born,
               last_seen=born + 1.0, hits=10, color=np.array(lab, float), color_n=20)
    tr.path = [Sample(born, xy[0] - moved, xy[1]), Sample(born + 0.5, xy[0], xy[1])]
    return tr


def _setup_scene(seats_seen: tuple[str, ...]) -> tuple[dict[int, Track], dict[int, tuple[float, float]], dict[int, str]]:
    rng = np.random.default_rng(3)
    tracks: dict[int, Track] = {}
    truth: dict[int, str] = {}
    for owner, xy in standard_setup(4, 8, KB).discs.values():
        if owner not in seats_seen:
            continue
        tid = len(tracks) + 1
        # uneven light: the black row's lightness and tint vary by a few units along the rim
        lab = np.array(MEASURED[owner]) + rng.normal(0, [3.0, 3.0, 3.0])
        tracks[tid] = _track(tid, xy, tuple(lab))
        truth[tid] = owner
    return tracks, {k: (float(t.xy[0]), float(t.xy[1])) for k, t in tracks.items()}, truth


def test_setup_owners_follow_the_rows_when_one_row_is_hidden() -> None:
    """k4h_9906: three rows seen, clustered four ways by colour, split the black row in two and
    named three of west's discs e1, n1, n2. Each row is its seat's (the rim opposite it)."""
    tracks, before, truth = _setup_scene(("south", "west", "east"))
    owners, colours = korona_owners(KB, SEATS, 4, tracks, before)
    assert owners == truth
    assert set(colours) == {"south", "west", "east"}
    assert np.allclose(colours["west"], MEASURED["west"], atol=3.0)


def test_a_disc_out_of_its_row_goes_by_its_colour() -> None:
    tracks, before, truth = _setup_scene(("south", "west", "north", "east"))
    tid = next(k for k, s in truth.items() if s == "west")
    tracks[tid].xy = np.array([150.0, 20.0])  # a west disc knocked out of its row before the shot
    before[tid] = (150.0, 20.0)
    owners, _ = korona_owners(KB, SEATS, 4, tracks, before)
    assert owners[tid] == "west"
    assert owners == truth


def test_row_places() -> None:
    r = KB.half - KB.disc_radius
    assert row_seat(KB, (0.0, r), SEATS) == "south"  # against the north rim: south's discs
    assert row_seat(KB, (r, -87.5), SEATS) == "west"
    assert row_seat(KB, (-143.0, r), SEATS) is None  # past the row's end
    assert row_seat(KB, (0.0, r - 40.0), SEATS) is None  # off the rim
    assert row_seat(KB, (r, 0.0), ("south", "north")) is None  # a seat not in play


def test_rows_found_during_the_first_shot_join_the_setup() -> None:
    """k4h_9906: north's row was under south's hand until 0.5 s into the first shot; its discs,
    at rest in their row places since first seen, were there all along. Not so a disc seen
    moving into a row place, a find past the row's end, or one on a disc already known."""
    r = KB.half - KB.disc_radius
    tracks = {1: _track(1, (-12.5, r), born=0.0), 2: _track(2, (0.0, -320.0), born=0.0, kind=STRIKER)}
    before = {1: (-12.5, r), 2: (0.0, -320.0)}
    for i, x in enumerate((-87.5, -62.5, -37.5, -12.5, 12.5, 37.5, 62.5, 87.5)):
        tracks[10 + i] = _track(10 + i, (x, -r), born=3.7)
    tracks[30] = _track(30, (62.5, r), born=3.8, moved=60.0)  # knocked into south's row
    tracks[31] = _track(31, (-143.0, r), born=3.7)  # past the end of south's row
    tracks[32] = _track(32, (-14.0, r), born=3.7)  # the disc seen before, found again
    tracks[33] = _track(33, (87.5, r), born=5.5)  # after the shot
    late = late_row_discs(KB, SEATS, tracks, before, t_end=4.5)
    assert sorted(late) == list(range(10, 18))


def test_a_lost_disc_is_not_joined_to_a_track_of_another_colour() -> None:
    tracks = {1: _track(1, (0.0, -300.0), born=0.0), 5: _track(5, (-411.0, -91.0)), 7: _track(7, (-411.0, -40.0))}
    tracks[5].state, tracks[5].occluded, tracks[5].last_seen, tracks[5].cls = "rest", True, 1.1, 3
    tracks[7].state, tracks[7].occluded, tracks[7].last_seen, tracks[7].cls = "rest", True, 1.1, 1
    new = _track(9, (-400.0, -95.0), born=1.2)
    new.state, new.cls = "rest", 1
    tracks[9] = new
    rec = ShotRecord(disc=1, start=(0.0, -320.0), t_start=1.0, t_end=2.0, frame_start=10, frame_end=20,
                     ends={1: (0.0, 0.0), 9: (-400.0, -95.0)}, before={1: (0.0, -320.0), 5: (-411.0, -91.0),
                                                                       7: (-411.0, -40.0)})
    assert reconcile(rec, tracks, {5: "e1", 7: "w2"}) == [(9, 7)]  # not the nearer e1, another colour


def test_korona_tracks_get_colour_classes_at_the_setup() -> None:
    """Every korona track's class was -1; the setup gives the discs their owner's class."""
    folder = Path(__file__).resolve().parents[2] / "fixtures" / "videos" / "korona_4p_part"
    truth = json.loads((folder / "truth.json").read_text())
    rows = [json.loads(x) for x in (folder / "frames.jsonl").read_text().splitlines() if x.strip()]
    setup = json.loads((folder / "shots.jsonl").read_text().splitlines()[0])["setup"]["discs"]
    p = Pipeline("korona", int(truth["players"]))
    p.start_tracking(KB)
    for i, (t, det) in enumerate(detections_from_truth(rows, noise_mm=0.3, seed=2)):
        if len(det):  # as the detector gives them: a measured colour, no class
            det.color = np.array([MEASURED[_owner_at(setup, xy)] for xy in det.xy], float)
            det.cls = np.full(len(det), -1)
        p.process_detections(det, t, i)
        if not p._need_setup:
            break
    named = {tid: n for tid, n in p.namer.names.items() if n not in p.namer.strikers.values()}
    assert named
    tracks = {tr.id: tr for tr in p.tracker.tracks}
    seats = list(p.namer.seats)
    for tid, name in named.items():
        assert seats[tracks[tid].cls][0] == name[0]


def _owner_at(setup: dict, xy: np.ndarray) -> str:
    """The owner of the setup place nearest ``xy`` (the colour a disc there is given)."""
    best = min(setup.values(), key=lambda v: float(np.hypot(v["at"][0] - xy[0], v["at"][1] - xy[1])))
    return str(best["owner"])
