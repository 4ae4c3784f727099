"""What the players' hands and cues do between shots, written as timeline keyframes.

Each function appends keyframes to a :class:`Timeline` starting at ``t`` and returns the time
it ends. Hands reach in from their player's side of the board (the seat's direction, with some
spread), carry discs with a pinch, flick them with a flick pose, and leave again. Durations are
short but human (a reach takes about half a second).

Where a hand starts and leaves is just outside the board's outer edge, so it enters and leaves
the picture the way a real forearm does.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.sim.datatypes import ShotResult, State
from tracker.sim.timeline import CueTrack, DiscTrack, HandTrack, Timeline

SEAT_ANGLE = {"east": 0.0, "north": math.pi / 2, "west": math.pi, "south": -math.pi / 2}

REACH = 0.45  # s, a hand moving in or out
PINCH = 0.15  # s, fingers closing on a disc
LIFT_Z = 25.0  # mm, a carried disc above the surface
HAND_Z = 40.0  # mm, hand height while reaching


def outside_radius(board: CrokinoleBoard | KoronaBoard) -> float:
    """Distance from the centre where a reaching hand starts (just off the board's edge)."""
    if isinstance(board, CrokinoleBoard):
        return board.outer_radius * 1.35
    return (board.outer_size / 2.0) * 1.45


class Hands:
    """Which hand (skin tone, sleeve) each seat uses, drawn once per match from ``rng``."""

    def __init__(self, seats: tuple[str, ...], rng: np.random.Generator, n_skins: int, n_sleeves: int):
        self.skin = {s: int(rng.integers(n_skins)) for s in seats}
        self.sleeve = {s: int(rng.integers(n_sleeves)) for s in seats}
        self.rng = rng

    def new(self, seat: str, spread: float = 0.25) -> HandTrack:
        ang = SEAT_ANGLE[seat] + float(self.rng.uniform(-spread, spread))
        return HandTrack(from_angle=ang, skin=self.skin[seat], sleeve=self.sleeve[seat])


def _outside(board: CrokinoleBoard | KoronaBoard, angle: float) -> tuple[float, float]:
    R = outside_radius(board)
    return (R * math.cos(angle), R * math.sin(angle))


def _set_down(h: HandTrack, tr: DiscTrack, out: tuple[float, float],
              now: tuple[float, float, float, State] | None, start: tuple[float, float],
              t: float, leave_pose: str) -> float:
    """Key a hand fetching a disc (from outside the board, or from where it lies: a striker after
    a shot, a disc in a pocket) and setting it down on ``start``; returns when it is down."""
    if now is None or now[3] in ("off", "lifted"):
        h.key(t, out[0], out[1], HAND_Z + LIFT_Z, "pinch")
        tr.key(t, out[0], out[1], LIFT_Z, "lifted")
        t1 = t + REACH
    else:
        h.key(t, out[0], out[1], HAND_Z, "open")
        h.key(t + REACH, now[0], now[1], HAND_Z * 0.5, "pinch")
        tr.key(t + REACH, now[0], now[1], now[2], now[3])
        tr.key(t + REACH + PINCH, now[0], now[1], LIFT_Z, "lifted")
        h.key(t + REACH + PINCH, now[0], now[1], HAND_Z * 0.5 + LIFT_Z, "pinch")
        t1 = t + REACH + PINCH + 0.35
    h.key(t1, start[0], start[1], HAND_Z * 0.5 + 8.0, "pinch")
    tr.key(t1, start[0], start[1], 8.0, "lifted")
    t2 = t1 + PINCH
    tr.key(t2, start[0], start[1], 0.0, "surface")
    h.key(t2, start[0], start[1], HAND_Z * 0.5, leave_pose)
    return t2


def place_and_flick(
    tl: Timeline,
    board: CrokinoleBoard | KoronaBoard,
    hands: Hands,
    seat: str,
    disc_id: str,
    start: tuple[float, float],
    direction: tuple[float, float],
    t: float,
) -> float:
    """A hand carries the disc in (from where it is, or from outside), sets it down on ``start``
    and takes the flick pose behind it. Returns the time of the flick (the shot starts then)."""
    tr = tl.discs[disc_id]
    h = hands.new(seat)
    out = _outside(board, h.from_angle)
    now = tr.at(t)
    r = tr.disc.radius
    t2 = _set_down(h, tr, out, now, start, t, "pinch")
    ux, uy = direction
    behind = (start[0] - ux * (r + 8.0), start[1] - uy * (r + 8.0))
    t3 = t2 + 0.3
    h.key(t3, behind[0], behind[1], 8.0, "flick")
    t_shot = t3 + 0.2 + float(hands.rng.uniform(0.0, 0.2))
    h.key(t_shot, behind[0], behind[1], 8.0, "flick")
    touch = (start[0] - ux * (r + 1.0), start[1] - uy * (r + 1.0))
    h.key(t_shot + 0.03, touch[0], touch[1], 8.0, "flick")
    h.key(t_shot + 0.15, touch[0], touch[1], 15.0, "open")
    h.key(t_shot + 0.15 + REACH, out[0], out[1], HAND_Z, "open")
    tl.hands.append(h)
    return t_shot


def place_and_cue(
    tl: Timeline,
    board: KoronaBoard,
    hands: Hands,
    seat: str,
    striker_id: str,
    start: tuple[float, float],
    direction: tuple[float, float],
    t: float,
) -> float:
    """Korona: the striker is placed on the striking line by hand, then the cue lines up behind
    it, draws back and strikes. Returns the time the cue tip meets the striker."""
    t_set = place_and_flick_hand_only(tl, board, hands, seat, striker_id, start, t)
    R = tl.discs[striker_id].disc.radius
    ux, uy = direction
    cue = CueTrack(direction=(ux, uy), length=board.outer_size * 0.8)
    # The cue slides in from just off the board's edge behind the striker.
    far = R + board.striking_line_offset + board.rim_width + 100.0
    cue.key(t_set, start[0] - ux * far, start[1] - uy * far)
    ready = (start[0] - ux * (R + 15.0), start[1] - uy * (R + 15.0))
    cue.key(t_set + 0.4, *ready)
    back = (start[0] - ux * (R + 70.0), start[1] - uy * (R + 70.0))
    cue.key(t_set + 0.75, *back)
    t_hit = t_set + 0.9
    cue.key(t_hit, start[0] - ux * R, start[1] - uy * R)
    cue.key(t_hit + 0.05, start[0] - ux * (R - 12.0), start[1] - uy * (R - 12.0))
    cue.key(t_hit + 0.5, start[0] - ux * (R + 120.0), start[1] - uy * (R + 120.0))
    cue.key(t_hit + 0.9, start[0] - ux * far, start[1] - uy * far)
    tl.cues.append(cue)
    # The back hand holds the cue's butt end.
    h = hands.new(seat, spread=0.0)
    L = cue.length
    for tt, (x, y) in zip(cue.t, cue.tip, strict=True):
        h.key(tt, x - ux * L * 0.85, y - uy * L * 0.85, 60.0, "pinch")
    tl.hands.append(h)
    return t_hit


def place_and_flick_hand_only(
    tl: Timeline,
    board: CrokinoleBoard | KoronaBoard,
    hands: Hands,
    seat: str,
    disc_id: str,
    start: tuple[float, float],
    t: float,
) -> float:
    """A hand puts the disc down on ``start`` and leaves; returns when the disc is down."""
    tr = tl.discs[disc_id]
    h = hands.new(seat)
    out = _outside(board, h.from_angle)
    now = tr.at(t)
    t2 = _set_down(h, tr, out, now, start, t, "open")
    h.key(t2 + REACH, out[0], out[1], HAND_Z, "open")
    tl.hands.append(h)
    return t2 + 0.2


def idle_hand(
    tl: Timeline,
    board: CrokinoleBoard | KoronaBoard,
    hands: Hands,
    seat: str,
    t: float,
    hold: float,
) -> None:
    """A waiting player's hand rests on the board's edge for ``hold`` seconds (it occludes the
    rail and sometimes an outer disc, as real hands do). Runs beside the other tracks."""
    h = hands.new(seat, spread=0.5)
    out = _outside(board, h.from_angle)
    if isinstance(board, CrokinoleBoard):
        rest = board.ditch_outer_radius + board.rail_width * 0.5
    else:
        rest = board.half + board.rim_width * 0.5
    x, y = rest * math.cos(h.from_angle), rest * math.sin(h.from_angle)
    h.key(t, out[0], out[1], HAND_Z, "open")
    h.key(t + REACH * 1.5, x, y, HAND_Z, "open")
    h.key(t + REACH * 1.5 + hold, x, y, HAND_Z, "open")
    h.key(t + REACH * 3.0 + hold, out[0], out[1], HAND_Z, "open")
    tl.hands.append(h)


def sunk_z(board: CrokinoleBoard | KoronaBoard, state: str, thickness: float) -> float:
    """Height of the bottom of a disc that fell below the surface (the renderer's pits: the
    20-hole floor one mm below a disc's thickness, the ditch floor three mm more; a korona pocket
    swallows the disc)."""
    if state == "hole":
        return -(thickness + 1.0)
    if state == "ditch":
        return -(thickness + 3.0)
    if state == "pocket" and isinstance(board, KoronaBoard):
        return -(board.rim_height + 2.0 * thickness)
    return 0.0


def play_shot(tl: Timeline, board: CrokinoleBoard | KoronaBoard, result: ShotResult, t_shot: float,
              decimate: int = 2) -> float:
    """Append a simulated shot's trajectory (every ``decimate``-th 1 ms sample) to the tracks of
    the discs that moved. Returns the time all discs are at rest."""
    moved = set(result.moved())
    states: dict[str, list[tuple[float, State]]] = {}
    for tr_ in result.transitions:
        states.setdefault(tr_.disc, []).append((tr_.t, tr_.state))
    n = len(result.times)
    idx = list(range(0, n, decimate))
    if idx[-1] != n - 1:
        idx.append(n - 1)
    for i, did in enumerate(result.ids):
        if did not in moved:
            continue
        track = tl.discs[did]
        changes = states.get(did, [])
        before = track.at(t_shot)
        initial: State = before[3] if before is not None and before[3] == "ditch" else "surface"
        # Rest keyframe at the shot start so interpolation holds still until the impact.
        for k in idx:
            tt = float(result.times[k])
            st: State = initial
            for tc, sc in changes:
                if tt >= tc:
                    st = sc
            fin = result.final[did]
            x, y = float(result.xy[k, i, 0]), float(result.xy[k, i, 1])
            if st in ("hole", "pocket"):
                x, y = fin.x, fin.y
            flight = result.flights.get(did)
            if st == "flown" and flight is not None:
                x, y, z = flight.at(tt)
            else:
                z = sunk_z(board, st, fin.thickness)
            track.key(t_shot + tt, x, y, z, st)
    return t_shot + result.duration


def lift_out(
    tl: Timeline,
    board: CrokinoleBoard | KoronaBoard,
    hands: Hands,
    seat: str,
    disc_id: str,
    t: float,
) -> float:
    """A hand reaches the disc, pinches it, lifts it and carries it off the board."""
    tr = tl.discs[disc_id]
    now = tr.at(t)
    if now is None or now[3] in ("off", "lifted"):
        return t
    x, y, z, st = now
    h = hands.new(seat)
    out = _outside(board, h.from_angle)
    h.key(t, out[0], out[1], HAND_Z, "open")
    t1 = t + REACH
    h.key(t1, x, y, max(z, 0.0) + 12.0, "pinch")
    tr.key(t1, x, y, z, st)
    t2 = t1 + PINCH
    h.key(t2, x, y, LIFT_Z + 12.0, "pinch")
    tr.key(t2, x, y, LIFT_Z, "lifted")
    t3 = t2 + REACH
    h.key(t3, out[0], out[1], LIFT_Z + HAND_Z, "pinch")
    tr.key(t3, out[0], out[1], LIFT_Z, "lifted")
    tr.key(t3 + 1e-3, out[0], out[1], 0.0, "off")
    tl.hands.append(h)
    return t3 - REACH * 0.4  # the next hand may start before this one has left


def place_at(
    tl: Timeline,
    board: CrokinoleBoard | KoronaBoard,
    hands: Hands,
    seat: str,
    disc_id: str,
    at: tuple[float, float],
    t: float,
) -> float:
    """A hand takes the disc from where it is (a pocket, or outside) and sets it on ``at``."""
    return place_and_flick_hand_only(tl, board, hands, seat, disc_id, at, t)


def sweep_clear(
    tl: Timeline,
    board: CrokinoleBoard | KoronaBoard,
    hands: Hands,
    seat: str,
    t: float,
) -> float:
    """End of a round: a hand sweeps over the board and every disc still in view is gathered up
    (each vanishes as the hand passes over it)."""
    h = hands.new(seat, spread=0.0)
    out = _outside(board, h.from_angle)
    far = (-out[0], -out[1])
    dur = 1.2
    h.key(t, out[0], out[1], 30.0, "open")
    h.key(t + dur / 2, 0.0, 0.0, 30.0, "open")
    h.key(t + dur, far[0] * 0.4, far[1] * 0.4, 30.0, "open")
    h.key(t + dur + REACH, out[0], out[1], 50.0, "open")
    tl.hands.append(h)
    ax, ay = out
    L2 = ax * ax + ay * ay
    for tr in tl.discs.values():
        now = tr.at(t)
        if now is None or now[3] in ("off",):
            continue
        # The hand reaches this disc's projection on its path at a fraction of the sweep.
        w = 0.5 - (now[0] * ax + now[1] * ay) / (2 * L2) * 1.0
        tv = t + dur * min(max(w, 0.05), 0.95)
        tr.key(tv, now[0], now[1], now[2], now[3])
        tr.key(tv + 1e-3, now[0], now[1], 0.0, "off")
    return t + dur + REACH
