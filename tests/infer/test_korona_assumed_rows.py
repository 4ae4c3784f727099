"""Korona: a seat none of whose discs was seen at the start still plays (its row assumed in the
standard setup), instead of the rules refusing the whole game for uneven counts."""

from __future__ import annotations

import numpy as np
import pytest

from tests.infer.korona_setup_rows import rows_seen
from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC
from tracker.errors import InputError
from tracker.infer.datatypes import Contact, ShotRecord
from tracker.infer.naming import Namer
from tracker.rules import engine_for
from tracker.rules.korona.setup import standard_setup
from tracker.shotlog import Setup
from tracker.track.datatypes import Sample, Track

KB = KoronaBoard()


def _rows(seen: tuple[str, ...]) -> tuple[Namer, dict[int, Track], dict[int, tuple[float, float]]]:
    """Four players; the discs of the seats in ``seen`` stand in their standard rows, long at
    rest, with their owners known; the other seats' rows were never seen."""
    return rows_seen(lambda owner, _k: owner in seen)


def test_a_seat_whose_row_was_never_seen_is_assumed_in_the_standard_setup() -> None:
    namer, tracks, before = _rows(("south", "west", "north"))
    setup = namer.setup(tracks, before, striker=99)
    owners = [o for o, _ in setup.discs.values()]
    assert [owners.count(s) for s in ("south", "west", "north", "east")] == [8, 8, 8, 8]
    east = sorted(at for n, (o, at) in setup.discs.items() if o == "east")
    std = sorted(at for o, at in standard_setup(4, 8, KB).discs.values() if o == "east")
    assert east == std
    assert set(namer.assumed) == {n for n, (o, _) in setup.discs.items() if o == "east"}
    engine_for("korona", 4).apply(setup)  # accepted: every player has eight discs


def test_without_the_assumption_the_rules_refuse_the_game() -> None:
    """What the assumption prevents: the same setup without east's discs is refused."""
    namer, tracks, before = _rows(("south", "west", "north"))
    setup = namer.setup(tracks, before, striker=99)
    seen = {n: d for n, d in setup.discs.items() if n not in namer.assumed}
    with pytest.raises(InputError, match="same number of discs"):
        engine_for("korona", 4).apply(Setup(discs=seen, strikers=setup.strikers))


def test_rows_seen_by_every_seat_assume_nothing() -> None:
    namer, tracks, before = _rows(("south", "west", "north", "east"))
    namer.setup(tracks, before, striker=99)
    assert namer.assumed == {}


def test_a_disc_moved_from_an_assumed_place_takes_its_name() -> None:
    """East's row was never seen; a shot later knocks a disc out of one of its places: that
    disc is the assumed one (its name, not left out of the log as a disc the rules never met)."""
    namer, tracks, before = _rows(("south", "west", "north"))
    setup = namer.setup(tracks, before, striker=99)
    name, at = min(namer.assumed.items(), key=lambda kv: kv[1][1])
    struck = 77
    tracks[struck] = Track(id=struck, kind=DISC, radius=KB.disc_radius, xy=np.array((-300.0, -100.0)),
                           anchor=np.array(at), anchor_n=5)
    tracks[99] = Track(id=99, kind=1, radius=KB.striker_radius, xy=np.array((-200.0, -60.0)),
                       anchor=np.array((-200.0, -60.0)), anchor_n=5)
    start = (-250.0, 0.0)
    rec = ShotRecord(disc=99, start=start, t_start=5.0, t_end=6.0, frame_start=150, frame_end=180,
                     contacts=(Contact(5.4, 99, struck),), ends={99: (-200.0, -60.0), struck: (-300.0, -100.0)},
                     before={99: start, struck: (at[0] + 3.0, at[1])})
    shot = namer.shot(rec, tracks, "east")
    assert namer.names[struck] == name and name not in namer.assumed
    assert shot.end[name] == (-300.0, -100.0)
    assert (shot.disc, name) in shot.contacts
    assert setup.discs[name][0] == "east"


def _shot_on_east_row(before: dict[int, tuple[float, float]], ends: dict[int, object]) -> ShotRecord:
    """East's shot from its striking line, with the given discs' places before and ends."""
    start = (-250.0, 0.0)
    return ShotRecord(disc=99, start=start, t_start=5.0, t_end=6.0, frame_start=150, frame_end=180,
                      contacts=(), ends={99: (-200.0, -60.0), **ends},  # type: ignore[dict-item]
                      before={99: start, **before})


def test_a_disc_first_found_as_its_shot_struck_it_from_an_assumed_place_takes_its_name() -> None:
    """k4h_9706: south's row was unseen until its first shot struck it; the struck disc's track
    was born during the shot 16 mm from its assumed place, and went down the nw pocket 30 s
    later with no name, left out of the log. First found within a diameter of an assumed place
    during the shot, it is that disc, and its pocket is logged under its name."""
    namer, tracks, _ = _rows(("south", "west", "north"))
    namer.setup(tracks, {k: tuple(tr.xy) for k, tr in tracks.items()}, striker=99)  # type: ignore[misc]
    name, at = min(namer.assumed.items(), key=lambda kv: kv[1][1])
    struck = 77
    tracks[struck] = Track(id=struck, kind=DISC, radius=KB.disc_radius, xy=np.array((-300.0, -100.0)), born=5.4)
    tracks[struck].path.append(Sample(5.4, at[0] + 10.0, at[1] + 12.0, True))
    tracks[99] = Track(id=99, kind=1, radius=KB.striker_radius, xy=np.array((-200.0, -60.0)))
    shot = namer.shot(_shot_on_east_row({}, {struck: "pocket:sw"}), tracks, "east")
    assert namer.names[struck] == name and shot.end[name] == "pocket:sw"


def test_a_disc_found_at_rest_on_an_assumed_place_takes_its_name_and_a_far_one_does_not() -> None:
    """The rest of an unseen row found later where the setup assumed it (k4h_9706 at 15 s:
    five of south's discs found in their standard places) are those discs; a nameless disc
    lying away from every assumed place stays nameless."""
    namer, tracks, _ = _rows(("south", "west", "north"))
    namer.setup(tracks, {k: tuple(tr.xy) for k, tr in tracks.items()}, striker=99)  # type: ignore[misc]
    (name, at), = [kv for kv in namer.assumed.items() if kv[1][1] == max(a[1] for a in namer.assumed.values())]
    tracks[78] = Track(id=78, kind=DISC, radius=KB.disc_radius, xy=np.array((at[0] + 4.0, at[1])))
    tracks[79] = Track(id=79, kind=DISC, radius=KB.disc_radius, xy=np.array((0.8 * at[0], at[1])))
    tracks[99] = Track(id=99, kind=1, radius=KB.striker_radius, xy=np.array((-200.0, -60.0)))
    namer.shot(_shot_on_east_row({78: (at[0] + 4.0, at[1]), 79: (0.8 * at[0], at[1])}, {}), tracks, "east")
    assert namer.names.get(78) == name and 79 not in namer.names
