"""Association stages for blows the frames are too coarse to follow, at 10 fps above all: a
blow run on through a row of touching discs, a disc struck in the same frame as the disc that
struck it, a mover passing beside a resting disc, a mover lost in blur. Functions of the
:class:`tracker.track.Tracker` (``tk``), called from its ``update``; they read its tracks and
config and add (track, detection) pairs to the frame's assignment.

Why a separate stage each: the first stage (tight gates, one Hungarian assignment) is right for
almost every frame; each case here is one way it goes wrong when a disc moves most of a
diameter between frames, measured on the rendered korona and crokinole fixtures
(``benchmarks/bench_review.py --truth-dets``: identity switches and korona rounds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track.association import BIG, assign
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker


def with_rows(tk: Tracker, rows: Sequence[Track], cand: list[int], wide: np.ndarray,
              used_t: set[int]) -> tuple[list[int], np.ndarray]:
    """Stage 2's candidates, plus the unmatched resting discs touching a resting candidate
    (its row), with that candidate's gate: the struck disc and the discs it pushes on are
    assigned jointly, so the struck one does not take a neighbour's nearer detection."""
    resting = [i for i, tr in enumerate(rows) if tr.state == "rest" and tr not in tk._tentative]
    extra: dict[int, float] = {}
    for k, g in zip(cand, wide, strict=True):
        if rows[k].state != "rest":
            continue
        for m in touching(rows, resting, k):
            if m not in cand and m not in used_t and rows[m].id not in tk._ghosts:
                extra[m] = max(extra.get(m, 0.0), float(g))
    if not extra:
        return cand, wide
    return cand + list(extra), np.concatenate([wide, np.array(list(extra.values()))])


def chain(tk: Tracker, rows: Sequence[Track], dets: Detections, cost: np.ndarray, pairs: list[tuple[int, int]],
          used_t: set[int], used_d: set[int], dt: float, rounds: int = 3) -> None:
    """Stage 3: a blow passed on within one frame. A resting disc that stage 2 let jump (it
    was struck) may itself have struck the next disc of a row in the same frame: that one
    may jump too, if the first one's run this frame (from its rest place to where it is now
    seen, and on) passed within reach of it. Without this, at 10 fps the second disc of a
    chain stays unmatched, the first disc's detection next frame lies on the second disc's
    rest place and is taken by it (the two swap identities), and the second disc restarts
    as a new, nameless track."""
    struck = [(i, j) for i, j in pairs if rows[i].state == "rest" and rows[i] not in tk._tentative
              and float(np.hypot(*(dets.xy[j] - rows[i].settled_xy)))
              > rows[i].radius]
    for _ in range(rounds):
        if not struck:
            return
        runs = []
        for i, j in struck:
            a = rows[i].settled_xy
            z = dets.xy[j].astype(float)
            step = z - a
            sp = float(np.hypot(*step)) / dt
            ahead = z + step / max(float(np.hypot(*step)), 1e-9) * max(sp, tk.cfg.chain_speed) * dt * 0.5
            runs.append((a, ahead, rows[i].radius, max(sp, tk.cfg.chain_speed)))
        cand: list[int] = []
        speeds: list[float] = []
        for k, tr in enumerate(rows):
            if k in used_t or tr.state != "rest" or tr in tk._tentative or tr.id in tk._ghosts:
                continue
            q = tr.settled_xy
            hits = [v for a, b, r, v in runs if segment_distance(q, a, b) < 1.5 * (r + tr.radius)]
            if hits:
                cand.append(k)
                speeds.append(max(hits))
        dcols = [j for j in range(len(dets)) if j not in used_d]
        if not cand or not dcols:
            return
        sub = cost[np.ix_(cand, dcols)]
        wide = np.array([2 * rows[k].radius + dt * 0.5 * v for k, v in zip(cand, speeds, strict=True)])
        struck = []
        for a_, b_ in assign(sub, wide):
            pairs.append((cand[a_], dcols[b_]))
            used_t.add(cand[a_])
            used_d.add(dcols[b_])
            struck.append((cand[a_], dcols[b_]))


