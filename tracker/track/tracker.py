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

The work is split by concern: :mod:`tracker.track.prediction` (hypotheses and gates),
:mod:`tracker.track.pair_costs` (what a pair costs beyond its distance), :mod:`tracker.track.blows` (extra association stages for blows too fast for the frame
rate), :mod:`tracker.track.row_order` (the last stage: a struck row keeps its order),
:mod:`tracker.track.lifecycle` and :mod:`tracker.track.confirm` (what a matched or missed track, a new detection or a confirmed tentative track
does to the tracks); this module keeps the tracker's state and runs the stages in order.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import DISC, Detections
from tracker.track import blows
from tracker.track.association import assign, hypothesis_cost
from tracker.track.bump_doubles import bump_doubles
from tracker.track.config import TrackerConfig
from tracker.track.confirm import promote
from tracker.track.datatypes import Sample, Track
from tracker.track.fate import FLEETING_HITS
from tracker.track.ghost_course import behind_blow, may_seek
from tracker.track.lifecycle import miss, new_track, observe, revive
from tracker.track.overlap import mover_on_rest_place, pushed_aside
from tracker.track.pair_costs import (
    beyond_struck_penalty,
    colour_penalty,
    penalties,
    rim_ghost_penalty,
    striker_rings,
    struck_penalty,
)
from tracker.track.passed_on import passed_on
from tracker.track.prediction import jump_speed, may_jump, predict, struck_for
from tracker.track.refit import rebase_korona, rest_at
from tracker.track.row_order import row_order
from tracker.track.steady import beyond_reach, sideways
from tracker.track.turn_back import backwards


