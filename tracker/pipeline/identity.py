"""Who is who, where vision alone is unsure: pure functions the pipeline asks between tracking and
naming.

* :func:`reconcile`: after a shot, a named disc that vanished during it and a nameless track that
  turned up then are one disc, knocked away too fast to follow (at 10 fps a struck disc may cross
  several diameters between frames and the tracker starts a new track). Nearest first.
* :func:`owners_from_rows`: korona colours to seats from the standard start, where every
  player's discs stand in a row against the far rim (rules setup, 2.2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.infer import ShotRecord
from tracker.infer.ends import reached
from tracker.pipeline.found_in_place import found_in_place
from tracker.seats import opposite
from tracker.track import Track, TrackerConfig
from tracker.track.merge import other_colour

REACH_MM = 300.0  # farthest a new track may start from where the vanished disc rested
# Two discs cannot lie closer than the sum of their radii; a nameless track that rested closer
# than this share of it to a named disc is that disc seen twice (a stray fit), not a disc.
TWIN_OVERLAP = 0.9


def reconcile(rec: ShotRecord, tracks: dict[int, Track], names: dict[int, str],
              korona: bool = False, unlike: float | None = None) -> list[tuple[int, int]]:
    """(new track, vanished named track) pairs that are the same disc, for the shot ``rec``.

    New: a nameless track in the shot's ends, born during the shot. Vanished: a named track last
    seen during the shot and unseen since (lifted, or resting and covered); in ``korona``, also one
    covered since before the shot whose place a mover's path reached (the detector loses rim
    rows for seconds: korona_ru_part's north row from 4.8 s to 9.8 s). Pairs are taken
    nearest first (the new track's first sample against the old one's last place), same kind
    and colour class only (korona classes: ``pipeline.korona_rows.colour_classes``), within
    ``REACH_MM``; crokinole: only where the disc could have got to in the time between
    (``_reachable``; korona at 10 fps untried: k4h_9806's pockets 100%/60% -> 33%/33% with it)."""
    found = [tracks[k] for k in rec.ends if k in tracks and k not in names and k not in rec.before
             and k != rec.disc and tracks[k].born >= rec.t_start - 0.05]
    used: set[int] = set()
    out: list[tuple[int, int]] = []
    if found:
        lost = [tr for tr in tracks.values() if tr.id in names and tr.id != rec.disc
                and rec.t_start - 0.05 <= tr.last_seen < rec.t_end
                and (tr.state == "lifted" or (tr.state == "rest" and tr.occluded))]
        if korona:
            movers = [tracks[k] for k in rec.ends if k in tracks]
            lost += [tr for tr in tracks.values() if tr.id in names and tr.id != rec.disc and tr not in lost
                     and tr.state == "rest" and tr.occluded and tr.last_seen < rec.t_start - 0.05
                     and reached([m for m in movers if m.id != tr.id], tr.position(), tr.radius, rec.t_start,
                                 tr.radius)]
        out = _nearest_first(found, lost, lambda n, o: _same_class(n, o) and (korona or _reachable(rec, n, o))
                             and (unlike is None or not other_colour(o, n, unlike)), used, REACH_MM)
    if korona:
        out += _pocketed_by_class(rec, tracks, names, used)
    return out + (found_in_place(rec, tracks, names, used) if korona else [])


def _pocketed_by_class(rec: ShotRecord, tracks: dict[int, Track], names: dict[int, str],
                       used: set[int]) -> list[tuple[int, int]]:
    """Korona: a nameless track the shot sent down a pocket, left unpaired by ``reconcile``'s first
    pass (``used``; found during the shot, or at rest since an earlier one), is a disc of its
    colour class that nobody sees now (covered at rest or lifted), wherever it lay: a pocket is
    scored by its owner, and the detector loses rim rows for seconds, so the disc's own track may
    have gone unseen well before the shot, far from where the new track was found
    (korona_2p_game: 8 pocketed tracks left nameless and out of the shot log). Only a classed
    track that is not a named disc's twin (``_twin_of_named``), and only to a disc of that class,
    nearest to the new track's first place first."""
    pocketed = [tracks[k] for k, end in rec.ends.items() if k in tracks and k not in names and k != rec.disc
                and k not in used and tracks[k].cls >= 0 and str(end).startswith("pocket:")
                and not _twin_of_named(rec, tracks, names, tracks[k])]
    unseen = [tr for tr in tracks.values() if tr.id in names and tr.id not in used and tr.id != rec.disc
              and tr.cls >= 0 and (tr.state == "lifted" or (tr.state == "rest" and tr.occluded))]
    return _nearest_first(pocketed, unseen, lambda n, o: n.cls == o.cls, used)


def _twin_of_named(rec: ShotRecord, tracks: dict[int, Track], names: dict[int, str], tr: Track) -> bool:
    """Whether ``tr`` rested before the shot overlapping a named disc at rest then (centres closer
    than ``TWIN_OVERLAP`` of their radii's sum: two discs cannot lie so): a stray track of that
    disc, not a disc of its own to be named and score a pocket. k4h_9706 at 36.8 s: a nameless
    track 20 mm from e7 (radii 12.5 mm), called down the sw pocket when e7 was knocked onto its
    place, took the name of w6 (lifted since 9 s) and scored a pocket nobody made."""
    at = rec.before.get(tr.id)
    if at is None:
        return False
    for k, xy in rec.before.items():
        other = tracks.get(k)
        if k == tr.id or k not in names or other is None or other.kind != tr.kind:
            continue
        if float(np.hypot(at[0] - xy[0], at[1] - xy[1])) < TWIN_OVERLAP * (tr.radius + other.radius):
            return True
    return False


def _nearest_first(new: Sequence[Track], old: Sequence[Track], alike: Callable[[Track, Track], bool],
                   used: set[int], reach: float = math.inf) -> list[tuple[int, int]]:
    """(new, old) track id pairs of the same kind and ``alike``, nearest first (the new track's
    first sample against the old one's last place), within ``reach`` mm, neither already
    ``used`` (which the pairs taken join)."""
    pairs = sorted((float(np.hypot(n.path[0].x - o.position()[0], n.path[0].y - o.position()[1])), n.id, o.id)
                   for n in new for o in old if n.kind == o.kind and alike(n, o))
    out: list[tuple[int, int]] = []
    for d, a, b in pairs:
        if d > reach or a in used or b in used:
            continue
        used |= {a, b}
        out.append((a, b))
    return out


def _reachable(rec: ShotRecord, new: Track, old: Track) -> bool:
    """Whether the disc last seen as ``old`` could be where ``new`` was first seen, at the fastest
    a disc goes (``TrackerConfig.v_max``) in the time from the one sighting to the other. A track
    first seen before the other was last seen, away from it, is another thing seen at the same
    time: c4h_9803 at 23.1 s, a false find at rest in the ditch (first seen at 23.07 s, 290 mm
    off) took the name of n2, which a peg hid from 23.1 s on, and n2 was called off the board.
    Unless ``new`` was first seen where ``old`` rested before the shot (within a disc's width):
    then ``old`` followed another disc away, one hidden beside it that the shot struck, and
    ``new`` is the disc itself (c2h_9802 at 18.1 s: s1 and the unseen s3 struck by n3, s1's
    track went off with s3 and s1 was found again at its place)."""
    gap = max(new.born - old.last_seen, 0.0)
    d = float(np.hypot(new.path[0].x - old.position()[0], new.path[0].y - old.position()[1]))
    if d <= new.radius + old.radius + TrackerConfig().v_max * gap:
        return True
    at = rec.before.get(old.id)
    return at is not None and float(np.hypot(new.path[0].x - at[0], new.path[0].y - at[1])) <= new.radius + old.radius


def _same_class(a: Track, b: Track) -> bool:
    """Not told apart by colour: the same colour class, or either unclassed."""
    return a.cls < 0 or b.cls < 0 or a.cls == b.cls


def owners_from_rows(board: CrokinoleBoard | KoronaBoard, seats: Sequence[str], at: Sequence[tuple[float, float]],
                     classes: Sequence[int]) -> dict[int, int]:
    """Colour class -> index of its owner in ``seats``, when the game starts from the standard rows.

    A colour whose discs (at ``at``, class ``classes``) all rest against one rim belongs to the
    seat opposite that rim. Only when every colour sits along its own rim, opposite an occupied
    seat; else {} (the lightest-first colour convention stands)."""
    if not isinstance(board, KoronaBoard):
        return {}
    order = list(seats)
    out: dict[int, int] = {}
    for c in sorted(set(classes)):
        pts = np.array([xy for xy, k in zip(at, classes, strict=True) if k == c])
        sides = {board.seat_of(float(x), float(y)) for x, y in pts}
        near_rim = bool(np.all(np.abs(pts).max(axis=1) > board.half - 4 * board.disc_radius))
        if len(sides) != 1 or not near_rim:
            return {}
        seat = opposite(sides.pop())
        if seat not in order or order.index(seat) in out.values():
            return {}
        out[c] = order.index(seat)
    return out
