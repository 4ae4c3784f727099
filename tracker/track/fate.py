"""A disc's fate: the hole, a pocket, off the board — from the detector's verdict (debounced) and
the board geometry at rest, or, for a moving disc that vanished, from where it was last seen.

Pure functions on a :class:`Track` and the board model, used by the tracker.
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.boards.korona import Pocket
from tracker.detect.datatypes import IN_DITCH, IN_HOLE, IN_POCKET
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Track
from tracker.track.hole_course import (
    heading_over_hole,
    passes_over_hole,
    short_of_hole,
    slid_into_hole,
    slide_distance,
)
from tracker.track.rims import barred_over_rim
from tracker.track.slide import HOLE_CAPTURE, crept_to, slid_to

# A crokinole disc at rest seen fewer times than this in all (the pipeline names none before
# three) and then unseen this many seconds was a false find (``fleeting``).
FLEETING_HITS, FLEETING_S = 3, 0.5

# Korona: a disc lost beside a pocket went down it only if its slide on its heading brings its
# centre over the pocket's circle (``_near_pocket``; a course stopping in the open, short of any
# rim: ``_course_pocket``), not merely if it had the way left to get there in any direction.
# Replayed reviews (--dets), off -> on: k2e_9971 rounds 0/1 -> 1/1, pockets P 75 -> 100%; the
# other 6 k2e dev matches, the 7 k4h dev matches and the 11 fixtures the same.
NEAR_POCKET_HEADING = True


def where_verdict(board: CrokinoleBoard | KoronaBoard, tr: Track, where: int) -> None:
    """Debounced hole / pocket / ditch verdicts (two frames running), plus geometry at rest."""
    key = where
    last = next(iter(tr.where_votes), None)
    count = tr.where_votes.get(key, 0) + 1 if last == key else 1
    tr.where_votes = {key: count}
    x, y = tr.position()
    b = board
    if isinstance(b, CrokinoleBoard):
        if tr.state in ("rest", "moving") and ((where == IN_HOLE and count >= 2) or
                                              (tr.state == "rest" and _over_hole(b, x, y))):
            tr.state = "hole"
        elif tr.state in ("rest", "moving") and (
            (where == IN_DITCH or np.hypot(x, y) > b.surface_radius + 2.0) and count >= 2
        ):
            tr.state = "off"
    else:
        at_rest_in_pocket = tr.state == "rest" and b.pocket_of(x, y, tr.radius) is not None
        if tr.state in ("rest", "moving") and ((where == IN_POCKET and count >= 2) or at_rest_in_pocket):
            tr.state = "pocket"
            tr.pocket = b.pocket_of(x, y) or _nearest_pocket(b, x, y)
        elif tr.state in ("rest", "moving") and not b.on_surface(x, y) and count >= 2:
            # past the playing area in a corner: down a pocket (its mouth is wider than the
            # pocket circle of the board model); elsewhere: over the rim, off the board
            corner = min(abs(x), abs(y)) > b.half - b.pocket_inset - b.pocket_radius
            tr.state = "pocket" if corner else "off"
            if corner:
                tr.pocket = _nearest_pocket(b, x, y)


def coasted_into_pocket(b: CrokinoleBoard | KoronaBoard, p0: np.ndarray, p1: np.ndarray) -> Pocket | None:
    """Korona: the pocket a disc coasting unseen from ``p0`` to ``p1`` (mm) dropped into: its
    centre passed over the pocket's circle (over it, a disc falls in). None on a crokinole board
    or when the step passes over no pocket. Without it the tracker coasted such a disc on
    through the pocket, off the corner's rims and back out, and gave it the next detection near
    there (k2e_9505 at 23.4 s: s1, struck into the nw pocket and seen once in its mouth, coasted
    over the pocket and back out 50 mm, and took the detection of south's striker resting there)."""
    if not isinstance(b, KoronaBoard):
        return None
    a, e = np.asarray(p0, float), np.asarray(p1, float)
    for name, q in b.pocket_centres().items():
        if segment_distance(np.asarray(q, float), a, e) < b.pocket_radius:
            return name
    return None


def in_pocket(b: CrokinoleBoard | KoronaBoard, tr: Track) -> tuple[np.ndarray, float] | None:
    """Korona: where a disc down a pocket may be seen, for the tracker's association: within the
    pocket's circle (``pocket_radius`` of its centre). A disc on the surface by the pocket's
    mouth has its centre outside that circle (over it, it drops in), so it is never taken for a
    disc down the pocket that follows its detections (korona_2p_game: n8, down the sw pocket
    since 23.0 s, followed detections out of the pocket's mouth to where n5 came to rest at
    98 s, took n5's and n5's pocketing at 122.9 s was never seen). None for any other track."""
    if not isinstance(b, KoronaBoard) or tr.state != "pocket" or tr.pocket is None:
        return None
    return np.array(b.pocket_centres()[tr.pocket], float), b.pocket_radius  # type: ignore[index]


def _over_hole(b: CrokinoleBoard, x: float, y: float) -> bool:
    """A disc "at rest" with its centre well over the 20-hole is in it: a disc down in the hole
    lies with its centre within hole radius - disc radius (1.6 mm) of the hole's centre, but is
    measured a few mm off (it is seen low down, partly hidden by the hole's wall), so a sharp
    SPEC 2 test (d + r <= hole radius + tolerance, 2.6 mm) would miss it. A disc that stopped
    on the surface overhanging the hole stays there while its centre is more than about 0.55
    hole radii out (the simulator's capture zone, ``PhysicsParams.hole_capture_fraction``: a disc
    tips in only once its centre of mass is well over the hole). The cut, 0.4 hole radii (7 mm),
    lies between the two with room for the measurement error on either side (0.6 called a disc
    resting 9.8 mm out a 20 on a rendered match, seed 7501).
    """
    return b.in_hole(x, y) or float(np.hypot(x, y)) <= 0.4 * b.hole_radius


def resolve_lost(board: CrokinoleBoard | KoronaBoard, tr: Track, decel: float,
                 resting: np.ndarray | None = None, struck: np.ndarray | None = None,
                 stayed: np.ndarray | None = None, collided: bool = False, reach: bool = False,
                 struck_last: bool = False, creep: bool = False, past_hole: bool = False,
                 fast_past_hole: bool = False) -> None:
    """A moving disc vanished: into the hole, a pocket, off the board, or under a hand.
    ``decel``: the friction the tracker coasts unseen discs with (``TrackerConfig.decel``);
    ``resting``: (N, 2) places of the other discs at rest (crokinole: a disc lost sliding in
    the open slid on to where its course stops, ``slide.slid_to``); ``struck``: (M, 2) places
    where other discs lay when it was last seen and have left since (one on its course stopped
    it there); ``stayed``: korona, (K, 3) rows x, y, radius of the discs at rest seen there since
    it was last seen (one on its course over a rim says a hand carried it off:
    ``rims.barred_over_rim``); ``reach``: crokinole, a disc lost near the 20-hole goes in only
    if its slide gets its centre over the hole's capture zone (:func:`short_of_hole`), and one
    that stops short rests where its slide ends, unless ``struck_last``: its last step straddled
    its blow on a resting disc, whose heading then says nothing of where it went on to
    (``lifecycle.struck_last``; it stays where last seen). ``creep``: crokinole, a disc lost in
    the open creeping to a stop (too slow for ``slide.slid_to``) rests where its creep ends
    (``slide.crept_to``), unless ``struck_last``; ``past_hole``: a course by the 20-hole stands
    unless its centre runs over the hole (``slide.by_hole``); ``fast_past_hole``: one cut short by
    a disc it struck stands by the hole too, if it came too fast to drop in (``slide.slid_to``).
    A course that ends with the disc's centre over the hole's capture zone (``HOLE_CAPTURE`` of
    its radius: stopped there by the disc it struck) ends in the hole: a disc stopped over the
    zone tips in, however fast it came (c2h_10102 at 17.6 s: n3, black, last seen 24 mm from the
    centre at 900 mm/s, struck s3 about head-on over the hole and dropped in unseen; its course,
    cut short at s3's place, ended 9.2 mm from the centre, where it was kept at rest, scored 15,
    and north's 20 was missed)."""
    last = tr.last_sighting()
    lx, ly = (last.x, last.y) if last else (float(tr.xy[0]), float(tr.xy[1]))
    px, py = float(tr.xy[0]), float(tr.xy[1])
    b = board
    v = _last_velocity(tr)
    coast = float(np.hypot(*tr.v))  # how fast it coasts now
    tr_heading = tr.v.copy()
    tr.v = np.zeros(2)
    if isinstance(b, CrokinoleBoard):
        # (not a disc never seen away from where it rested: it lay there without dropping in,
        # and the blow that knocked it away unseen drove it over the hole too fast to fall;
        # c2h_9402 at 4.8 s: s1, resting over the hole's edge, knocked into the ditch unseen,
        # was called a 20)
        # (and, with ``reach``, only one whose slide gets it over the hole's capture zone: one
        # stopping short rests where its slide ends, over the hole's edge: ``short_of_hole``)
        if np.hypot(lx, ly) < b.hole_radius + 2 * tr.radius and heading_over_hole(b, lx, ly, v) \
                and not never_seen_away(tr) and not collided \
                and not passes_over_hole(b, lx, ly, _slowest_velocity(tr, v), decel):
            short = short_of_hole(b, tr, lx, ly, _slowest_velocity(tr, v), decel) if reach else None
            if short is None:
                tr.state, tr.xy = "hole", np.zeros(2)
                return
            if not struck_last:
                lx, ly = float(short[0]), float(short[1])
        if not never_seen_away(tr) and slid_into_hole(b, tr, decel, resting, struck):
            tr.state, tr.xy = "hole", np.zeros(2)
            return
        # (last seen near the edge: off only when heading out; c2h_9402 at 13.0 s: s3, carried
        # in to the south shooting line by a hand and lost under it, heading inward, was
        # called off, and its shot, seen, was no shot)
        # (and only when its course reaches the edge: c4h_8909 at 5.5 s, s1, knocked out to just
        # past the shooting line, last seen creeping 95 mm/s outward 27 mm from the edge and not
        # found at rest, was called off and its removal for stopping outside the line was missed)
        out = float(np.hypot(lx, ly)) > b.surface_radius - 2 * tr.radius and float(v @ np.array([lx, ly])) > 0 \
            and reaches_edge(b, lx, ly, _recent_velocity(tr, v), decel)
        # (its coast ending past the surface's edge: a disc tips into the ditch once its centre
        # is over the edge, not when its rim reaches it; c2h_9962 at 14.4 s: n2, lost creeping
        # out past the shooting line and coasted to a stop 16 mm inside the edge, was called off)
        if np.hypot(px, py) > b.surface_radius or out:
            tr.state = "off"
            return
    else:
        pocket = b.pocket_of(lx, ly) or b.pocket_of(px, py)
        if pocket is None:
            pocket = _near_pocket(b, lx, ly, tr.radius, max(coast, float(np.hypot(*v))), decel,
                                  v if float(np.hypot(*v)) > 0 else tr_heading)
        if pocket is None:
            pocket = _course_pocket(b, tr, np.array([lx, ly]), np.array([px, py]), coast, last.t if last else None,
                                    decel, seen_speed=float(np.hypot(*v)))
        if pocket is not None:
            tr.state, tr.pocket = "pocket", pocket
            return
        if not b.on_surface(px, py):
            if stayed is not None and barred_over_rim(b, np.array([lx, ly]), np.array([px, py]), tr.radius, stayed):
                tr.state, tr.occluded = "lifted", False
                return
            tr.state = "off"
            return
    # Lost mid-board: treat as covered where it was last seen (or, crokinole, where it slid on
    # to in the open: ``slide.py``); the lift timer decides.
    if isinstance(b, CrokinoleBoard) and resting is not None:
        stop = slid_to(b, tr, decel, resting, struck, past_hole, fast_past_hole)
        if stop is None and creep and not struck_last:
            stop = crept_to(b, tr, decel, resting, struck, past_hole)
        if stop is not None and float(np.hypot(*stop)) <= HOLE_CAPTURE * b.hole_radius:
            tr.state, tr.xy = "hole", np.zeros(2)  # stopped over the hole's capture zone: it tips in
            return
        if stop is not None:
            lx, ly = stop
    tr.state = "rest"
    tr.occluded = True
    tr.xy = np.array([lx, ly])
    tr.anchor, tr.anchor_n = tr.xy.copy(), 1


def off_unseen(tr: Track) -> bool:
    """Korona: a disc called off the board that was never seen away from where it rested: it
    vanished as a mover was due to hit it (``lifecycle.knocked_unseen``) and its fate was read
    from the course the forecast blow gave it. Against a rim such a course runs over the rim
    whether the disc jumped it (gone for good) or the blow only pressed it into the rim while the
    detector lost it (rows against the rim are found on full passes only): the fate stands only
    until the disc is seen again where it rested (``lifecycle.revive``). Never seen away:
    ``never_seen_away``."""
    return tr.state == "off" and never_seen_away(tr)


def never_seen_away(tr: Track) -> bool:
    """Whether a disc that left its rest place was never seen away from it: its last detection
    within a quarter radius of where it rested (a detection's noise at rest is a fraction of a
    millimetre)."""
    if tr.rest_xy is None:
        return False
    last = tr.last_sighting()
    return last is not None and float(np.hypot(last.x - tr.rest_xy[0], last.y - tr.rest_xy[1])) <= 0.25 * tr.radius


def _velocity_over(tr: Track, n: int, otherwise: np.ndarray) -> np.ndarray:
    """The velocity (mm/s) from the first to the last of the last ``n`` measured samples, else
    ``otherwise``."""
    meas = tr.sightings(n)
    if len(meas) < n or meas[-1].t <= meas[0].t:
        return otherwise
    return np.array([meas[-1].x - meas[0].x, meas[-1].y - meas[0].y]) / (meas[-1].t - meas[0].t)


def _last_velocity(tr: Track) -> np.ndarray:
    """The velocity between the last two measured samples (mm/s): how the disc was going when
    last seen (the coasting estimate has been slowed by friction since)."""
    return _velocity_over(tr, 2, tr.v.copy())


def reaches_edge(b: CrokinoleBoard, x: float, y: float, v: np.ndarray, decel: float) -> bool:
    """Whether a disc last seen at (x, y) moving at ``v`` (mm/s) slides past the playing
    surface's edge before friction (``decel``) stops it: its course's stop, v^2 / (2 decel) on
    along its line, lies beyond the surface radius."""
    sp = float(np.hypot(*v))
    if sp < 1e-6:
        return False
    stop = np.array([x, y], float) + v / sp * slide_distance(sp, decel)
    return float(np.hypot(*stop)) > b.surface_radius


def _recent_velocity(tr: Track, v: np.ndarray) -> np.ndarray:
    """The velocity over the last three steps between measured samples (else ``v``): a disc
    reaching the surface's edge is found short of where it is as it nears the ditch (c2h_8908 at
    15.5 s: n2's last step seen 5 mm, 12 mm true; called at rest 29 mm from the edge, it had
    "touched the shooting line" instead of leaving the board)."""
    return _velocity_over(tr, 4, v)


def _slowest_velocity(tr: Track, v: np.ndarray) -> np.ndarray:
    """``v`` (the last two measured samples' velocity) slowed to the slower of the last two
    steps between measured samples: a blurred disc's centre may be found well along its streak
    (c2h_9202: 16 mm ahead), and one such sighting must not make a slow disc fast."""
    meas = tr.sightings(3)
    sp = float(np.hypot(*v))
    if len(meas) < 3 or sp < 1e-6:
        return v
    slow = min(float(np.hypot(b.x - a.x, b.y - a.y)) / (b.t - a.t) if b.t > a.t else sp
               for a, b in zip(meas, meas[1:], strict=False))
    return v * min(1.0, slow / sp)


def _near_pocket(b: KoronaBoard, x: float, y: float, radius: float, speed: float, decel: float,
                 heading: np.ndarray | None = None) -> Pocket | None:
    """The pocket whose centre lies within its radius and a disc's diameter of (x, y), if any,
    and that a disc last seen there at ``speed`` (mm/s) could still slide into against friction
    (``decel``): a disc seen coming to a stop beside a pocket stays on the surface, unseen
    (k2e_9505 at 23.6 s: south's striker, last seen creeping to rest at 95 mm/s 26 mm from the
    nw pocket's circle, its resting outline found as a disc, was called down the pocket). With its
    ``heading`` (its velocity; ``NEAR_POCKET_HEADING``), only if its slide on that line brings its
    centre over the pocket's circle: one sliding past the mouth or away from it stops beside it
    (k2e_9971 at 23.5 s: n2, seen last 16 mm out of the se pocket's circle at 240 mm/s heading
    along its edge, stopped 2 mm outside it and was called pocketed)."""
    near = _nearest_pocket(b, x, y)
    q = b.pocket_centres()[near]
    d = float(np.hypot(x - q[0], y - q[1]))
    if d >= b.pocket_radius + 2 * radius:
        return None
    run = slide_distance(speed, decel)
    sp = float(np.hypot(*heading)) if heading is not None else 0.0
    if NEAR_POCKET_HEADING and heading is not None and sp > 1e-6:
        p = np.array([x, y], float)
        stop = p + heading / sp * run
        return near if segment_distance(np.asarray(q, float), p, stop) <= b.pocket_radius else None
    return near if d - b.pocket_radius <= run else None


def _course_pocket(b: KoronaBoard, tr: Track, at: np.ndarray, now: np.ndarray, coast: float, seen: float | None,
                   decel: float, restitution: float = 0.9, step: float = 0.005,
                   seen_speed: float = 0.0) -> Pocket | None:
    """The pocket a disc lost while moving slid into, on the course it was on: from where it was
    last seen (``at``, at time ``seen``) towards where it has coasted since (``now``, at ``coast``
    mm/s), at the speed it had then, slowed by friction (``decel``, the tracker's) and glancing off the rims
    (``restitution``), until it stops. None when that course passes no pocket within its radius
    and the disc's.

    A disc lost on its way into a corner went down the pocket there: met a rim beside the
    pocket and stayed, it would have come back into view. At 10 fps a disc struck towards a
    corner is seen once or twice, often not at all in the pocket's mouth, and a disc knocked
    along a rim slides along it into the pocket (korona_2p_game at 18.8 s: last seen 100 mm
    out of the sw pocket, heading for the rim 40 mm from its centre; at 22.7 s a rim disc
    knocked unseen along the south rim, 180 mm from the pocket)."""
    d = now - at
    dist = float(np.hypot(*d))
    if dist < 1e-6 or seen is None or not tr.path:
        return None
    u = d / dist
    elapsed = max(tr.path[-1].t - seen, 0.0)
    # the coasting speed, taken back to the sighting; or the speed it was seen going at between
    # its last two sightings, when more: the coasting (a smoothed velocity) may have stopped it
    # short (korona_2p_game at 115.4 s: seen at 710 mm/s 180 mm out of the se pocket, coasted
    # to a stop in 70 mm, and left "covered" there though it went down 0.2 s later). A coast
    # that has stopped says only that the disc was slow: it stopped sooner than ``elapsed``,
    # so the speed it was seen going at stands (k2e_9505 at 23.6 s: south's striker, seen
    # creeping to rest at 95 mm/s 58 mm from the nw pocket's centre, was sent back in at
    # 450 mm/s and down the pocket)
    speed = max(coast + decel * elapsed, seen_speed) if coast > 0 else seen_speed
    lim = b.half - tr.radius
    c = b.pocket_centres()
    reach = b.pocket_radius + tr.radius
    if NEAR_POCKET_HEADING:
        # a course that stops in the open, short of any rim, goes down only over the pocket's
        # circle (the rim of a corner may guide a disc in that its bounce, forecast, sends away;
        # in the open nothing does: ``_near_pocket``)
        stop = at + u * slide_distance(speed, decel)
        if np.all(np.abs(stop) <= lim):
            return next((name for name, q in c.items()
                         if segment_distance(np.asarray(q, float), at, stop) <= b.pocket_radius), None)
    p, v = at.astype(float).copy(), u * speed
    while float(np.hypot(*v)) > 1.0:
        p = p + v * step
        for k in (0, 1):
            if abs(p[k]) > lim and p[k] * v[k] > 0:
                p[k], v[k] = np.sign(p[k]) * lim, -restitution * v[k]
        sp = float(np.hypot(*v))
        for name, q in c.items():
            gap = float(np.hypot(p[0] - q[0], p[1] - q[1]))
            # within reach, and fast enough to slide on until its centre is over the pocket
            if gap < reach and gap - b.pocket_radius <= slide_distance(sp, decel):
                return name
        v = v * max(sp - decel * step, 0.0) / sp
    return None


def _nearest_pocket(b: KoronaBoard, x: float, y: float) -> Pocket:
    c = b.pocket_centres()
    return min(c, key=lambda k: np.hypot(x - c[k][0], y - c[k][1]))


def fleeting(board: CrokinoleBoard | KoronaBoard, tr: Track) -> bool:
    """A crokinole disc at rest seen fewer than ``FLEETING_HITS`` times in all is a false find
    (the edge of an arm over the board with a line and a peg: c2e_9301 at 15.6 s, two sightings
    30 mm beside s3), not a disc covered: a disc comes to rest seen on every frame of its way
    there, or is put down and seen as the hand leaves it, and the detector keeps a disc found at
    rest on every frame after. Unseen for ``FLEETING_S`` it is forgotten, before it takes a
    neighbour's detection as a knock of its own (c2e_9301 at 17.5 s: s3, struck by n3 first
    seen in flight, lost its first sighting away to it; s3 stayed 'at rest' and the phantom
    went off as 's4'; ``lifecycle.miss`` lifts and retires it). Korona discs against a rim are found on the detector's full passes
    only, so not there."""
    return isinstance(board, CrokinoleBoard) and tr.hits < FLEETING_HITS
