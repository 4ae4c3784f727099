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
from tracker.track.blows import segment_distance
from tracker.track.merge import other_colour

REACH_MM = 300.0  # farthest a new track may start from where the vanished disc rested
# Two discs cannot lie closer than the sum of their radii; a nameless track that rested closer
# than this share of it to a named disc is that disc seen twice (a stray fit), not a disc.
TWIN_OVERLAP = 0.9


def reconcile(rec: ShotRecord, tracks: dict[int, Track], names: dict[int, str],
              korona: bool = False, unlike: float | None = None,
              unseen_struck: bool = True, retired: frozenset[int] = frozenset()) -> list[tuple[int, int]]:
    """(new track, vanished named track) pairs that are the same disc, for the shot ``rec``.

    New: a nameless track in the shot's ends, born during the shot. Vanished: a named track last
    seen during the shot and unseen since (lifted, or resting and covered); also one covered since
    before the shot whose place a mover's path reached: in ``korona`` wherever the new track was
    first seen (the detector loses rim rows for seconds: korona_ru_part's north row from 4.8 s to
    9.8 s), in crokinole only beside its place (``_beside``). Pairs are taken
    nearest first (the new track's first sample against the old one's last place), same kind
    and colour class only (korona classes: ``pipeline.korona_rows.colour_classes``), within
    ``REACH_MM``; crokinole: only where the disc could have got to in the time between
    (``_reachable``; korona at 10 fps untried: k4h_9806's pockets 100%/60% -> 33%/33% with it).
    Crokinole (``unseen_struck``): also a named disc unseen at rest since before the shot that
    a mover of the shot came to touch, or that lay across the way of one (``_struck_on``), for a
    new track first seen where that blow could have sent it; not one out of the game for good
    (``retired``, the tracker's: a 20 taken out of the hole lies across no way). Crokinole, before
    all: a new track that jumped onto a named disc lost during the shot is that disc (``_took_over``)."""
    found = [tracks[k] for k in rec.ends if k in tracks and k not in names and k not in rec.before
             and k != rec.disc and tracks[k].born >= rec.t_start - 0.05]
    used: set[int] = set()
    out: list[tuple[int, int]] = []
    if found:
        lost = [tr for tr in tracks.values() if tr.id in names and tr.id != rec.disc
                and rec.t_start - 0.05 <= tr.last_seen < rec.t_end
                and (tr.state == "lifted" or (tr.state == "rest" and tr.occluded))]
        movers = [tracks[k] for k in rec.ends if k in tracks]
        covered = {tr.id for tr in tracks.values() if tr.id in names and tr.id != rec.disc and tr not in lost
                   and tr.state == "rest" and tr.occluded and tr.last_seen < rec.t_start - 0.05
                   and reached([m for m in movers if m.id != tr.id], tr.position(), tr.radius, rec.t_start,
                               tr.radius)}
        pool: list[Track] = []
        struck: dict[int, float] = {}
        if not korona and unseen_struck:
            pool = _unseen_before(rec, tracks, names, {tr.id for tr in lost} | retired)
            struck = _struck_unseen(rec, pool, movers)
            lost += pool
        else:
            lost += [tracks[k] for k in covered]

        def alike_colour(n: Track, o: Track) -> bool:
            return _same_class(n, o) and not (unlike is not None and other_colour(o, n, unlike))

        def alike(n: Track, o: Track) -> bool:
            if not alike_colour(n, o):
                return False
            if korona:
                return True
            if o.id in covered and _beside(n, o):
                return True
            if o in pool:
                return _struck_on(n, o, pool, struck, tracks)
            return o.id not in covered and _reachable(rec, n, o)

        if not korona:
            out = _nearest_first(found, [o for o in lost if o.last_seen >= rec.t_start - 0.05],
                                 lambda n, o: alike_colour(n, o) and _took_over(n, o), used, REACH_MM)
        out += _nearest_first(found, lost, alike, used, REACH_MM)
    if korona:
        out += _pocketed_by_class(rec, tracks, names, used)
    return out + (found_in_place(rec, tracks, names, used) if korona else [])