def rows_shifted(tk: Tracker, rows: Sequence[Track], dets: Detections, cost: np.ndarray,
                 pairs: list[tuple[int, int]], used_t: set[int], used_d: set[int]) -> None:
    """Stage 4: a row of touching discs pushed along by a blow nobody predicted (the hitter
    was not seen that frame). Each disc moved by most of a diameter, so the first disc's
    detection fell in its neighbour's rest gate, the last disc's detection in no gate, and
    one disc of the row was left unmatched. When a resting disc is left unmatched and a
    detection is left over beside its row, the row is assigned again jointly, every member
    with a diameter-wide gate, and the new assignment is kept if it matches more discs."""
    lonely_d = [j for j in range(len(dets)) if j not in used_d]
    lonely_t = [i for i, tr in enumerate(rows) if i not in used_t and tr.state == "rest" and tr not in tk._tentative]
    if not lonely_d or not lonely_t:
        return
    resting = [i for i, tr in enumerate(rows) if tr.state == "rest" and tr not in tk._tentative]
    done: set[int] = set()
    for start in lonely_t:
        if start in done or start in used_t:
            continue
        row = touching(rows, resting, start)
        done |= set(row)
        if len(row) < 2:
            continue
        near = [j for j in range(len(dets)) if j not in used_d
                and any(float(np.hypot(*(dets.xy[j] - rest_of(rows[i])))) < 2 * rows[i].radius for i in row)]
        if not near:
            continue
        old = [(i, j) for i, j in pairs if i in row]
        cols = sorted({j for _, j in old} | set(near))
        sub = cost[np.ix_(row, cols)]
        gate = np.array([2 * rows[i].radius for i in row])
        new = [(row[a], cols[b]) for a, b in assign(sub, gate)]
        if len(new) <= len(old):
            continue
        repair(pairs, used_t, used_d, old, new)


def repair(pairs: list[tuple[int, int]], used_t: set[int], used_d: set[int],
           old: Sequence[tuple[int, int]], new: Sequence[tuple[int, int]]) -> None:
    """Replace a row's (track, detection) pairs ``old`` with ``new``, keeping the sets of used
    tracks and detections in step (the row passes here and in ``row_order``)."""
    for i, j in old:
        pairs.remove((i, j))
        used_t.discard(i)
        used_d.discard(j)
    for i, j in new:
        pairs.append((i, j))
        used_t.add(i)
        used_d.add(j)


def tighten_near_movers(tk: Tracker, rows: Sequence[Track], movers: list[int], resting: list[int],
                        gates: np.ndarray, dt: float) -> None:
    """A resting disc a mover may reach this frame keeps only a tight gate in the first
    stage (its own detection, if it was not hit, lies within a few mm of its rest place).
    With its full radius as gate, the mover's detection just past it — the mover ran on
    beside it, or hit it and stopped where it lay — fell in its gate and was taken, and
    the two swapped identities; missed, it goes to the second stage, jointly with the
    mover, where it may take a detection further on if it was hit."""
    if not movers:
        return
    for b in resting:
        B = rows[b]
        if B.id in tk._struck:
            continue
        q = B.settled_xy
        for a in movers:
            A = rows[a]
            reach = 1.5 * (A.radius + B.radius)
            if segment_distance(q, A.xy, A.xy + reach_v(tk, A) * dt) < reach:
                gates[b] = min(gates[b], max(2 * tk.cfg.move_mm, 0.35 * B.radius))
                break


def widen_touching(tk: Tracker, rows: Sequence[Track], resting: list[int], gates: np.ndarray) -> None:
    """A blow runs on through a row of touching discs within one frame: every resting disc
    touching a disc about to be struck (and so on along the row) gets the struck disc's
    wider gate. Each may then have moved by most of a diameter, so at 10 fps the nearest
    detection to a disc's rest place is often its neighbour's; only a joint assignment of
    the whole row, with gates wide enough for every disc to take its own detection, keeps
    the identities (korona rows against the rim, crokinole clusters)."""
    by_id = {rows[k].id: k for k in resting}
    todo = [by_id[i] for i in tk._struck if i in by_id]
    seen = set(todo)
    while todo:
        a = todo.pop()
        A = rows[a]
        qa = A.settled_xy
        for b in resting:
            if b in seen:
                continue
            B = rows[b]
            qb = B.settled_xy
            if float(np.hypot(*(qa - qb))) <= A.radius + B.radius + 3.0:
                seen.add(b)
                todo.append(b)
                gates[b] = max(gates[b], 2 * B.radius)


