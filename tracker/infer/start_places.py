"""Where a shot may start, and a disc set down there and flicked before it was seen at rest.

The segmenter's questions about the shooting places, answered from the board model alone:
crokinole, the shooting line (and the 5 zone behind the 10 line); korona, a striker in a rim
zone behind its striking line's middle, and whether a striker's run could have come from a place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.boards.korona import ON_LINE_MM
from tracker.detect.datatypes import STRIKER
from tracker.infer.ends import stopped_by_hand
from tracker.track.datatypes import Track

# A shot disc that stopped within this much (mm) of touching a struck disc's place struck it;
# korona, a striker this near touching the rim has no room for a finger behind it.
TOUCH_MM = 3.0
# degrees a striker's next step may turn from the line of its first two sightings and still be
# on that line (detections of a fast striker wander a few mm across its way)
LINE_DEG = 30.0


def at_start_place(board: CrokinoleBoard | KoronaBoard, at: tuple[float, float], tr: Track | None,
                   on_line: float = 0.0) -> bool:
    """Where a disc waits to be shot: crokinole, on the shooting line (within a radius and a
    bit: players set discs on or just inside it); korona, a striker anywhere behind a
    striking line's middle (the rim zones), or up to ``on_line`` mm past the line."""
    r = tr.radius if tr is not None else board.disc_radius
    if isinstance(board, CrokinoleBoard):
        return board.waits_on_shooting_line(float(at[0]), float(at[1]), r)
    return (tr is None or tr.kind == STRIKER) and board.rim_zone_of(*at, margin=on_line) is not None


def put_down_and_flicked(board: CrokinoleBoard | KoronaBoard, p: np.ndarray, tr: Track,
                         shot_speed: float) -> tuple[tuple[float, float], float] | None:
    """(where, when) a disc first seen during the episode was flicked from, when it was put
    down where shots start and flicked before the tracker saw it at rest (a player who sets
    the disc on the line and shoots at once; at 10 fps two still frames are not "at rest"):
    its path is slow (a hand setting it down) up to a sample at a start place, then jumps
    by a flick's speed and carries it well away. None otherwise (a disc carried in and set
    down, a 20 lifted out of the hole). Crokinole: the slow part may be missing, the disc
    first seen where shots start just as it is flicked (its wait hidden by the hand; the
    detector's lone sighting joined to the track when it was next found, in flight): c2h_9702
    at 13.6 s, s3 seen once on the south line, then on its way in; the shot was judged from
    the disc it struck ("not where a shot starts") and lost. Korona: a striker set on its line
    is measured up to ``ON_LINE_MM`` past it (k4h_9942 at 22.5 s: south's striker, put down while
    the board still moved after a camera bump and read 5 mm past its line, flicked 1 s later;
    a false striker by the north row was taken for the shot disc and the shot lost)."""
    if len(p) < 3:
        return None
    dt = np.diff(p[:, 0])
    step = np.hypot(np.diff(p[:, 1]), np.diff(p[:, 2]))
    v = np.where(dt > 0, step / np.maximum(dt, 1e-6), 0.0)
    fast = np.nonzero(v > shot_speed)[0]
    first = 0 if isinstance(board, CrokinoleBoard) else 1
    if not len(fast) or fast[0] < first:
        return None
    k = int(fast[0])  # the flick leaves sample k
    at = (float(p[k, 1]), float(p[k, 2]))
    if (k and v[k - 1] > 0.25 * shot_speed) or not at_start_place(board, at, tr, on_line=ON_LINE_MM):
        return None
    away = float(np.hypot(p[k:, 1] - at[0], p[k:, 2] - at[1]).max())
    if away < 3 * tr.radius:
        return None
    if FLICKED_FORWARD and isinstance(board, KoronaBoard) and not forward(board, at, p[k + 1, 1:] - p[k, 1:]):
        return None
    return at, float(p[k, 0])


# Korona ``put_down_and_flicked``: the striker's first run from where it was put down heads forward,
# into the field (``forward``). Replays (--dets), off -> on: see the commit. False: off.
FLICKED_FORWARD = True


def forward(board: KoronaBoard, at: tuple[float, float], step: np.ndarray) -> bool:
    """Korona: whether a striker at ``at`` in a rim zone, first moving by ``step`` (mm), went
    forward: away from that zone's rim, into the field. Shots "must always be directed forwards"
    (the rulebook, 2.6), and a striker, four times a disc's weight, is turned back by no disc it
    strikes (only a rim); one first seen running back towards its own rim was no shot but a hand
    (k4h_10206 at 15.4 s: a false striker find on a player's sleeve by the north row, "put down"
    at (-114, 374), then "ran" 50 mm out to (-157, 400) and on with the finds of north's striker
    carried off over the north rim under that hand; a north shot was logged)."""
    seat = board.rim_zone_of(*at, margin=ON_LINE_MM)
    if seat is None:
        return True
    rim = np.asarray(board.rim_mark(seat), float)
    return float(np.asarray(step, float) @ rim) < 0.0


