"""The multi-disc tracker: ``update(detections, t)`` once per frame, SORT/norfair style.

Design decisions:

* Everything is in board millimetres, so gates are physical: a resting disc may only be matched
  within about a radius of where it rests; a moving one within two radii of where its velocity
  (or a collision with a resting disc in its path, see :mod:`tracker.track.association`) puts it.
* Two association stages. The first, tight, is the Hungarian method on those gates. The second,
  wide, lets a moving (or just-hit) disc that the first stage missed — a peg bounce, a dropped
  detection — reconnect within what its top speed allows.
* A disc cannot appear out of nowhere already moving. A new track that moves between its first
  two detections (a flicked disc that jumped out of its rest gate) is merged back into the disc
  that vanished at the start of its line; so the shot disc keeps its identity.
* Occlusion: a resting disc that is not seen (a hand over it) keeps its place ("occluded") for
  ``lift_after`` seconds; then it is "lifted". A lifted disc that reappears where it was, or where
  the rules said it will be put back (:meth:`Tracker.expect`), gets its identity back.
* Debouncing: a resting disc becomes "moving" only when displaced by more than ``move_mm`` on two
  frames running (or by a radius at once), and comes to rest when its last ``rest_time`` seconds
  of positions lie within ``rest_mm``. The hole / pocket / ditch verdict of the detector needs two
  frames running. So detector jitter makes no motion and no events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import Detections
from tracker.track import blows
from tracker.track.association import (
    BIG,
    assign,
    bounce_hypothesis,
    collision_hypotheses,
    hypothesis_cost,
)
from tracker.track.blows import segment_distance
from tracker.track.datatypes import Sample, Track
from tracker.track.fate import resolve_lost, where_verdict
from tracker.track.merge import donor_of, nudged_from


@dataclass(frozen=True)
class TrackerConfig:
    move_mm: float = 2.5  # displacement from the rest anchor that counts as motion (2 frames)
    rest_mm: float = 1.5  # spread of positions that counts as rest
    rest_time: float = 0.15  # seconds of still positions before a disc is at rest
    lift_after: float = 4.0  # seconds a resting disc may stay unseen before it counts as lifted
    lost_after: float = 0.3  # seconds a moving disc may stay unseen before its fate is decided
    v_max: float = 6000.0  # mm/s, fastest plausible disc
    decel: float = 1500.0  # mm/s^2, friction used to coast an unseen moving disc
    restitution: float = 0.9
    max_path: int = 1800  # samples kept per track
    confirm_hits: int = 2
    chain_speed: float = 1500.0  # mm/s, least speed assumed for a mover that may have struck a disc
    hole_gone: float = 1.0  # seconds a disc in the 20-hole may stay unseen before it was taken out


class Tracker:
    def __init__(self, board: CrokinoleBoard | KoronaBoard, config: TrackerConfig | None = None) -> None:
        if not isinstance(board, (CrokinoleBoard, KoronaBoard)):
            raise TypeError(f"board must be a CrokinoleBoard or KoronaBoard, got {type(board).__name__}")
        self.board = board
        self.cfg = config or TrackerConfig()
        self.tracks: list[Track] = []
        self._updates = 0
        self._tentative: list[Track] = []
        self._next_id = 1
        self._t: float | None = None
        self._t_now = 0.0
        self._expected: dict[int, np.ndarray] = {}
        self._retired: set[int] = set()
        self._leaving: set[int] = set()
        self._struck: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # rest track id -> (where, velocity) if hit now
        self._ghosts: set[int] = set()  # knocked away unseen: found again only near their course
        self.det_track: np.ndarray = np.zeros(0, int)  # track id per detection of the last frame
        if isinstance(board, CrokinoleBoard):
            self._pegs = np.array(board.peg_positions(), float).reshape(-1, 2)
            self._peg_r, self._half = board.peg_diameter / 2, 0.0
        else:
            self._pegs, self._peg_r, self._half = np.zeros((0, 2)), 0.0, board.half

    # ------------------------------------------------------------------ public
    def expect(self, track_id: int, xy: tuple[float, float]) -> None:
        """Tell the tracker a lifted disc will be put back near ``xy`` (e.g. a rules action)."""
        self._expected[track_id] = np.asarray(xy, float)

    def leaving(self, track_id: int) -> None:
        """The rules said this disc must be lifted out: once unseen for a moment it is lifted
        (no long wait), and it is never revived."""
        self._leaving.add(track_id)
        self._retired.add(track_id)

    def retire(self, track_id: int) -> None:
        """This disc left the game for good (the rules removed it): never revive it when a new
        disc is put down where it lay."""
        self._retired.add(track_id)

    def get(self, track_id: int) -> Track | None:
        for tr in self.tracks:
            if tr.id == track_id:
                return tr
        return None

    def update(self, dets: Detections, t: float) -> list[Track]:
        """Feed one frame's detections (possibly empty) at time ``t`` seconds; returns all tracks."""
        dt = 1.0 / 30 if self._t is None else max(t - self._t, 1e-3)
        self._t = t
        self._t_now = t
        self.det_track = np.full(len(dets), -1)
        live = [tr for tr in self.tracks if tr.state != "lifted"]
        rows = live + self._tentative
        hyps, gates = self._predict(rows, dt, t)
        cost = (hypothesis_cost(hyps, dets.xy, blows.stop_penalty(self, rows, hyps, dt))
                + self._penalties(rows, dets) + self._colour_penalty(rows, dets))
        pairs = assign(cost, gates)
        used_t = {i for i, _ in pairs}
        used_d = {j for _, j in pairs}
        # Stage 2: wide gate for moving discs and discs that may just have been hit.
        movers = [tr for tr in live if tr.state == "moving"]
        cand = [i for i, tr in enumerate(rows)
                if i not in used_t and tr.id not in self._ghosts and self._may_jump(tr, movers, dt)]
        dcols = [j for j in range(len(dets)) if j not in used_d]
        if cand and dcols:
            sub = cost[np.ix_(cand, dcols)]
            # as far as the disc could have gone at its speed (a bounce may add some), never
            # further than the top speed allows
            # (a struck resting disc: around where the collision puts it, as far as half the
            # striking speed could carry it further)
            wide = np.array([
                2 * rows[i].radius + max(t - rows[i].last_seen, dt)
                * (min(self.cfg.v_max, 1.5 * rows[i].speed + 500.0) if rows[i].state == "moving"
                   else 0.5 * self._jump_speed(rows[i], movers))
                for i in cand])
            cand, wide = blows.with_rows(self, rows, cand, wide, used_t)
            sub = cost[np.ix_(cand, dcols)] + blows.backwards(self, rows, cand, dets, dcols)
            for a, b in assign(sub, wide):
                pairs.append((cand[a], dcols[b]))
                used_t.add(cand[a])
                used_d.add(dcols[b])
        blows.chain(self, rows, dets, cost, pairs, used_t, used_d, dt)
        blows.rows_shifted(self, rows, dets, cost, pairs, used_t, used_d)
        blows.least_displacement(self, rows, dets, pairs)
        self._tent_det: dict[int, int] = {}
        for i, j in pairs:
            self._observe(rows[i], dets, j, t)
            if rows[i] in self._tentative:
                self._tent_det[id(rows[i])] = j
            else:
                self.det_track[j] = rows[i].id
        for i, tr in enumerate(rows):
            if i not in used_t:
                self._miss(tr, t, dt)
        for j in range(len(dets)):
            if j not in used_d:
                revived = self._revive(dets, j, t)
                if revived is None:
                    self._tentative.append(self._new_track(dets, j, t))
                else:
                    self.det_track[j] = revived.id
        self._promote(t, dt)
        self._updates += 1
        if self._updates % 30 == 0:
            self._trim_finished_paths()
        return [tr for tr in self.tracks]

    def _trim_finished_paths(self, keep: int = 64) -> None:
        """Tracks no longer in play (in the hole, a pocket, the ditch, off, lifted) keep only
        their last few samples: a long live match must not grow with every disc ever shot."""
        for tr in self.tracks:
            if tr.state not in ("rest", "moving") and len(tr.path) > keep:
                del tr.path[:-keep]

    # ------------------------------------------------------------------ prediction and cost
    def _predict(self, rows: Sequence[Track], dt: float, t: float) -> tuple[list[list[np.ndarray]], np.ndarray]:
        hyps: list[list[np.ndarray]] = []
        gates = np.zeros(len(rows))
        self._struck = {}
        for i, tr in enumerate(rows):
            if tr.hits < self.cfg.confirm_hits and tr in self._tentative:
                hyps.append([tr.xy.copy()])
                # a disc first seen sharp was not flying fast: half the top speed (a new row of
                # discs with one missed must not link two of them across the board)
                fast = tr.first_streak > tr.radius / 2
                gates[i] = (1.0 if fast else 0.5) * self.cfg.v_max * dt + tr.radius
                if tr.state == "hole":  # first seen down in the 20-hole: it does not climb out
                    gates[i] = 1.5 * tr.radius
            elif tr.state == "moving":
                gap = max(t - tr.last_seen, dt)
                hyps.append([tr.xy + tr.v * dt, tr.xy.copy()])
                bounced = bounce_hypothesis(tr.xy, tr.v, self._pegs, tr.radius + self._peg_r,
                                            self._half - tr.radius if self._half else None, dt, self.cfg.restitution)
                if bounced is not None:
                    hyps[-1].append(bounced)
                gates[i] = 2 * tr.radius + 0.5 * tr.speed * gap
            elif tr.state == "rest":
                hyps.append([tr.anchor.copy() if tr.anchor_n else tr.xy.copy()])
                gates[i] = tr.radius
            elif tr.state == "hole":  # down in the hole: it stays there (a disc sliding past does not)
                hyps.append([tr.xy.copy()])
                gates[i] = 0.6 * tr.radius
            else:  # pocket, off: still visible, may roll a little in the ditch
                hyps.append([tr.xy.copy()])
                gates[i] = 1.5 * tr.radius
        movers = [k for k, tr in enumerate(rows) if tr.state == "moving" and tr not in self._tentative]
        resting = [k for k, tr in enumerate(rows) if tr.state == "rest" and tr not in self._tentative]
        for a in movers:
            A = rows[a]
            for b in resting:
                B = rows[b]
                if B is A:
                    continue
                reach = A.radius + B.radius
                q = B.anchor if B.anchor_n else B.xy
                if np.hypot(*(A.xy - q)) > A.speed * dt + reach:
                    continue
                hit = collision_hypotheses(A.xy, A.v, q, reach, dt, self.cfg.restitution)
                if hit is not None:
                    hyps[a].append(hit[0])
                    hyps[b].append(hit[1])
                    gates[b] = max(gates[b], 2 * B.radius)
                    push = hit[1] - q
                    norm = float(np.hypot(*push))
                    if norm > 1e-9:  # the struck disc's velocity: the mover's along the normal
                        n = push / norm
                        vb = 0.5 * (1 + self.cfg.restitution) * float(A.v @ n) * n
                        self._struck[B.id] = (hit[1], vb)
        blows.tighten_near_movers(self, rows, movers, resting, gates, dt)
        blows.widen_touching(self, rows, resting, gates)
        return hyps, gates

    def _penalties(self, rows: Sequence[Track], dets: Detections) -> np.ndarray:
        if not len(rows) or not len(dets):
            return np.zeros((len(rows), len(dets)))
        kinds = np.array([tr.kind for tr in rows])
        cls = np.array([tr.cls for tr in rows])
        radius = np.array([tr.radius for tr in rows])
        pen = np.where(kinds[:, None] != dets.kind[None, :], BIG, 0.0)
        clash = (cls[:, None] >= 0) & (dets.cls[None, :] >= 0) & (cls[:, None] != dets.cls[None, :])
        return pen + np.where(clash, radius[:, None], 0.0)

    def _colour_penalty(self, rows: Sequence[Track], dets: Detections) -> np.ndarray:
        """(T, D) mm added to a pair when the detection's top-face colour is far from the
        track's own.

        Position alone can swap discs in the commonest hit, head-on: the shooter stops about
        where the struck disc rested, and a collision forecast that is a little off pairs each
        with the other's detection. Players' discs differ in colour. A moving disc's colour is
        measured through blur (on the fixtures 95% of a disc's own matches lie within 33 Lab
        units while it moves, 99% within 20 at rest), so only a gap beyond 25 counts, growing
        to two radii at 75: a light track then falls outside its tight gate for a dark
        detection and is matched in the wide stage instead, where the right disc is in reach."""
        out = np.zeros((len(rows), len(dets)))
        if not len(rows) or not len(dets):
            return out
        known = np.array([tr.color_n >= 3 for tr in rows])
        seen = np.any(dets.color != 0, axis=1)
        if not known.any() or not seen.any():
            return out
        tc = np.array([tr.color for tr in rows], float)
        de = np.linalg.norm(tc[:, None, :] - dets.color[None, :, :], axis=2)
        radius = np.array([tr.radius for tr in rows])
        pen = radius[:, None] * np.clip((de - 25.0) / 25.0, 0.0, 2.0)
        return np.where(known[:, None] & seen[None, :], pen, 0.0)

    def _may_jump(self, tr: Track, movers: list[Track], dt: float) -> bool:
        """May this unmatched track take a detection far from its prediction?

        A moving disc may (a bounce, a missed frame). A resting disc only when a moving disc's
        path this frame passed close enough to have hit it: resting discs do not start by
        themselves, and letting them jump steals detections from the mover that bounced.
        """
        if tr.state == "moving":
            return True
        if tr.state != "rest" or tr in self._tentative:
            return False
        q = tr.anchor if tr.anchor_n else tr.xy
        for m in movers:
            if m is tr:
                continue
            reach = 1.5 * (m.radius + tr.radius)
            if segment_distance(q, m.xy, m.xy + self._reach_v(m) * dt) < reach:
                return True
        return False

    def _reach_v(self, m: Track) -> np.ndarray:
        """A mover's velocity for "could it have hit that disc this frame", at least
        ``chain_speed``: a disc struck part way through a frame shows only a fraction of its speed
        on its first moving frame, and a blow runs on through the discs it meets."""
        sp = m.speed
        if sp <= 1e-9:
            return m.v
        return m.v * max(1.0, self.cfg.chain_speed / sp)

    def _jump_speed(self, tr: Track, movers: list[Track]) -> float:
        """How fast a track taking a far detection may have gone: a moving disc at its own speed,
        a struck resting disc at most at the speed of the mover that hit it (equal masses). A
        row of touching discs passes a blow on to its far end; the gate keeps a struck disc from
        taking the far disc's detection."""
        if tr.state == "moving":
            return tr.speed
        q = tr.anchor if tr.anchor_n else tr.xy
        near = [m.speed for m in movers if m is not tr
                and float(np.hypot(*(m.xy - q))) < max(m.speed, self.cfg.chain_speed) * 0.2 + 3 * (m.radius + tr.radius)]
        return max([self.cfg.chain_speed, *near]) if near else self.cfg.v_max

    # ------------------------------------------------------------------ updates
    def _observe(self, tr: Track, dets: Detections, j: int, t: float) -> None:
        cfg = self.cfg
        z = dets.xy[j].astype(float)
        prev_t, prev_xy = tr.last_seen, tr.xy.copy()
        self._ghosts.discard(tr.id)
        tr.hits += 1
        tr.last_seen = t
        tr.occluded = False
        if float(np.hypot(*dets.streak[j])) < tr.radius:
            tr.vote_cls(int(dets.cls[j]))
            n = min(tr.color_n, 50)
            tr.color = (tr.color * n + dets.color[j]) / (n + 1)
            tr.color_n = n + 1
        if tr.state == "rest":
            ref = tr.anchor if tr.anchor_n else tr.xy
            d = float(np.hypot(*(z - ref)))
            if d > cfg.move_mm:
                tr.displaced_frames += 1
                if d > tr.radius or tr.displaced_frames >= 2:
                    tr.rest_xy = (float(ref[0]), float(ref[1]))
                    tr.state = "moving"
                    tr.v = (z - ref) / max(t - prev_t, 1e-3)
                    tr.anchor_n = 0
            else:
                tr.displaced_frames = 0
                n = min(tr.anchor_n, 200)
                tr.anchor = (tr.anchor * n + z) / (n + 1) if n else z.copy()
                tr.anchor_n = n + 1
        elif tr.state == "moving":
            tr.v = (z - prev_xy) / max(t - prev_t, 1e-3)
        tr.xy = z
        tr.path.append(Sample(t, float(z[0]), float(z[1]), True))
        if len(tr.path) > cfg.max_path:
            del tr.path[: len(tr.path) - cfg.max_path]
        if tr.state == "moving":
            self._maybe_rest(tr, t)
        self._where(tr, int(dets.where[j]))

    def _maybe_rest(self, tr: Track, t: float) -> None:
        """At rest when the last ``rest_time`` seconds (and at least 3 samples) of measured
        positions lie within ``rest_mm`` of their mean."""
        measured = [s for s in tr.path[-64:] if s.measured]
        recent = [s for s in measured if s.t >= t - self.cfg.rest_time - 1e-6]
        if len(recent) < 3:
            recent = measured[-3:]
        if len(recent) < 3:
            return
        pts = np.array([(s.x, s.y) for s in recent])
        mean = pts.mean(axis=0)
        if float(np.hypot(*(pts - mean).T).max()) <= self.cfg.rest_mm:
            tr.state = "rest"
            tr.v = np.zeros(2)
            tr.anchor = mean
            tr.anchor_n = len(pts)
            tr.displaced_frames = 0
            tr.rest_since = t

    def _where(self, tr: Track, where: int) -> None:
        where_verdict(self.board, tr, where)

    def _miss(self, tr: Track, t: float, dt: float) -> None:
        cfg = self.cfg
        if tr in self._tentative:
            return
        if tr.state == "rest" and tr.id in self._struck and t - tr.last_seen <= 2.5 * dt:  # vanished just now
            self._knocked_unseen(tr, t)
        elif tr.state == "rest":
            tr.occluded = True
            tr.displaced_frames = 0
            wait = 0.2 if tr.id in self._leaving else cfg.lift_after
            if t - tr.last_seen > wait:
                tr.state = "lifted"
                tr.occluded = False
        elif tr.state == "hole" and t - tr.last_seen > cfg.hole_gone:
            # a 20 is taken out of the hole by hand: gone for good (a later disc in the hole
            # is another disc, never this one revived)
            tr.state = "lifted"
            self._retired.add(tr.id)
        elif tr.state == "moving":
            sp = tr.speed
            if sp > 0:
                tr.v = tr.v * max(sp - cfg.decel * dt, 0.0) / sp
            tr.xy = tr.xy + tr.v * dt
            tr.path.append(Sample(t, float(tr.xy[0]), float(tr.xy[1]), False))
            if t - tr.last_seen > cfg.lost_after:
                self._resolve_lost(tr)

    def _knocked_unseen(self, tr: Track, t: float) -> None:
        """A resting disc in a mover's path vanished the frame it was due to be hit: it was
        knocked away too fast to be seen (a blurred frame, or straight over the rim or into a
        pocket at a low frame rate). It moves on, unseen, at the speed the collision gives it;
        if it is not seen again within ``lost_after`` its fate is decided from where it was
        heading (:func:`resolve_lost`: a pocket, off the board, or covered where it rested)."""
        at, v = self._struck[tr.id]
        ref = tr.anchor if tr.anchor_n else tr.xy
        tr.rest_xy = (float(ref[0]), float(ref[1]))
        tr.state, tr.v, tr.xy = "moving", np.asarray(v, float), np.asarray(at, float)
        tr.anchor_n, tr.occluded, tr.displaced_frames = 0, False, 0
        tr.path.append(Sample(t, float(at[0]), float(at[1]), False))
        self._ghosts.add(tr.id)

    def _resolve_lost(self, tr: Track) -> None:
        resolve_lost(self.board, tr)

    def _revive(self, dets: Detections, j: int, t: float) -> Track | None:
        z = dets.xy[j]
        best, best_d = None, BIG
        for tr in self.tracks:
            if tr.state != "lifted" or tr.kind != int(dets.kind[j]) or tr.id in self._retired:
                continue
            target = self._expected.get(tr.id, tr.anchor)
            reach = 3 * tr.radius if tr.id in self._expected else tr.radius
            d = float(np.hypot(*(z - target)))
            if d < reach and d < best_d:
                best, best_d = tr, d
        if best is None:
            return None
        self._expected.pop(best.id, None)
        best.state = "rest"
        best.xy, best.anchor, best.anchor_n = z.copy(), z.copy(), 1
        best.last_seen, best.occluded, best.displaced_frames = t, False, 0
        best.path.append(Sample(t, float(z[0]), float(z[1]), True))
        return best

    def _new_track(self, dets: Detections, j: int, t: float) -> Track:
        z = dets.xy[j].astype(float)
        r = float(dets.radius[j]) if dets.radius[j] > 0 else self._default_radius(int(dets.kind[j]))
        tr = Track(id=0, kind=int(dets.kind[j]), radius=r, xy=z.copy(), anchor=z.copy(), anchor_n=1,
                   last_seen=t, born=t, path=[Sample(t, float(z[0]), float(z[1]), True)])
        tr.vote_cls(int(dets.cls[j]))
        tr.first_streak = float(np.hypot(*dets.streak[j]))
        tr.color, tr.color_n = dets.color[j].astype(float).copy(), 1
        self._where(tr, int(dets.where[j]))
        return tr

    def _default_radius(self, kind: int) -> float:
        b = self.board
        if isinstance(b, KoronaBoard) and kind == 1:
            return b.striker_radius
        return b.disc_radius

    def _promote(self, t: float, dt: float) -> None:
        keep: list[Track] = []
        ready = [tr for tr in self._tentative if tr.hits >= self.cfg.confirm_hits]
        # born-moving tracks claim their donors first: their line back is the better evidence
        ready.sort(key=lambda tr: not self._born_moving(tr))
        for tr in ready:
            self._confirm(tr, t, dt)
        for tr in self._tentative:
            if tr.hits < self.cfg.confirm_hits and t - tr.born <= 2.5 * dt:
                keep.append(tr)
        self._tentative = keep

    def _born_moving(self, tr: Track) -> bool:
        first, last = tr.path[0], tr.path[-1]
        moved = float(np.hypot(last.x - first.x, last.y - first.y))
        return moved > 2 * self.cfg.move_mm or tr.first_streak > tr.radius / 2

    def _confirm(self, tr: Track, t: float, dt: float) -> None:
        first, last = tr.path[0], tr.path[-1]
        if not self._born_moving(tr) and tr.state == "rest":
            nudged = self._nudged(tr, first, dt)
            if nudged is not None:  # a disc knocked a short way within one frame
                nudged.rest_xy = nudged.position()
                # "moving" until its positions settle again, so the shot sees it moved
                nudged.xy, nudged.anchor_n, nudged.v = tr.xy.copy(), 0, np.zeros(2)
                nudged.state, nudged.occluded, nudged.last_seen = "moving", False, t
                nudged.hits += tr.hits
                nudged.path.extend(tr.path)
                self._label(tr, nudged.id)
                return
        if self._born_moving(tr) and tr.state in ("rest", "moving"):
            v = np.array([last.x - first.x, last.y - first.y]) / max(last.t - first.t, 1e-3)
            donor = self._donor(tr, v, first)
            if donor is not None:
                donor.rest_xy = donor.position()
                donor.state, donor.v, donor.xy = "moving", v, tr.xy.copy()
                donor.anchor_n, donor.occluded, donor.displaced_frames = 0, False, 0
                donor.last_seen, donor.hits = t, donor.hits + tr.hits
                donor.path.extend(tr.path)
                for c, n in tr.cls_votes.items():
                    donor.cls_votes[c] = donor.cls_votes.get(c, 0) + n
                self._label(tr, donor.id)
                return
            tr.state, tr.v, tr.anchor_n = "moving", v, 0
            tr.rest_xy = (first.x, first.y)
        tr.id = self._next_id
        self._next_id += 1
        self.tracks.append(tr)
        self._label(tr, tr.id)

    def _label(self, tent: Track, track_id: int) -> None:
        j = self._tent_det.get(id(tent))
        if j is not None:
            self.det_track[j] = track_id

    def _nudged(self, tr: Track, first: Sample, dt: float) -> Track | None:
        """A resting disc knocked a short way between frames, when a disc is moving that could
        have knocked it. With nothing moving, a disc that appears beside one hidden by a hand
        is a disc put down there (crokinole_2p_round, shot 17: s9 set down 42 mm from s1).
        Crokinole only: there a disc is put down on the shooting line before every shot, while
        a korona striker that knocks a row is often not seen at all at 10 fps."""
        d = nudged_from(self.tracks, tr, first, dt)
        if d is None or not isinstance(self.board, CrokinoleBoard):
            return d
        q = d.anchor if d.anchor_n else d.xy
        for m in self.tracks:
            if m is d or m.state != "moving":
                continue
            if float(np.hypot(*(m.xy - q))) <= 4 * (m.radius + d.radius) + m.speed * 2 * dt:
                return d
        return None

    def _donor(self, tr: Track, v: np.ndarray, first: Sample) -> Track | None:
        return donor_of(self.tracks, tr, v, first, self.cfg.v_max)