def stop_penalty(tk: Tracker, rows: Sequence[Track], hyps: list[list[np.ndarray]], dt: float) -> list[list[float]]:
    """A mover's "stopped where it was" hypothesis (its second) is less likely than running
    on: friction cannot stop it within a frame, only a collision nobody predicted. Half the
    frame's run (at most a diameter) is added to it, so two discs running side by side, a
    frame apart along the same line, are not swapped by the rear one "stopping" on the
    front one's last place."""
    pen = [[0.0] * len(h) for h in hyps]
    for i, tr in enumerate(rows):
        if tr.state == "moving" and tr not in tk._tentative and len(pen[i]) > 1:
            pen[i][1] = min(0.5 * tr.speed * dt, 2 * tr.radius)
    return pen


def rest_of(tr: Track) -> np.ndarray:
    return tr.settled_xy


def touching(rows: Sequence[Track], resting: list[int], start: int, slack: float = 3.0) -> list[int]:
    """The resting discs connected to ``start`` through discs touching one another (centres at
    most the two radii plus ``slack`` apart), ``start`` included.

    (The distances from each disc reached to all of ``resting`` at once, the same numbers as
    one by one: this ran for every resting disc on every frame, a fifth of a korona review's
    tracking.)"""
    out = [start]
    todo = [start]
    if not resting:
        return out
    q = np.array([rest_of(rows[b]) for b in resting], float)
    rad = np.array([rows[b].radius for b in resting], float)
    seen = set(out)
    while todo:
        a = todo.pop()
        qa = rest_of(rows[a])
        near = np.hypot(qa[0] - q[:, 0], qa[1] - q[:, 1]) <= rows[a].radius + rad + slack
        for k in np.flatnonzero(near):
            b = resting[k]
            if b not in seen:
                seen.add(b)
                out.append(b)
                todo.append(b)
    return out


def reach_v(tk: Tracker, m: Track) -> np.ndarray:
    """A mover's velocity for "could it have hit that disc this frame", at least
    ``chain_speed``: a disc struck part way through a frame shows only a fraction of its speed
    on its first moving frame, and a blow runs on through the discs it meets."""
    sp = m.speed
    if sp <= 1e-9:
        return m.v
    return m.v * max(1.0, tk.cfg.chain_speed / sp)