def _took_over(new: Track, old: Track) -> bool:
    """Crokinole: whether the new track ``new``, seen elsewhere while ``old`` was still seen, took
    over ``old``'s run: its first sighting after ``old``'s last lies within touch of ``old``'s
    last place (two radii) and away from its own sighting before (farther than that, and than
    ``old``'s place): the track jumped onto ``old``. Its run ends as ``old``, whatever disc it
    began on, and a name is for where a disc ends. c2h_9944 at 16.9 s: n3 struck the unseen s2
    into s3, both red on the red board; the track found on s2's way jumped 74 mm onto s3 as s3
    moved off (s3's own track lost at its place) and ended at s3's rest, but took s2's name from
    its first sighting (12.5 switches per 100 shots)."""
    if new.born >= old.last_seen or not old.path:
        return False
    at = old.path[-1]
    after = next((s for s in new.path if s.t > old.last_seen + 1e-6 and s.measured), None)
    before = [s for s in new.path if s.t <= old.last_seen + 1e-6 and s.measured]
    if after is None or not before:
        return False
    reach = new.radius + old.radius
    to_old = float(np.hypot(after.x - at.x, after.y - at.y))
    jump = float(np.hypot(after.x - before[-1].x, after.y - before[-1].y))
    return to_old <= reach < jump and to_old < jump


def _beside(new: Track, old: Track) -> bool:
    """Crokinole: whether ``new`` was first seen within the two discs' radii of where ``old`` lies
    covered since before the shot: the covered disc, struck unseen and found again where it
    stopped. c2h_9802 at 18.1 s: s1, unseen since 14.9 s against s3 by the 20-hole, knocked
    23 mm by n3 and found as a new track, which took the name of s3 (lost at rest under a peg's
    shadow in the same shot); s3 was named anew s4. Further off a new track is no sign of which
    covered disc it is (c2h_9944 at 10.7 s: s1 and s2, both unseen red on red, a new track
    knocked off 113 mm from s1 would take s2's name, the disc the mover reached)."""
    at = old.position()
    return float(np.hypot(new.path[0].x - at[0], new.path[0].y - at[1])) <= new.radius + old.radius


# mm of slack beyond touching for a blow on a disc whose place was seen (the detector's centres
# are a mm or two off); a place never seen (``_estimated``) may be off by a disc's radius
STRUCK_SLACK_MM = 3.0


def _estimated(tr: Track) -> bool:
    """Whether ``tr``'s place is the tracker's estimate, never a sighting: it was lost on its way
    there (``lifecycle.kept_unseen``: it rested elsewhere before, one sample at most there)."""
    return tr.rest_xy is not None and tr.anchor_n <= 1


def _unseen_before(rec: ShotRecord, tracks: dict[int, Track], names: dict[int, str], taken: set[int]) -> list[Track]:
    """Crokinole: the named discs unseen since before the shot (not ``taken``, not the shot disc):
    covered at rest (the detector lost them), or lifted for it by the tracker after long unseen;
    a disc the rules sent out (``leaving``) is gone for good."""
    return [tr for tr in tracks.values()
            if tr.id in names and tr.id != rec.disc and tr.id not in taken and not tr.leaving
            and tr.last_seen < rec.t_start - 0.05
            and (tr.state == "lifted" or (tr.state == "rest" and tr.occluded))]


