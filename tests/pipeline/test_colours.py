"""Crokinole discs on the board that nobody was seen shooting (a video that starts mid-round) get
their owner from their colour against the shot disc's (``colours.crokinole_owners``): ricochet.mp4
named the black disc a red shot struck after the red's seat, because it lay on that side."""

from __future__ import annotations

import numpy as np

from tracker.infer.datatypes import ShotRecord
from tracker.pipeline.colours import crokinole_owners
from tracker.track import Track

RED = (44.0, 34.0, 18.0)
BLACK = (26.0, 2.0, -2.0)


def track(i: int, xy: tuple[float, float], colour: tuple[float, float, float] | None) -> Track:
    tr = Track(id=i, kind=0, radius=15.9, xy=np.array(xy, float))
    if colour is not None:
        tr.color, tr.color_n = np.array(colour, float), 10
    return tr


def record(tracks: dict[int, Track], shooter: int) -> ShotRecord:
    start = (float(tracks[shooter].xy[0]), float(tracks[shooter].xy[1]))
    return ShotRecord(disc=shooter, start=start, t_start=1.0, t_end=2.0, frame_start=25, frame_end=50,
                      before={k: (float(t.xy[0]), float(t.xy[1])) for k, t in tracks.items()})


def test_two_players_the_other_colour_is_the_opponent_wherever_it_lies() -> None:
    # triple.mp4: north's black shot; three reds on north's half, one black beside them
    rng = np.random.default_rng(1)

    def jitter(c: tuple[float, float, float]) -> tuple[float, float, float]:
        r = np.array(c) + rng.normal(0, 2.0, 3)
        return (float(r[0]), float(r[1]), float(r[2]))

    tracks = {1: track(1, (193.0, 205.0), jitter(BLACK)), 2: track(2, (-155.0, 40.0), jitter(RED)),
              3: track(3, (-120.0, 89.0), jitter(RED)), 4: track(4, (-60.0, 150.0), jitter(RED)),
              5: track(5, (111.0, -53.0), jitter(BLACK))}
    owners = crokinole_owners(("south", "north"), tracks, record(tracks, 1), "north")
    assert owners == {2: "south", 3: "south", 4: "south", 5: "north"}


def test_one_colour_on_the_board_gives_no_owners() -> None:
    # all black: two "clusters" are the same colour split by light, not two sides
    shades = [(26.0, 2.0, -2.0), (30.0, 3.0, -1.0), (24.0, 1.0, -3.0), (33.0, 2.0, 0.0)]
    tracks = {i + 1: track(i + 1, (50.0 * i - 100.0, -80.0), c) for i, c in enumerate(shades)}
    assert crokinole_owners(("south", "north"), tracks, record(tracks, 1), "south") == {}


def test_shot_disc_colour_unknown_gives_no_owners() -> None:
    tracks = {1: track(1, (0.0, -300.0), None), 2: track(2, (0.0, 100.0), RED), 3: track(3, (0.0, -100.0), BLACK)}
    assert crokinole_owners(("south", "north"), tracks, record(tracks, 1), "south") == {}


def test_four_players_partners_share_a_colour_and_the_side_decides() -> None:
    seats = ("south", "west", "north", "east")
    tracks = {1: track(1, (0.0, -304.0), BLACK), 2: track(2, (-150.0, 20.0), RED), 3: track(3, (160.0, -30.0), RED),
              4: track(4, (10.0, 140.0), BLACK), 5: track(5, (-20.0, -120.0), BLACK)}
    owners = crokinole_owners(seats, tracks, record(tracks, 1), "south")
    assert owners == {2: "west", 3: "east", 4: "north", 5: "south"}