def may_start(board: CrokinoleBoard | KoronaBoard, start: tuple[float, float], tr: Track) -> bool:
    """Whether a disc flicked from ``start`` was shot from where shots start."""
    b = board
    x, y = start
    if isinstance(b, CrokinoleBoard):
        d = float(np.hypot(x, y))
        return d > b.ten_line_radius + tr.radius  # shot from the shooting line (in the 5 zone)
    # korona: a striker waits in a rim zone, and may stand up to its radius in front of
    # its striking line; one flicked from a rest place further into the field, or from
    # against the rim (within TOUCH_MM of touching it: no finger gets behind it), is a hand
    # carrying it to a striking line (k4h_9306 at 10.4 s: west's striker, left mid-board
    # by its shot, slid to west's line by hand, was logged as a shot of south's;
    # korona_2p_game at 73.7 s: south's striker, laid against the south rim, set on the
    # line by hand)
    if tr.kind != STRIKER:
        return b.rim_zone_of(x, y) is not None
    return b.rim_zone_of(x, y, margin=tr.radius) is not None \
        and max(abs(x), abs(y)) < b.half - tr.radius - TOUCH_MM


# Korona ``set_down_by_hand``: only the discs that rested within reach of where the striker stopped
# (its diameter and theirs) may have stopped it; a disc elsewhere measured a few mm off its place
# (a rim row's finds jitter 5-10 mm, a refit moves a row at once) is no evidence (``SET_DOWN_NEAR``).
# And a striker carried, set down and flicked again before the episode closed (moving when judged)
# is judged on its run up to the still span where it was set down (``SET_DOWN_STILL_S`` seconds).
SET_DOWN_NEAR = True
SET_DOWN_STILL_S = 0.5


def set_down_place(shooter: Track, p: np.ndarray) -> tuple[np.ndarray, tuple[float, float]] | None:
    """The path ``p`` (rows t, x, y: measured samples) of ``shooter`` up to where it was set down,
    and that place: where it rests now, or, moving again (flicked from where the hand left it
    before the episode closed: k4h_9942 at 35.7 s, west's striker carried at 2.1 m/s to its line
    at (-320, 249) and flicked from there 1 s later), the first place its path stayed within
    ``TOUCH_MM`` for ``SET_DOWN_STILL_S`` after it left its start. None when neither."""
    if shooter.state == "rest":
        return p, shooter.position()
    if shooter.state != "moving" or SET_DOWN_STILL_S <= 0 or len(p) < 3:
        return None
    xy = p[:, 1:]
    left = np.flatnonzero(np.hypot(*(xy - xy[0]).T) > shooter.radius)
    if not len(left):
        return None
    for i in range(int(left[0]), len(p)):
        near = np.hypot(*(xy[i:] - xy[i]).T) <= TOUCH_MM
        j = i + (int(np.argmin(near)) if not near.all() else len(near)) - 1
        if p[j, 0] - p[i, 0] >= SET_DOWN_STILL_S:
            return p[: j + 1], (float(xy[i, 0]), float(xy[i, 1]))
    return None


def set_down_by_hand(board: CrokinoleBoard | KoronaBoard, shooter: Track, paths: Mapping[int, np.ndarray],
                     movers: Sequence[Track], before: Mapping[int, tuple[float, float]], fast: float) -> bool:
    """Korona: whether the striker's run (``paths``, measured samples) was a hand carrying it
    (back to its striking line after a shot, or to the next player's) and setting it down: it
    came to rest in the open, clear of the rims, in less room than a free slide from its speed
    needs (:func:`tracker.infer.ends.stopped_by_hand`, over stretches at ``fast`` mm/s or more),
    and no other disc within reach of where it stopped moved, so nothing it struck stopped it
    (k4h_9306 at 34.1 s: west's striker, carried at 1.7 m/s from where its shot left it in the
    south rim zone to west's line, was logged as a south shot; k4h_9996 at 5.4 s: south's,
    carried at 2.4 m/s to north's line while four discs of the north row, 500 mm away, were
    measured 10 mm off their places, was logged as a north shot)."""
    if not isinstance(board, KoronaBoard) or shooter.kind != STRIKER:
        return False
    placed = set_down_place(shooter, paths[shooter.id])
    if placed is None:
        return False
    p, (x, y) = placed
    if max(abs(x), abs(y)) > board.half - 2 * shooter.radius:
        return False
    for tr in movers:
        q = paths.get(tr.id)
        was = before.get(tr.id)
        if tr.id == shooter.id or q is None or was is None:
            continue
        if SET_DOWN_NEAR and float(np.hypot(was[0] - x, was[1] - y)) > 2.0 * (shooter.radius + tr.radius):
            continue
        if float(np.hypot(q[:, 1] - was[0], q[:, 2] - was[1]).max()) > 0.25 * tr.radius:
            return False
    return stopped_by_hand(p, shooter.radius, fast)