def _struck_unseen(rec: ShotRecord, pool: Sequence[Track], movers: Sequence[Track]) -> dict[int, float]:
    """The discs of ``pool`` (``_unseen_before``) the shot's movers struck: track id -> when a
    mover first came within touch of its place (two radii and ``STRUCK_SLACK_MM``, a radius more
    for an ``_estimated`` place). A disc at rest starts only when struck, and one the detector
    has lost at rest is found again only on its way: c4h_9981 at 19.8 s, east's dark e1, lost on
    its way to rest at 10.7 s and never seen there, was struck by north's n2 and found flying to
    the ditch as a new track; left out, its off_board was missed and n2 called a foul (no
    opponent disc hit). Replays (--dets), off -> on: c4h_9981 rounds 0/1 -> 1/1 (removed P 50 ->
    100%); c2h_9944 shots P 88 -> 100%, removed P 25 -> 100% (s1's off_board at 11.0 s found, two
    false fouls gone), but switches 0 -> 12.5 per 100 shots and median/p95 1.15/11.45 -> 1.57/10.97
    mm (s2, now named on the new track it became at 16.8 s, whose run then took s3's finds: a
    nameless track before; since ``_took_over`` names that track s3, where it ended, and c2h_9944
    has no switch); the other 25 crokinole dev matches and 6 fixtures the same."""
    out: dict[int, float] = {}
    for tr in pool:
        at = np.asarray(tr.position(), float)
        slack = STRUCK_SLACK_MM + (tr.radius if _estimated(tr) else 0.0)
        when = [w for m in movers if m.id != tr.id and m.kind == tr.kind
                for w in [_touched_at(m, at, tr.radius + m.radius + slack, rec.t_start)] if w is not None]
        if when:
            out[tr.id] = min(when)
    return out


def _struck_on(new: Track, old: Track, pool: Sequence[Track], struck: dict[int, float],
               tracks: dict[int, Track]) -> bool:
    """Whether the new track ``new`` is ``old``, a disc of ``pool`` (``_unseen_before``): ``old``
    was struck (``struck``) and no other disc of the pool lies across its way to where ``new``
    was first seen; or it lies across the way of a struck one (the blow went on through it: a
    disc cannot pass through another; c2h_9944 at 10.5 s, n2 struck s2, which struck s1, both
    red on the red board and lost at rest, and s1 flew off to the ditch). Either way ``new``
    was first seen where the blow could have sent it (``_struck_to``)."""
    if old.id in struck:
        return not any(_across(b, old, new) for b in pool if b is not old) and _struck_to(new, old, struck[old.id])
    return any(_across(old, tracks[a], new) and _struck_to(new, old, t) for a, t in struck.items() if a in tracks)


def _across(b: Track, a: Track, new: Track) -> bool:
    """Whether disc ``b`` lies across the way from disc ``a``'s place to where ``new`` was first
    seen: within touch of it (two radii and ``STRUCK_SLACK_MM``), nearer ``new`` than ``a``."""
    pa, pb = np.asarray(a.position(), float), np.asarray(b.position(), float)
    z = np.array([new.path[0].x, new.path[0].y])
    return float(np.hypot(*(z - pb))) < float(np.hypot(*(z - pa))) \
        and segment_distance(pb, pa, z) <= a.radius + b.radius + STRUCK_SLACK_MM


def _touched_at(m: Track, at: np.ndarray, reach: float, since: float) -> float | None:
    """When the path of ``m`` since ``since`` (seen or forecast) first came within ``reach`` of
    ``at``: the time of the sample that ends the first stretch to pass within it; None if never."""
    run = [s for s in m.path if s.t >= since - 1e-6]
    pts = [np.array([s.x, s.y]) for s in run]
    for k in range(len(pts)):
        if (segment_distance(at, pts[k - 1], pts[k]) if k else float(np.hypot(*(pts[0] - at)))) <= reach:
            return run[k].t
    return None


def _struck_to(new: Track, old: Track, hit: float) -> bool:
    """Whether ``old``, struck at ``hit`` (``_struck_unseen``), could be the new track ``new``:
    first seen after the blow (a frame's slack), no farther from where ``old`` lay than the
    fastest a disc goes (``TrackerConfig.v_max``) takes it in the time between."""
    gap = new.born - hit
    if gap < -0.05:
        return False
    d = float(np.hypot(new.path[0].x - old.position()[0], new.path[0].y - old.position()[1]))
    return d <= new.radius + old.radius + TrackerConfig().v_max * max(gap, 0.0)


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
