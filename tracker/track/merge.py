"""Joining a new track to a disc the tracker already knows, when the new one is really that
disc: knocked a short way within one frame (``nudged_from``), flicked so fast that its first
detection fell outside its rest gate (``donor_of``), or a moving disc whose detection a false find
took from it (``mover_robbed``); on a korona board a resting disc is a donor only if
no disc it touched lay across its way (``way_out_blocked``). Pure functions over the
tracker's tracks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from tracker.track.association import BIG
from tracker.track.blows import segment_distance
from tracker.track.config import TrackerConfig
from tracker.track.datatypes import Sample, Track

# Seconds a disc may go unseen and still be joined to a track born moving (``donor_of``): a
# disc knocked away unseen is found again on its way within that (or it is lost for good).
DONOR_WINDOW = 0.6
# mm of slack on two radii for a disc touching another (the detector's centres are a mm or two off)
TOUCH_MM = 3.0


def unseen_since(tracks: Sequence[Track], d: Track, t: float) -> float:
    """When resting disc ``d`` may have left its place unseen, as of ``t``: when it was last seen,
    or, if the detector had lost it at rest (the tracker holding it where it lay), the latest
    moment before ``t`` that another disc was seen coming to touch its place: a disc at rest
    starts only when struck. c4h_9951 at 21.0 s: west's w2, black on a dark board, lost at rest
    for seconds; north's n2 struck it, and it was found flying 210 mm on 0.27 s later, a new disc
    (its removal past the shooting line missed, w2 scored where it had lain). Only for a disc
    seen where it rests (``anchor_n`` > 1): the place of one lost on its way there is an estimate,
    and a touch there says nothing of it (crokinole_4p_part, with such discs kept unseen for
    ``kept_unseen_lift_after``: a disc found moving took the name of one kept unseen, a phantom shot)."""
    if d.state != "rest" or not d.occluded or d.anchor_n <= 1 or t - d.last_seen <= DONOR_WINDOW:
        return d.last_seen  # (lost just now, or never seen there: when it was last seen is when it went)
    q = np.asarray(d.settled_xy, float)
    hit = d.last_seen
    for o in tracks:
        if o is d:
            continue
        # back from ``t``: the latest onset of a touch (one that came to rest beside it touches on)
        onset = None
        for s in reversed(o.path):
            if s.t <= hit:
                break
            if not s.measured or s.t >= t - 1e-6:
                continue
            if float(np.hypot(s.x - q[0], s.y - q[1])) > o.radius + d.radius + TOUCH_MM:
                if onset is not None:
                    break
            else:
                onset = s.t
        if onset is not None:
            hit = onset
    return hit


def nudged_from(tracks: Sequence[Track], tr: Track, first: Sample, dt: float,
                unseen: float = 0.0) -> Track | None:
    """A resting disc that vanished the frame this one appeared (or at most ``unseen`` seconds
    before), within 3 radii of it."""
    cands = []
    for d in tracks:
        if d.kind != tr.kind or d.state != "rest" or not d.occluded:
            continue
        if not (0 < first.t - d.last_seen <= max(1.5 * dt, unseen)):
            continue
        p = d.settled_xy
        dist = float(np.hypot(first.x - p[0], first.y - p[1]))
        if dist <= 3 * d.radius:
            cands.append((dist, d))
    return min(cands, key=lambda c: c[0])[1] if len(cands) == 1 else None


def donor_of(tracks: Sequence[Track], tr: Track, v: np.ndarray, first: Sample, v_max: float,
             kind: int | None = None, may_rest: Callable[[Track], bool] | None = None,
             unlike: float | None = None, struck: bool = False,
             course: Callable[[Track, float], bool] | None = None) -> Track | None:
    """The vanished disc a track born moving came from.

    Candidates vanished (resting and unseen, or moving) at most ``DONOR_WINDOW`` before the new track's
    first detection, and could have got there at the top speed. Among them the nearest to
    where the new track's line, run backwards, was at that moment; a missing first frame or a
    peg bounce between the first detections makes that line rough, so the gate is wide.
    Candidates are of the new track's kind, or of ``kind`` when given; a resting one must pass
    ``may_rest`` when given. ``struck``: a resting disc the detector had lost vanished when
    another last came to touch it (``unseen_since``), not when it was last seen. ``course``,
    when given, must pass each candidate and the time it has been gone
    (korona: ``donor_course.may_be_donor``).
    """
    best, best_cost = None, BIG
    z = np.array([first.x, first.y])
    for d in tracks:
        p = d.anchor if d.state == "rest" and d.anchor_n else d.xy
        gap = _vanished_within_reach(d, tr.kind if kind is None else kind, first.t, z, p, v_max,
                                     unseen_since(tracks, d, first.t) if struck else None)
        if gap is None:
            continue
        reach = float(np.hypot(*(z - p)))
        if may_rest is not None and d.state == "rest" and not may_rest(d):
            continue
        if unlike is not None and other_colour(d, tr, unlike):
            continue
        if course is not None and not course(d, gap):
            continue
        back = z - v * gap
        cost = min(float(np.hypot(*(back - p))), reach)
        if cost < best_cost:
            best, best_cost = d, cost
    return best


def other_colour(d: Track, tr: Track, unlike: float) -> bool:
    """Whether the new track ``tr``, seen sharp, is of another colour than the known disc ``d``:
    their mean Lab colours further apart than ``unlike`` (``TrackerConfig.colour_gate``). False
    when either colour is unknown."""
    if d.color_n < 3 or tr.color_n <= 0 or tr.first_streak >= tr.radius or not np.any(tr.color):
        return False
    return float(np.linalg.norm(np.asarray(d.color, float) - np.asarray(tr.color, float))) > unlike


# cosine: a touching disc lies across a disc's way out when within about 40 degrees of it
ACROSS = 0.75


def way_out_blocked(tracks: Sequence[Track], d: Track, tr: Track) -> bool:
    """Korona: could resting disc ``d`` not be where track ``tr``, born moving, came from,
    because another disc touched it on that side when ``d`` was last seen? A disc at rest
    starts only when struck, and a blow pushes it away from what struck it: never through a
    disc it touches (that one would have to go first, and then it is that one that was
    pushed on). k2e_9705 at 13.1 s: the striker drove s1 into s2 and the rim, s1 squirted
    out west, unseen a frame, while the detector dropped the row east of it; the new track
    going west was joined to s3 (at -34 mm, s2 touching it on the west), then, with s3
    barred, to s4 (s3 touching it on the west), and s1's own track, sought where the blow's
    forecast put it, was left. Where a touching disc was when ``d`` was last seen: its place
    at rest, or its latest sighting by then."""
    first = tr.path[0]
    q = np.asarray(d.settled_xy, float)
    out = np.array([first.x, first.y]) - q
    run = float(np.hypot(*out))
    if run < 1e-6:
        return False
    u = out / run
    for m in tracks:
        if m is d or m is tr or m.state not in ("rest", "moving"):
            continue
        if m.state == "rest" and m.anchor_n:
            p = np.asarray(m.settled_xy, float)
        else:
            seen = [s for s in m.path if s.measured and s.t <= d.last_seen + 1e-6]
            if not seen:
                continue
            p = np.array([seen[-1].x, seen[-1].y])
        w = p - q
        gap = float(np.hypot(*w))
        if gap <= m.radius + d.radius + TOUCH_MM and float(w @ u) >= ACROSS * gap:
            return True
    return False


def _vanished_within_reach(d: Track, kind: int, t: float, z: np.ndarray, place: np.ndarray,
                           v_max: float, since: float | None = None) -> float | None:
    """How long before ``t`` the track ``d`` vanished (``since``: when, if not when it was last
    seen), when it may be the disc first found at ``z`` then: of ``kind``, vanished (resting and
    unseen, or moving) at most ``DONOR_WINDOW`` before, and near enough its ``place`` to have got
    there at the top speed; else None."""
    if d.kind != kind or not ((d.state == "rest" and d.occluded) or d.state == "moving"):
        return None
    gap = t - (d.last_seen if since is None else since)
    if gap <= 1e-6 or gap > DONOR_WINDOW or float(np.hypot(*(z - place))) > v_max * gap + 2 * d.radius:
        return None
    return gap


def left_its_place(tracks: Sequence[Track], d: Track, tr: Track, gap: float, decel: float) -> bool:
    """Could resting disc ``d``, unseen for the ``gap`` seconds before the new track ``tr``
    was first seen, be ``tr``? On its way a disc only slows by friction (``decel``) unless it
    hits another disc. It went at least the distance from where it was last seen to ``tr``'s
    first detection over ``gap`` on average, so between ``tr``'s first two detections it went
    at least that less friction's toll over half the gap and that step (0.8 of the distance:
    room for the first detection's error). A slower ``tr`` is not ``d``, unless a resting disc
    lay by its course (from ``d``'s place through ``tr``'s first two detections, within 5 mm
    of touching) that could have slowed it."""
    if len(tr.path) < 2:
        return True
    s0, s1 = tr.path[0], tr.path[1]
    step = max(s1.t - s0.t, 1e-3)
    seen = d.last_sighting()  # where it was last seen
    if AT_PLACE and seen is not None and d.anchor_n > 1:
        at = _last_at_place(d)
        if at is not None and at is not seen:
            gap += seen.t - at.t
            seen = at
    a = np.array([seen.x, seen.y]) if seen is not None else np.asarray(d.settled_xy, float)
    z0, z1 = np.array([s0.x, s0.y]), np.array([s1.x, s1.y])
    speed = float(np.hypot(*(z1 - z0))) / step
    if speed + 0.5 * decel * (gap + step) >= 0.8 * float(np.hypot(*(z0 - a))) / gap:
        return True
    return any(o is not d and o is not tr and o.state == "rest"
               and min(segment_distance(q, a, z0), segment_distance(q, z0, z1)) < o.radius + d.radius + 5.0
               for o in tracks for q in [o.settled_xy])


# ``left_its_place`` judges from the disc's last sighting at its rest place (``_last_at_place``)
AT_PLACE = True


def _last_at_place(d: Track) -> Sample | None:
    """The latest sighting of resting disc ``d`` within the tracker's ``move_mm`` of its rest
    place (``settled_xy``). One later and farther off was the disc on its way already (the blow
    came before it; the tracker holds a resting disc until it is displaced on two frames running
    or by a radius at once), or a find of something beside it: c4h_9945 at 12.07 s, north's n1,
    struck by east's dark e1 (never found), was last seen 10 mm towards e1 (their blend), and the
    track found flying away a frame later seemed too slow to have come from that sighting in one
    frame: n1 stayed at rest, covered, and the new track was a disc never seen shot. Replays
    (--dets), off -> on, with ``infer.never_seen``: c4h_9945 shots R 75 -> 88% (e1's shot at 12.7 s
    logged, e1 at (-30, -30) for the true (-31, -31), n1 removed past the shooting line; s2's blow on
    e1 at 16.3 s, e1 off to (182, 237) and removed), removed R/P 60/75 -> 100/100%, median/p95
    0.68/4.56 -> 0.73/3.87 mm (the round still 0/1: east's last shot at 27.1 s is missed by the
    detector); the other 26 crokinole dev matches and 6 fixtures the same."""
    q = np.asarray(d.settled_xy, float)
    return next((s for s in reversed(d.path) if s.measured
                 and float(np.hypot(s.x - q[0], s.y - q[1])) <= TrackerConfig.move_mm), None)


# Lab units: a disc's colour measured while it moves lies within this of the blend of its own
# colour at rest and the board's around it (the blur mixes the two; ``colour_penalty``: 95% of
# a moving disc's matches lie within 33 of its mean).
BLUR_LAB = 33.0


def unlike_blurred(d: Track, tr: Track) -> bool:
    """Whether track ``tr``'s colour is unlike resting disc ``d``'s seen in motion: further than
    ``BLUR_LAB`` from every blend of ``d``'s colour at rest and the board's around it. False
    when either colour is unknown. A disc knocked away keeps its colour; a hand or arm over
    the board is found as "discs" of its own colour (c2h_9702 at 15.4 s: the arm reaching for
    n2 covered s3, light on a light board, and was found twice, dark, 190 mm off; s3 was taken
    to have been knocked there)."""
    if d.color_n < 3 or d.surround_n <= 0 or tr.color_n <= 0 or not np.any(tr.color):
        return False
    a, b, c = np.asarray(d.color, float), np.asarray(d.surround, float), np.asarray(tr.color, float)
    ab = b - a
    k = float(np.clip((c - a) @ ab / max(float(ab @ ab), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(c - (a + k * ab))) > BLUR_LAB


def mover_robbed(tracks: Sequence[Track], tr: Track, t: float, dt: float, v_max: float) -> Track | None:
    """The moving disc that a track born moving (``tr``, just confirmed at ``t``) took its latest
    detection from, when its first detection was a false find beside that disc.

    A disc does not appear out of nowhere already moving: a track born moving is a known disc
    (``donor_of``: one that vanished before it was first seen) or a false find. When no disc
    vanished before it, and a known moving disc was seen at the same time as its first
    detection but missed now, with the new track's latest detection within that disc's reach
    (as far as the second stage lets a mover go), the latest detection is that disc's: the
    first was a find on its blur, which a tentative track's wide gate then carried onto the
    disc's own next detection (crokinole_4p_part at 18.2 s: s2, struck head-on part way through
    the frame, was measured at a quarter of its speed; the find 50 mm ahead of it took s2's
    next detection and s2 was lost). The nearest such disc, or None."""
    first, last = tr.path[0], tr.path[-1]
    z = np.array([last.x, last.y])
    best, best_d = None, BIG
    for d in tracks:
        if d.kind != tr.kind or d.state != "moving" or not (first.t - 1e-6 <= d.last_seen < last.t - 1e-6):
            continue
        seen = d.last_sighting()
        if seen is None:
            continue
        gap = max(t - seen.t, dt)
        reach = 2 * d.radius + gap * min(v_max, 1.5 * d.speed + 500.0)
        dist = float(np.hypot(z[0] - seen.x, z[1] - seen.y))
        if dist <= reach and dist < best_d:
            best, best_d = d, dist
    return best


def blow_split(tracks: Sequence[Track], tr: Track, dt: float) -> tuple[Track, Track] | None:
    """(shooter, struck) when the track ``tr``, born moving, is two discs: its first step runs
    straight through the place of a disc that rested there until just before ``tr`` was first
    seen (the struck disc), and ``tr``'s first sight lies beside the place of another disc that
    vanished then too (the shooter). One disc cannot: a mover that reaches a resting disc
    head-on passes its motion on to it (equal masses) and stops about where it struck, so the
    first sight is the shooter, stopped, and the second the struck disc, carried on along the
    line. None otherwise. crokinole_4p_part at 23.8 s (10 fps): e2, flicked from its line, struck
    s2 within the frame and stopped between the two places; the track first seen there took s2's
    next sight 150 mm on, and e2's name went with s2 (the two swapped)."""
    if len(tr.path) < 2:
        return None
    s0, s1 = tr.path[0], tr.path[-1]
    z0, z1 = np.array([s0.x, s0.y]), np.array([s1.x, s1.y])
    length = float(np.hypot(*(z1 - z0)))
    if length < 2 * tr.radius:
        return None
    u = (z1 - z0) / length
    gone = [d for d in tracks if d.kind == tr.kind and d.state == "rest" and d.occluded
            and 0 < s0.t - d.last_seen <= 1.5 * dt]
    struck, shooters = [], []
    for d in gone:
        q = np.asarray(d.settled_xy, float)
        w = q - z0
        along, across = float(w @ u), abs(float(w[0] * u[1] - w[1] * u[0]))
        if 0 < along < length and across < d.radius:
            struck.append(d)
        elif float(np.hypot(*w)) <= 3 * d.radius and along < 0.5 * d.radius:
            shooters.append((float(np.hypot(*w)), d))
    if not struck:
        return _unseen_blow(tracks, tr, z0, u, length, dt)
    if len(struck) != 1 or not shooters:
        return None
    return min(shooters, key=lambda c: c[0])[1], struck[0]


