"""Association stage for a blow passed along a straight row of touching discs (korona rows
against the rim, above all): the discs keep their order along the row.

Why: a blow that enters a row end-on (or in its middle) moves every disc of the row within one
frame, the far end most (equal masses: the momentum runs through to the last disc). At 10 fps
each disc moves about a diameter, so each disc's detection lies on its neighbour's rest place:
the nearest-place stages shift the names by one along the row (the last disc's track left
unmatched, the first disc's detection taken for a new disc), or swap two of them. Nearest
places cannot tell (on korona_2p_game at 14 s the shift by one moves four discs 2-18 mm, the
truth five discs 27-36 mm), nor can least total displacement (at 8.1 s the swap of the east
two is cheaper by a mm). What can tell is what touching discs cannot do:
pass through one another. Along the row's line each disc stays behind the one it pushed, so
the row's tracks, taken in order along the line, take the detections around the row in the
same order: an order-preserving alignment (dynamic programming), as many pairs as possible,
then least squared displacement. A "row" is the resting discs on one straight line with at
most ``GAP`` radii of free space between neighbours (discs a little apart keep their order
too: to pass, one must leave the line); a cluster has no order to keep and is left alone.
The new pairs are kept only if they change some old pair (pairs merely added are the other
stages' business: they leave a disc unpaired on purpose), and only when the row was struck
(a member seen away from its rest place, and a blow near to explain it: now, or while the
member was unseen, ``struck_unseen``); a detection
left over joins a row only if it is on the playing surface (one in the hole, ditch or a
pocket was left unpaired on purpose: an uncovered hole, a disc gone in).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.track.blows import repair, rest_of, segment_distance, touching
from tracker.track.datatypes import Track
from tracker.track.prediction import may_jump

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker

STRAIGHT = 0.4  # most a rest place may lie off the row's line, in radii, for a straight row
SIDE = 2.0  # most a detection may lie off the row's line, in radii, to belong to the row
AHEAD = 6.0  # most a detection may lie beyond the row's ends along it, in radii
REACH = 6.0  # most a row disc may move in one frame, in radii
# Korona: a row unseen while a blow passed by is struck too (``struck_unseen``). Off by default:
# measured only together with ``confirm.WAY_OUT`` (full reviews: k2e_9705 switches 25 -> 0, but
# k4h_9506 lost a pocket to a north disc, k4h_9912 gained a switch); see the commit log.
UNSEEN_BLOWS = False
# Keep the earlier stages' pairs of a struck row when they already keep its order and the
# alignment pairs no more discs: the alignment's tie-break (least squared displacement) is no
# evidence against the earlier stages' (forecasts, colours, penalties). k2e_9941 at 26.27 s: a
# false find in the gap of a row being split lay 13 mm from s4's rest place, s4's true find 15
# mm; the alignment gave s4 the false one and s4's find became a new disc (switches).
KEEP_ORDERED = True
# Keep the disc a struck row disc pushes directly (the next one on along the push) from going
# back against the blow in the alignment (``_with_push``). Replays of dets20 (session 20,
# kswitch), off -> on: k2e_9971 switches 25 -> 0 per 100 shots; the other 22 korona dev matches
# and fixtures and the 33 crokinole ones the same. Constraining every disc beyond the struck one
# (before) made k4h_9984 position p95 3.23 -> 8.50 mm (17.27 s: a blow into the west end of the
# north row of eight, the finds of the moving row few and merged, the east end refused a find
# 10 mm back; the truth's n4-n7 end 13-17 mm back towards the blow: further on, the chain
# rebounds), and constraining the struck disc itself made k4h_9972 lose a round (an extra pocket:
# s8, struck obliquely at the row's end, went the other way along the row than its forecast)
WITH_PUSH = True
BACK = 0.5  # radii a pushed row disc may be seen back towards the blow (jitter, a rebound)
GAP = 1.2  # most free space between neighbours on a line, in radii (2.4 changed the detector runs, no gain)


def row_order(tk: Tracker, rows: Sequence[Track], dets: Detections, pairs: list[tuple[int, int]],
              used_t: set[int], used_d: set[int], dt: float) -> None:
    """Re-pair each straight row of resting discs that was struck this frame in order along the
    row. The last association stage (after least displacement, which may break the order by a
    mm's tie). Edits ``pairs``, ``used_t`` and ``used_d``."""
    resting = [i for i, tr in enumerate(rows) if tr.state == "rest" and tr not in tk._tentative
               and tr.id not in tk._ghosts]
    # A row is struck only when a member was paired away from its rest place (``_moved``): with
    # none such, no row is, and the rows need not be found (most frames: nothing moves).
    by_track = dict(pairs)
    if not any(i in by_track and float(np.hypot(*(dets.xy[by_track[i]] - rest_of(rows[i])))) > tk.cfg.move_mm
               for i in resting):
        return
    done: set[int] = set()
    for start in resting:
        if start in done:
            continue
        by_track = dict(pairs)
        row = _line(rows, resting, start)
        done |= {start, *row}
        if len(row) < 2 or not _moved(tk, rows, dets, row, by_track, dt):
            continue
        q = np.array([rest_of(rows[i]) for i in row], float)
        r = float(np.mean([rows[i].radius for i in row]))
        c = q.mean(axis=0)
        u = np.linalg.svd(q - c)[2][0]
        n = np.array([-u[1], u[0]])
        mine = {by_track[i] for i in row if i in by_track}
        free = [j for j in range(len(dets)) if j in mine or (j not in used_d and dets.where[j] == ON_SURFACE)]
        if not free:
            continue
        s_t = (q - c) @ u
        z = dets.xy[free].astype(float) - c
        s_d, off = z @ u, z @ n
        keep = (np.abs(off) <= SIDE * r) & (s_d >= s_t.min() - AHEAD * r) & (s_d <= s_t.max() + AHEAD * r)
        cols = [free[k] for k in np.flatnonzero(keep)]
        if not cols:
            continue
        ti = [row[k] for k in np.argsort(s_t)]
        dj = sorted(cols, key=lambda j: float((dets.xy[j] - c) @ u))
        allowed = _with_push(tk, rows, dets, ti, dj, u) if WITH_PUSH else None
        new = _align(np.array([rest_of(rows[i]) for i in ti], float), dets.xy[dj].astype(float), REACH * r, allowed)
        old = [(i, j) for i, j in pairs if i in row]
        new_pairs = [(ti[a], dj[b]) for a, b in new]
        if len(new_pairs) < len(old) or set(old) <= set(new_pairs):  # no better, or only pairs added
            continue
        if (KEEP_ORDERED and len(old) >= 2 and {i for i, _ in new_pairs} == {i for i, _ in old}
                and _in_order(rows, dets, old, u)):
            continue  # the earlier stages kept the order: a mere tie-break on squared displacement
        repair(pairs, used_t, used_d, old, new_pairs)


def _in_order(rows: Sequence[Track], dets: Detections, pairs: list[tuple[int, int]], u: np.ndarray) -> bool:
    """Do ``pairs`` keep the row's order: the paired detections, taken in the order of their
    tracks' rest places along the row's direction ``u``, lie in the same order along it?"""
    ordered = sorted(pairs, key=lambda p: float(rest_of(rows[p[0]]) @ u))
    s = [float(dets.xy[j] @ u) for _, j in ordered]
    return all(a < b for a, b in zip(s, s[1:], strict=False))


def _line(rows: Sequence[Track], resting: list[int], start: int) -> list[int]:
    """The resting discs on one straight line with ``start``, each at most ``GAP`` radii of free
    space from the next: the discs around ``start`` (gaps of up to ``GAP`` radii), less those
    off the line fitted to them (farthest first). Discs with a gap between them keep their
    order along the line as well as touching ones: to pass, one must leave the line."""
    group = touching(rows, resting, start, slack=GAP * rows[start].radius)
    while len(group) >= 2:
        q = np.array([rest_of(rows[i]) for i in group], float)
        c = q.mean(axis=0)
        u = np.linalg.svd(q - c)[2][0]
        off = np.abs((q - c) @ np.array([-u[1], u[0]]))
        k = int(np.argmax(off))
        if off[k] <= STRAIGHT * rows[group[k]].radius:
            return group
        group.pop(k)
    return group


def _moved(tk: Tracker, rows: Sequence[Track], dets: Detections, row: list[int], by_track: dict[int, int],
           dt: float) -> bool:
    """Was the row struck this frame: a member paired away from its rest place, and a blow to
    explain it (a member the forecast says is hit, or a mover that could reach a member this
    frame)? A row shuffled with no blow near is detector jitter beside a dropped detection
    (korona_4p_part's detector run at 28.3 s: a 5 mm jitter, a neighbour unseen, and the
    alignment's extra pair shifted two names). A member merely left unpaired beside a
    detection left over is no blow either: the earlier stages leave a disc unpaired for their
    own reasons (a dropped detection, a phantom, a ghost)."""
    if not any(i in by_track and float(np.hypot(*(dets.xy[by_track[i]] - rest_of(rows[i])))) > tk.cfg.move_mm
               for i in row):
        return False
    if any(rows[i].id in tk._struck for i in row):
        return True
    movers = [tr for tr in tk.tracks if tr.state == "moving"]
    return any(may_jump(tk, rows[i], movers, dt) for i in row) \
        or any(i in by_track and struck_unseen(tk, rows[i], dt) for i in row)


def struck_unseen(tk: Tracker, tr: Track, dt: float) -> bool:
    """Was resting disc ``tr``, seen again now, unseen while a blow passed by: another disc seen
    moving (two sightings more than ``move_mm`` apart) within three pairs of radii of its place
    since it was last seen? The detector drops the discs of a row pushed along the rim while
    they move and finds them a second later, shifted (k2e_9705 at 13.0-13.8 s: the striker
    drove s1 into the south row, s3 and s4 went 34 mm east unseen while s5 and s6, seen, went
    east beside them; s4's track took s3's detection 9 mm from it, s3's track stayed unseen at
    its old place and s4 became a new disc). Such a row keeps its order too; with no blow seen
    near, a shift is jitter beside a dropped detection, and the row is left alone. Korona only
    (its rows against the rims)."""
    if not UNSEEN_BLOWS or not isinstance(tk.board, KoronaBoard) or tk._t_now - tr.last_seen <= 1.5 * dt:
        return False
    q = tr.settled_xy
    for m in tk.tracks:
        if m is tr:
            continue
        seen = [np.array([s.x, s.y]) for s in m.path if s.measured and s.t > tr.last_seen]
        for a, b in zip(seen, seen[1:], strict=False):
            if (float(np.hypot(*(b - a))) > tk.cfg.move_mm
                    and segment_distance(q, a, b) <= 3 * (m.radius + tr.radius)):
                return True
    return False


def _with_push(tk: Tracker, rows: Sequence[Track], dets: Detections, ti: list[int], dj: list[int],
               u: np.ndarray) -> np.ndarray | None:
    """(len(ti), len(dj)) False where a row disc would have gone back against the blow: a row
    member struck this frame (``tk._struck``) is pushed one way along the row's line ``u``; the
    disc it pushes can only be pushed on, never back towards the blow (by
    more than ``BACK`` radii: detector jitter, a rebound): the next disc on from the struck one
    along the push only; the discs further on are free (a chain of contacts rebounds: k4h_9984
    at 17.27 s, see ``WITH_PUSH``), and so is the struck disc itself: the
    forecast's push is the mover's velocity along the contact normal, and an oblique blow into a
    rim row sends the struck disc off the rim, its way along the row the forecast's or the other
    (k4h_9972 at 3.63 s: s8, struck at the row's east end, went 13 mm east and off the rim, its
    forecast push west; barred from its own finds, s7's track took them). None when no member's
    push is known.

    k2e_9971 at 18.30 s: the striker drove n6 west into n7 along the north rim; n6, seen 17 mm
    west of its place, lay 16 mm east of n7's, n7 itself unseen; the alignment's tie-break
    (least squared displacement) gave n6's detection to n7, moved back into the blow, and the
    two names swapped."""
    pos = {i: k for k, i in enumerate(ti)}
    pushes = [(pos[k], float(tk._struck[rows[k].id][1] @ u)) for k in ti if rows[k].id in tk._struck]
    pushes = [(k, p) for k, p in pushes if abs(p) > 1e-6]
    if not pushes:
        return None
    sign = np.sign(sum(p for _, p in pushes))
    if any(np.sign(p) != sign for _, p in pushes):
        return None  # pushed both ways: no order of the push to keep
    first = min(k for k, _ in pushes) if sign > 0 else max(k for k, _ in pushes)
    out = np.ones((len(ti), len(dj)), bool)
    for a, i in enumerate(ti):
        if (a - first) * sign != 1:
            continue  # only the disc the struck one pushes directly (the others may rebound)
        back = (dets.xy[dj] - rest_of(rows[i])) @ (sign * u)
        out[a] = back >= -BACK * rows[i].radius
    return out


def _align(a: np.ndarray, b: np.ndarray, reach: float, allowed: np.ndarray | None = None) -> list[tuple[int, int]]:
    """Order-preserving pairs of points ``a`` (in order) with points ``b`` (in order): most
    pairs first, then least sum of squared distances; no pair further apart than ``reach``, nor
    where ``allowed`` (if given) is False."""
    n, m = len(a), len(b)
    d2 = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
    ok = d2 <= reach * reach
    if allowed is not None:
        ok &= allowed
    # best[i][j] = (pairs, -cost) over the first i points of a and the first j of b
    best = [[(0, 0.0)] * (m + 1) for _ in range(n + 1)]
    step = [[0] * (m + 1) for _ in range(n + 1)]  # 0 skip a, 1 skip b, 2 pair
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 and j == 0:
                continue
            cands = []
            if i > 0:
                cands.append((best[i - 1][j], 0))
            if j > 0:
                cands.append((best[i][j - 1], 1))
            if i > 0 and j > 0 and ok[i - 1, j - 1]:
                p, s = best[i - 1][j - 1]
                cands.append(((p + 1, s - float(d2[i - 1, j - 1])), 2))
            best[i][j], step[i][j] = max(cands, key=lambda x: x[0])
    out = []
    i, j = n, m
    while i > 0 or j > 0:
        k = step[i][j]
        if k == 2:
            out.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif k == 0:
            i -= 1
        else:
            j -= 1
    return out[::-1]
