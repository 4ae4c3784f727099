"""Korona: how many discs each player started a game with, and where the ones vision missed stood.

Every korona game starts from the standard setup (Finnish rulebook 2.2): each player's target
discs in a row against the rim opposite him, as many for every player (``KoronaBoard``'s
``discs_per_player``). Vision counts them at the first shot, and counts wrong both ways: a disc
too many (a hand or cue taken for one) and, far more often under the hard preset, too few (a row
found only in part: the shooter's hand over the near row while the shot is set up, rows against
the rim found on the detector's full passes only). The rules refuse uneven counts, so the setup
evens them out:

* :func:`setup_count`: the count every player started with. The standard count when some seat
  shows it (a whole row seen), else the least count seen, as before. Trimming every seat down to
  the least cut 12 real discs out of k4h_9984's setup (south's row seen 4 of 8): every pocket
  of theirs was left out of the log as a disc the rules never met.
* :func:`even_out`: the discs above that count are dropped (never one the first shot moved).
* :func:`missing_places`: the places of the discs a seat is short, in its standard row: those no
  seen disc of its stands on. They are named like the discs of a row never seen
  (``Namer._assume_unseen_rows``) and claimed by the disc later found there
  (``Namer.claim_assumed``).

Pure functions on owners, tracks and the board model.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.track.datatypes import Track


def setup_count(owners: Mapping[int, str], board: CrokinoleBoard | KoronaBoard) -> int | None:
    """The number of discs each player started with, from ``owners`` (track id -> seat): the
    board's standard count when a seat counts exactly that, else the least count of a seat with
    any (None: no seat has any)."""
    counts = Counter(owners.values())
    if not counts:
        return None
    standard = board.discs_per_player if isinstance(board, KoronaBoard) else None
    if standard is not None and standard in counts.values():
        return standard
    return min(counts.values())


def even_out(owners: dict[int, str], tracks: Mapping[int, Track], k: int | None,
             moved: set[int] | frozenset[int] = frozenset()) -> list[int]:
    """Drop the discs of a seat above ``k`` (:func:`setup_count`) from ``owners`` (in place): a
    spurious detection, a hand or cue taken for a disc. Never one in ``moved`` (the setup is
    written once the first shot is over, and a disc that shot moved is real and in play:
    korona_pocket's first shot pockets a south disc set down late), then the latest-seen first
    (the setup discs are on the table from the start). Returns the dropped track ids."""
    per: dict[str, list[int]] = {}
    for tid, seat in owners.items():
        per.setdefault(seat, []).append(tid)
    if len(per) < 2 or k is None:
        return []
    dropped: list[int] = []
    for ids in per.values():
        ids.sort(key=lambda t: (t not in moved, tracks[t].born, -tracks[t].hits))
        for tid in ids[k:]:
            del owners[tid]
            dropped.append(tid)
    return dropped


def missing_places(board: KoronaBoard, seats: Sequence[str], k: int,
                   seen: Sequence[tuple[str, tuple[float, float]]]) -> list[tuple[str, tuple[float, float]]]:
    """The standard row places (for ``k`` discs a player) of the discs each seat is short of
    ``k``, given the discs ``seen`` (owner, place): each seen disc takes the free place nearest
    it, nearest pairs first, and the places left over are the missing discs', in the standard
    setup's order."""
    from tracker.rules.korona.setup import standard_setup

    out: list[tuple[str, tuple[float, float]]] = []
    for seat in seats:
        places = [at for owner, at in standard_setup(len(seats), k, board).discs.values() if owner == seat]
        mine = [at for owner, at in seen if owner == seat]
        if not mine or len(mine) >= k:
            continue  # a row never seen is assumed whole (``Namer._assume_unseen_rows``)
        pairs = sorted((math.dist(p, q), i, j) for i, p in enumerate(places) for j, q in enumerate(mine))
        taken: set[int] = set()
        used: set[int] = set()
        for _, i, j in pairs:
            if i not in taken and j not in used:
                taken.add(i)
                used.add(j)
        out.extend((seat, at) for i, at in enumerate(places) if i not in taken)
    return out