def _unseen_blow(tracks: Sequence[Track], tr: Track, z0: np.ndarray, u: np.ndarray, length: float,
                 dt: float) -> tuple[Track, Track] | None:
    """``blow_split`` when the struck disc had been unseen at rest for longer (its outline too
    weak for the detector, nothing over it: when it was last seen says nothing of when it was
    struck) and the shooter was not seen in flight either: the first step runs straight
    through the place of exactly one such disc, and exactly one disc vanished within
    ``DONOR_WINDOW`` from a place behind the first sight (it came along the blow's line's
    side, not from ahead of it). c4h_9303 at 14.9 s: s2, unseen from the south line, struck
    e1 (touching n1, unseen for 2.9 s) and stopped; the track first seen where s2 stopped took
    e1's flight, was taken for s2 flying off the board, and s2 at rest became a new disc."""
    s0 = tr.path[0]
    struck = [d for d in tracks if d.kind == tr.kind and d.state == "rest" and d.occluded
              and s0.t - d.last_seen > 1.5 * dt and _on_step(np.asarray(d.settled_xy, float) - z0, u, length, d.radius)]
    if len(struck) != 1:
        return None
    shooters = [d for d in tracks if d.kind == tr.kind and d is not struck[0]
                and ((d.state == "rest" and d.occluded) or d.state == "moving")
                and 0 < s0.t - d.last_seen <= DONOR_WINDOW
                and float((np.asarray(d.settled_xy, float) - z0) @ u) < 0]
    return (shooters[0], struck[0]) if len(shooters) == 1 else None


