"""Where a crokinole disc lost while sliding in the open came to rest: on along its course.

A disc lost mid-board while it slides was taken to rest where it was last seen
(``fate.resolve_lost``), which is right for a disc lost under a hand or stopped dead by a blow
nobody saw, but not for one that slides on unseen in the open: a pale disc entering the lamp's
glare, whose outline the detector cannot close against the bleached board (c4h_9403 at 8.7 s: n1,
last seen at (-11, 147) going 480 mm/s inward, slid on to (-12, 55) and was never found at
rest; kept at its last sighting it lay outside the 15 line, and the no-opponent rule removed it
and five more discs after it). Such a disc is taken to have slid straight on, slowed by the
tracker's friction, when nothing can have stopped or turned it: its last sightings run on one
line at a slide's speed (a flicked or struck disc, not one a hand moves), its last step between
them no slower than friction leaves it (``slowed``: else it struck a disc as it was last seen,
and stopped by it, about head-on, or glanced off it), it was lost well inside
the shooting line (a disc carried in to the line by a hand is lost under it there), and the
course to the forecast stop stays on the surface, clear of the pegs, of the 20-hole and of every
disc at rest. Else None: the last sighting stands.

A disc that lay on the course when the slider was last seen and has left its place since was
struck by it, unseen: the slider stopped where it met it (equal masses, about head-on: the shot
disc stops about where it strikes), not slid on past its place (c4h_9703 at 24.4 s: e2, last
seen 128 mm from n2 going 1200 mm/s, struck n2 unseen and stopped by its place in the lamp's
glare; slid on, it was put 300 mm further, on the west line, and removed as off its own side's
line).
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Sample, Track

# The last sightings the course is fitted to: this many seconds back from the last one, at least
# three of them.
FIT_S = 0.15
# Least speed (mm/s, fitted) of a disc taken to slide on: below a hand's carrying pace a disc
# lost may have been picked up.
SLIDE_SPEED = 350.0
# Most sideways scatter (mm, RMS) of the fitted sightings about their line: more is a turn, a
# bounce or a false find, not one straight slide.
STRAIGHT_MM = 3.0
# A last step between sightings slower than this share of the fastest step before it (friction
# allowed for) was slowed by a blow, not by friction (``slowed``).
SLOWED = 0.6
# ``TrackerConfig.creep_on`` (``crept_to``), on. Replayed reviews (--dets), off -> on, position at
# rest p95 mm: crokinole_4p_part 7.92 -> 5.21, c2h_9962 4.64 -> 2.03, c2h_9932 9.63 -> 8.65,
# c4h_9803 3.23 -> 3.16;
# medians c4h_9921 2.60 -> 2.05, c4h_9963 1.32 -> 0.85; but c2h_9944 0.74/5.11 -> 1.15/11.45 (its
# s1, kept 23 mm from where it stopped, is now 15 mm off: inside the review's 15 mm match, so
# counted: a better place, 23 -> 15 mm, that the benchmark's 15 mm match now sees; on for that
# reason). Events unchanged on the 6 crokinole fixtures and 21 crokinole dev matches.
# ``TrackerConfig.slide_past_hole`` (``by_hole``), off: c2h_9932's false removals 6 -> 1 (all-dev
# removed P 49 -> 54%), but a false 20 there (shots P 89 -> 80%, 20s P 100 -> 0%: n2, knocked
# unseen at 13.9 s, its forecast coast off a peg crossed the hole's capture zone at under 620 mm/s
# and ``hidden_blows.coasted_into_hole`` put it in; the true n2 skimmed the zone's edge, 9.8 mm
# from the centre, at 490 mm/s, and slid on); the fixtures and the other dev matches unchanged.


def slid_to(board: CrokinoleBoard, tr: Track, decel: float, resting: np.ndarray,
            struck: np.ndarray | None = None, past_hole: bool = False,
            fast_past_hole: bool = False) -> tuple[float, float] | None:
    """Where ``tr``, lost while sliding, stopped on its course (see the module doc), or None.
    ``resting``: (N, 2) places of the other discs at rest; ``struck``: (M, 2) places where other
    discs lay when ``tr`` was last seen and have left since; ``past_hole``: see ``by_hole``.
    ``fast_past_hole``: a course that ends where it struck one of ``struck`` stands even when
    it runs by the 20-hole (``by_hole``), if the disc reached the hole too fast to drop in
    (``too_fast_for_hole``): the hole did not decide its fate, the disc it struck did. c2h_9932
    at 4.87 s: n1, last seen at (35, 6) going 840 mm/s, struck s1 unseen and stopped at (28,
    -16), 25 mm from the centre; its course, cut at s1's place, ran by the hole and was dropped,
    and n1 was kept at its last sighting, 23 mm off, where the next shot's blow on it was missed
    (a false 'no opponent hit' foul, the first of five). Likewise at 22.3 s: n4, last seen over
    the hole's centre at 740 mm/s, stopped against s3 38 mm on; kept over the centre, it was
    called a 20."""
    c = heading(board, tr, decel)
    if c is None:
        return None
    at, _, speed, u = c
    r = tr.radius
    stop = at + u * speed * speed / (2.0 * decel)
    meets = [s for q in np.asarray(struck if struck is not None else [], float).reshape(-1, 2)
             if (s := _meets(at, u, float(np.hypot(*(stop - at))), q, 2 * r)) is not None]
    if meets:
        stop = at + u * min(meets)  # where it struck the first of them
    elif float(np.hypot(*stop)) > board.surface_radius - r:
        return None
    if not clear(board, at, stop, r, resting):
        return None
    # (a course cut short by a disc it struck stands by the hole too when the disc crossed it
    # too fast to drop in: ``fast_past_hole``)
    if by_hole(board, at, stop, r, past_hole) and not (
            fast_past_hole and meets and too_fast_for_hole(board, at, u * speed, decel)):
        return None
    return float(stop[0]), float(stop[1])


# Gravity (mm/s^2), and the part of the hole's radius a disc's centre must be over to tip in (as
# ``fate._over_hole``: the simulator's ``PhysicsParams.hole_capture_fraction``).
G_MM, HOLE_CAPTURE = 9810.0, 0.55


def hole_drop_speed(b: CrokinoleBoard) -> float:
    """The fastest (mm/s) a disc can cross the 20-hole's capture zone (``HOLE_CAPTURE`` of its
    radius) along its widest chord and still drop in: it must stay over it for the time gravity
    needs to drop it half its thickness. About 620 mm/s on the standard board."""
    return 2.0 * HOLE_CAPTURE * b.hole_radius / float(np.sqrt(b.disc_thickness / G_MM))


def too_fast_for_hole(b: CrokinoleBoard, at: np.ndarray, v: np.ndarray, decel: float) -> bool:
    """Whether a disc at ``at`` moving at ``v`` (mm/s) reaches the 20-hole too fast to drop in:
    it tips in only when its centre stays over the hole's capture zone (``HOLE_CAPTURE`` of its
    radius) for the time gravity needs to drop it half its thickness, so a disc crossing even
    the widest chord of that zone (its diameter) in less time slides on over the hole. Its
    speed there is the seen speed less the friction (``decel``) over the way to the point of its
    line nearest the centre."""
    sp = float(np.hypot(*v))
    if sp < 1e-6:
        return False
    along = max(0.0, -float(np.asarray(at, float) @ (v / sp)))
    at_hole = sp * sp - 2.0 * decel * along
    fast = hole_drop_speed(b)
    return at_hole > fast * fast


def by_hole(board: CrokinoleBoard, a: np.ndarray, b: np.ndarray, r: float, past_hole: bool) -> bool:
    """Whether a course from ``a`` to ``b`` runs by the 20-hole, where ``hole_course`` decides the
    disc's fate and no forecast here stands: within the hole's radius and the disc's of the
    centre (any part of the disc over the hole), or, ``past_hole``, within the hole's radius
    (its centre over the hole, as ``hole_course.heading_over_hole``): a disc whose rim only
    crosses the hole's edge slides on (the capture zone is 0.55 of the hole's radius). c2h_9932
    at 4.87 s: n1, last seen at (35, 6) going 840 mm/s, struck s1's place and stopped at (28, -16),
    25 mm from the centre; kept at its last sighting, 23 mm off, the next shot's blow on it was
    missed and a false 'no opponent hit' foul started a run of them."""
    return segment_distance(np.zeros(2), a, b) < board.hole_radius + (0.0 if past_hole else r)


def heading(board: CrokinoleBoard, tr: Track, decel: float
            ) -> tuple[np.ndarray, np.ndarray, float, np.ndarray] | None:
    """``course`` (where, velocity) with its speed and unit direction, or None."""
    c = course(board, tr, decel)
    if c is None:
        return None
    at, v = c
    speed = float(np.hypot(*v))
    return at, v, speed, v / speed


def course(board: CrokinoleBoard, tr: Track, decel: float) -> tuple[np.ndarray, np.ndarray] | None:
    """(where, velocity) of ``tr`` on the line fitted to its last sightings (``FIT_S``), at the
    last sighting, slowed by friction (``decel``) since the fit's middle: when they run on one
    line (``STRAIGHT_MM``) at a slide's speed (``SLIDE_SPEED``), not slowed by a blow at the
    last one (``slowed``), well inside the shooting line.
    None otherwise."""
    recent = _last_sightings(tr, widen=False)
    if recent is None:
        return None
    last = recent[-1]
    fit = _line_fit(recent)
    if fit is None:
        return None
    t_mid, mean, v, across = fit
    seen = float(np.hypot(*v))
    if seen < SLIDE_SPEED:
        return None
    u = v / seen
    if across > STRAIGHT_MM:
        return None
    if slowed(recent, decel):
        return None
    at = mean + v * (last.t - t_mid)  # on the fitted line, at the last sighting
    if float(np.hypot(*at)) > board.shooting_line_radius - 2 * tr.radius:
        return None
    speed = seen - decel * (last.t - t_mid)  # slowed since the fit's middle
    if speed <= 0.0:
        return None
    return at, u * speed


def _last_sightings(tr: Track, widen: bool) -> list[Sample] | None:
    """``tr``'s sightings within ``FIT_S`` of its last one (of its last 32 samples), when three or
    more; ``widen``: else its last three, if within twice that. None when too few."""
    meas = [s for s in tr.path[-32:] if s.measured]
    if len(meas) < 3:
        return None
    last = meas[-1]
    recent = [s for s in meas if s.t >= last.t - FIT_S - 1e-6]
    if len(recent) >= 3:
        return recent
    if not widen or last.t - meas[-3].t > 2 * FIT_S:
        return None
    return meas[-3:]


def _line_fit(recent: list[Sample]) -> tuple[float, np.ndarray, np.ndarray, float] | None:
    """The least-squares line through the sightings ``recent``: (their mean time, mean place,
    velocity, rms distance of the places across the line), or None when they share one time.
    (The distance across is 0 for a still fit, whose line has no direction.)"""
    t = np.array([s.t for s in recent])
    xy = np.array([(s.x, s.y) for s in recent])
    dt = t - t.mean()
    if float(dt @ dt) < 1e-9:
        return None
    mean = xy.mean(axis=0)
    v = (dt[:, None] * (xy - mean)).sum(axis=0) / float(dt @ dt)
    speed = float(np.hypot(*v))
    if speed < 1e-9:
        return float(t.mean()), mean, v, 0.0
    u = v / speed
    across = float(np.sqrt(np.mean(((xy - mean) @ np.array([-u[1], u[0]])) ** 2)))
    return float(t.mean()), mean, v, across


def slowed(seen: list[Sample], decel: float) -> bool:
    """Whether the last step between the sightings ``seen`` (measured, in time order) went at
    under ``SLOWED`` of the fastest step before it, less what friction (``decel``) took in the
    time between: the disc struck another one (or was struck) at its last sighting, and its
    course after that is not the line it came on. c2h_9914 at 10.5 s: n2, seen at 846 mm/s,
    then at 343 mm/s as it struck s2 nearly head-on, and lost by a peg; slid on along its line
    it was put 83 mm further, where no disc was, and found again where it had stopped as a new
    disc (a phantom shot, every later north disc renamed)."""
    steps = [(b.t, float(np.hypot(b.x - a.x, b.y - a.y)) / (b.t - a.t))
             for a, b in zip(seen, seen[1:], strict=False) if b.t - a.t > 1e-6]
    if len(steps) < 2:
        return False
    t_last, last = steps[-1]
    before = max(sp - decel * (t_last - t) for t, sp in steps[:-1])
    return last < SLOWED * before


def clear(board: CrokinoleBoard, a: np.ndarray, b: np.ndarray, r: float, resting: np.ndarray) -> bool:
    """Whether a disc of radius ``r`` slides from ``a`` to ``b`` touching no peg and none of the
    discs at rest at ``resting`` ((N, 2))."""
    pegs = np.asarray(board.peg_positions(), float)
    if any(segment_distance(q, a, b) < r + board.peg_diameter / 2 for q in pegs):
        return False
    return not any(segment_distance(q, a, b) < 2 * r for q in np.asarray(resting, float).reshape(-1, 2))


def crept_to(board: CrokinoleBoard, tr: Track, decel: float, resting: np.ndarray,
             struck: np.ndarray | None = None, past_hole: bool = False) -> tuple[float, float] | None:
    """Where ``tr``, lost while creeping to a stop (slower than ``SLIDE_SPEED``, anywhere on the
    surface, past the shooting line too), stopped: on along the straight line its last sightings
    run on, by the slide friction (``decel``) leaves it from the speed it had at the last one
    (the fitted speed less what friction took since the fit's middle: a step's speed is its
    middle's, and a creeping disc loses a good share of it within the step). The course ends
    at the first disc at rest or peg it meets (a creeping disc stops against it) or where it
    meets a disc struck since (``struck``). None when the sightings do not run on one line
    (``STRAIGHT_MM``: a hand carrying it, a bounce), when the last step was slowed by a blow
    (``slowed``), when the course runs by the 20-hole (``by_hole``: ``hole_course`` decides that) or ends
    past the surface's edge (``fate.resolve_lost`` decides that): the last sighting stands.
    c2h_9932 at 8.27 s: n1, last seen (-33, 208) creeping out at 250 mm/s, stopped 12 mm on, by
    the shooting line, and stayed unseen there for 14 s; kept at its last sighting, the shots
    that struck it were read as missing it (false 'no opponent hit' removals)."""
    recent = _last_sightings(tr, widen=True)
    if recent is None:
        return None
    last = recent[-1]
    fit = _line_fit(recent)
    if fit is None:
        return None
    t_mid, _, v, across = fit
    seen = float(np.hypot(*v))
    if seen < 1e-6 or seen >= SLIDE_SPEED:
        return None
    u = v / seen
    if across > STRAIGHT_MM:
        return None
    if slowed(recent, decel):
        return None
    speed = seen - decel * (last.t - t_mid)
    if speed <= 0.0:
        return None
    at = np.array([last.x, last.y], float)
    length = speed * speed / (2.0 * decel)
    r = tr.radius
    ends = [length]
    ends += [m for q in np.asarray(struck if struck is not None else [], float).reshape(-1, 2)
             if (m := _meets(at, u, length, q, 2 * r)) is not None]
    ends += [m for q in np.asarray(resting, float).reshape(-1, 2) if (m := _meets(at, u, length, q, 2 * r)) is not None]
    ends += [m for q in np.asarray(board.peg_positions(), float)
             if (m := _meets(at, u, length, q, r + board.peg_diameter / 2)) is not None]
    stop = at + u * max(min(ends), 0.0)
    if float(np.hypot(*stop)) > board.surface_radius or by_hole(board, at, stop, r, past_hole):
        return None
    return float(stop[0]), float(stop[1])


def _meets(at: np.ndarray, u: np.ndarray, length: float, q: np.ndarray, reach: float) -> float | None:
    """How far (mm) along the course from ``at`` (unit direction ``u``, ``length`` long) its
    centre first comes within ``reach`` of ``q``, or None if it never does, or is within it
    already at ``at`` (the disc there had gone by then: c2h_8908 at 11.6 s, n2 last seen over
    the place s2 had just been driven from)."""
    w = q - at
    along = float(w @ u)
    across2 = float(w @ w) - along * along
    if across2 > reach * reach or float(w @ w) < reach * reach:
        return None
    s = along - float(np.sqrt(reach * reach - across2))
    return s if 0.0 <= s <= length else None
