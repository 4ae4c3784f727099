"""Contacts (disc-disc, disc-peg, disc-rim) inferred from sampled trajectories.

Two kinds of evidence, because frames are coarse (a fast disc moves 3 diameters a frame):

1. A resting disc never starts by itself. When disc B leaves its rest place, the disc whose path
   passed closest to B's rest place, at about that moment, hit it. That is robust however few
   frames there are: it needs only the paths, not velocities.
2. A moving disc whose velocity turns sharply between two frames hit something. The polyline
   through the samples cuts the corner of a bounce, so it passes within contact distance of the
   obstacle (a peg, the rim, another moving disc); the nearest such obstacle is named. A disc
   that never moved was never hit (equal-ish masses: a hit always moves it), so it is never a
   candidate. A sharp turn with no obstacle nearby is noise (or the hole, the ditch): dropped.

Contacts are returned in time order, each pair once within a short window.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.infer.datatypes import Contact
from tracker.infer.first_touch import aimed_at, first_touch
from tracker.infer.rim_reach import obstacles_at, rim_glance, rim_reached, rim_side
from tracker.track.association import first_contact
from tracker.track.blows import passes_within

Path = np.ndarray  # (K, 3): t, x, y — measured samples only


def _interp(path: Path, t: np.ndarray) -> np.ndarray:
    return np.stack([np.interp(t, path[:, 0], path[:, 1]), np.interp(t, path[:, 0], path[:, 2])], axis=-1)


def motion_start(path: Path, rest: tuple[float, float], tol: float = 3.0) -> int | None:
    """Index of the first sample more than ``tol`` mm from the rest place, or None."""
    d = np.hypot(path[:, 1] - rest[0], path[:, 2] - rest[1])
    idx = np.nonzero(d > tol)[0]
    return int(idx[0]) if len(idx) else None


def _corner(p: Path, i: int) -> tuple[np.ndarray, float] | None:
    """Where and when a disc bounced between samples i and i+1, from the straight motion on
    either side: c = p_i + v_in * s and p_{i+1} = c + v_out * (dt - s)."""
    if i < 1 or i + 2 >= len(p) + 1 or i + 1 >= len(p):
        return None
    dt = p[i + 1, 0] - p[i, 0]
    d_in = p[i, 0] - p[i - 1, 0]
    if dt <= 0 or d_in <= 0:
        return None
    v_in = (p[i, 1:] - p[i - 1, 1:]) / d_in
    if i + 2 < len(p) and p[i + 2, 0] > p[i + 1, 0]:
        v_out = (p[i + 2, 1:] - p[i + 1, 1:]) / (p[i + 2, 0] - p[i + 1, 0])
    else:
        v_out = np.zeros(2)
    dv = v_in - v_out
    n2 = float(dv @ dv)
    if n2 < 1e-9:
        return None
    s = float(dv @ (p[i + 1, 1:] - p[i, 1:] - v_out * dt)) / n2
    s = min(max(s, 0.0), dt)
    return p[i, 1:] + v_in * s, float(p[i, 0] + s)


def infer_contacts(
    paths: Mapping[int, Path],
    rest: Mapping[int, tuple[float, float]],
    radius: Mapping[int, float],
    shooter: int,
    board: CrokinoleBoard | KoronaBoard,
    turn_mm_s: float = 300.0,
    still: Mapping[int, tuple[float, float]] | None = None,
) -> list[Contact]:
    """Contacts during one shot.

    ``paths``: measured samples of every disc that moved (from just before it moved); ``rest``:
    where each disc on the surface rested before the shot (movers and the others); ``radius``
    per disc; ``shooter``: the shot disc. ``still``: the discs that stayed at rest on the surface
    through the shot, where they lay: a sharp turn no peg, rim or mover explains, made within
    touching distance of one of them, was a blow on it (``_still_struck``).
    """
    found: list[Contact] = []
    movers = [k for k, p in paths.items() if len(p) >= 2]
    korona = isinstance(board, KoronaBoard)
    # 1. Discs set in motion: who hit them.
    for b in movers:
        if b == shooter or b not in rest:
            continue
        p = paths[b]
        k = motion_start(p, rest[b])
        if k is None or found_still(p, rest[b], radius[b]):
            continue
        t_hi = p[k, 0]
        t_lo = p[k - 1, 0] if k > 0 else t_hi - 0.1
        t_lo -= 0.5 * (t_hi - t_lo)
        q = np.asarray(rest[b])
        best: tuple[float, float, int] | None = None
        near: tuple[float, float, int] | None = None  # the nearest, whether or not it came nearer
        for a in movers:
            if a == b:
                continue
            pa = paths[a]
            if pa[0, 0] > t_hi or pa[-1, 0] < t_lo:
                continue
            ts = np.linspace(t_lo, t_hi, 24)
            ts = ts[(ts >= pa[0, 0]) & (ts <= pa[-1, 0])]
            if not len(ts):
                continue
            xy = _interp(pa, ts)
            d = np.hypot(xy[:, 0] - q[0], xy[:, 1] - q[1]) - (radius[a] + radius[b])
            i = int(np.argmin(d))
            this = (float(d[i]), first_touch(ts, d) if FIRST_TOUCH and korona else float(ts[i]), a)
            if near is None or this[0] < near[0]:
                near = this
            if APPROACH_MM is not None and korona and d[i] > APPROACH_MM and d[i] >= float(
                    np.hypot(pa[0, 1] - q[0], pa[0, 2] - q[1])) - radius[a] - radius[b] - APPROACH_MM:
                continue  # never touched it and never came nearer it than it started: no blow
            # also the straight segment between the samples bracketing the window
            if best is None or this[0] < best[0]:
                best = this
        if best is not None and best[0] < 2.5 * radius[b]:
            found.append(Contact(best[1], best[2], b))
        elif _clearly_moved(p, q, radius[b]):
            # Knocked more than its radius, but no path passes near its rest place: the frames
            # that showed the hitter there were lost (blur, a missed detection). Something hit
            # it; the likeliest is the disc whose path came nearest, else the shot disc.
            who = near[2] if near is not None else shooter
            found.append(Contact(near[1] if near is not None else float(t_hi), who, b))
    # 2. Sharp turns: pegs, rims, discs.
    pegs = np.array(board.peg_positions()) if isinstance(board, CrokinoleBoard) else np.zeros((0, 2))
    peg_r = board.peg_diameter / 2 if isinstance(board, CrokinoleBoard) else 0.0
    for a in movers:
        p = paths[a]
        ra = radius[a]
        start = motion_start(p, rest[a]) if a in rest else 0
        if start is None:
            continue
        for k in range(max(start, 1), len(p) - 1):
            dt0 = p[k, 0] - p[k - 1, 0]
            dt1 = p[k + 1, 0] - p[k, 0]
            if dt0 <= 0 or dt1 <= 0:
                continue
            v0 = (p[k, 1:] - p[k - 1, 1:]) / dt0
            v1 = (p[k + 1, 1:] - p[k, 1:]) / dt1
            dv = float(np.hypot(*(v1 - v0)))
            sp = float(np.hypot(*v0))
            glance = rim_glance(p, k, board.half - ra) if RIM_GLANCE and isinstance(board, KoronaBoard) else None
            if dv < max(turn_mm_s, 0.35 * sp) and glance is None:
                continue
            a1 = p[k, 1:]
            tol = 3.0
            cands: list[tuple[float, float, int | str]] = []
            # the bounce point, if it bounced in the interval before or after sample k
            corners = [c for c in (_corner(p, k - 1), _corner(p, k)) if c is not None]
            corners.append((a1, float(p[k, 0])))
            for q in pegs:
                d, tt = min(((float(np.hypot(*(c - q))), tc) for c, tc in corners), key=lambda x: x[0])
                if d <= ra + peg_r + tol + 2.0:
                    cands.append((d - ra - peg_r, tt, "peg"))
            if glance is not None:
                cands.append(glance)
            if isinstance(board, KoronaBoard):
                lim = board.half - ra - tol
                for c, tc in corners:
                    if max(abs(c[0]), abs(c[1])) >= lim:
                        cands.append((board.half - ra - max(abs(c[0]), abs(c[1])), tc, rim_side(c)))
                        break
                else:
                    rim = rim_reached(p, k, board.half - ra, tol, obstacles_at(paths, radius, a, float(p[k, 0])))
                    if rim is not None:
                        cands.append(rim)
            for other, pc in paths.items():
                if other == a:
                    continue
                xy = _interp(pc, np.array([p[k, 0]]))[0]
                d = float(np.hypot(*(a1 - xy))) - ra - radius[other]
                if d <= tol + 0.5 * sp * dt0:
                    cands.append((d, float(p[k, 0]), other))
            if not cands and still and isinstance(board, CrokinoleBoard):
                cands = _still_struck(p, k, ra, still, radius)
            if cands:
                d, tt, what = min(cands, key=lambda c: c[0])
                if isinstance(what, str) and what.startswith("rim:") and isinstance(board, KoronaBoard):
                    tt = _rim_in_order(found, a, tt, max(dt0, dt1), p[max(start - 1, 0):], rest, radius,
                                       board.half - ra)
                elif isinstance(what, str):
                    tt = _after_own_hits(found, a, tt, max(dt0, dt1))
                found.append(Contact(tt, a, what))
    return _dedupe(sorted(found, key=lambda c: c.t))


# ``infer_contacts``, korona only (crokinole not measured): RIM_GLANCE, a mover's motion across
# a rim turned back next to it is a bounce off it however little it turned (``rim_glance``);
# FIRST_TOUCH, a blow on a resting disc is timed where the mover first reached touching distance
# of it, not where it ran deepest into its place (``first_touch``); APPROACH_MM, a mover that
# never came within this of touching a disc that "left" its place, nor this much nearer it than
# it started, did not strike it (korona_ru_part at 23.3 s: s2, read 8 mm off its place as north's
# striker, set down 23 mm from it, was shot away from it, was taken as struck by it: "the striker
# first touched south's pawn", a foul; None: off)
RIM_GLANCE = True
FIRST_TOUCH = True
APPROACH_MM: float | None = 3.0


# mm beyond touching that a mover's run may pass a disc at rest and still be taken to have
# struck it (``_still_struck``: the detections' noise and the run's straight-line forecast)
STILL_TOL = 2.0


# mm: the scatter of a disc's detections at rest (``found_still``)
FOUND_STILL_MM = 2.0


def found_still(p: Path, rest: tuple[float, float], radius: float, tol: float = FOUND_STILL_MM) -> bool:
    """Whether a disc's samples ``p`` show no motion, only a better place for it: all of them
    within ``tol`` of the first, which lies off its rest place ``rest`` by less than its radius.
    A disc lost at rest is kept where it was last seen, an estimate (the last sighting of its
    slide, a few millimetres short); found again during a shot, it was never seen at that place
    in the shot (or its samples there would not all be still), and the jump to its true place
    is no blow (c2h_9802 at 23.4 s: s4, lost as it stopped and kept 7 mm off, found again as
    n4 flew past 22 mm clear, was read as struck by n4; n4's foul, hitting only its own n3, was
    missed and the two stayed on the board)."""
    d = np.hypot(p[:, 1] - p[0, 1], p[:, 2] - p[0, 2])
    return bool(d.max() <= tol) and float(np.hypot(p[0, 1] - rest[0], p[0, 2] - rest[1])) < radius


def _still_struck(p: Path, k: int, ra: float, still: Mapping[int, tuple[float, float]],
                  radius: Mapping[int, float], tol: float = STILL_TOL) -> list[tuple[float, float, int | str]]:
    """The discs at rest that a mover turning sharply at sample ``k`` of its path ``p`` ran into:
    its run into the turn (the leg before sample ``k``, or the one before ``k - 1``), carried on
    straight over the time to the next sample, comes within touching distance (``tol`` beyond
    it) of the disc's place, and the next sample lies farther from it than where they met (it
    bounced off, not through). Rows (gap 0, time of contact, disc). A struck disc moves unless
    something holds it (or the detector never sees it at rest: ``_lost_its_push``, the blow
    read from the mover alone): one lying against a peg takes a blow towards the peg and stays put
    within the detector's noise, so it never joins the movers, and the mover's turn beside it,
    with no peg or mover near, was taken for noise (c2h_9956 at 21.9 s: n4 struck s4, lying
    against a peg, turned unseen beside it, and no contact was found: a foul, n4 removed).
    Only when nothing else explains the turn, and only in crokinole: on a korona board (rims,
    a striker four times a disc's weight) it changed korona_overshot's summary from truth
    detections (a south pocketing counted that never was), and no korona match was measured
    to need it."""
    out: list[tuple[float, float, int | str]] = []
    for j in (k, k - 1):
        if j < 1 or j + 1 >= len(p):
            continue
        d_in, d_out = p[j, 0] - p[j - 1, 0], p[j + 1, 0] - p[j, 0]
        if d_in <= 0 or d_out <= 0:
            continue
        v_in = (p[j, 1:] - p[j - 1, 1:]) / d_in
        for other, q in still.items():
            qa = np.asarray(q, float)
            reach = ra + radius.get(other, ra)
            s = first_contact(p[j, 1:], v_in, qa, reach + tol, d_out)
            if s is None:
                continue
            meet = p[j, 1:] + v_in * s
            if float(np.hypot(*(p[j + 1, 1:] - qa))) > float(np.hypot(*(meet - qa))) \
                    or (STILL_PUSH and _lost_its_push(p, j, s, meet, v_in, qa)):
                out.append((0.0, float(p[j, 0] + s), other))
    return out


# ``_still_struck``: a run that meets a disc at rest and loses at least half its speed towards it
# (along the line of centres) struck it, whether or not its next sample lies farther from it
STILL_PUSH = True


def _lost_its_push(p: Path, j: int, s: float, meet: np.ndarray, v_in: np.ndarray, q: np.ndarray) -> bool:
    """Whether the mover whose path ``p`` met, at ``meet`` (``s`` seconds after sample ``j``,
    running at ``v_in``), the disc resting at ``q`` gave it its push: its velocity along the line
    of centres after the meeting (the next leg's, else the rest of this one's) is under half what
    it was (equal masses: a blow passes on most of it, the part across the line stays). The
    struck disc leaves, so the mover may still close on the place it left; "farther from it
    next" misses such a blow (c2h_9944 at 10.47 s: n2, running at 680 mm/s, struck s2, red on
    the red board and never seen at rest, at 31 mm and went on at 210 mm/s across the line of
    centres, its next sample 0.5 mm nearer s2's place; no contact, a 'no opponent hit' foul)."""
    x = q - meet
    nx = float(np.hypot(*x))
    if nx < 1e-9:
        return False
    n = x / nx
    push = float(v_in @ n)
    if push <= 0.0:
        return False
    if j + 2 < len(p) and p[j + 2, 0] > p[j + 1, 0]:
        v_out = (p[j + 2, 1:] - p[j + 1, 1:]) / (p[j + 2, 0] - p[j + 1, 0])
    else:
        rest = p[j + 1, 0] - p[j, 0] - s
        if rest <= 1e-6:
            return False
        v_out = (p[j + 1, 1:] - meet) / rest
    return float(v_out @ n) < 0.5 * push


def _clearly_moved(p: Path, rest: np.ndarray, radius: float) -> bool:
    """A disc whose measured positions went more than its radius from its rest place."""
    return bool(np.hypot(p[:, 1] - rest[0], p[:, 2] - rest[1]).max() > radius)


def _after_own_hits(found: Sequence[Contact], a: int | str, t: float, frame: float) -> float:
    """A bounce off the rim (or a peg) and a hit on a resting disc by the same mover less than a
    frame apart: the frames cannot tell their order. The disc hit is taken first, as a disc hit
    also turns the mover: so a close-range hit next to the rim is not read as an indirect shot
    (a rim first), which the rules would call a foul."""
    own = [c.t for c in found if c.a == a and not isinstance(c.b, str) and abs(c.t - t) <= frame]
    return max([t, *(x + 1e-3 for x in own)])


def _run_to_rim(p: Path, t: float, lim: float) -> list[np.ndarray]:
    """The run of a disc (measured samples ``p``) into a rim bounce estimated at time ``t``:
    its samples up to the last one still heading for that rim, then on, at that leg's
    velocity, to where its centre meets the rim (``lim``: the centre's farthest reach). Empty
    when no leg before ``t`` is known."""
    j = int(np.searchsorted(p[:, 0], t + 1e-9)) - 1
    if j < 1:
        return []
    leg = p[j, 1:] - p[j - 1, 1:]
    axis = int(np.argmax(np.abs(p[j, 1:])))  # the rim it is nearest
    sign = 1.0 if p[j, 1 + axis] >= 0 else -1.0
    while j >= 2 and leg[axis] * sign <= 0:  # sample j is on the way back: step to the run in
        j -= 1
        leg = p[j, 1:] - p[j - 1, 1:]
    dt = p[j, 0] - p[j - 1, 0]
    if dt <= 0 or leg[axis] * sign <= 0:
        return []
    v = leg / dt
    s = max((lim - float(p[j, 1 + axis]) * sign) / float(v[axis] * sign), 0.0)
    return [p[i, 1:] for i in range(j + 1)] + [p[j, 1:] + v * s]


def _rim_in_order(found: Sequence[Contact], a: int, t: float, frame: float, p: Path,
                  rest: Mapping[int, tuple[float, float]], radius: Mapping[int, float], lim: float) -> float:
    """Korona: the time of ``a``'s rim bounce at ``t`` set before or after its hits on resting
    discs less than a frame apart, which the frames cannot order: by the run into the rim
    (:func:`_run_to_rim`). A disc that run came within touching distance of was hit first
    (a striker driven into a disc next to the rim); one it passed clear of was hit after the
    bounce, and the rim came first: an indirect shot (k2e_9911 at 30.75 s: north's striker
    touched the south rim 5 ms before n7, which its run in passed 2 mm clear of; the disc read
    first made the unannounced indirect shot, a foul, a direct one)."""
    run = _run_to_rim(p, t, lim)
    after: list[float] = []
    before: list[float] = []
    for c in found:
        if c.a != a or isinstance(c.b, str) or abs(c.t - t) > frame:
            continue
        if not run or c.b not in rest or passes_within(run, rest[c.b], radius[a] + radius[c.b]):
            after.append(c.t + 1e-3)
        else:
            before.append(c.t - 1e-3)
    if after:
        return max([t, *after])
    return min([t, *before])


def grazed_rim(contacts: Sequence[Contact], paths: Mapping[int, Path], rest: Mapping[int, tuple[float, float]],
               radius: Mapping[int, float], shooter: int, board: CrokinoleBoard | KoronaBoard) -> bool:
    """Korona: whether the shot disc's first contact was a rim it met with the disc it struck
    next already within reach (a disc radius of touching it where it met the rim): a shot at
    that disc that touched the rim on its way in, not a bank shot played off the rim to a disc
    away from it (k2e_9911 at 30.75 s: north's striker met the south rim 3 mm from touching
    n7, which it struck 5 ms later); or a rim met on a run aimed at that disc from the striker's
    place (``AIMED_GRAZE``: k2e_9941 at 35.65 s, south's striker, shot at s5 lying against the
    east rim, glanced off that rim 60 mm short of it: an uncalled indirect shot, a foul)."""
    if not isinstance(board, KoronaBoard) or shooter not in paths:
        return False
    mine = [c for c in contacts if shooter in (c.a, c.b)]
    if len(mine) < 2 or not isinstance(mine[0].b, str) or not mine[0].b.startswith("rim:"):
        return False
    hit = mine[1].b if mine[1].a == shooter else mine[1].a
    if isinstance(hit, str) or hit not in rest:
        return False
    p = paths[shooter]
    run = _run_to_rim(p, mine[0].t, board.half - radius[shooter])
    if not run:
        return False
    q = np.asarray(rest[hit], float)
    if float(np.hypot(*(run[-1] - q))) <= radius[shooter] + 2 * radius[hit]:
        return True
    return AIMED_GRAZE and aimed_at(run[0], run[-1], q, radius[shooter] + radius[hit])


# ``grazed_rim``: a rim met on a run whose straight course from the striker's place was aimed at
# the disc it struck next (``first_touch.aimed_at``) was grazed on the way to it
AIMED_GRAZE = True


def _dedupe(contacts: Sequence[Contact], window: float = 0.12) -> list[Contact]:
    out: list[Contact] = []
    for c in contacts:
        key = frozenset((c.a, c.b))
        if any(frozenset((o.a, o.b)) == key and abs(o.t - c.t) < window for o in out):
            continue
        if isinstance(c.b, str) and any(o.a == c.a and o.b == c.b and abs(o.t - c.t) < window / 3 for o in out):
            continue
        out.append(c)
    return out
