"""Korona setup counts (``setup_counts``): a row seen only in part is completed with assumed discs
at its free places, instead of every other seat being cut down to its count (k4h_9984: south's
row seen 4 of 8 at the first shot, 12 real discs dropped from the setup, and their pockets left
out of the log as discs the rules never met)."""

from __future__ import annotations

import numpy as np

from tests.infer.korona_setup_rows import rows_seen
from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC
from tracker.infer.datatypes import ShotRecord
from tracker.infer.naming import Namer
from tracker.infer.setup_counts import missing_places, setup_count
from tracker.rules import engine_for
from tracker.rules.korona.setup import standard_setup
from tracker.track.datatypes import Sample, Track

KB = KoronaBoard()


def _rows(south_seen: tuple[int, ...]) -> tuple[Namer, dict[int, Track], dict[int, tuple[float, float]]]:
    """Four players in their standard rows, long at rest, owners known; of south's eight discs
    only those at the indices ``south_seen`` (0-7, along its row) were seen."""
    return rows_seen(lambda owner, k: owner != "south" or k in south_seen)


def test_a_row_seen_in_part_is_completed_and_no_other_disc_is_dropped() -> None:
    namer, tracks, before = _rows((2, 3, 4, 5))
    setup = namer.setup(tracks, before, striker=99)
    owners = [o for o, _ in setup.discs.values()]
    assert [owners.count(s) for s in ("south", "west", "north", "east")] == [8, 8, 8, 8]
    assert namer.dropped == []
    assert len(namer.names) == 28  # every disc seen is named (was 16: four a seat)
    std = [at for o, at in standard_setup(4, 8, KB).discs.values() if o == "south"]
    assert sorted(namer.assumed.values()) == sorted(std[i] for i in (0, 1, 6, 7))  # the free places
    engine_for("korona", 4).apply(setup)  # accepted: every player has eight discs


def test_a_disc_of_the_part_row_first_found_during_the_shot_takes_an_assumed_name_and_its_pocket() -> None:
    """The disc at a free place of south's row, first found as the shot struck it and pocketed:
    it is the assumed disc, and its pocket is logged under its name."""
    namer, tracks, before = _rows((2, 3, 4, 5))
    namer.setup(tracks, before, striker=99)
    name, at = max(namer.assumed.items(), key=lambda kv: kv[1][0])
    tracks[77] = Track(id=77, kind=DISC, radius=KB.disc_radius, xy=np.array((390.0, 410.0)), born=5.4,
                       state="pocket", pocket="ne")
    tracks[77].path.append(Sample(5.4, at[0] + 10.0, at[1], True))
    tracks[99] = Track(id=99, kind=1, radius=KB.striker_radius, xy=np.array((0.0, -300.0)))
    start = (0.0, -320.0)
    rec = ShotRecord(disc=99, start=start, t_start=5.0, t_end=6.0, frame_start=150, frame_end=180,
                     ends={99: (0.0, -300.0), 77: "pocket:ne"}, before={99: start})
    shot = namer.shot(rec, tracks, "south")
    assert namer.names[77] == name and shot.end[name] == "pocket:ne"


def test_setup_count_is_the_standard_when_a_seat_shows_it_else_the_least() -> None:
    assert setup_count({1: "south", 2: "north"} | {10 + i: "west" for i in range(8)}, KB) == 8
    assert setup_count({1: "south", 2: "north", 3: "north"}, KB) == 1
    assert setup_count({}, KB) is None


def test_missing_places_leave_the_places_seen_discs_stand_near() -> None:
    std = [at for o, at in standard_setup(2, 8, KB).discs.values() if o == "north"]
    seen = [("north", (std[1][0] + 6.0, std[1][1])), ("north", (std[5][0] - 4.0, std[5][1]))]
    got = missing_places(KB, ("south", "north"), 8, seen)
    assert [at for _, at in got] == [at for i, at in enumerate(std) if i not in (1, 5)]
    assert {o for o, _ in got} == {"north"}


def test_a_disc_first_found_sliding_along_the_part_rows_rim_takes_an_assumed_name() -> None:
    """k4h_9984 at 3.9 s: a disc of south's row that the detector never saw at rest, struck
    along its rim, first found 240 mm from its place on its way down the ne pocket. It is one
    of the row's assumed discs (the nearest free place along that rim); a disc first found in
    the open far from any assumed place stays nameless."""
    namer, tracks, before = _rows((0, 1, 2, 3))
    namer.setup(tracks, before, striker=99)
    rim_y = KB.half - KB.disc_radius
    far_east = max(namer.assumed.items(), key=lambda kv: kv[1][0])
    tracks[77] = Track(id=77, kind=DISC, radius=KB.disc_radius, xy=np.array((390.0, rim_y)), born=5.4,
                       state="pocket", pocket="ne")
    tracks[77].path.append(Sample(5.4, far_east[1][0] + 240.0, rim_y - 1.5, True))
    tracks[78] = Track(id=78, kind=DISC, radius=KB.disc_radius, xy=np.array((60.0, 100.0)), born=5.5)
    tracks[78].path.append(Sample(5.5, 60.0, 100.0, True))
    tracks[99] = Track(id=99, kind=1, radius=KB.striker_radius, xy=np.array((0.0, -300.0)))
    start = (0.0, -320.0)
    rec = ShotRecord(disc=99, start=start, t_start=5.0, t_end=6.0, frame_start=150, frame_end=180,
                     ends={99: (0.0, -300.0), 77: "pocket:ne", 78: (60.0, 100.0)}, before={99: start})
    shot = namer.shot(rec, tracks, "south")
    assert namer.names.get(77) == far_east[0] and shot.end[far_east[0]] == "pocket:ne"
    assert 78 not in namer.names
