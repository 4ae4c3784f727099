"""A crokinole disc first seen already flying in from the shooting line: where and when it left
the line (``flicked_unseen``). A function of the shot's judging (``judge.py``), split out of
``unseen.py``: the shots nobody saw moving are read from rest states there; here one shot was
seen, but not its start.
"""

from __future__ import annotations

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


def flicked_unseen(board: CrokinoleBoard | KoronaBoard, p: np.ndarray,
                   shot_speed: float) -> tuple[tuple[float, float], float] | None:
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
    disc carried by hand is slow."""
    if not isinstance(board, CrokinoleBoard) or len(p) < 3:
        return None
    v = _carries_on(p, 1, shot_speed)
    if v is None and len(p) >= 4 and _across(p, 2) <= board.disc_radius:
        v = _carries_on(p, 2, shot_speed)  # the second sight displaced along the blur
    if v is None:
        return None
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


def _carries_on(p: np.ndarray, k: int, shot_speed: float) -> np.ndarray | None:
    """The velocity (mm/s) of a disc first seen in flight, from its first sample to sample
    ``k``, when that is a flick's speed heading inward and the next sample carries on along the
    same line at about that speed; else None."""
    dt, dt2 = float(p[k, 0] - p[0, 0]), float(p[k + 1, 0] - p[k, 0])
    if dt <= 0 or dt2 <= 0:
        return None
    v = (p[k, 1:] - p[0, 1:]) / dt
    v2 = (p[k + 1, 1:] - p[k, 1:]) / dt2
    speed, speed2 = float(np.hypot(*v)), float(np.hypot(*v2))
    if speed < shot_speed or float(p[0, 1:] @ v) >= 0:  # slow, or not heading inward
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