def runs_back(board: KoronaBoard, striker: Track, start: tuple[float, float], rest: tuple[float, float],
               t0: float) -> bool:
    """Korona: whether ``striker``, seen at rest at ``rest`` and moving since ``t0``, is first seen
    on its way (two sightings over its diameter from both places) in the open, clear of the rims,
    running back towards ``start``: not flicked from there (a straight run from there, with no
    rim between to turn it, leads away from it). k4h_9924 at 31.4 s: west's striker, carried by
    a hand off the board over the west rim, was taken up by a false striker find mid-board at
    (-144, -5); a false "disc" by the west rim, where a striker waits, covered by the hand as it
    passed, was taken for the striker put down and flicked from there, and a west shot with the
    striker off the board was logged."""
    far = 2 * striker.radius
    pts = [np.array([s.x, s.y]) for s in striker.path if s.measured and s.t >= t0 - 1e-6]
    pts = [q for q in pts if min(np.hypot(*(q - np.asarray(start))), np.hypot(*(q - np.asarray(rest)))) > far]
    if len(pts) < 2:
        return False
    a, b = pts[0], pts[1]
    if max(abs(float(a[0])), abs(float(a[1]))) > board.half - 3 * striker.radius:
        return False  # by a rim: it may have come back off it
    return float(np.dot(a - np.asarray(start), b - a)) < 0.0


def lines_up_with_its_rest(board: KoronaBoard, striker: Track, start: tuple[float, float],
                           rest: tuple[float, float], t0: float) -> bool:
    """Korona: whether ``striker``, seen at rest at ``rest`` and moving since ``t0``, is first seen
    on its way (two sightings over its diameter from both places, in the open) on a line that
    passes within its diameter of ``rest`` and wider than that of ``start``: a striker runs
    straight from where it was flicked, so it left from its own place (a hand carrying it off),
    not from ``start`` (k4h_10106 at 15.5 s: north's striker, at rest mid-board after its shot,
    carried off over the north rim under a hand and first seen 500 mm on; a "disc" in south's rim
    zone, covered by the hand, was taken for it put down and flicked from there, and a south
    shot with the striker off the board was logged)."""
    far = 2 * striker.radius
    # its sightings since it was last seen at its place (the episode may begin at the second:
    # the first, 500 mm on, was read as a blur of motion before it)
    seen = [s for s in striker.path if s.measured]
    home = [k for k, s in enumerate(seen) if s.t < t0 - 1e-6 and np.hypot(s.x - rest[0], s.y - rest[1]) <= far]
    if not home:
        return False
    pts = [np.array([s.x, s.y]) for s in seen[home[-1] + 1:]]
    pts = [q for q in pts if min(np.hypot(*(q - np.asarray(start))), np.hypot(*(q - np.asarray(rest)))) > far]
    if len(pts) < 2 or max(abs(float(pts[0][0])), abs(float(pts[0][1]))) > board.half - 3 * striker.radius:
        return False
    a, b = pts[0], pts[1]
    step = float(np.hypot(*(b - a)))
    if step <= 0.0:
        return False
    u = (b - a) / step

    def off(q: tuple[float, float]) -> float:
        d = np.asarray(q) - a
        return abs(float(d[0] * u[1] - d[1] * u[0]))

    return off(rest) <= far and off(start) > far


