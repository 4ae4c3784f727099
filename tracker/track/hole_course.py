"""A crokinole disc's course to the 20-hole: whether a disc lost sliding near the hole drops in,
slides on over it, or stops short of it, from its last sightings, the board's friction and gravity.

Pure functions on a :class:`Track` and the board model, used by :mod:`tracker.track.fate`.
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.track.datatypes import Sample, Track
from tracker.track.slide import G_MM, HOLE_CAPTURE, clear, heading, too_fast_for_hole

__all__ = ["G_MM", "HOLE_CAPTURE"]


def slide_distance(speed: float, decel: float) -> float:
    """How far (mm) a disc sliding at ``speed`` (mm/s) goes before friction (``decel``) stops it."""
    return speed * speed / (2 * decel)


def passes_over_hole(b: CrokinoleBoard, x: float, y: float, v: np.ndarray, decel: float) -> bool:
    """Whether a disc last seen at (x, y) moving at ``v`` (mm/s) reaches the 20-hole too fast to
    drop in (``slide.too_fast_for_hole``). (c2h_8902 at 11.0 s: n2, glanced off a peg, seen
    twice on its way past the hole at 900 mm/s and lost in a blur, was put in the hole; the
    shot's disc then had no track from the line.)"""
    return too_fast_for_hole(b, np.array([x, y], float), v, decel)


def short_of_hole(b: CrokinoleBoard, tr: Track, x: float, y: float, v: np.ndarray, decel: float
                  ) -> np.ndarray | None:
    """Where a disc last seen at (x, y) moving at ``v`` (mm/s, the mean over its last step
    between sightings) stops when its slide ends short of the 20-hole's capture zone
    (``HOLE_CAPTURE`` of its radius), where it would tip in; None when it gets there. Its speed at the last sighting (``v``
    less the friction over half that step: a sliding disc slows all along it) carries it
    v^2 / (2 decel) on along its line. A disc whose slide stops short rests on the surface
    over the hole's edge (the physics of the simulator and of a real board: one centred
    outside the zone does not tip in). Such a disc, lost as it comes to rest there, is
    easily never found again at rest: dark over the dark hole, or of the board's colour
    (c4h_9921 at 2.5 s and 16.2 s: blue s1 and s2 on the blue board, last seen 37 and 41 mm
    out at about 260 mm/s, stopped 12 and 24 mm from the centre; c4h_9963 at 9.6 s: n1, last
    seen 23 mm out at 190 mm/s, stopped 19 mm out; c2h_9944 at 7.5 s: red s2 on the red
    board, 30 mm out: each was called a 20; kept where last seen, they lay 5-25 mm short of
    where they stopped)."""
    p = np.array([x, y], float)
    cap = HOLE_CAPTURE * b.hole_radius
    if float(np.hypot(*p)) <= cap:
        return None
    meas = tr.sightings(2)
    step = meas[-1].t - meas[0].t if len(meas) == 2 else 0.0
    sp = float(np.hypot(*v))
    if sp < 1e-6:
        return p
    u = v / sp
    sp = max(0.0, sp - 0.5 * decel * step)
    along = -float(p @ u)  # the way to the point of its line nearest the centre
    off = abs(float(p[0] * u[1] - p[1] * u[0]))
    need = along - float(np.sqrt(cap * cap - off * off)) if off < cap else along
    run = slide_distance(sp, decel)
    return None if run >= need else p + u * run


def slid_into_hole(b: CrokinoleBoard, tr: Track, decel: float, resting: np.ndarray | None,
                   struck: np.ndarray | None) -> bool:
    """Whether a crokinole disc lost while sliding further out than the hole test of
    :func:`tracker.track.fate.resolve_lost` reaches, slid on into the 20-hole: its last sightings run on one line
    at a slide's speed (``slide.course``), the line runs over the hole, friction leaves it
    enough way to reach the hole's capture zone and too little speed there to pass over it
    (:func:`passes_over_hole`), and nothing stands on its way there (a peg, a disc at rest, a
    disc that lay there when it was last seen: ``resting``, ``struck``). A dark disc down in
    the hole is not told from the empty hole, and the lamp's glare by the centre hides a pale
    one: lost 60 mm out on its way in, it was left "covered" where last seen, scored in the 15
    zone and later "lifted" by hand, and the 20 was lost."""
    c = heading(b, tr, decel)
    if c is None:
        return False
    at, v, sp, u = c
    if not heading_over_hole(b, float(at[0]), float(at[1]), v):
        return False
    along = -float(at @ u)  # the way to the point of its line nearest the centre
    if slide_distance(sp, decel) < along - HOLE_CAPTURE * b.hole_radius:
        return False  # stops short of the hole
    if passes_over_hole(b, float(at[0]), float(at[1]), v, decel):
        return False
    near = at + u * max(along, 0.0)
    others = [np.asarray(q, float).reshape(-1, 2) for q in (resting, struck) if q is not None]
    return clear(b, at, near, tr.radius, np.vstack(others) if others else np.zeros((0, 2)))


def heading_over_hole(b: CrokinoleBoard, x: float, y: float, v: np.ndarray) -> bool:
    """A disc last seen at (x, y) moving at ``v`` was over the 20-hole or heading over it: its
    line ahead passes within a hole radius of the centre (the capture zone is 0.55 of it; the
    rest is room for the measurement). A disc lost beside the hole while sliding past it, or
    stopped dead against another disc and not seen at rest for a while, did not drop in
    (rendered match, seed 7507: a shot disc stopped 35 mm from the centre by a head-on hit,
    unseen for 0.6 s, was called a 20)."""
    p = np.array([x, y], float)
    if float(np.hypot(*p)) <= b.hole_radius:
        return True
    sp = float(np.hypot(*v))
    if sp < 1e-6:
        return False
    u = v / sp
    if float(p @ u) >= 0:  # moving away from the centre
        return False
    return abs(float(p[0] * u[1] - p[1] * u[0])) <= b.hole_radius


# seconds after its last sighting over the 20-hole in which a disc called into it may still be
# found sliding on beyond it (``passed_over``): the tracker's donor window (``merge.DONOR_WINDOW``)
PASSED_S = 0.6


def passed_over(b: CrokinoleBoard, tracks: list[Track], tr: Track, v_max: float) -> Track | None:
    """The disc called into the 20-hole that the track ``tr``, born moving, is: one whose last
    sighting lay over the hole (its centre within the hole's radius and its own of the centre),
    at most ``PASSED_S`` before ``tr`` was first seen (or on the same frame: a blurred disc found
    twice), having come over the hole within that time too (``arrived_over_hole``), within reach of ``tr``'s latest sighting at the top speed (``v_max``), with ``tr``
    ahead on the way it came over the hole and going on that way (a disc does not turn back
    over an empty hole). A disc in the hole does not come out of it by itself: this one crossed
    it, and the detector, whose picture of the empty hole blends with a disc sliding over it,
    found it in the hole twice on its way. c2h_9932 at 14.0 s: n2, struck by s3, crossed the
    hole 10 mm from its centre at 490 mm/s; called a 20, it was found sliding on beyond as a
    new disc (a false 20, and a phantom shot)."""
    first, last = tr.path[0], tr.path[-1]
    went = np.array([last.x - first.x, last.y - first.y])
    best: tuple[float, Track] | None = None
    for d in tracks:
        if d is tr or d.state != "hole" or d.kind != tr.kind:
            continue
        seen = d.sightings(2)
        if len(seen) < 2:
            continue
        at = np.array([seen[-1].x, seen[-1].y])
        arrived, came = arrival_over_hole(b, d)
        # its run onto the hole: from its last sighting before it came over it (else its last step)
        u = at - (np.array([came.x, came.y]) if came is not None else np.array([seen[0].x, seen[0].y]))
        gap = first.t - seen[-1].t
        ahead = np.array([last.x, last.y]) - at
        if not -1e-6 <= gap <= PASSED_S or float(np.hypot(*at)) > b.hole_radius + d.radius:
            continue
        if first.t - arrived > PASSED_S:
            continue  # it stayed there: it dropped in, and only a hand takes it out
        if float(np.hypot(*ahead)) > v_max * (last.t - seen[-1].t) + 2 * d.radius:
            continue
        if float(ahead @ u) <= 0.0 or float(went @ u) <= 0.0:
            continue
        if best is None or gap < best[0]:
            best = (gap, d)
    return best[1] if best is not None else None


def arrival_over_hole(b: CrokinoleBoard, d: Track) -> tuple[float, Sample | None]:
    """When ``d`` came over the 20-hole for its stay there: the first of its sightings, run back
    from its last one, with its centre within the hole's radius and its own of the centre (or
    its last sighting's time, when that lies further out); and its sighting just before that
    (None when it has none). ``passed_over`` measures its window from then, not from the last
    sighting: a disc crossing the hole is over it for a frame or three, and one found there for
    longer dropped in. c2e_10101 at 7.5 s: n1, in the hole since 6.2 s and seen there on every
    frame until the hand lifting it out hid it (7.03 s), was taken for a disc that crossed the
    hole when the hand carried it off over the north rim 0.47 s later (a phantom north shot, and
    a false off_board of n1). Its way onto the hole runs from the sighting before: its finds in
    the hole are the empty hole's picture (``passed_over``), a few tenths of a mm apart, and the
    step between the last two of them points anywhere (n1's pointed east, and the carried disc,
    found north of the hole, lay "ahead" of it)."""
    seen = [s for s in d.path if s.measured]
    over = 0  # how many of its last sightings lie over the hole
    while over < len(seen) and float(np.hypot(seen[-1 - over].x, seen[-1 - over].y)) <= b.hole_radius + d.radius:
        over += 1
    if over == 0:
        return (seen[-1].t if seen else d.last_seen), None
    return seen[-over].t, (seen[-over - 1] if over < len(seen) else None)
