"""Cutting the stream of tracks into shots, frame by frame.

A shot starts when a disc on the surface starts moving and ends when every disc has been at rest
(or in the hole, a pocket, the ditch) for ``settle`` seconds. Then the motion is judged:

* the shot disc is the first disc that moved;
* it is a shot only if that disc was flicked (peak speed above ``shot_speed``) from where a shot
  may start (crokinole: near the shooting line; korona: the striker, from behind the middle of
  the board) — otherwise it was a hand straightening or carrying a disc, and no shot is logged;
* every disc that moved gets its end: a rest place, ``hole``, ``pocket:xx``, ``off``, ``lifted``.

Between shots the segmenter reports the hands' work: discs lifted away and discs put down.
Design: the segmenter never looks at pixels, only at :class:`tracker.track.Track` objects, so it
is tested on synthetic tracks and reused by ``review`` and ``live`` alike.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.infer.contacts import infer_contacts, motion_start
from tracker.infer.datatypes import End, HandEvent, ShotRecord
from tracker.track.datatypes import Track


class ShotSegmenter:
    def __init__(
        self,
        board: CrokinoleBoard | KoronaBoard,
        # Seconds every disc must stay at rest before the shot is closed (on top of the tracker's
        # own rest_time). Short, so the live score follows the last disc stopping within about
        # 0.3 s; 0.15 and 0.4 gave identical results on every fixture (bench_review).
        settle: float = 0.15,
        shot_speed: float = 350.0,
    ) -> None:
        self.board = board
        self.settle = settle
        self.shot_speed = shot_speed
        self.in_shot = False
        self._t0 = 0.0
        self._f0 = 0
        self._quiet_since: float | None = None
        self._before: dict[int, tuple[float, float]] = {}
        self._before_state: dict[int, str] = {}
        self._moved: set[int] = set()
        self._known: dict[int, str] = {}
        self._shot_before: set[int] = set()
        # motions that were not shots, with the reason (for the annotated video and debugging)
        self.rejected: list[tuple[float, str]] = []  # last reported state per track (for hand events)
        self.t = 0.0

    # ------------------------------------------------------------------ per frame
    def update(self, tracks: Sequence[Track], t: float, frame: int) -> tuple[list[ShotRecord], list[HandEvent]]:
        self.t = t
        shots: list[ShotRecord] = []
        hands: list[HandEvent] = []
        moving = [tr for tr in tracks if tr.state == "moving"]
        if not self.in_shot:
            hands = self._hand_events(tracks, t, frame)
            if moving:
                self.in_shot = True
                self._t0 = min(self._rest_end(tr) for tr in moving)
                self._f0 = frame
                self._quiet_since = None
                self._moved = {tr.id for tr in moving}
                # where every disc rested before (the movers' anchors were reset when they moved)
                self._before = {tr.id: self._prev_rest(tr) for tr in tracks if tr.state in ("rest", "moving")}
                self._before_state = {tr.id: tr.state for tr in tracks}
            return shots, hands
        self._moved |= {tr.id for tr in moving}
        for tr in tracks:  # discs that changed state without being seen moving (dropped in)
            if tr.id in self._before_state and tr.state != self._before_state[tr.id] and tr.state != "lifted":
                self._moved.add(tr.id)
            if tr.id not in self._before_state and tr.born >= self._t0 and tr.state != "lifted":
                self._moved.add(tr.id)
        if moving:
            self._quiet_since = None
            return shots, hands
        if self._quiet_since is None:
            self._quiet_since = t
        if t - self._quiet_since < self.settle:
            return shots, hands
        self.in_shot = False
        record = self._finish(tracks, t, frame)
        for tr in tracks:
            self._known[tr.id] = tr.state
        if record is not None:
            shots.append(record)
        return shots, hands

    def flush(self, tracks: Sequence[Track], t: float, frame: int) -> list[ShotRecord]:
        """The input ended: close a shot still in progress (discs still moving end where seen)."""
        if not self.in_shot:
            return []
        self.in_shot = False
        self.t = t + self.settle
        record = self._finish(tracks, t + self.settle, frame)
        return [record] if record is not None else []

    # ------------------------------------------------------------------ helpers
    def _prev_rest(self, tr: Track) -> tuple[float, float]:
        """Where a disc rested before the current motion."""
        if tr.state == "rest" or tr.rest_xy is None:
            return tr.position()
        return tr.rest_xy

    def _rest_end(self, tr: Track) -> float:
        samples = [s for s in tr.path if s.measured]
        if len(samples) >= 2:
            return samples[-2].t
        return tr.born

    def _hand_events(self, tracks: Sequence[Track], t: float, frame: int) -> list[HandEvent]:
        out: list[HandEvent] = []
        for tr in tracks:
            old = self._known.get(tr.id)
            if tr.state == old:
                continue
            if tr.state == "lifted" and old is not None:
                where = "surface" if old in ("rest", "moving") else old
                out.append(HandEvent("lifted", t, frame, tr.id, tr.position(), where))
            elif tr.state == "rest" and old in (None, "lifted"):
                out.append(HandEvent("placed", t, frame, tr.id, tr.position()))
            self._known[tr.id] = tr.state
        return out

    def _finish(self, tracks: Sequence[Track], t: float, frame: int) -> ShotRecord | None:
        by_id = {tr.id: tr for tr in tracks}
        movers = [by_id[i] for i in self._moved if i in by_id]
        if not movers:
            return None
        paths: dict[int, np.ndarray] = {}
        starts: dict[int, float] = {}
        for tr in movers:
            pts = [(s.t, s.x, s.y) for s in tr.path if s.measured and s.t >= self._t0 - 0.25]
            if not pts:
                continue
            p = np.array(pts)
            paths[tr.id] = p
            rest = self._before.get(tr.id, (p[0, 1], p[0, 2]))
            k = motion_start(p, rest)
            starts[tr.id] = float(p[k, 0]) if k is not None else float("inf")
        candidates = [tr for tr in movers if tr.id in self._before and tr.id in paths]
        if isinstance(self.board, KoronaBoard):
            candidates = [tr for tr in candidates if tr.kind == STRIKER] or candidates
        else:  # a crokinole disc is shot once: the shot disc is one never shot before
            candidates = [tr for tr in candidates if tr.id not in self._shot_before] or candidates
        if not candidates:
            return None
        # earliest to move; within a frame, the fastest (the hit disc starts slower or later)
        shooter = min(candidates, key=lambda tr: (round(starts.get(tr.id, float("inf")), 4),
                                                  -_peak_speed(paths[tr.id])))
        p = paths[shooter.id]
        # the shot disc may stop at once against another (a frame may hold all its motion):
        # judge the flick by the fastest disc of the episode
        peak = max(_peak_speed(q) for q in paths.values())
        start = self._before[shooter.id]
        if peak < self.shot_speed:
            self.rejected.append((t, f"slow motion ({peak:.0f} mm/s): a hand, not a shot"))
            return None
        if not self._may_start(start, shooter):
            self.rejected.append((t, f"motion from ({start[0]:.0f}, {start[1]:.0f}): not where a shot starts"))
            return None
        if shooter.state == "lifted":
            self.rejected.append((t, "the moved disc was carried away by a hand"))
            return None
        self._shot_before.add(shooter.id)
        radius = {tr.id: tr.radius for tr in tracks}
        before = {i: xy for i, xy in self._before.items() if i in by_id}
        contacts = infer_contacts(paths, before, radius, shooter.id, self.board)
        ends: dict[int, End] = {}
        for tr in movers:
            if tr.id not in self._before and tr.born < self._t0:
                continue
            ends[tr.id] = _end_of(tr)
        return ShotRecord(
            disc=shooter.id, start=start, t_start=min(starts.get(shooter.id, self._t0), t), t_end=t - self.settle,
            frame_start=self._f0, frame_end=frame, contacts=tuple(contacts), ends=ends,
            before=dict(self._before), peak_speed=peak,
        )

    def _may_start(self, start: tuple[float, float], tr: Track) -> bool:
        b = self.board
        x, y = start
        if isinstance(b, CrokinoleBoard):
            d = float(np.hypot(x, y))
            return d > b.ten_line_radius + tr.radius  # shot from the shooting line (in the 5 zone)
        return tr.kind == STRIKER or b.rim_zone_of(x, y) is not None


def _peak_speed(p: np.ndarray) -> float:
    if len(p) < 2:
        return 0.0
    dt = np.diff(p[:, 0])
    ok = dt > 0
    v = np.hypot(np.diff(p[:, 1])[ok], np.diff(p[:, 2])[ok]) / dt[ok]
    return float(v.max()) if len(v) else 0.0


def _end_of(tr: Track) -> End:
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