def closest_on_segment(q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The point of the segment a-b nearest ``q`` (a when the segment is a point)."""
    ab = b - a
    L = float(ab @ ab)
    s = 0.0 if L < 1e-12 else min(max(float((q - a) @ ab) / L, 0.0), 1.0)
    return a + s * ab


def segment_distance(q: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    return float(np.hypot(*(q - closest_on_segment(q, a, b))))


def distance_along(run: Sequence[np.ndarray], at: np.ndarray | tuple[float, float]) -> float:
    """How near (mm) the polyline ``run`` (places in mm; a single place: that point) passes ``at``."""
    q = np.asarray(at, float)
    if len(run) == 1:
        return float(np.hypot(*(run[0] - q)))
    return min(segment_distance(q, a, b) for a, b in zip(run, run[1:], strict=False))


def passes_within(run: Sequence[np.ndarray], at: np.ndarray | tuple[float, float], reach: float) -> bool:
    """Whether the polyline ``run`` (places in mm; a single place: that point) passes within
    ``reach`` of ``at``."""
    return distance_along(run, at) <= reach


def least_displacement(tk: Tracker, rows: Sequence[Track], dets: Detections, pairs: list[tuple[int, int]]) -> None:
    """Last stage: resting discs near one another that all moved this frame (a blow spread
    through a group) share out their detections again so that the group moves least in total.
    Each earlier stage matches greedily in its own way (the nearest detection to a rest place
    in the first, a struck disc's forecast in the second); a disc knocked 18 mm whose
    neighbour was knocked 25 mm the same way lies 11 mm from the neighbour's rest place, and
    a greedy match swaps them. Least total displacement is what equal discs sharing one blow
    do (each moves along, none leapfrogs another)."""
    moved = [(i, j) for i, j in pairs if rows[i].state == "rest" and rows[i] not in tk._tentative
             and float(np.hypot(*(dets.xy[j] - rest_of(rows[i])))) > tk.cfg.move_mm]
    if len(moved) < 2:
        return
    groups: list[list[tuple[int, int]]] = []
    for pr in moved:
        q = rest_of(rows[pr[0]])
        near = [g for g in groups if any(float(np.hypot(*(q - rest_of(rows[i])))) <= 2 * (rows[i].radius + rows[pr[0]].radius) + 10.0
                                         for i, _ in g)]
        merged = [pr] + [x for g in near for x in g]
        groups = [g for g in groups if g not in near] + [merged]
    for g in groups:
        if len(g) < 2:
            continue
        ti = [i for i, _ in g]
        dj = [j for _, j in g]
        cost = np.array([[float(np.hypot(*(dets.xy[j] - rest_of(rows[i])))) for j in dj] for i in ti])
        new = assign(cost, np.full(len(ti), BIG / 2))
        if len(new) != len(g):
            continue
        old_total = sum(float(np.hypot(*(dets.xy[j] - rest_of(rows[i])))) for i, j in g)
        new_total = sum(float(cost[a, b]) for a, b in new)
        if new_total < old_total - 1.0:
            for pr in g:
                pairs.remove(pr)
            pairs.extend((ti[a], dj[b]) for a, b in new)


def struck_by_newcomer(tk: Tracker, rows: Sequence[Track], dets: Detections, pairs: list[tuple[int, int]],
                       used_t: set[int], used_d: set[int], dt: float) -> None:
    """After stage 2: a resting disc struck by a shot disc first seen in flight. The shot disc
    is then a tentative track, no mover yet, so no resting disc may jump for it (``may_jump``),
    and the struck disc's first detection away from its rest place became a tentative track of
    its own: a frame later the struck disc, unseen on its rest place, took the next struck
    disc's detection, and that disc stayed "at rest" after it flew off (real clip, 25 fps: a
    north flick first seen two frames before it met three red discs, all knocked off; the
    shot log had one of them new and one still on the board). So a resting disc unmatched so
    far takes a free detection when a tentative track the first stage carried more than a
    radius this frame came at it (heading towards it, its path this frame within 1.5 touching
    distances, its detection not on the resting disc's place, which may be that disc's own), the
    detection lies within what half the newcomer's speed allows in one frame (as stage 2's gate
    for a struck disc), and it lies
    away from where the newcomer passed (a struck disc moves off along the line of centres,
    away from the striker). Nearest first; ``pairs``, ``used_t``, ``used_d`` change in place."""
    if not isinstance(tk.board, CrokinoleBoard):
        return
    free = [j for j in range(len(dets)) if j not in used_d]
    if not free:
        return
    flying = []
    for i, j in pairs:
        tr = rows[i]
        if tr in tk._tentative:
            a, b = tr.xy.astype(float), dets.xy[j].astype(float)
            if float(np.hypot(*(b - a))) > tr.radius:
                flying.append((a, b, tr.radius, float(np.hypot(*(b - a))) / dt))
    if not flying:
        return
    options: list[tuple[float, int, int]] = []
    for i, tr in enumerate(rows):
        if i in used_t or tr.state != "rest" or tr in tk._tentative or tr.id in tk._ghosts:
            continue
        q = tr.settled_xy
        for a, b, r, speed in flying:
            if float((q - a) @ (b - a)) <= 0.0:
                continue  # moving away from it (the shot disc leaving its own place)
            c = closest_on_segment(q, a, b)
            if float(np.hypot(*(q - c))) >= 1.5 * (r + tr.radius):
                continue
            if float(np.hypot(*(b - q))) < 0.8 * (r + tr.radius):
                continue  # it stands on the resting disc now: that detection may be the disc's own
            reach = 2 * tr.radius + dt * 0.5 * speed  # struck this frame
            for j in free:
                step = dets.xy[j] - q
                dist = float(np.hypot(*step))
                if dist <= reach and float(step @ (q - c)) > 0.0:
                    options.append((dist, i, j))
    for _, i, j in sorted(options):
        if i in used_t or j in used_d:
            continue
        pairs.append((i, j))
        used_t.add(i)
        used_d.add(j)
