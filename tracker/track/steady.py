"""A disc sliding steadily, seen frame after frame, does not jump sideways off its line unless
something turned it: a disc it hit (or that hit it), a peg or a rim. Used by the tracker's wide
second stage, whose gate is a circle as large as the disc's speed allows, so that a detection of
another disc beside the mover's line is not taken for the mover when that other disc's own
track was lost (its forecast went wrong) and the mover's own detection is missing that frame.

k2e_9935 at 13.37 s: the striker drove s1 west at y = 344 mm and pushed s2, the end of a row
against the north rim, west along the rim at y = 400; s2 went unseen for four frames and its
forecast bounced it back off the rim; the frame s1's detection was missing, s1's track took
s2's detection 53 mm to its side, and the two discs' names were swapped from then on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import Detections
from tracker.track.association import BIG
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker

SLOWED = 0.75  # korona: seen again this much slower over a gap than it coasted: a blow slowed it (``gap_start``)
SEEN_FRAMES = 4  # samples in a row measured from detections, the last one the frame before
STEADY = 0.25  # each of the last steps' velocities within this fraction of the latest speed
CONTACT_SLACK_MM = 5.0  # mm beyond two radii within which another disc may have turned it


def steady_velocity(tr: Track, t_now: float, dt: float) -> np.ndarray | None:
    """The velocity (mm/s) of a moving track measured in each of its last ``SEEN_FRAMES``
    frames (the last the frame before ``t_now``) with steps that agree; None otherwise."""
    if tr.state != "moving" or len(tr.path) < SEEN_FRAMES:
        return None
    recent = tr.path[-SEEN_FRAMES:]
    if not all(s.measured for s in recent) or t_now - recent[-1].t > 1.5 * dt:
        return None
    xy = np.array([[s.x, s.y] for s in recent])
    ts = np.array([s.t for s in recent])
    steps = np.diff(xy, axis=0) / np.maximum(np.diff(ts), 1e-3)[:, None]
    v = steps[-1]
    speed = float(np.hypot(*v))
    if speed * dt < tr.radius / 2:  # too slow for a line to mean much
        return None
    if np.any(np.hypot(*(steps - v).T) > STEADY * speed):
        return None
    return v


def sideways(tk: Tracker, rows: Sequence[Track], cand: list[int], dets: Detections, dcols: list[int],
             cost: np.ndarray, dt: float) -> np.ndarray:
    """BIG for a steadily seen mover (``steady_velocity``) and a detection more than a diameter
    to the side of its line, matching none of its hypotheses (``cost``, the first stage's: a
    bounce off a peg or a rim is one) within a diameter, with no other disc in play within
    touching distance of the way from its last place to the detection."""
    out = np.zeros((len(cand), len(dcols)))
    if not len(dcols):
        return out
    others = [r for r in tk.tracks if r.state in ("rest", "moving")]
    for a, i in enumerate(cand):
        tr = rows[i]
        if tr in tk._tentative:
            continue
        v = steady_velocity(tr, tk._t_now, dt)
        if v is None:
            line = coasted_line(tk, tr, dt) if tk.cfg.coasted_line else None
            if line is not None:
                out[a] = _off_line(tr, line[0], line[1], tr.xy, dets, dcols, cost[i], others)
            continue
        last = tr.path[-1]
        p0 = np.array([last.x, last.y])
        ahead = p0 + v * (tk._t_now - last.t)
        u = v / float(np.hypot(*v))
        normal = np.array([-u[1], u[0]])
        for b, j in enumerate(dcols):
            z = dets.xy[j]
            if abs(float((z - ahead) @ normal)) <= 2 * tr.radius or cost[i, j] <= 2 * tr.radius:
                continue
            near = any(segment_distance(r.xy, p0, z) <= tr.radius + r.radius + CONTACT_SLACK_MM
                       for r in others if r is not tr)
            if not near:
                out[a, b] = BIG
    return out


def coasted_line(tk: Tracker, tr: Track, dt: float) -> tuple[np.ndarray, np.ndarray] | None:
    """Korona: where a moving disc was last seen and the unit heading it has coasted on since,
    when it has been unseen for a frame or more and its forecast ran straight on from the sighting
    (no rim, no blow forecast on the way: every coasted sample on that line, within a millimetre)
    for more than a disc's radius, its velocity still along that line and its step this frame
    (``dt``) short of the rims; else None. Its heading is the velocity it was seen going at over
    the last gap (``lifecycle.KORONA_VELOCITY_OVER_GAP``).

    Off (``TrackerConfig.coasted_line``). Replays (--dets), both off -> on: k4h_9606 pockets R/P
    0/0 -> 50/33% (n2 followed into the nw pocket), k4h_9924 P 0 -> 100%, korona_2p_game switches
    7.1 -> 3.6, p95 5.56 -> 5.47 mm; but korona_2p_game median 1.35 -> 1.38 mm, k2e_9953 p95 1.10 ->
    1.21 mm (a row shuffle at 8.4 s), k4h_9606 p95 4.58 -> 4.59 (S's end at 28.3 s lost); the other
    10 korona dev matches and 4 korona fixtures the same."""
    if not isinstance(tk.board, KoronaBoard) or tr.state != "moving" or not tr.path or tr.path[-1].measured:
        return None
    k = len(tr.path) - 1
    while k >= 0 and not tr.path[k].measured:
        k -= 1
    if k < 0:
        return None
    p0 = np.array([tr.path[k].x, tr.path[k].y])
    run = np.array([tr.path[-1].x, tr.path[-1].y]) - p0
    far = float(np.hypot(*run))
    if far <= tr.radius:
        return None
    u = run / far
    normal = np.array([-u[1], u[0]])
    sp = float(np.hypot(*tr.v))
    if sp < 1e-6 or abs(float(tr.v @ normal)) > 0.05 * sp or float(tr.v @ u) <= 0:
        return None  # turned since (a rim, a blow)
    if np.any(np.abs(tr.xy + tr.v * dt) > tk.board.half - tr.radius):
        return None  # meets a rim this frame
    for s in tr.path[k + 1:]:
        q = np.array([s.x, s.y]) - p0
        if abs(float(q @ normal)) > 1.0 or float(q @ u) < -1.0:
            return None
    return p0, u


def _off_line(tr: Track, p0: np.ndarray, u: np.ndarray, ahead: np.ndarray, dets: Detections, dcols: list[int],
              cost: np.ndarray, others: Sequence[Track]) -> np.ndarray:
    """BIG for each detection more than a diameter to the side of a mover's coasted line (from
    ``p0`` along ``u`` to its forecast ``ahead``) that matches none of its hypotheses within a
    diameter (``cost``), unless another disc in play lies within touching distance of that line:
    only a disc it met on its way could have turned it (k4h_9606 at 37.43 s: n2, flying north-west
    at 1.3 m/s and unseen for four frames, took a false find beside the east row 270 mm to the
    side of its line, and a new track carried it down the nw pocket nameless)."""
    out = np.zeros(len(dcols))
    normal = np.array([-u[1], u[0]])
    if any(segment_distance(r.xy, p0, ahead) <= tr.radius + r.radius + CONTACT_SLACK_MM for r in others if r is not tr):
        return out
    for b, j in enumerate(dcols):
        if abs(float((dets.xy[j] - p0) @ normal)) > 2 * tr.radius and cost[j] > 2 * tr.radius:
            out[b] = BIG
    return out


def beyond_reach(tk: Tracker, rows: Sequence[Track], cand: list[int], dets: Detections,
                 dcols: list[int], t: float, dt: float) -> np.ndarray:
    """BIG for a known moving disc and a detection farther from where it was last seen than the
    wide stage lets it go (two radii and ``1.5 * speed + 500`` mm/s, at most ``v_max``, for the
    time since): the stage's gate is measured from its hypotheses, which for a disc unseen a few
    frames already lie that far on along its coasted line, so the slack counted twice. k4h_9606
    at 37.23 s: n2, struck across the board and unseen for four frames, took a false find beside
    e2 418 mm from its last sighting (its own speed there about 1300 mm/s), and a new track
    carried the disc down the pocket nameless."""
    out = np.zeros((len(cand), len(dcols)))
    if not len(dcols):
        return out
    for a, i in enumerate(cand):
        tr = rows[i]
        seen = tr.last_sighting()
        if tr.state != "moving" or tr in tk._tentative or seen is None:
            continue
        reach = 2 * tr.radius + max(t - seen.t, dt) * min(tk.cfg.v_max, 1.5 * tr.speed + 500.0)
        far = np.hypot(*(dets.xy[dcols] - np.array([seen.x, seen.y])).T) > reach
        out[a, far] = BIG
    return out


def gap_start(tr: Track, now_xy: np.ndarray, prev_t: float, over_gap: bool,
              seen_now: tuple[np.ndarray, float] | None = None, others: Sequence[Track] = ()) -> np.ndarray:
    """Where a moving disc's velocity is measured from at its next sighting: where it was last
    seen (``prev_t``), when it coasted on straight since (``now_xy``, its forecast, on the line
    of its last sighting and velocity); else (a bounce or a blow forecast while it was unseen)
    its forecast. Taken from the forecast always, the step over a missed frame was divided by
    the whole gap: c4h_9951 at 11.33 s, e1 seen again after one frame missed was given 367
    mm/s instead of about 1000, was forecast short of n1, and took n1's finds when it struck
    it head-on (an identity switch). Korona (``seen_now``: where and when it is seen now): only
    when that find lies within a radius of the coasted line, ahead of the sighting, and was not
    reached much slower than the coast went (``SLOWED``) with one of the ``others`` (the discs in
    play) in the way of its coast; one off the line turned unseen or is another disc's find, one
    well short of its coast with a disc in its way struck it unseen (korona_2p_game at 14.0 s: the
    striker, seen again stopped against s6, had 600 mm/s over the gap: it coasted on into the
    north rim and its first contact was read as the rim, a foul) (``lifecycle.KORONA_VELOCITY_OVER_GAP``)."""
    if not over_gap:
        return now_xy
    seen = tr.last_sighting()
    if seen is None or seen.t < prev_t - 1e-6:
        return now_xy
    a = np.array([seen.x, seen.y])
    run = now_xy - a
    if float(np.hypot(*run)) < 1e-6:
        return now_xy
    off = abs(float(run[0] * tr.v[1] - run[1] * tr.v[0])) / max(float(np.hypot(*tr.v)), 1e-6)
    if off >= 1.0 or float(run @ tr.v) <= 0:
        return now_xy
    if seen_now is not None:
        z, t = seen_now
        u = run / float(np.hypot(*run))
        ahead = np.asarray(z, float) - a
        if abs(float(ahead[0] * u[1] - ahead[1] * u[0])) > tr.radius or float(ahead @ u) <= 0:
            return now_xy
        coast = float(np.hypot(*run)) / max(tr.path[-1].t - seen.t, 1e-3)  # the coast's mean speed
        if float(np.hypot(*ahead)) / max(t - seen.t, 1e-3) < SLOWED * coast:
            end = now_xy + tr.v * max(t - tr.path[-1].t, 0.0)  # where the coast is due now
            if any(segment_distance(o.xy, a, end) <= tr.radius + o.radius + CONTACT_SLACK_MM
                   for o in others if o is not tr):
                return now_xy
    return a
