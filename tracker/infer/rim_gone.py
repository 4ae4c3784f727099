"""Korona: rim discs a shot may have knocked away unseen, and where they went.

Discs stand in rows against the rims. At 10 fps a struck rim disc leaves in one frame (over the
rim, down a pocket), and the rest of its row shuffles into its place; but the detector also loses
rim discs for long spells (rows are found on its full passes only, and dropped while the striker
or a hand is near). Both look alike while the disc is unseen: it is covered where it rested, or
the tracker has called it off from the course a forecast blow gave it (``fate.off_unseen``). What
tells them apart is what follows: a disc only lost is found where it lay by the detector's full
pass once the board settles; one knocked away never is. So the segmenter waits a moment for it
(:func:`rim_unseen`) and only then judges what is still unseen (:func:`knocked_out_unseen`).

Pure functions on tracks and the board model: they never look at pixels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.infer.blow_points import blow_origin, first_contact, ran_since
from tracker.infer.datatypes import End
from tracker.infer.ends import path_since, reached
from tracker.track.blows import closest_on_segment, segment_distance
from tracker.track.datatypes import Track
from tracker.track.fate import off_unseen
from tracker.track.tracker import TrackerConfig

# Seconds before a shot's first motion in which a rim disc last seen counts as unseen "since
# during the shot": the detector drops a row the frame the striker starts (the picture changes
# all along it), so its discs are last seen a frame before the shot starts (k4h_8806 at 27.8 s,
# 30 fps: the north row last seen 2 frames before the flick, three of its discs pocketed). One
# frame at 10 fps; rows lost for longer before (korona_ru_part, 4.8 s to 9.8 s) stay out.
LOST_AT_FLICK = 0.1

# A row-mate seen again within this fraction of its radius of its own place before the shot
# shows the detector has found the row where it lay (:func:`_looked_at`); one seen moved was
# shuffled by the shot and may have taken a lost neighbour's detection (korona_4p_part at 4.8 s:
# s8 moved 12 mm onto s7's place took s7's detection, and s6, s7 were called off).
PLACE_FRAC = 0.5

# Korona: a row-mate seen now clear of the lost disc's place (its centre more than this many
# radii from it: it cannot stand on the lost disc's detection) also shows the detector has
# looked at the row again (:func:`_looked_at`). When a shot knocks a rim disc out, it shuffles
# its neighbours along the rim: none is seen in its own place again, and the disc was never
# judged (korona_ru_part at 3.6 s, s3 over the rim: the rules never sent it to the centre and
# called the shot that struck it there a foul; korona_2p_game at 8.0 s, n6 over the rim, its
# mate re-found 11 mm along the rim as the shot was judged, still "moving" to the tracker;
# korona_4p_part at 45.4 s, n3 down se). None: off (only mates in their own places count).
CLEAR_RADII: float | None = 2.0

# The share of a blow's direction along the rim (the sine of its angle to the rim's normal)
# above which a rim disc struck into the rim and never seen again slid along it
# (:func:`along_rim`). The rim takes the part of the blow into it (a disc jumps a rim only when
# struck into it hard, rarely: the rulebook's rim stands above the discs), and what is left
# carries the disc along the rim to the corner. Below it the blow was head-on: off the board.
# Asking for more along the rim than into it (45 degrees) sent two rim discs pocketed along
# their rims off the board (k2e_9953 at 21.8 s, s6 struck at 25 degrees from the rim's normal; korona_2p_game at 119.2 s).
ALONG_MIN = 0.2

# A disc seen now at rest in the place (within its radius: two discs lie no closer than two) of a disc that
# rested between a lost rim disc and the corner it was "knocked towards" also blocks that way
# (:func:`_way_blocked`), whichever track holds it: the detector sees a disc where the row stood,
# and the lost disc, a row-mate's track having taken its detection, may be that disc
# (k4h_10006 at 4.2 s: s7, nudged 28 mm along the north rim onto s8's place; s5's track took the
# detection, s7's, a rim ghost the tracker kept lost, was called down the ne pocket).
STAND_IN = True


# A blow on a rim disc lost in the shot is read from the movers' paths less the forecast samples
# a later sighting contradicted (``blow_points.ran_since``), struck where a run first touches the disc
# (``blow_points.first_contact``). Off: replays (--dets) of the 27 korona dev matches and fixtures, off -> on:
# k2e_10005's missed off_board of n5 found (median/p95 at rest 0.55/9.35 -> 0.52/9.18 mm) and
# korona_2p_game's false off_board of s1 at 14.55 s gone, but korona_ru_part gains a false pocket
# (s1 at 4.35 s) and misses s3's off_board at 3.55 s (pockets P 100 -> 67%, median 1.17 -> 1.34 mm),
# and k4h_9996's false off_board of w8 at 13.35 s becomes a false pocket (pockets P 100 -> 0%); the
# rest identical. (``ran_since`` alone: k4h_9942 and korona_4p_part gained false off_boards.)
SEEN_RUNS = False


def rim_gone(board: CrokinoleBoard | KoronaBoard, tr: Track, tracks: Sequence[Track],
             before: Mapping[int, tuple[float, float]], moved: set[int], t0: float) -> bool:
    """Whether ``tr``, a disc that rested against a rim before the shot (``before``, the shot
    started at ``t0``), is unseen since during it (covered where it rested, or called off from
    its unseen course alone) and a mover's path (one of ``moved``, seen or forecast) came near
    where it rested: knocked over the rim or into a pocket between frames, or only lost by the
    detector. A disc nothing reached was knocked nowhere (korona_4p_part at 27 s: two east rim
    discs 100 mm from any mover)."""
    if not isinstance(board, KoronaBoard) or tr.kind == STRIKER or tr.id not in before:
        return False
    covered = tr.state == "rest" and tr.occluded
    if not (covered or off_unseen(tr)) or tr.last_seen < t0 - LOST_AT_FLICK:
        return False
    x, y = before[tr.id]
    if max(abs(x), abs(y)) < board.half - 3 * tr.radius:
        return False
    movers = [o for o in tracks if o.id in moved and o.id != tr.id]
    return reached(movers, (x, y), tr.radius, t0, tr.radius)


def _seen_since_blows(tr: Track, movers: Sequence[Track], at: tuple[float, float]) -> bool:
    """Whether ``tr`` was seen in its place ``at`` (within a ``PLACE_FRAC`` of its radius) after
    every move a mover made within reach of it (a step of more than the tracker's ``move_mm``
    along its path, seen or forecast, passing within the two radii and one more of ``at``). A disc
    knocked away leaves between frames and is never seen in its place again; one seen there after
    the last blow could have come was only lost since by the detector (rows against the rim are
    found on its full passes only). k4h_9924 at 18.9 s: the west row, a hand's breadth from
    east's striker at its start, unseen while it ran; its mates re-found 5 mm along the rim
    (movers) as it started; w2 seen in place again 18.83 s to 19.10 s and lost again, judged at
    19.40 s, was pocketed ne."""
    q = np.asarray(at, float)
    there = tr.seen_near(q, PLACE_FRAC * tr.radius)
    if not there:
        return False
    since = there[-1].t
    for o in movers:
        reach = tr.radius + o.radius + tr.radius
        k = len(o.path) - 1
        while k > 0 and o.path[k].t > since + 1e-6:
            k -= 1
        for a, b in zip(o.path[k:], o.path[k + 1:], strict=False):
            pa, pb = np.array([a.x, a.y]), np.array([b.x, b.y])
            if np.hypot(*(pb - pa)) > TrackerConfig.move_mm and segment_distance(q, pa, pb) <= reach:
                return False
    return True


def rim_unseen(board: CrokinoleBoard | KoronaBoard, tracks: Sequence[Track],
               before: Mapping[int, tuple[float, float]], moved: set[int], t0: float) -> bool:
    """Whether a rim disc the shot may have knocked away is unseen (:func:`rim_gone`): the shot
    waits (``ShotSegmenter.rim_wait``) for the detector's full pass to find it in place, which the
    tracker then takes for it (covered: its own rest gate; called off: ``lifecycle.revive``). A
    disc that went over the rim or down a pocket is not seen again, and is judged so. Judged at
    once, a row the detector lost was called off (k2e_9905 at 4.5 s, two south row discs found
    in place 0.3 s later)."""
    return any(rim_gone(board, tr, tracks, before, moved, t0) for tr in tracks)


def knocked_out_unseen(board: CrokinoleBoard | KoronaBoard, tracks: Sequence[Track], ends: Mapping[int, End],
                       shooter: int, before: Mapping[int, tuple[float, float]], moved: set[int], t0: float,
                       now: float) -> dict[int, End]:
    """The ends of the rim discs still unseen when the shot is judged at ``now``, covered where
    they rested since it struck them (:func:`rim_gone`), for long enough that it is no missed
    detection: knocked over the rim or into a pocket between frames. Not one seen in its place
    since the last move that could have knocked it (:func:`_seen_since_blows`; judged here only,
    the wait for it, ``rim_unseen``, is as before: ending it early changed how later episodes
    were cut, k4h_9912 at 20.4 s). The nearest pocket when the disc lay by one, else off the
    board."""
    if not isinstance(board, KoronaBoard):
        return {}
    out: dict[int, End] = {}
    for tr in tracks:
        if tr.id == shooter:
            continue
        if tr.id in ends and not (_never_left(tr, ends[tr.id], before, t0)
                                  and not _place_taken(tr, tracks, before[tr.id], now)
                                  and _run_at(tr, [o for o in tracks if o.id in moved and o.id != tr.id],
                                              before[tr.id], t0)):
            continue
        if not (tr.state == "rest" and tr.occluded and now - tr.last_seen >= 0.25):
            continue
        if not rim_gone(board, tr, tracks, before, moved, t0):
            continue
        if not _looked_at(tr, tracks, before, now):
            continue
        if _seen_since_blows(tr, [o for o in tracks if o.id in moved and o.id != tr.id], before[tr.id]):
            continue
        if not _blows(tr, [o for o in tracks if o.id in moved and o.id != tr.id], before[tr.id], t0):
            continue
        x, y = before[tr.id]
        c = board.pocket_centres()
        near = min(c, key=lambda k: np.hypot(x - c[k][0], y - c[k][1]))
        by_pocket = np.hypot(x - c[near][0], y - c[near][1]) < board.pocket_radius + 3 * tr.radius
        along = None if by_pocket else along_rim(board, tr, tracks, (x, y), moved, t0)
        if along is not None and (_found_on_way(board, tr, tracks, before, (x, y), along, t0, now)
                                  or _way_blocked(board, tr, tracks, before, (x, y), along, now)):
            continue
        out[tr.id] = f"pocket:{near}" if by_pocket else (f"pocket:{along}" if along else "off")
    return out


def _never_left(tr: Track, end: End, before: Mapping[int, tuple[float, float]], t0: float) -> bool:
    """Whether ``tr``, which the tracker counted among the shot's movers, ends where it rested
    (within a ``PLACE_FRAC`` of its radius) and was never seen away from there since the shot
    began: a rim disc the blow sent off between frames, its track coasted a frame or two on a
    forecast (seen once blurred in place, or knocked unseen) and, lost, was left covered where
    it last was. Its end is then no evidence it stayed: it is judged as a disc that vanished
    from its place (k2e_9953 at 21.8 s: s6, struck along the north rim into the ne pocket, seen
    once in place as it started and never again, ended "at rest" where it lay and the pocket
    was lost; korona_2p_game at 119.2 s, n2 into the se pocket)."""
    at = before.get(tr.id)
    if at is None or not isinstance(end, tuple):
        return False
    reach = PLACE_FRAC * tr.radius
    if float(np.hypot(end[0] - at[0], end[1] - at[1])) > reach:
        return False
    return all(float(np.hypot(s.x - at[0], s.y - at[1])) <= reach
               for s in tr.path if s.measured and s.t >= t0 - LOST_AT_FLICK)


def _blows(tr: Track, movers: Sequence[Track], at: tuple[float, float], t0: float) -> list[tuple[float, np.ndarray]]:
    """Where ``movers`` could have struck ``tr`` resting at ``at``, since ``t0``: for each step of
    a mover's path (seen or forecast) longer than the tracker's ``move_mm`` that runs towards
    ``at`` and passes within reach of it (as ``ends.reached``: the two radii and one more), the
    distance and the vector from the step's nearest point to ``at``. A row-mate that touched
    ``tr`` at rest and ran off away from it (struck out of the row into the field) reaches it
    only where it started, and knocks nothing (k4h_9606 at 22.6 s: e7 struck out of the east
    row; e6, beside it and lost by the detector with the rest of the row, was called down the
    sw pocket); nor does one whose detection only jitters beside it (korona_2p_game at 8.0 s on
    the truth's detections: n5, nudged 4 mm, was nearer n6 than north's striker, which drove n6
    straight over the rim, and sent it along the rim into the sw pocket instead)."""
    q = np.asarray(at, float)
    out: list[tuple[float, np.ndarray]] = []
    for o in movers:
        reach = tr.radius + o.radius + tr.radius
        pts = ran_since(o, t0) if SEEN_RUNS else path_since(o, t0)
        for k, (a, b) in enumerate(zip(pts, pts[1:], strict=False)):
            if float(np.hypot(*(b - a))) <= TrackerConfig.move_mm or float((q - a) @ (b - a)) <= 0.0:
                continue  # standing, jittering, or running away from ``at``
            p = closest_on_segment(q, a, b)
            d = float(np.hypot(*(q - p)))
            if d <= reach:
                hit = first_contact(q, a, b, tr.radius + o.radius) if SEEN_RUNS else None
                out.append((d, q - (hit if hit is not None else blow_origin(q, pts, k, tr.radius + o.radius, p))))
    return out


def _run_at(tr: Track, movers: Sequence[Track], at: tuple[float, float], t0: float) -> bool:
    """Whether one of ``movers`` came within reach of ``at`` (``ends.reached``) on a run of its
    own, more than a disc's width from where it started: a disc that ran into ``tr``. A row-mate
    whose detection only shifted a few mm along the rim also "reaches" its neighbour, but knocks
    nothing away (k4h_9966 at 7.5 s: the east row re-found 6 mm along the rim while a hand set
    west's striker down; e2, counted among the movers as the shift was read as a knock, was
    called down the sw pocket)."""
    for o in movers:
        pts = path_since(o, t0)
        if len(pts) < 2 or not reached([o], at, tr.radius, t0, tr.radius):
            continue
        if max(float(np.hypot(*(p - pts[0]))) for p in pts) > 2 * tr.radius:
            return True
    return False


def _place_taken(tr: Track, tracks: Sequence[Track], at: tuple[float, float], now: float) -> bool:
    """Whether another disc is seen now at rest where ``tr`` rested (centres closer than the two
    radii: two discs cannot lie so): the disc there is ``tr`` itself, its detection taken by a
    neighbour's track (k2e_9941 at 21.2 s: n3, nudged 10 mm by the shot, was found by n6's track
    as n6's own detection moved along the row; n3's, left covered in place, was called down the sw
    pocket)."""
    q = np.asarray(at, float)
    return any(o.id != tr.id and o.kind == tr.kind and o.state == "rest" and not o.occluded
               and now - o.last_seen < 1e-6 and float(np.hypot(*(o.xy - q))) < tr.radius + o.radius
               for o in tracks)


def _found_on_way(board: KoronaBoard, tr: Track, tracks: Sequence[Track], before: Mapping[int, tuple[float, float]],
                  at: tuple[float, float], pocket: str, t0: float, now: float) -> bool:
    """Whether a disc first seen since the shot began (not at rest before it) rests now against
    the rim between ``at``, where ``tr`` lay against it, and the corner ``pocket`` it was knocked
    towards (:func:`along_rim`): ``tr`` slid along the rim and stopped short of the pocket, and
    the detector found it there under a new track (korona_2p_game at 70.3 s: n5, knocked 350 mm
    along the south rim, came to rest 37 mm short of the sw pocket's circle)."""
    cx, cy = board.pocket_centres()[pocket]  # type: ignore[index]
    c = np.array([cx, cy])
    q = np.asarray(at, float)
    k = 0 if abs(q[1]) > abs(q[0]) else 1  # the axis along the rim
    lo, hi = sorted((float(q[k]), float(c[k])))
    for o in tracks:
        if o.id == tr.id or o.id in before or o.kind != tr.kind or o.born < t0 - LOST_AT_FLICK:
            continue
        if o.state != "rest" or o.occluded or now - o.last_seen > 1e-6:
            continue
        on_rim = abs(float(o.xy[1 - k])) >= board.half - 3 * o.radius and np.sign(o.xy[1 - k]) == np.sign(q[1 - k])
        if on_rim and lo - o.radius <= float(o.xy[k]) <= hi + o.radius:
            return True
    return False


def _way_blocked(board: KoronaBoard, tr: Track, tracks: Sequence[Track], before: Mapping[int, tuple[float, float]],
                 at: tuple[float, float], pocket: str, now: float) -> bool:
    """Whether a disc that rested against the rim between ``at``, where ``tr`` lay against it,
    and the corner ``pocket`` before the shot is seen there now, still against that rim between
    the two: ``tr`` cannot have slid along the rim into that pocket (a disc against a rim does
    not pass another against it; the one in its way would have gone first), so the blow only
    squeezed it along its row, where the detector has lost it (k4h_9972 at 8.4 s: west's
    striker shifted the whole east row south along the rim; w5, unseen in the row 7 mm from
    its place between w4 and w6, was called down the se pocket, and the rules refused the next
    shot, which moved it)."""
    cx, cy = board.pocket_centres()[pocket]  # type: ignore[index]
    q = np.asarray(at, float)
    k = 0 if abs(q[1]) > abs(q[0]) else 1  # the axis along the rim
    lo, hi = sorted((float(q[k]), float((cx, cy)[k])))

    def between(xy: np.ndarray | tuple[float, float], r: float) -> bool:
        on_rim = abs(float(xy[1 - k])) >= board.half - 3 * r and np.sign(xy[1 - k]) == np.sign(q[1 - k])
        return bool(on_rim and lo < float(xy[k]) < hi and abs(float(xy[k]) - float(q[k])) > r)

    places = [np.asarray(before[m.id], float) for m in tracks
              if m.id != tr.id and m.kind == tr.kind and m.id in before and between(before[m.id], m.radius)]

    def on_a_place(o: Track) -> bool:
        return o.id in before and between(before[o.id], o.radius) or (
            STAND_IN and any(float(np.hypot(*(o.xy - p))) <= o.radius for p in places))

    return any(o.id != tr.id and o.kind == tr.kind and on_a_place(o)
               and o.state == "rest" and not o.occluded and now - o.last_seen < 1e-6 and between(o.xy, o.radius)
               for o in tracks)


def _looked_at(tr: Track, tracks: Sequence[Track], before: Mapping[int, tuple[float, float]], now: float) -> bool:
    """Whether the detector has looked again where ``tr`` rested in a row (discs within two
    diameters of it before the shot): one of them is seen now in its own place before the
    shot (:func:`_in_place`; a mate seen moved may stand on a lost disc's detection). The detector loses a row as a whole (rows against the rim are found on its full passes
    only, dropped while the striker or a hand is near) and finds it again as a whole; until it
    has, a disc of the row unseen is no evidence it went anywhere (k4h_9306 at 22.9 s: east's
    striker shifted the whole west row along the rim; the row unseen when the shot was judged,
    three of its discs were called off or pocketed, and stayed so). A disc with no row around it
    is judged as before."""
    q = np.asarray(before[tr.id], float)
    reach = 4 * tr.radius

    def near(xy: np.ndarray | tuple[float, float]) -> bool:
        return float(np.hypot(*(np.asarray(xy, float) - q))) <= reach

    mates = [o for o in tracks if o.id != tr.id and o.kind == tr.kind and o.id in before and near(before[o.id])]
    seen = [o for o in mates if o.state in ("rest", "moving") and not o.occluded and now - o.last_seen < 1e-6]
    if not mates or any(_in_place(o, before[o.id]) for o in seen):
        return True
    if CLEAR_RADII is None:
        return False
    clear = CLEAR_RADII * tr.radius
    return any(near(o.xy) and float(np.hypot(*(o.xy - q))) > clear for o in seen)


def _in_place(o: Track, was: tuple[float, float]) -> bool:
    """Whether ``o`` is within a ``PLACE_FRAC`` of its radius of where it rested before the shot."""
    return float(np.hypot(o.xy[0] - was[0], o.xy[1] - was[1])) <= PLACE_FRAC * o.radius


def along_rim(board: KoronaBoard, tr: Track, tracks: Sequence[Track], at: tuple[float, float], moved: set[int],
              t0: float) -> str | None:
    """The corner pocket a rim disc resting at ``at`` was knocked into along its rim, when the
    blow that reached it (the nearest of :func:`_blows`) pushed it along the rim at all
    (``ALONG_MIN`` of it; the rim takes the rest): it slides along the rim to the corner, and is
    not seen again only if it went down there (stopped short, the detector's full pass finds it;
    k4h_8806 at 28.1 s, a north row disc struck from the west by its neighbour, 300 mm from the ne pocket).
    None for a blow straight into the rim (it jumped: off the board) or no mover near."""
    q = np.asarray(at, float)
    blows = _blows(tr, [o for o in tracks if o.id in moved and o.id != tr.id], at, t0)
    best = min(blows, key=lambda b: b[0], default=None)
    if best is None or best[0] < 1e-6:
        return None
    u = best[1] / best[0]
    k = 0 if abs(q[1]) > abs(q[0]) else 1  # the axis along the rim the disc lies against
    if abs(float(u[k])) < ALONG_MIN:
        return None
    sx = np.sign(u[0]) if k == 0 else np.sign(q[0])
    sy = np.sign(u[1]) if k == 1 else np.sign(q[1])
    return ("n" if sy > 0 else "s") + ("e" if sx > 0 else "w")
