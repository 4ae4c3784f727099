"""A crokinole disc (or a korona striker) first seen already flying in from the shooting line:
where and when it left the line (``flicked_unseen``). A function of the shot's judging
(``judge.py``), split out of ``unseen.py``: the shots nobody saw moving are read from rest
states there; here one shot was seen, but not its start.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.track.association import leaves_circle
from tracker.track.tracker import TrackerConfig

# Seconds a crokinole disc first seen flying may have flown unseen since it left the shooting line
# (the hand or the sleeve of a player reaching over the board hides its first stretch: 0.26 s and
# 190 mm on seed 8803).
FLIGHT_UNSEEN_S = 0.4
# Friction slowed it on its unseen stretch (mm/s^2): it left the line faster than it is first seen
# (the tracker's coasting figure; the simulator's is 1180).
FLIGHT_DECEL = TrackerConfig.decel
# Korona: a striker first seen in flight, its wait on the striking line unseen (the detector turned
# its outline down there: k4h_10006 at 3.1 s, south's striker on its line, the worst quarter of
# its outline 0.08-0.17 against the bar's 0.25; first seen 0.33 s after the flick, mid-board),
# left the first striking line its way meets, run back (``_korona_line``), when the rest states
# tell of no striker gone unseen from where shots start (``judge``: one first seen coming back off
# a far rim or row, at 700-800 mm/s 130-150 mm past that side's line, runs back to the wrong
# seat's line: k4h_9506 at 12.6 s and 17.4 s, west's and north's shots read as east's and
# south's before that order was kept). Replays with it on: k4h_10006 shots 75%/86% -> 88%/88%,
# korona_2p_game 96%/100% -> 100%/100%, the other korona dev matches and fixtures the same.
# It also runs back only to the line of a seat in play whose turn it is when the rules know it
# (``judge._whose_line``: a two-player game's west and east lines are nobody's), tested with
# k4h_9506's rebound rebuilt (tests/infer/test_korona_flicked_unseen.py). Replays on vs off (27
# korona: 11 k2e, 11 k4h, 5 fixtures; main 7b53d1f): identical but k4h_10006 shots 75/86 ->
# 88/88 % (pos 0.77/12.29 -> 1.03/12.13 mm: the found shot's ends, its north row misnamed, now
# counted) and korona_2p_game shots 96/100 -> 100/100 % (pos 1.43/5.31 -> 1.40/5.22 mm). On: the
# median rose only because the shot found adds its ends to the figure, not from a worse place.
# With ``TrackerConfig.rim_ghost_places`` (merged after that measure) k4h_10006's found shot also
# calls a false pocket (s7, a rim ghost the penalty keeps lost, judged down the ne pocket): pockets
# P 100 -> 50 % there, against 2 shots found; both stay on (the fate of that ghost is the fault).
KORONA = True
# ... its way taken from up to this many of its first sightings that keep to one line
KORONA_RUN = 6


def flicked_unseen(board: CrokinoleBoard | KoronaBoard, p: np.ndarray,
                   shot_speed: float, striker: bool = False) -> tuple[tuple[float, float], float] | None:
    """(where, when) a crokinole disc first seen already flying in from the shooting line left
    it, or None.

    A player's hand (and the renderer's cue) may hide the disc waiting on the line until it is
    flicked: the first sight of it is in flight, with no rest place behind it, and the shot was
    judged from the disc it struck ("not where a shot starts") and lost (rendered match, seed
    7502, the last shot). Its first two samples (rows t, x, y) run inward at a flick's speed, the
    third carries on along that line at about that speed (false finds in a blur, or the picture
    shifting as the camera is knocked, jump about: seed 7500), and the line back meets the
    shooting line within ``FLIGHT_UNSEEN_S``, friction allowed for (``FLIGHT_DECEL``: it was
    faster before it was first seen): it left from there. A blurred disc's centre may be found
    well along or short of its streak: when the second sample breaks that test, the first and
    third are taken instead, if the second lies between them within a disc radius of their line
    and the fourth carries on (c2h_9202 at 8.8 s: red on a red board, the second sight 16 mm
    ahead of the disc, the third 13 mm behind, 0.13 s later; the shot was lost). A struck disc
    driven on, or one rebounding, is first seen nearer the centre than that, or heading out; a
    disc carried by hand is slow. Korona (``striker``: the track is a striker's): see
    ``_korona_line``."""
    if len(p) < 3 or (isinstance(board, KoronaBoard) and not (striker and KORONA)):
        return None
    inward = isinstance(board, CrokinoleBoard)
    v = _carries_on(p, 1, shot_speed, inward)
    if v is None and len(p) >= 4 and _across(p, 2) <= board.disc_radius:
        v = _carries_on(p, 2, shot_speed, inward)  # the second sight displaced along the blur
    if v is None:
        return None
    if isinstance(board, KoronaBoard):
        return _korona_line(board, p, v)
    p0 = p[0, 1:].astype(float)
    speed = float(np.hypot(*v))
    if float(np.hypot(*p0)) > board.shooting_line_radius:  # first seen outside the line: it came from there
        return None
    # back along its line (p0 - v s) to the shooting line: ``d`` mm, run at a speed rising by
    # FLIGHT_DECEL a second going back (taken at constant speed, a disc the sleeve hid for 0.26 s
    # had "left" 0.4 s before)
    s = leaves_circle(p0, -v, board.shooting_line_radius)
    if s is None:
        return None
    d = s * speed
    back = (float(np.sqrt(speed * speed + 2.0 * FLIGHT_DECEL * d)) - speed) / FLIGHT_DECEL
    if back > FLIGHT_UNSEEN_S:
        return None
    at = p0 - v * s
    return (float(at[0]), float(at[1])), float(p[0, 0] - back)


def _korona_line(board: KoronaBoard, p: np.ndarray, v: np.ndarray) -> tuple[tuple[float, float], float] | None:
    """(where, when) a korona striker first seen in flight at velocity ``v`` left a striking
    line: run back along its way, the first striking line it meets, within the line's length
    and ``FLIGHT_UNSEEN_S``; None when first seen in a rim zone (behind a line: a striker
    rebounding off a rim, or one pushed there, is not in flight from a line)."""
    p0 = p[0, 1:].astype(float)
    if board.rim_zone_of(float(p0[0]), float(p0[1])) is not None:
        return None
    # its way from the longest run of sightings along one line (a frame's step, a few mm of
    # noise across it, would turn a run back of half a metre by degrees)
    for k in range(min(len(p) - 1, KORONA_RUN), 1, -1):
        if p[k, 0] > p[0, 0] and _across(p, k) <= board.disc_radius / 2:
            v = (p[k, 1:] - p0) / float(p[k, 0] - p[0, 0])
            break
    speed = float(np.hypot(*v))
    u = -np.asarray(v, float) / speed  # back along its way
    d_line = board.half - board.striking_line_offset
    s_best = math.inf
    for axis in (0, 1):
        if abs(u[axis]) > 1e-9:
            s_best = min(s_best, (math.copysign(d_line, u[axis]) - p0[axis]) / u[axis])
    if not math.isfinite(s_best):
        return None
    at = p0 + u * s_best
    if float(np.abs(at).min()) > board.striking_line_half_length:
        return None
    back = (float(np.sqrt(speed * speed + 2.0 * FLIGHT_DECEL * s_best)) - speed) / FLIGHT_DECEL
    if back > FLIGHT_UNSEEN_S:
        return None
    return (float(at[0]), float(at[1])), float(p[0, 0] - back)


def _carries_on(p: np.ndarray, k: int, shot_speed: float, inward: bool = True) -> np.ndarray | None:
    """The velocity (mm/s) of a disc first seen in flight, from its first sample to sample
    ``k``, when that is a flick's speed (``inward``: heading inward) and the next sample carries
    on along the same line at about that speed; else None."""
    dt, dt2 = float(p[k, 0] - p[0, 0]), float(p[k + 1, 0] - p[k, 0])
    if dt <= 0 or dt2 <= 0:
        return None
    v = (p[k, 1:] - p[0, 1:]) / dt
    v2 = (p[k + 1, 1:] - p[k, 1:]) / dt2
    speed, speed2 = float(np.hypot(*v)), float(np.hypot(*v2))
    if speed < shot_speed or (inward and float(p[0, 1:] @ v) >= 0):  # slow, or not heading inward
        return None
    if not 0.5 * speed <= speed2 <= 1.5 * speed or float(v @ v2) < 0.85 * speed * speed2:
        return None  # not carrying on along its line
    return np.asarray(v, float)


def _across(p: np.ndarray, k: int) -> float:
    """How far (mm) the samples between the first and sample ``k`` lie off the straight line
    joining those two, across it (a blurred disc's centre is found too far or too short along
    its streak, not beside it); inf when they do not lie between the two along it."""
    a, b = p[0, 1:].astype(float), p[k, 1:].astype(float)
    d = float(np.hypot(*(b - a)))
    if d <= 0:
        return float("inf")
    u = (b - a) / d
    worst = 0.0
    for q in p[1:k, 1:]:
        w = np.asarray(q, float) - a
        along = float(w @ u)
        if not 0.0 < along < d:
            return float("inf")
        worst = max(worst, abs(float(w[0] * u[1] - w[1] * u[0])))
    return worst