def _on_step(w: np.ndarray, u: np.ndarray, length: float, radius: float) -> bool:
    along, across = float(w @ u), abs(float(w[0] * u[1] - w[1] * u[0]))
    return 0 < along < length and across < radius


def ditch_donor(tracks: Sequence[Track], tr: Track, ghosts: set[int], v_max: float) -> Track | None:
    """Crokinole: the disc a track first found in the ditch is, when a resting disc was knocked
    away unseen (``ghosts``: ``lifecycle.knocked_unseen``, never seen since) at most
    ``DONOR_WINDOW`` before, could have got there at the top speed, and the find lies ahead
    along the course the forecast blow gave it (within 45 degrees). c2h_9402 at 4.8 s: s1,
    resting over the hole's edge, was struck by n1 and next seen in the ditch, a new disc; s1
    stayed on the board (and was first called a 20)."""
    first = tr.path[0]
    z = np.array([first.x, first.y])
    best, best_gap = None, BIG
    for d in tracks:
        if d.id not in ghosts or d.rest_xy is None or not d.path:
            continue
        was = np.asarray(d.rest_xy, float)
        gap = _vanished_within_reach(d, tr.kind, first.t, z, was, v_max)
        if gap is None:
            continue
        course = np.array([d.path[-1].x, d.path[-1].y]) - was  # the forecast blow's run (unseen samples)
        ahead = z - was
        n = float(np.hypot(*course)) * float(np.hypot(*ahead))
        if n <= 1e-9 or float(course @ ahead) < np.cos(np.radians(45.0)) * n:
            continue
        if gap < best_gap:
            best, best_gap = d, gap
    return best


def join_in_ditch(d: Track, tr: Track, t: float, ghosts: set[int]) -> None:
    """``d`` (``ditch_donor``) takes the ditch find ``tr``: off the board, seen now."""
    d.state, d.xy, d.v, d.occluded = "off", tr.xy.copy(), np.zeros(2), False
    d.last_seen, d.hits, d.where_votes = t, d.hits + tr.hits, dict(tr.where_votes)
    d.path.extend(tr.path)
    ghosts.discard(d.id)