class Tracker:
    def __init__(self, board: CrokinoleBoard | KoronaBoard, config: TrackerConfig | None = None) -> None:
        if not isinstance(board, (CrokinoleBoard, KoronaBoard)):
            raise TypeError(f"board must be a CrokinoleBoard or KoronaBoard, got {type(board).__name__}")
        self.board = board
        self.cfg = config or TrackerConfig()
        # the colour gate is crokinole's (two sides ~50 Lab apart); on korona it cost k2e_9505 s6's
        # struck run at 27.8 s (its end left out of the shot: position median 1.50 -> 1.70 mm)
        if isinstance(board, KoronaBoard) and self.cfg.colour_gate is not None:
            self.cfg = replace(self.cfg, colour_gate=None)
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
        self._striking: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # mover id -> (struck rest place, normal)
        # rest track id -> (where, velocity, when) an unseen mover's coast struck it (``hidden_blows.coast_into_disc``)
        self._blown: dict[int, tuple[np.ndarray, np.ndarray, float]] = {}
        self._ghosts: set[int] = set()  # knocked away unseen: found again only near their course
        self._rim_turned: set[int] = set()  # ghosts whose blow a rim turned back (``pair_costs.rim_ghost_penalty``)
        self._tent_det: dict[int, int] = {}  # id(tentative track) -> its detection this frame
        self._consumed: set[int] = set()  # id(tentative tracks) another's confirmation took this frame
        self._hole_uncovered = float("-inf")  # when a disc over the 20-hole's edge last left it
        self._blow_start: float | None = None  # when the discs' present motion began (None: all still)
        self.det_track: np.ndarray = np.zeros(0, int)  # track id per detection of the last frame
        if isinstance(board, CrokinoleBoard):
            self._pegs = np.array(board.peg_positions(), float).reshape(-1, 2)
            self._peg_r, self._half = board.peg_diameter / 2, 0.0
        else:
            self._pegs, self._peg_r, self._half = np.zeros((0, 2)), 0.0, board.half
        self._striker_r = board.striker_radius if isinstance(board, KoronaBoard) else None
        # korona: a ghost found ahead of its place (``ghost_course``)
        self._ghosts_wide = self.cfg.ghost_ahead and isinstance(board, KoronaBoard)

    # ------------------------------------------------------------------ public
    def expect(self, track_id: int, xy: tuple[float, float]) -> None:
        """Tell the tracker a lifted disc will be put back near ``xy`` (e.g. a rules action)."""
        self._expected[track_id] = np.asarray(xy, float)

    def forget_expected(self) -> None:
        """The discs told of by :meth:`expect` are no longer expected back (the rules' placements
        are made before the next shot): a disc put down later is matched as any other."""
        self._expected.clear()

    def leaving(self, track_id: int) -> None:
        """The rules said this disc must be lifted out: once unseen for a moment it is lifted
        (no long wait), and it is never revived."""
        self._leaving.add(track_id)
        self._retired.add(track_id)
        tr = self.get(track_id)
        if tr is not None:
            tr.leaving = True

    def stay(self, track_id: int) -> None:
        """The disc ``leaving`` named stays after all (a call withdrawn): watched as any other."""
        self._leaving.discard(track_id)
        self._retired.discard(track_id)
        tr = self.get(track_id)
        if tr is not None:
            tr.leaving = False

    def retire(self, track_id: int) -> None:
        """This disc left the game for good (the rules removed it): never revive it when a new
        disc is put down where it lay."""
        self._retired.add(track_id)

    @property
    def retired(self) -> frozenset[int]:
        """The discs out of the game for good: removed by the rules (``retire``, ``leaving``), a
        20 taken out of the hole, a false find forgotten."""
        return frozenset(self._retired)

    def add_unseen(self, at: tuple[float, float], came_from: tuple[float, float], t: float, radius: float) -> int:
        """A disc nobody saw, known only from what it did (``infer.never_seen``: the shot disc that
        struck a disc and stopped about where it struck): a track resting at ``at``, covered, its
        place an estimate (``lifecycle.kept_unseen``: it came from ``came_from``). Returns its id."""
        xy = np.asarray(at, float)
        # (a disc, known from its blow: no false find to forget within ``fate.FLEETING_S``)
        tr = Track(id=self._next_id, kind=DISC, radius=radius, xy=xy.copy(), anchor=xy.copy(), anchor_n=1,
                   occluded=True, last_seen=t, born=t, rest_since=t, rest_xy=(float(came_from[0]), float(came_from[1])),
                   path=[Sample(t, float(xy[0]), float(xy[1]), False)], hits=FLEETING_HITS)
        self._next_id += 1
        self.tracks.append(tr)
        return tr.id

    def drop_finished(self, unseen_for: float = 1.0) -> list[int]:
        """Forget the tracks out of play: lifted, or in the hole, a pocket or the ditch and not
        seen for ``unseen_for`` seconds. Returns their ids.

        Called when a round (a korona game) ends: its discs will never be shot again, and a
        long live match must not keep every disc it ever saw (each finished track holds up to
        64 path samples, about 12 KB a shot). Tracks still seen in the ditch or a pocket are kept:
        forgotten, the disc would be met again as a new track, taken for one put down. Track
        ids are never reused, so the ids the pipeline keeps (names) cannot be confused."""
        now = self._t_now
        gone = [tr for tr in self.tracks if tr.state == "lifted"
                or (tr.state in ("hole", "pocket", "off") and now - tr.last_seen >= unseen_for)]
        if not gone:
            return []
        ids = {tr.id for tr in gone}
        self.tracks = [tr for tr in self.tracks if tr.id not in ids]
        for tid in ids:
            self._expected.pop(tid, None)
            self._struck.pop(tid, None)
        self._retired -= ids
        self._leaving -= ids
        self._ghosts -= ids
        self._rim_turned -= ids
        return sorted(ids)

    def drop_bump_doubles(self, since: float) -> list[int]:
        """Forget the doubles of discs resting unseen, born since ``since`` through a board fit the
        camera had left (``bump_doubles``; called on a new fit's first frame). Returns their ids."""
        ids = set(bump_doubles(self, since))
        if ids:
            self.tracks = [tr for tr in self.tracks if tr.id not in ids]
            self._tentative = [tr for tr in self._tentative if tr.id not in ids]
        return sorted(ids)

    def rebase(self, dets: Detections, t: float, reach: float = 2.5) -> list[int]:
        """The board was fitted again after the camera moved: resting discs were measured through
        the old fit since the bump, so they sit a few mm off where the new fit sees them. Each
        resting track takes the nearest detection within ``reach`` radii (nearest pairs first,
        one detection each) as its new rest place, with its path restarted there, so the
        correction is not read as motion (a disc flicked just after the fit would otherwise be
        judged from the stale place, or a resting disc taken for the first to move). Moving
        tracks and tracks with no detection near are left alone; a moving track takes part in
        the pairing all the same, so the detection nearest it is its own and no resting disc's
        (c4h_9303 at 13.1 s: n1, read as moving for a frame by a fit drawn towards e1 touching
        it, was left out; e1, lost under nothing but its weak outline, took n1's detection 35 mm
        away and lay on n1's place from then on). Korona: ``refit.rebase_korona`` (all tracks
        jointly, the bump's movers at their rest places). Returns the ids moved."""
        if isinstance(self.board, KoronaBoard) and self.cfg.rebase_movers:
            return rebase_korona(self, dets, t, reach)
        paired = ("rest", "moving") if isinstance(self.board, CrokinoleBoard) else ("rest",)
        rest = [tr for tr in self.tracks if tr.state in paired]
        if not any(tr.state == "rest" for tr in rest) or not len(dets):
            return []
        pos = np.array([tr.position() for tr in rest], float)
        d = np.hypot(pos[:, None, 0] - dets.xy[None, :, 0], pos[:, None, 1] - dets.xy[None, :, 1])
        limit = np.array([reach * tr.radius for tr in rest])[:, None]
        used_t: set[int] = set()
        used_d: set[int] = set()
        moved: list[int] = []
        for i, j in zip(*np.unravel_index(np.argsort(d, axis=None), d.shape), strict=True):
            i, j = int(i), int(j)
            if d[i, j] > limit[i, 0] or i in used_t or j in used_d:
                continue
            used_t.add(i)
            used_d.add(j)
            tr = rest[i]
            if tr.state != "rest":
                continue
            rest_at(tr, dets.xy[j].astype(float), t)
            moved.append(tr.id)
        return moved

    def settle_moving(self, t: float, reach: float = 2.5) -> list[int]:
        """Right after a new board fit: tracks the first frame set moving jumped there because
        their old place was measured through the old fit; they rest where they were seen now
        (a disc really sliding at that instant is taken up again by its next move). One not
        seen on this frame, whose sightings since it left its rest place stayed within
        ``reach`` radii of it, rests there instead: its "motion" was the bump, and where it
        was forecast is the bump's course carried on (c2h_9502 at 12.3 s, fitted mid-bump: s2,
        read 5 then 13 mm off and unseen on the fit's frame, was laid 24 mm up the bump's way;
        its detection 7 mm from its place then started a second disc there, and s2 was
        called lifted by hand). Returns their ids."""
        out = []
        for tr in self.tracks:
            if tr.state == "moving":
                if tr.last_seen < t and tr.rest_xy is not None and self._bumped_only(tr, reach):
                    tr.xy = np.asarray(tr.rest_xy, float).copy()
                tr.state, tr.v, tr.displaced_frames, tr.rest_xy = "rest", np.zeros(2), 0, None
                tr.anchor, tr.anchor_n = tr.xy.copy(), 1
                tr.path = [Sample(t, float(tr.xy[0]), float(tr.xy[1]), True)]
                tr.rest_since = t
                out.append(tr.id)
        return out

    @staticmethod
    def _bumped_only(tr: Track, reach: float) -> bool:
        """Whether every sighting of ``tr`` since it came to rest at its rest place lies within
        ``reach`` radii of that place (``settle_moving``)."""
        assert tr.rest_xy is not None
        seen = [(s.x, s.y) for s in tr.path if s.measured and s.t >= tr.rest_since]
        if not seen:
            return True
        d = np.hypot(*(np.array(seen, float) - np.asarray(tr.rest_xy, float)).T)
        return bool(d.max() <= reach * tr.radius)

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
        hyps, gates = predict(self, rows, dt, t)
        cost = (hypothesis_cost(hyps, dets.xy, blows.stop_penalty(self, rows, hyps, dt))
                + penalties(rows, dets, self._striker_r, striker_rings(self, rows, dets, dt),
                            self._struck if self.cfg.struck_blur else ())
                + colour_penalty(rows, dets, self.cfg.colour_gate) + struck_penalty(self, rows, dets) + beyond_struck_penalty(self, rows, dets)
                + mover_on_rest_place(self, rows, dets, dt)
                + (rim_ghost_penalty(self, rows, dets) if self.cfg.rim_ghost_places else 0.0))
        pairs = assign(cost, gates)
        self._rescue_movers(rows, cost, gates, pairs, dt, t)
        used_t = {i for i, _ in pairs}
        used_d = {j for _, j in pairs}
        # Stage 2: wide gate for moving discs and discs that may just have been hit.
        movers = [tr for tr in live if tr.state == "moving"]
        cand = [i for i, tr in enumerate(rows)
                if i not in used_t and (tr.id not in self._ghosts or (self._ghosts_wide and may_seek(self, tr)))
                and may_jump(self, tr, movers, dt)]
        dcols = [j for j in range(len(dets)) if j not in used_d]
        if cand and dcols:
            # as far as the disc could have gone at its speed (a bounce may add some), never
            # further than the top speed allows
            # (a struck resting disc: around where the collision puts it, as far as half the
            # striking speed could carry it further within the frame or two since the blow)
            wide = np.array([
                2 * rows[i].radius + (max(t - rows[i].last_seen, dt) * min(self.cfg.v_max, 1.5 * rows[i].speed + 500.0)
                                      if rows[i].state == "moving"
                                      else struck_for(rows[i], t, dt, self._blow_start) * 0.5
                                      * jump_speed(self, rows[i], movers))
                for i in cand])
            cand, wide = blows.with_rows(self, rows, cand, wide, used_t)
            passed: np.ndarray | float = 0.0
            if self.cfg.korona_passed_on and isinstance(self.board, KoronaBoard):
                cand, wide, passed = passed_on(self, rows, cand, wide, dets, dcols, used_t)
            sub = (cost[np.ix_(cand, dcols)] + passed + backwards(self, rows, cand, dets, dcols)
                   + sideways(self, rows, cand, dets, dcols, cost, dt)
                   + (behind_blow(self, rows, cand, dets, dcols) if self._ghosts_wide else 0.0)
                   + (beyond_reach(self, rows, cand, dets, dcols, t, dt) if self.cfg.reach_from_sighting else 0.0))
            for a, b in assign(sub, wide):
                pairs.append((cand[a], dcols[b]))
                used_t.add(cand[a])
                used_d.add(dcols[b])
        blows.struck_by_newcomer(self, rows, dets, pairs, used_t, used_d, dt)
        blows.chain(self, rows, dets, cost, pairs, used_t, used_d, dt)
        blows.rows_shifted(self, rows, dets, cost, pairs, used_t, used_d)
        blows.least_displacement(self, rows, dets, pairs)
        row_order(self, rows, dets, pairs, used_t, used_d, dt)
        self._tent_det = {}
        for i, j in pairs:
            observe(self, rows[i], dets, j, t)
            if rows[i] in self._tentative:
                self._tent_det[id(rows[i])] = j
            else:
                self.det_track[j] = rows[i].id
        for i, tr in enumerate(rows):
            if i not in used_t:
                miss(self, tr, t, dt)
        for j in range(len(dets)):
            if j not in used_d:
                revived = revive(self, dets, j, t)
                if revived is None:
                    self._tentative.append(new_track(self, dets, j, t))
                else:
                    self.det_track[j] = revived.id
        promote(self, t, dt)
        if self.cfg.push_aside:
            pushed_aside(self, t)
        if not any(tr.state == "moving" for tr in self.tracks):
            self._blow_start = None
        elif self._blow_start is None:
            self._blow_start = t
        self._updates += 1
        if self._updates % 30 == 0:
            self._trim_finished_paths()
        return [tr for tr in self.tracks]

    def _rescue_movers(self, rows: list[Track], cost: np.ndarray, gates: np.ndarray,
                       pairs: list[tuple[int, int]], dt: float, t: float) -> None:
        """A known moving disc the first stage left unmatched takes back a detection that stage
        gave a tentative track (a detection or so, not yet a disc), when the detection lies
        within the disc's wide reach and much nearer where the disc was due than the tentative
        track's own place (0.6 of the distance; 0.48 on seed 7502). ``pairs`` is changed in place.

        A tentative track has no velocity, so its gate is wide (as far as a flying disc goes in
        a frame): one blurred detection throws a moving disc's velocity off, its next detection
        falls just outside its tight gate, and a false find in the blur the frame before takes
        it; the disc, missed, coasts off the board unseen and the false find becomes a new disc
        (rendered match, seed 7502, shot 3: the struck disc was called off the board). A struck
        disc's first detection away from its rest place is also a tentative track, and the disc
        that struck it is then matched in the first stage (it stands where it hit, or goes on
        as its collision forecast says), so the rescue does not take that from it. Crokinole
        only: a korona blow into a row at 10 fps sends several discs off at once, each first
        seen as a tentative track, and the nearest-first rescue took one of them from another
        mover (korona_4p_part at 27.5 s)."""
        held = {j: k for k, (i, j) in enumerate(pairs) if rows[i] in self._tentative}
        if not held or not isinstance(self.board, CrokinoleBoard):
            return
        matched = {i for i, _ in pairs}
        for i, tr in enumerate(rows):
            if i in matched or tr.state != "moving" or tr in self._tentative or not held:
                continue
            reach = 2 * tr.radius + max(t - tr.last_seen, dt) * min(self.cfg.v_max, 1.5 * tr.speed + 500.0)
            best = min(held, key=lambda j: cost[i, j])
            k = held[best]
            if cost[i, best] <= reach and cost[i, best] < 0.6 * cost[pairs[k][0], best]:
                pairs[k] = (i, best)
                matched.add(i)
                del held[best]

    def _trim_finished_paths(self, keep: int = 64) -> None:
        """Tracks no longer in play (in the hole, a pocket, the ditch, off, lifted) keep only
        their last few samples: a long live match must not grow with every disc ever shot."""
        for tr in self.tracks:
            if tr.state not in ("rest", "moving") and len(tr.path) > keep:
                del tr.path[:-keep]
