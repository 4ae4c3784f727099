"""Blows no frame showed: an unseen mover's coast into a resting disc
(``coast_into_disc``; korona: a free one), and a new track that was two discs of one blow (``split_blow``, with
:func:`tracker.track.merge.blow_split`). Functions of the :class:`tracker.track.tracker.Tracker`
(``tk``), called from :mod:`tracker.track.lifecycle`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import DISC
from tracker.track.association import collision, first_contact
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Track
from tracker.track.ghost_course import ROW_SLACK_MM

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker


def coast_into_disc(tk: Tracker, tr: Track, t: float, dt: float) -> tuple[np.ndarray, np.ndarray] | None:
    """(position, velocity) after ``dt`` of an unseen moving disc whose coast runs
    into a disc resting in its path, before any peg: it strikes it and keeps the part of its
    motion across the line of centres (equal masses), as the tracker's collision forecast
    has it, instead of coasting on through it. The struck disc's course is kept for the next
    frames (``tk._blown``, a forecast of :func:`tracker.track.prediction.predict`): the mover
    has left it by then, so no collision forecast of theirs gives it one. None when its coast
    meets no resting disc. c4h_9203 at 23.0 s: e2, unseen for two frames as it struck s2,
    coasted on through s2's place and took s2's next detection (the two swapped names).

    Korona (``TrackerConfig.korona_coast_blow``): only a free disc is struck so (no other disc
    touching it, ``in_a_row``): a blow into a row passes along the row, which the two-disc
    forecast does not know (the row stages of :mod:`tracker.track.blows` and
    :mod:`tracker.track.row_order` follow rows). k2e_9995 at 22.47 s: s3, unseen, coasted on
    through s2's place (s2 against the north rim, s1 42 mm away); s2's find coming back off the
    rim was taken for s3 and the two swapped names. Nor a disc the mover was last seen overlapping
    (``overlapped``)."""
    crok = isinstance(tk.board, CrokinoleBoard)
    if (not crok and not tk.cfg.korona_coast_blow) or tr.kind != DISC:
        return None
    best: tuple[float, tuple[np.ndarray, np.ndarray], int, tuple[np.ndarray, np.ndarray]] | None = None
    for o in tk.tracks:
        if o is tr or o.kind != DISC:
            continue
        q = o.settled_xy if o.state == "rest" else struck_now(o, t)
        if q is None or (not crok and (in_a_row(tk, o, tr, q) or overlapped(tr, o, q)
                                       or (SELDOM_FOUND and found_seldom(o, dt)))):
            continue
        reach = tr.radius + o.radius
        if float(np.hypot(*(tr.xy - q))) > tr.speed * dt + reach:
            continue
        s = first_contact(tr.xy, tr.v, q, reach, dt)
        hit = collision(tr.xy, tr.v, q, reach, dt, tk.cfg.restitution) if s is not None else None
        if s is not None and hit is not None and (best is None or s < best[0]):
            best = (s, (hit[0], hit[1]), o.id, (hit[2], hit[3]))
    if best is None:
        return None
    peg = first_peg_contact(tk, tr, dt)
    if peg is not None and peg < best[0]:
        return None
    struck = tk.get(best[2])
    if struck is not None and struck.state == "rest":
        tk._blown[best[2]] = (best[3][0], best[3][1], t)
    return best[1]


# Korona ``coast_into_disc``: nor a free disc resting unseen that the detector found on fewer than
# this share of the frames since its track began (``found_seldom``). 0: off.
SELDOM_FOUND = 0.5


def found_seldom(o: Track, dt: float, share: float = SELDOM_FOUND) -> bool:
    """Whether ``o``, resting and unseen now, was found on fewer than ``share`` of the frames (of
    ``dt`` seconds) from its first sighting to its last: a free disc in plain view is found on
    almost every frame, a false find (a disc's shadow, a line by a disc) now and then. Its stale
    track turns no unseen mover's forecast (k4h_10206 at 23.3 s: s3, knocked towards the nw
    pocket unseen, was forecast into a shadow find's track by s2, found on 98 frames in 15.7 s
    and unseen since 20.7 s; turned along the north rim it stopped short, was kept at rest
    where it lay and its pocket was lost)."""
    if o.state != "rest" or not o.occluded or dt <= 0.0:
        return False
    return o.hits < share * ((o.last_seen - o.born) / dt + 1.0)


def in_a_row(tk: Tracker, o: Track, tr: Track, q: np.ndarray) -> bool:
    """Whether a disc in play other than ``o`` and the mover ``tr`` lies within touching
    distance (``ROW_SLACK_MM``) of ``q``, where ``o`` rests."""
    return any(float(np.hypot(*(p.settled_xy - q))) < o.radius + p.radius + ROW_SLACK_MM
               for p in tk.tracks if p is not o and p is not tr and p.alive and p.kind == DISC)


def overlapped(tr: Track, o: Track, q: np.ndarray) -> bool:
    """Whether the mover ``tr`` was last seen overlapping ``o``'s place ``q`` by more than half a
    radius: discs do not overlap, so that sighting was ``o``'s own or a false find, and its
    course says nothing of a blow on ``o`` (k2e_9953 at 18.83 s: n6, covered by the striker, took
    n4's find 53 mm away and "struck" n4 from inside it)."""
    seen = tr.last_sighting()
    return seen is not None and float(np.hypot(seen.x - q[0], seen.y - q[1])) < o.radius + tr.radius / 2


def struck_now(o: Track, t: float) -> np.ndarray | None:
    """Where ``o`` rested, when it was seen leaving that place at ``t`` (set moving by this
    frame's sighting, the one before it still within a radius of its rest place), else None:
    a disc struck now, whose blow an unseen mover's coast may have dealt (``coast_into_disc``).
    c4h_9951 at 24.9 s: e2, unseen as it struck s2 head-on, was forecast to reach s2 a hair
    after the frame; s2 was seen moving the next frame, and e2 coasted on through its place and
    took e1's detection beyond it (e2 then lay on e1's place and e1 was lost)."""
    if o.state != "moving" or o.rest_xy is None or len(o.path) < 2 or abs(o.path[-1].t - t) > 1e-6:
        return None
    q = np.asarray(o.rest_xy, float)
    before = o.path[-2]
    if float(np.hypot(before.x - q[0], before.y - q[1])) > o.radius:
        return None
    return q


def first_peg_contact(tk: Tracker, tr: Track, dt: float) -> float | None:
    """When (s in [0, dt]) an unseen mover first touches a peg, or None."""
    times = [s for q in tk._pegs if (s := first_contact(tr.xy, tr.v, q, tr.radius + tk._peg_r, dt)) is not None]
    return min(times) if times else None


def split_blow(tk: Tracker, tr: Track, shooter: Track, struck: Track, t: float) -> None:
    """The tentative track ``tr`` was two discs of one blow (:func:`tracker.track.merge.blow_split`):
    the shooter takes its first sight (stopped where it struck, moving until it settles), the
    struck disc the latest sight that lies furthest on along the blow's line, ``tr``'s or that
    of another tentative track first seen with it (the struck disc leads its blur: a find on
    the blur lies behind it), with that track's sights."""
    s0 = tr.path[0]
    q = np.asarray(struck.settled_xy, float)
    w = np.asarray(shooter.settled_xy, float)
    u = (q - w) / max(float(np.hypot(*(q - w))), 1e-9)

    def on(o: Track) -> float:
        return float((np.array([o.path[-1].x, o.path[-1].y]) - q) @ u)

    same = [o for o in tk._tentative if o is not tr and len(o.path) >= 2 and abs(o.path[0].t - s0.t) < 1e-6
            and abs(o.path[-1].t - tr.path[-1].t) < 1e-6 and o.kind == tr.kind]
    lead = max([tr, *same], key=on)
    sights = [tr.path[-1]] if lead is tr else list(lead.path)
    if lead is not tr:
        tk._consumed.add(id(lead))
    z1 = np.array([sights[-1].x, sights[-1].y])
    struck.rest_xy = (float(q[0]), float(q[1]))
    struck.state, struck.xy = "moving", z1
    # (struck when the shooter was first seen, if it had been unseen longer: ``merge._unseen_blow``)
    hit_t = struck.last_seen if s0.t - struck.last_seen <= 2 * (sights[-1].t - s0.t) else s0.t
    struck.v = (z1 - q) / max(sights[-1].t - hit_t, 1e-3) if len(sights) < 2 else \
        (z1 - np.array([sights[0].x, sights[0].y])) / max(sights[-1].t - sights[0].t, 1e-3)
    struck.anchor_n, struck.occluded, struck.displaced_frames = 0, False, 0
    struck.last_seen, struck.hits = t, struck.hits + len(sights)
    struck.path.extend(sights)
    shooter.rest_xy = shooter.position()
    shooter.state, shooter.v, shooter.xy = "moving", np.zeros(2), np.array([s0.x, s0.y])
    shooter.anchor_n, shooter.occluded, shooter.displaced_frames = 0, False, 0
    shooter.last_seen, shooter.hits = s0.t, shooter.hits + 1
    shooter.path.append(s0)
    j = tk._tent_det.get(id(lead))  # the frame's detection the tentative took is the struck disc's
    if j is not None:
        tk.det_track[j] = struck.id


def coasted_into_hole(b: CrokinoleBoard, tr: Track, reach: float = 1.0) -> bool:
    """Whether a disc knocked away unseen (never seen away from its rest place:
    ``fate.never_seen_away``) had its coast, as the blow's forecast and the pegs' bounces made
    it, cross the 20-hole's capture zone slowly enough to drop in (``hole_course.passes_over_hole``'s
    speed). ``fate.resolve_lost`` reads such a disc's fate from its last sighting, at rest, and
    leaves it covered where it lay. c4h_9945 at 8.5 s: w1, dark and never seen in motion, struck
    by n1 off a peg and back into the hole; left "covered" at its place, its 20 was missed and
    e1's next shot was lost with it.

    The course is a forecast (the blow's, then the pegs' bounces), not a sighting: it is held to
    ``reach`` hole radii of the hole's centre (``TrackerConfig.unseen_hole_reach``: over the hole
    itself), not to the capture zone (0.55) a seen disc must cross. With w1's rest place measured
    0.3 mm off (``DetectorSettings.edge_salience`` finds it at rest) the same blow's forecast
    crossed 10.8 mm from the centre, 1.2 mm out of the capture zone, and w1 was again left
    covered at its empty place."""
    from tracker.track.slide import hole_drop_speed

    seen = tr.last_sighting()
    if seen is None:
        return False
    run = [sm for sm in tr.path[-64:] if sm.t >= seen.t - 1e-9]
    fast = hole_drop_speed(b)
    for a, c in zip(run, run[1:], strict=False):
        p, q = np.array([a.x, a.y]), np.array([c.x, c.y])
        speed = float(np.hypot(*(q - p))) / max(c.t - a.t, 1e-3)
        if segment_distance(np.zeros(2), p, q) <= reach * b.hole_radius and speed <= fast:
            return True
    return False