def came_from(board: KoronaBoard, striker: Track, start: tuple[float, float], t0: float,
              decel: float, restitution: float) -> tuple[float, float] | None:
    """Korona: where ``striker``, taken for one that rested at ``start``, was flicked from instead,
    or None: its track took over a striker "found" at rest where none was (a row of discs, or a
    disc by a striking line, read as a striker), while the real one, set on its line, was found
    too seldom to become a track of its own. Its first two sightings on its way, in the open
    (out of the rim zones), give its line when the third carries on along it (``_carries_on``);
    a striker runs straight until it meets something, and it cannot have come from ``start`` when

    * ``start`` lies ahead on that line (it runs back towards it): only a bounce off the rim
      behind its first sighting brings it back (a striker, four times a disc's weight, is not
      turned back by one), and that way is longer than its speed allows since it was last seen
      at ``start`` (at most its first speed plus what friction, ``decel`` mm/s², took meanwhile,
      before a bounce that kept ``restitution`` of it): k4h_9942 at 3.2 s, south's striker
      joined to a false one by the north row, the shot logged as north's;
    * or ``start`` lies off that line by more than a striker's diameter (something turned it
      on the way) farther from its first sighting than that speed goes in the time: k4h_9966
      at 31.7 s, south's striker joined to a false one in the west rim zone 444 mm away,
      last seen there 0.07 s before, the shot logged as west's.

    Then it came straight along its line: from where that line, run back from its first
    sighting, reaches a striking line (a rim zone)."""
    far = 2 * striker.radius
    seen = [s for s in striker.path if s.measured]
    q0 = np.asarray(start, float)
    run = [s for s in seen if s.t >= t0 - 1e-6 and np.hypot(s.x - q0[0], s.y - q0[1]) > far]
    rested = [s for s in seen if run and s.t < run[0].t and np.hypot(s.x - q0[0], s.y - q0[1]) <= striker.radius]
    if len(run) < 3 or not rested or board.rim_zone_of(run[0].x, run[0].y) is not None:
        return None
    a, b, c = (np.array([s.x, s.y]) for s in run[:3])
    gap, step = run[0].t - rested[-1].t, run[1].t - run[0].t
    if gap <= 0.0 or step <= 0.0 or run[2].t <= run[1].t or float(np.hypot(*(b - a))) < 1e-6:
        return None
    v = (b - a) / step
    if not _carries_on(v, (c - b) / (run[2].t - run[1].t)):
        return None  # no line to run back along (a false find taken on its way: k4h_9924 at 33.4 s)
    speed = float(np.hypot(*v))
    u = v / speed
    reach = gap * (speed + decel * gap) / restitution  # the farthest it can have come since
    edge = board.half - striker.radius  # where its centre meets a rim
    # back along the line to the rim behind its first sighting
    s_rim = min((float((np.sign(-u[k]) * edge - a[k]) / -u[k]) for k in (0, 1) if abs(float(u[k])) > 1e-6),
                default=0.0)
    along = float((q0 - a) @ -u)  # how far back along its line ``start`` lies (< 0: ahead)
    off = float(np.hypot(*(q0 - (a - u * max(along, 0.0)))))  # and how far off it
    if along < 0.0:  # it runs back towards ``start``: only off the rim behind it
        way = float(np.hypot(*(a - u * s_rim - q0))) + s_rim
    elif off > far:  # off its line: turned on the way, at the least the straight distance
        way = float(np.hypot(*(a - q0)))
    else:
        return None  # straight from ``start``
    if way <= reach:
        return None
    for s in np.arange(0.0, s_rim, 2.0):
        q = a - u * s
        if board.rim_zone_of(float(q[0]), float(q[1])) is not None:
            return float(q[0]), float(q[1])
    return None


def _carries_on(v: np.ndarray, w: np.ndarray) -> bool:
    """Whether velocity ``w`` (mm/s, the next step) carries on along ``v``: within ``LINE_DEG``
    of its heading, at between half and twice its speed (a striker slides straight, slowing)."""
    sv, sw = float(np.hypot(*v)), float(np.hypot(*w))
    if sv < 1e-6 or sw < 1e-6 or not 0.5 <= sw / sv <= 2.0:
        return False
    return float(v @ w) / (sv * sw) >= float(np.cos(np.radians(LINE_DEG)))


def seen_there_after(waiting: Track, striker: Track, place: tuple[float, float], t0: float,
                     hold_s: float) -> bool:
    """Korona: whether ``waiting``, a "disc" that rested at ``place`` where a striker waits, was
    still found there (within its radius) ``hold_s`` seconds or more after ``striker``, moving
    since ``t0``, was first seen on its way (over its diameter from ``place``): then it was no
    striker put down there and flicked (that one leaves its place as it is flicked) but something
    that stayed. k4h_10206 at 10.7 s: west's striker, at rest mid-board after its shot, carried
    off the board over the west rim under a hand and first seen 490 mm on; a false find by the
    east row (a disc's shadow), found there 0.37 s longer, was taken for it put down and flicked
    from there, and an east shot with the striker off the board was logged."""
    q = np.asarray(place, float)
    away = [s.t for s in striker.path if s.measured and s.t >= t0 - 1e-6
            and float(np.hypot(s.x - q[0], s.y - q[1])) > 2 * striker.radius]
    if not away:
        return False
    there = waiting.seen_near(q, waiting.radius)
    return bool(there) and there[-1].t >= away[0] + hold_s - 1e-6
