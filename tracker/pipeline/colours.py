"""Whose discs are which colour, learned from the discs at rest before a shot.

Korona (``korona_owners``): at a game's start the discs stand in the standard rows, so a disc's
place says whose it is (``korona_rows``); the seats' colours are learned from the rows. Only when
fewer than two rows are seen are the colours clustered (``ColorModel``, classes lightest first)
and handed to seats by the rows they lie in (``identity.owners_from_rows``), falling back to the
convention lightest colour for south, then clockwise. The result goes to the namer
(``Namer.owners``), and the seats' colours give the tracks their colour classes
(``korona_rows.colour_classes``; the detections carry no class, so the tracker's class clash
penalty does not split a resting disc from its detections).

Crokinole (``crokinole_owners``): a disc is named when first shot, but a video often starts
mid-round, with discs on the board nobody was seen shooting (triple.mp4, ricochet.mp4). The
namer then names them by the colour each seat was seen shooting, which needs both sides' shots,
and otherwise by the side of the board they lie on: on a real board the discs lie anywhere, so
half of them went to the wrong player. Crokinole has two sides (2 players, or 2 teams of
partners), so the discs at rest before a shot fall into two colour clusters; when the clusters
are clearly apart (two colours are on the board, not one colour split by light), the shot disc's
cluster is the shooter's side and the other is the opponents'. Partners share a colour: of a
team, the seat on whose side of the board the disc lies. Discs found nowhere near either colour
(a hand taken for a disc) get no owner. The discs on the board when the view began are logged
with these owners as unseen shots, so they score (``missed.on_board_at_start``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.infer import ShotRecord
from tracker.pipeline.identity import owners_from_rows
from tracker.pipeline.korona_rows import owners_by_rows
from tracker.seats import CLOCKWISE
from tracker.track import Track


def korona_owners(board: CrokinoleBoard | KoronaBoard, seats: Sequence[str], players: int,
                  tracks: dict[int, Track], before: dict[int, tuple[float, float]]
                  ) -> tuple[dict[int, str], dict[str, np.ndarray]]:
    """(track id -> seat, seat -> colour) for the discs at rest ``before`` the first shot: by
    the standard rows where they are seen (``korona_rows.owners_by_rows``: a disc's place as well
    as its colour), else by clustering the colours (empty for fewer than two colours' worth of
    discs)."""
    from tracker.detect.color import ColorModel

    discs = [tracks[k] for k in before if k in tracks and tracks[k].kind == 0 and tracks[k].color_n]
    if isinstance(board, KoronaBoard):
        by_rows, colours = owners_by_rows(board, seats, discs, [before[d.id] for d in discs])
        if by_rows:
            return by_rows, colours
    k = min(players, len(discs))
    if k < 2:
        return {}, {}
    model = ColorModel.fit(np.array([d.color for d in discs]), k=k)
    classes = [int(c) for c in model.predict(np.array([d.color for d in discs]))]
    owner = owners_from_rows(board, seats, [before[d.id] for d in discs], classes)
    out: dict[int, str] = {}
    found: dict[str, np.ndarray] = {}
    for c in sorted(set(classes)):
        i = owner.get(c, c)
        if i < len(seats):
            found[str(seats[i])] = model.centres[c]
    for d, c in zip(discs, classes, strict=True):
        i = owner.get(c, c)
        if i < len(seats):
            out[d.id] = str(seats[i])
    return out, found


# Two colour clusters count as two sides when their centres are this far apart (lightness-damped
# Lab, ``ColorModel`` features) and this many times their members' mean spread: red against black
# discs are ~40 apart, light against dark wood ~18; one colour split by light or shadow, under 8.
SIDES_APART = 12.0
SIDES_RATIO = 3.0


def crokinole_owners(seats: Sequence[str], tracks: dict[int, Track], rec: ShotRecord, shooter_seat: str) -> dict[int, str]:
    """Track id -> seat for the discs at rest before the shot ``rec``, by colour against the shot
    disc's (see the module docstring); empty when the shot disc's colour is unknown or the discs
    do not show two colours."""
    from tracker.detect.color import LAB_WEIGHT, ColorModel

    shot_colour = _shot_colour(tracks, rec)
    if shot_colour is None or shooter_seat not in seats:
        return {}
    discs = [tracks[k] for k in rec.before if k in tracks and k != rec.disc and tracks[k].color_n]
    if not discs:
        return {}
    colours = np.array([shot_colour] + [d.color for d in discs], float)
    model = ColorModel.fit(colours, k=2)
    feats = colours * LAB_WEIGHT
    centres = model.centres * LAB_WEIGHT
    cls = np.argmin(((feats[:, None, :] - centres[None]) ** 2).sum(2), axis=1)
    if len(set(cls.tolist())) < 2:
        return {}
    apart = float(np.linalg.norm(centres[0] - centres[1]))
    spread = float(np.mean(np.linalg.norm(feats - centres[cls], axis=1)))
    if apart < SIDES_APART or apart < SIDES_RATIO * spread:
        return {}
    mine = _team(shooter_seat, seats)
    theirs = [s for s in seats if s not in mine]
    out: dict[int, str] = {}
    for d, c, f in zip(discs, cls[1:], feats[1:], strict=True):
        if float(np.linalg.norm(f - centres[c])) > 0.5 * apart:  # like neither colour
            continue
        team = mine if c == cls[0] else theirs
        if team:
            out[d.id] = _nearest_seat(team, rec.before[d.id])
    return out


def _shot_colour(tracks: dict[int, Track], rec: ShotRecord) -> np.ndarray | None:
    """The shot disc's colour, as seen at rest before the flick. A track first seen in flight
    (the hand hid the disc on the line) has only colours from after its collisions, where it may
    have taken over a struck disc's identity (triple.mp4: the black shot disc's track ended on a
    red): then the colour of the disc seen waiting where the shot started, within 3 radii."""
    tr = tracks.get(rec.disc)
    if tr is not None and tr.color_n and tr.born < rec.t_start - 1e-6:
        return tr.color
    start = np.array(rec.start, float)
    near = [(float(np.hypot(*(np.array(xy) - start))), k) for k, xy in rec.before.items()
            if k != rec.disc and k in tracks and tracks[k].color_n]
    near = [(d, k) for d, k in near if d < 3 * tracks[k].radius]
    return tracks[min(near)[1]].color if near else None


def _team(seat: str, seats: Sequence[str]) -> list[str]:
    """The seats sharing ``seat``'s colour: itself, and its partner opposite with four players."""
    if len(seats) == 4:
        i = CLOCKWISE.index(seat)
        return [seat, CLOCKWISE[(i + 2) % 4]]
    return [seat]


def _nearest_seat(team: Sequence[str], at: tuple[float, float]) -> str:
    """Of a team, the seat on whose side of the board ``at`` lies."""
    angle = {"east": 0.0, "north": 90.0, "west": 180.0, "south": 270.0}
    a = float(np.degrees(np.arctan2(at[1], at[0]))) % 360
    return min(team, key=lambda s: abs((angle[s] - a + 180) % 360 - 180))
