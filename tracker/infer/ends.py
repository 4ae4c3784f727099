"""Small helpers on tracks and paths shared by the shot segmenter and the unseen-shot inference."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.infer.datatypes import Contact, End
from tracker.track.blows import passes_within
from tracker.track.datatypes import Track


def peak_speed(p: np.ndarray) -> float:
    """Fastest speed (mm/s) between successive samples of a path (rows t, x, y)."""
    if len(p) < 2:
        return 0.0
    dt = np.diff(p[:, 0])
    ok = dt > 0
    v = np.hypot(np.diff(p[:, 1])[ok], np.diff(p[:, 2])[ok]) / dt[ok]
    return float(v.max()) if len(v) else 0.0


# Fastest a disc sliding free on a board loses speed (mm/s^2): half of g, where boards give
# 0.1-0.3 g (the rendered matches 0.12 g). A run that comes to rest in less room than this
# allows, having struck nothing, was stopped by a hand (``stopped_by_hand``).
MAX_SLIDE_DECEL = 0.5 * 9810.0


def stopped_by_hand(p: np.ndarray, slack: float, fast: float) -> bool:
    """Whether a path (rows t, x, y: measured samples) came to rest in less room than friction
    allows: after some stretch run at ``fast`` mm/s or more, the rest of the path is shorter,
    by more than ``slack`` mm, than a free slide from the speed it had at that stretch's end
    (its mean speed less the most friction takes in half its time) needs,
    v^2 / (2 ``MAX_SLIDE_DECEL``), and runs on ahead (within ``slack``), not turned back.
    Only meaningful for a disc that struck nothing: a blow, a rim or a pocket stops a disc as
    short as it likes."""
    if len(p) < 3:
        return False
    dt = np.diff(p[:, 0])
    step = np.diff(p[:, 1:], axis=0)
    d = np.hypot(step[:, 0], step[:, 1])
    after = np.concatenate([np.cumsum(d[::-1])[::-1][1:], [0.0]])  # path length after each stretch
    for k in np.flatnonzero(dt > 0):
        v = float(d[k] / dt[k])
        if v < fast:
            continue
        # on ahead only: a run that turns back after it bounced off something (a row against
        # the rim stays put when the striker is driven into it)
        ahead = float((step[k + 1:] @ (step[k] / d[k])).sum())
        if ahead < float(after[k]) - slack:
            continue
        v_end = max(v - MAX_SLIDE_DECEL * float(dt[k]) / 2.0, 0.0)
        if float(after[k]) + slack < v_end * v_end / (2.0 * MAX_SLIDE_DECEL):
            return True
    return False


def end_of(tr: Track) -> End:
    """Where a disc ended a shot (SPEC 4b): a rest place, hole, pocket:xx, off, or lifted."""
    if tr.state == "hole":
        return "hole"
    if tr.state == "pocket":
        return f"pocket:{tr.pocket}" if tr.pocket else "off"
    if tr.state in ("off",):
        return "off"
    if tr.state == "lifted":
        return "lifted"
    x, y = tr.position()
    return (round(x, 2), round(y, 2))


def stayed_out(ends: dict[int, End], before: dict[int, tuple[float, float]], radius: dict[int, float],
               contacts: Sequence[Contact], shooter: int) -> dict[int, End]:
    """``ends`` without the discs that rest where they rested before the shot (within a quarter
    radius) and touched nothing: they did not move. The tracker may have counted one as moving
    while a shot disc passed over it and hid it (taken for a disc knocked away unseen) or its
    detection jittered; listed, it reads as a disc the shot moved (a false find of the detector
    that the shot disc slid across was adopted and named as a disc, rendered match seed 7502)."""
    touched = {c.a for c in contacts} | {c.b for c in contacts}
    out: dict[int, End] = {}
    for tid, e in ends.items():
        was = before.get(tid)
        if (tid != shooter and tid not in touched and isinstance(e, tuple) and was is not None
                and float(np.hypot(e[0] - was[0], e[1] - was[1])) <= 0.25 * radius.get(tid, 0.0)):
            continue
        out[tid] = e
    return out


def path_since(tr: Track, since: float) -> list[np.ndarray]:
    """The places (mm) of ``tr``'s path from the last sample before ``since`` on (seen or
    forecast): where it ran from then, the run into its first sample since included."""
    first = next((k for k, s in enumerate(tr.path) if s.t >= since), len(tr.path))
    return [np.array([s.x, s.y]) for s in tr.path[max(first - 1, 0):]]


def reached(movers: Sequence[Track], at: tuple[float, float], radius: float, since: float, margin: float) -> bool:
    """Whether one of ``movers`` came, along its path since ``since`` (seen or forecast, and
    between samples), within the two radii and ``margin`` of ``at``, where a disc of
    ``radius`` rested: the one thing that can knock a resting disc away."""
    return any(passes_within(path_since(tr, since), at, radius + tr.radius + margin) for tr in movers)


def rested_before(tr: Track, t0: float, rest_s: float) -> bool:
    """Korona: whether a disc was seen at rest before an episode starting at ``t0``: its
    sightings from its first one to ``t0`` span ``rest_s`` (the tracker's rest time). A striker
    first seen just before, on its way, was carried in by a hand (k4h_9912 at 34.6 s: west's
    striker, carried onto the board, first seen 0.03 s before the episode, was logged as a
    west shot); one put down and flicked at once is ``start_places.put_down_and_flicked``'s."""
    seen = [s.t for s in tr.path if s.measured and s.t <= t0 + 1e-6]
    return len(seen) >= 2 and seen[-1] - min(seen[0], tr.born) >= rest_s - 1e-6


def still_between(tr: Track, since: float, until: float, tol: float) -> bool:
    """Whether a disc was seen standing still from ``since`` (or its first sighting after) to
    ``until``: its sightings then all within ``tol`` mm of the first."""
    seen = [(s.x, s.y) for s in tr.path if s.measured and since - 1e-6 <= s.t <= until]
    if not seen:
        return False
    return bool(np.hypot(*(np.array(seen) - np.array(seen[0])).T).max() <= tol)


# A resting disc the detector found at its place on fewer than this share of the frames from its
# coming to rest to its last sighting is one it sees only now and then there (``seen_seldom``).
SELDOM_SEEN_SHARE = 0.5


def seen_seldom(tr: Track, share: float = SELDOM_SEEN_SHARE) -> bool:
    """Whether resting disc ``tr`` was found at its place on fewer than ``share`` of the frames
    from its coming to rest (``rest_since``) to its last sighting, and at least twice (the frame
    step: the shortest between its sightings). Its going unseen again says nothing of a hand
    taking it away: the detector loses it there for seconds at a time (c2h_9932 with
    ``DetectorSettings.edge_salience``: n1, at rest 222 mm out from 8.8 s, found on 12 of 110
    frames to 12.4 s, unseen 3.3 s between; unseen from 12.4 s on, it was called removed by
    hand at 16.5 s). A disc found on every frame and then gone was taken."""
    seen = np.array([s.t for s in tr.path if s.measured], float)
    steps = np.diff(seen)
    steps = steps[steps > 1e-6]
    at_rest = seen[seen >= tr.rest_since - 1e-6]
    if not len(steps) or len(at_rest) < 2:
        return False
    frames = (float(at_rest[-1]) - tr.rest_since) / float(steps.min()) + 1.0
    return len(at_rest) < share * frames
