"""Whose korona discs are whose at a game's start: by where each disc stands as well as its colour.

Every korona game starts from the standard setup (Finnish rulebook 2.2; the Russian rules say the
same): each player's target discs stand in a row against the rim opposite the player, touching
each other and the rim, centred on the rim's mark (``rules.korona.setup.standard_setup``). So at
the first shot a disc's place says whose it is, whatever the light does to its colour; clustering
the colours alone into one class a player failed under the hard preset's lighting (k4h_9906: with
one row hidden, the four-way k-means split the black row in two and named three of west's discs
e1, n1, n2).

* :func:`row_seat`: the seat whose standard row holds a point (against the far rim, within the
  row's span), if that seat plays.
* :func:`seat_colours`: each seat's colour, the median Lab of the discs standing in its row (a
  median over many discs, each a mean over many frames: one badly lit disc does not move it).
* :func:`owners_by_rows`: owner per disc: the row's seat for a disc in a row (unless its colour is
  plainly another row's), the seat of the nearest row colour for a disc out of the rows. Empty
  when fewer than two rows are seen (not a standard start: the caller falls back on colour
  clustering).
* :func:`late_row_discs`: discs of the rows the detector found only during the first shot (the
  shooter's hand covered the near row while the shot was set up: k4h_9906's north row, first found
  0.5 s into the shot), still in their row places: they were there from the start.
* :func:`colour_classes`: the tracks' colour classes from the seats' colours (class = the seat's
  index), for the discs named at the setup and any track seen later.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.color import lab_distance
from tracker.seats import Seat, opposite
from tracker.track import Track

RIM_SIDES: tuple[Seat, ...] = ("south", "west", "north", "east")
# A disc stands in a row when its edge is within this many radii of the rim (it touches it).
ROW_GAP_RADII = 1.0
# A disc's colour names another seat than its row's when it is this many times nearer that
# seat's colour (a disc of another player left in a row, a non-standard start).
PLAINLY_NEARER = 0.5
# A track's colour class is set when its colour is this many times nearer one seat's colour
# than any other's (two seats' discs of much the same colour leave a track unclassed).
CLASS_NEARER = 0.5


def row_seat(board: KoronaBoard, xy: tuple[float, float], seats: Sequence[str],
             per_player: int | None = None) -> str | None:
    """The seat whose standard setup row holds ``xy`` (mm), or None: the disc touches (within
    ``ROW_GAP_RADII``) the rim opposite that seat and lies within the row's span of
    ``per_player`` discs (the board's count by default) centred on the rim's mark."""
    n = per_player or board.discs_per_player
    r = board.disc_radius
    x, y = xy
    span = 0.5 * n * board.disc_diameter + 0.5 * r
    for rim in RIM_SIDES:
        mx, my = board.rim_mark(rim)
        perp = abs(x - mx) if mx else abs(y - my)
        along = abs(y - my) if mx else abs(x - mx)
        if perp <= r * (1.0 + ROW_GAP_RADII) and along <= span:
            seat = opposite(rim)
            return seat if seat in seats else None
    return None


def seat_colours(board: KoronaBoard, seats: Sequence[str], discs: Sequence[Track],
                 at: Sequence[tuple[float, float]]) -> dict[str, np.ndarray]:
    """Seat -> median Lab colour of the discs (with a colour) standing in its row."""
    rows: dict[str, list[np.ndarray]] = {}
    for tr, xy in zip(discs, at, strict=True):
        seat = row_seat(board, xy, seats)
        if seat is not None and tr.color_n:
            rows.setdefault(seat, []).append(np.asarray(tr.color, float))
    return {s: np.median(np.array(c), axis=0) for s, c in rows.items()}


def nearest_seat(colours: dict[str, np.ndarray], lab: np.ndarray, ratio: float = 1.0) -> str | None:
    """The seat whose colour is nearest ``lab``, when it is ``ratio`` times nearer than any other
    seat's (1.0: simply the nearest)."""
    if not colours:
        return None
    d = sorted((lab_distance(lab, c), s) for s, c in colours.items())
    if len(d) > 1 and d[0][0] > ratio * d[1][0]:
        return None
    return d[0][1]


def owners_by_rows(board: KoronaBoard, seats: Sequence[str], discs: Sequence[Track],
                   at: Sequence[tuple[float, float]]) -> tuple[dict[int, str], dict[str, np.ndarray]]:
    """(track id -> owner seat, seat -> colour) from the standard rows; ({}, {}) when fewer than
    two seats' rows are seen."""
    colours = seat_colours(board, seats, discs, at)
    if len(colours) < 2:
        return {}, {}
    out: dict[int, str] = {}
    for tr, xy in zip(discs, at, strict=True):
        seat = row_seat(board, xy, seats)
        by_colour = nearest_seat(colours, np.asarray(tr.color, float), PLAINLY_NEARER if seat else 1.0) \
            if tr.color_n else None
        owner = by_colour or seat
        if owner is not None:
            out[tr.id] = owner
    return out, colours


def late_row_discs(board: KoronaBoard, seats: Sequence[str], tracks: dict[int, Track],
                   before: dict[int, tuple[float, float]], t_end: float) -> dict[int, tuple[float, float]]:
    """Discs found only during the first shot, standing in a row place at rest since they were
    first seen (so not knocked there), away from every disc seen before the shot, up to the count
    the fullest row shows: track id -> place."""
    r = board.disc_radius
    known = np.array(list(before.values()), float).reshape(-1, 2)
    counts: dict[str, int] = {}
    for k, xy in before.items():
        tr = tracks.get(k)
        seat = row_seat(board, xy, seats) if tr is not None and tr.kind == 0 else None
        if seat is not None:
            counts[seat] = counts.get(seat, 0) + 1
    full = max([board.discs_per_player, *counts.values()])
    out: dict[int, tuple[float, float]] = {}
    for tr in sorted(tracks.values(), key=lambda t: (t.born, t.id)):
        if tr.id in before or tr.kind != 0 or tr.state != "rest" or tr.born > t_end or tr.hits < 3:
            continue
        xy = tr.position()
        seat = row_seat(board, xy, seats)
        if seat is None or counts.get(seat, 0) >= full:
            continue
        pts = np.array([(s.x, s.y) for s in tr.path if s.measured], float).reshape(-1, 2)
        if len(pts) and float(np.hypot(*(pts - np.array(xy)).T).max()) > r:
            continue  # it moved: a disc knocked there, not one standing there from the start
        taken = np.vstack([known, np.array(list(out.values()), float).reshape(-1, 2)])
        if len(taken) and float(np.hypot(*(taken - np.array(xy)).T).min()) < 1.5 * r:
            continue
        out[tr.id] = xy
        counts[seat] = counts.get(seat, 0) + 1
    return out


def colour_classes(seats: Sequence[str], colours: dict[str, np.ndarray], owners: dict[int, str],
                   tracks: dict[int, Track]) -> None:
    """Give the tracks colour classes (``Track.cls`` = index of the seat in ``seats``): the owner's
    for the discs named at the setup; for any other disc with a colour and no class yet, the seat
    whose colour is plainly nearest (``CLASS_NEARER``). A track its detections gave a class
    (detections made from a rendered match's truth) keeps it."""
    order = list(seats)
    for tr in tracks.values():
        if tr.kind != 0 or tr.cls_votes:  # classed by its detections already (truth detections)
            continue
        seat = owners.get(tr.id)
        if seat is None and tr.cls < 0 and tr.color_n:
            seat = nearest_seat(colours, np.asarray(tr.color, float), CLASS_NEARER)
        if seat in order:
            tr.cls = order.index(seat)
