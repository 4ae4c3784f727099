"""Cutting the stream of tracks into shots, frame by frame.

A shot starts when a disc on the surface starts moving and ends when every disc has been at rest
(or in the hole, a pocket, the ditch) for ``settle`` seconds. Then the motion is judged
(:func:`tracker.infer.judge.judge`):

* the shot disc is the first disc that moved;
* it is a shot only if that disc was flicked (peak speed above ``shot_speed``) from where a shot
  may start (crokinole: near the shooting line; korona: the striker, from behind the middle of
  the board) — otherwise it was a hand straightening or carrying a disc, and no shot is logged;
* every disc that moved gets its end: a rest place, ``hole``, ``pocket:xx``, ``off``, ``lifted``;
  korona: a rim disc the shot may have knocked away unseen is waited for a moment first
  (``rim_wait``, :mod:`tracker.infer.rim_gone`): the detector may only have lost it.

Between shots the segmenter reports the hands' work: discs lifted away and discs put down.

Shots nobody saw moving (a fast disc blurred out of every frame at 10 fps, a missed detection):
the shot disc vanishes from where shots start and turns up elsewhere as a new track, at rest, in
the hole or the ditch, with no moving track linking the two. The motion seen (discs it struck)
would otherwise be judged on its own and rejected (or, worse, a struck disc taken for the shot
disc). So when no disc was seen flicked from where shots start, the segmenter looks at the rest
states instead (:func:`tracker.infer.unseen.unseen_shot`): a disc that vanished from where shots start
during the episode is the shot disc, and a new track of its kind that appeared during the
episode, away from where shots start, is where it went (a ``link``). A new disc appearing at
rest away from the shooting places while one vanished from them starts such an episode even
when nothing was seen moving at all. A hand straightening a disc moves it slowly and nothing
vanishes; a hand taking a disc away leaves no new track; a hand putting a disc down puts it where
shots start (or it is one the rules asked for): none of these read as a shot.
Design: the segmenter never looks at pixels, only at :class:`tracker.track.Track` objects, so it
is tested on synthetic tracks and reused by ``review`` and ``live`` alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.boards.korona import ON_LINE_MM
from tracker.detect.datatypes import STRIKER
from tracker.infer.datatypes import HandEvent, ShotRecord
from tracker.infer.ends import seen_seldom, still_between
from tracker.infer.judge import judge
from tracker.infer.pocket_glimpse import glimpsed_pockets
from tracker.infer.rim_gone import rim_unseen
from tracker.infer.start_places import at_start_place
from tracker.infer.striker_motion import flight_unseen_pending, jitters, shooting_seat
from tracker.infer.struck_pending import knocked_unseen_pending, lost_struck_pending, turned_up
from tracker.track.datatypes import Track
from tracker.track.tracker import TrackerConfig

# mm from its rest place that counts as a disc moving (the tracker's own)
MOVE_MM = TrackerConfig.move_mm

# An episode judged no shot was the hands' work: a disc first found at rest during it is told as
# put down once it closes (``_close`` keeps the states known before it), not taken in silently.
# korona_ru_part at 35.3 s: the penalty pawn the rules asked for was put down while a hand moved
# south's striker; the episode was no shot, the pawn never took its name, and the next shot,
# which struck it, was called a foul (it touched no own pawn). Korona only (crokinole's lifts are
# news, ``pipeline.hands``: not measured there). False: off (states rebuilt).
HANDS_AFTER_NO_SHOT = True


class ShotSegmenter:
    def __init__(
        self,
        board: CrokinoleBoard | KoronaBoard,
        # Seconds every disc must stay at rest before the shot is closed (on top of the tracker's
        # own rest_time). Short, so the live score follows the last disc stopping within about
        # 0.3 s; 0.15 and 0.4 gave identical results on every fixture (bench_review).
        settle: float = 0.15,
        shot_speed: float = 350.0,
        # Seconds before a disc turned up unseen in which the shot disc may have vanished from
        # where shots start (a shot crosses a board in well under a second).
        unseen_window: float = 1.5,
        # Korona: seconds of quiet a shot waits, before it is judged, for a rim disc it may have
        # knocked away unseen to be seen again in place (``rim_gone.rim_unseen``): the detector finds
        # rows against the rim on full passes only, and runs one once the board has settled
        # (``pipeline.SETTLE_S``, 0.3 s, after the last motion; k2e_9905 at 4.4 s: 0.43 s).
        rim_wait: float = 1.0,
    ) -> None:
        self.board = board
        self.settle = settle
        self.shot_speed = shot_speed
        self.unseen_window = unseen_window
        self.rim_wait = rim_wait
        self._held_at: float | None = None  # when the shot would have closed but for ``rim_wait``
        self._lost_wait: float | None = None  # ... but for a struck disc lost at rest (``struck_pending``)
        self.in_shot = False
        self._t0 = 0.0
        self._f0 = 0
        self._quiet_since: float | None = None
        self._closed = float("-inf")  # when the last episode was closed (judged or abandoned)
        self._before: dict[int, tuple[float, float]] = {}
        self._before_state: dict[int, str] = {}
        self._moved: set[int] = set()
        # movers seen down in the 20-hole during the episode: one the tracker has since called
        # taken out (unseen there for its ``hole_gone``) still ended the shot in the hole (``judge``)
        self._sunk: set[int] = set()
        # korona: detections no track took in a pocket's mouth during the episode, rows t, x, y
        # (kept by the pipeline: ``pocket_glimpse``)
        self.glimpses: list[tuple[float, float, float]] = []
        self._known: dict[int, str] = {}  # last reported state per track (for hand events)
        self._shot_before: set[int] = set()
        # korona: where the last shot judged left each striker it moved, with that shot's seat for
        # its own striker (None for another it struck): ``judge.left_there``,
        # ``striker_motion.left_by_another``
        self.left_by: dict[int, tuple[str | None, tuple[float, float]]] = {}
        # motions that were not shots, with the reason (for debugging; the last 100)
        self.rejected: list[tuple[float, str]] = []
        self._shot_spans: list[tuple[float, float]] = []  # (start, end) of the last shots logged
        self.t = 0.0
        # after ``abandon``: until then, discs first confirmed at rest are not "placed" (s)
        self._quiet_known_until = float("-inf")
        self.refit_grace = 0.5
        # a test for tracks that are no disc (a false find of the detector: a painted number),
        # set by the pipeline to ``Namer.looks_like_board``; such a track never is the shot disc
        # of a shot nobody saw (seed 7508: a painted mark on the north shooting line, gone from
        # view as a hand passed, made a shot)
        self.unlike_a_disc: Callable[[Track], bool] = lambda tr: False
        # korona: a test for striker tracks that are no striker (a false find: the board's wood
        # by a striking line, a pale rim disc), set by the pipeline to ``StrikerLook.unlike``;
        # such a track never is the shot disc of a shot nobody saw (k4h_9942 at 7.8 s)
        self.unlike_a_striker: Callable[[Track], bool] = lambda tr: False
        # the seats in play and whose shot the rules expect next (None: not known), set by the
        # pipeline: a korona striker first seen in flight left the line of a seat in play, whose
        # turn it was (``judge``: one first seen coming back off a far rim runs back to that line)
        self.seats: tuple[str, ...] = ("south", "west", "north", "east")
        self.next_seat: Callable[[], str | None] = lambda: None

    # ------------------------------------------------------------------ per frame
    def update(self, tracks: Sequence[Track], t: float, frame: int) -> tuple[list[ShotRecord], list[HandEvent]]:
        self.t = t
        shots: list[ShotRecord] = []
        hands: list[HandEvent] = []
        moving = [tr for tr in tracks if tr.state == "moving"]
        if not self.in_shot:
            # (first seen already in the hole: no hand puts a disc there. The ditch is where hands
            # put removed discs: c4h_9303 at 14.7 s, a disc a hand laid in the ditch while one
            # was taken off the line became a false shot and a foul)
            sunk = [tr.id for tr in tracks if tr.state == "hole" and tr.id not in self._known]
            hands = self._hand_events(tracks, t, frame)
            # (korona: a striker a hand set on its striking line is measured up to ``ON_LINE_MM``
            # past it: no disc landing away from the shooting places, korona_2p_game at 68.9 s)
            # nor, korona, a "disc" a hand set where a striker waits: the striker put down and
            # seen as the ring of its groove (k2e_9605 at 35.07 s, with ``striker_rings``: south's
            # striker set on its line read as where north's striker, carried off, went unseen)
            landed = [h.track for h in hands if h.kind == "placed" and h.fresh
                      and not at_start_place(self.board, h.at, by_id(tracks, h.track), on_line=ON_LINE_MM)
                      and not (isinstance(self.board, KoronaBoard) and self.board.striker_waits(*h.at, ON_LINE_MM))] + sunk
            gone = self._vanished(tracks, t - self.unseen_window, t) if landed and not moving else []
            if gone:
                # a disc turned up at rest away from the shooting places, or in the hole, while
                # one vanished from them, nothing seen moving: a shot nobody saw
                # (judged once all is quiet). c4h_9403 at 5.2 s: w1, flicked from the west
                # line, was seen once in flight (a lone detection, no track) and next in the
                # hole; the 20 was missed.
                self.in_shot = True
                self._t0 = min(tr.last_seen for tr in gone)
                self._f0 = frame
                self._quiet_since = t
                self._moved = set(landed)
                self.glimpses = []
                self._sunk = {i for i in self._moved if (tr := by_id(tracks, i)) is not None and tr.state == "hole"}
                self._before = {tr.id: self._prev_rest(tr) for tr in tracks if tr.state in ("rest", "moving")
                                and tr.id not in self._moved}
                self._before_state = {tr.id: tr.state for tr in tracks}
                return shots, hands
            if moving:
                self.in_shot = True
                # (never before the last episode closed: a disc hidden through it and seen
                # again displaced has its last sample from before it, and the episode reaching
                # back over the last shot took that shot's striker run for its own flick:
                # korona_2p_game at 9.0 s, a rim disc uncovered 20 mm along made a shot)
                self._t0 = max(min(self._rest_end(tr) for tr in moving), self._closed)
                self._f0 = frame
                self._quiet_since = None
                # (and discs first seen since: a disc already down a pocket when the striker shows)
                self._moved = {tr.id for tr in moving} | {tr.id for tr in tracks if tr.born >= self._t0
                                                         and tr.state != "lifted"}
                self._sunk = set()
                self.glimpses = []
                # where every disc rested before (the movers' anchors were reset when they moved);
                # crokinole: not a disc first found at rest since the motion began (it rested
                # nowhere before it: a find the shot's arm left, which the namer then adopted as
                # a disc the shot struck, and logged a shot of its own, crokinole_2p_round at
                # 55.9 s on the replayed detections of an earlier detector)
                fresh = isinstance(self.board, CrokinoleBoard)
                self._before = {tr.id: self._prev_rest(tr) for tr in tracks if tr.state == "moving"
                                or (tr.state == "rest" and not (fresh and tr.born >= self._t0 - 1e-6))}
                self._before_state = {tr.id: tr.state for tr in tracks}
            return shots, hands
        # settled, waiting for a rim disc to show again (``rim_wait``): a new motion ends the
        # wait (the shot is judged as it stood), and discs first found now (the detector's full
        # pass: other rows it had lost) were not moved by the shot
        waiting = self._held_at is not None
        # (korona: a striker at rest that the tracker calls moving while its sightings only
        # scatter about its place is no motion: ``striker_motion.jitters``)
        stirring = [tr for tr in moving if not jitters(self.board, tr, t)]
        if waiting and stirring:
            moving = stirring
            # (the discs now moving that stood still through the episode until the wait began
            # start the next one: k4h_9806 at 22.6 s, south's striker, set down during the
            # wait and flicked as it ran out, was judged in the last episode and logged twice).
            # Still: its sightings within half its radius (a striker set down as the episode
            # began is measured a few mm apart as the hand leaves it, and the tracker may call it
            # moving: k4h_9966 at 7.8 s, west's striker, 4 mm, was logged twice; a shot's
            # striker runs hundreds of mm)
            held = float(self._held_at)  # type: ignore[arg-type]
            self._moved -= {tr.id for tr in moving
                            if still_between(tr, self._t0, held, max(MOVE_MM, 0.5 * tr.radius))}
            return self._close(tracks, t, frame), hands
        self._moved |= {tr.id for tr in moving}
        for tr in tracks:  # discs that changed state without being seen moving (dropped in)
            if tr.id in self._before_state and tr.state != self._before_state[tr.id] and tr.state != "lifted":
                self._moved.add(tr.id)
            if tr.id not in self._before_state and tr.born >= self._t0 and tr.state != "lifted" and not waiting:
                self._moved.add(tr.id)
            if tr.state == "hole" and tr.id in self._moved:
                self._sunk.add(tr.id)
        if stirring:
            self._quiet_since = None
            return shots, hands
        if self._quiet_since is None:
            self._quiet_since = t
        if t - self._quiet_since < self.settle or knocked_unseen_pending(self, tracks, t) \
                or flight_unseen_pending(self, tracks, t):
            return shots, hands
        if lost_struck_pending(self, tracks, t):  # (``struck_pending``)
            self._lost_wait = self._lost_wait if self._lost_wait is not None else t
            return shots, hands
        if self._lost_wait is not None:  # (the shot ended when the last disc found since turned up)
            self._lost_wait = max(self._lost_wait, turned_up(self, tracks, self._lost_wait) or self._lost_wait)
        if t - self._quiet_since < self.rim_wait and rim_unseen(self.board, tracks, self._before, self._moved,
                                                                self._t0):
            self._held_at = self._held_at if self._held_at is not None else t
            return shots, hands
        return self._close(tracks, t, frame), hands

    def _close(self, tracks: Sequence[Track], t: float, frame: int) -> list[ShotRecord]:
        """End the episode and judge it: the shot, if it was one."""
        self.in_shot = False
        self._closed = t
        record = self._judge(tracks, t, frame)
        self._held_at = self._lost_wait = None
        # (rebuilt, not updated: tracks the tracker has forgotten leave no trace here)
        if record is None and HANDS_AFTER_NO_SHOT and isinstance(self.board, KoronaBoard):
            alive = {tr.id for tr in tracks}
            self._known = {k: v for k, v in self._known.items() if k in alive}
        else:
            self._known = {tr.id: tr.state for tr in tracks}
        self._shot_before &= {tr.id for tr in tracks}
        del self.rejected[:-100]
        if record is None:
            return []
        self._shot_spans = [*self._shot_spans[-9:], (self._t0, t)]
        self._note_left(record, tracks)
        return [record]

    def _note_left(self, record: ShotRecord, tracks: Sequence[Track]) -> None:
        """Korona: where ``record`` left each striker it moved (``left_by``), with the seat of the
        shot for its own (None when that is not known, or for another it struck)."""
        kinds = {tr.id: tr.kind for tr in tracks}
        seat = shooting_seat(self, record.start)
        for i, end in record.ends.items():
            if not isinstance(end, tuple):
                continue
            at = (float(end[0]), float(end[1]))
            if i == record.disc and seat is not None:
                self.left_by[i] = (seat, at)
            elif kinds.get(i) == STRIKER:
                self.left_by[i] = (None, at)

    def abandon(self, tracks: Sequence[Track], t: float, why: str) -> None:
        """Drop the episode in progress, unjudged (the camera moved: the motion seen since was
        the picture shifting under the old board fit, not discs); the states now are the new
        starting point, so nothing in them reads as a hand's work either."""
        if self.in_shot:
            self.rejected.append((t, why))
        # discs the new fit's detector confirms in the next moments were there all along (or
        # are its first false finds): no hand put them down
        self.in_shot = False
        self._closed = t
        self._quiet_since = None
        self._held_at = self._lost_wait = None
        self._moved = set()
        self._known = {tr.id: tr.state for tr in tracks}
        self._quiet_known_until = t + self.refit_grace

    def flush(self, tracks: Sequence[Track], t: float, frame: int) -> list[ShotRecord]:
        """The input ended: close a shot still in progress (discs still moving end where seen)."""
        if not self.in_shot:
            return []
        self.in_shot = False
        self.t = t + self.settle
        record = self._judge(tracks, t + self.settle, frame)
        self._held_at = self._lost_wait = None
        return [record] if record is not None else []

    def _judge(self, tracks: Sequence[Track], t: float, frame: int) -> ShotRecord | None:
        """The episode judged (``judge``), with the rim discs its rows pushed down a pocket
        glimpsed in their mouth (korona: ``pocket_glimpse``)."""
        record = judge(self, tracks, t, frame)
        if record is None:
            return None
        down = glimpsed_pockets(self.board, tracks, record.ends, record.disc, self._before, self._moved, self._t0,
                                self.glimpses)
        return replace(record, ends={**record.ends, **down}) if down else record

    # ------------------------------------------------------------------ helpers
    def _prev_rest(self, tr: Track) -> tuple[float, float]:
        """Where a disc rested before the current motion."""
        if tr.state == "rest" or tr.rest_xy is None:
            return tr.position()
        return tr.rest_xy

    def _rest_end(self, tr: Track) -> float:
        """When a disc just seen moving was last seen at rest: its sighting before the latest;
        crokinole, its last sighting within half a radius of its rest place, if no more than
        ``unseen_window`` before its first sighting away from it. A disc may be seen twice on its way
        before it is set moving (a lone detection in flight joined to it when it was next
        found): c4h_9703 at 5.8 s, w1 flicked from the west line at 5.33 s, unseen until 5.83
        and 5.9 s near the hole; the episode began at 5.83, its path left out the rest place,
        and the flick read as a 226 mm/s hand's nudge (a 20 lost)."""
        samples = [s for s in tr.path if s.measured]
        if len(samples) < 2:
            return tr.born
        if isinstance(self.board, CrokinoleBoard) and tr.rest_xy is not None:
            rx, ry = tr.rest_xy
            at = [k for k, s in enumerate(samples) if float(np.hypot(s.x - rx, s.y - ry)) <= 0.5 * tr.radius]
            if at and at[-1] < len(samples) - 1 and samples[at[-1] + 1].t - samples[at[-1]].t <= self.unseen_window:
                return samples[at[-1]].t
        return samples[-2].t

    def _hand_events(self, tracks: Sequence[Track], t: float, frame: int) -> list[HandEvent]:
        out: list[HandEvent] = []
        for tr in tracks:
            old = self._known.get(tr.id)
            if tr.state == old:
                continue
            if tr.state == "lifted" and old is not None:
                where = "surface" if old in ("rest", "moving") else old
                # last seen while a shot was played: no hand lifts a disc then (the detector
                # lost it, or it was knocked away unseen): not the hands' work
                in_shot = any(lo - 0.05 <= tr.last_seen <= hi for lo, hi in self._shot_spans)
                # (crokinole: nor one the detector saw at its place only now and then: ``seen_seldom``)
                seldom = isinstance(self.board, CrokinoleBoard) and old == "rest" and seen_seldom(tr)
                kind = "lost" if where == "surface" and (in_shot or seldom) else "lifted"
                out.append(HandEvent(kind, t, frame, tr.id, tr.position(), where))
            elif tr.state == "rest" and old is None and t <= self._quiet_known_until:
                pass  # just after a new board fit (``abandon``)
            elif tr.state == "rest" and old in (None, "lifted"):
                out.append(HandEvent("placed", t, frame, tr.id, tr.position(), fresh=old is None))
            self._known[tr.id] = tr.state
        return out

    def _end_time(self, t: float) -> float:
        """When the shot ended: ``settle`` before it would have closed but for the wait for rim
        discs (``rim_wait``), or for a struck disc lost at rest (``struck_pending``; or when the
        last disc that turned up during that wait did)."""
        if self._held_at is not None:
            return self._held_at - self.settle
        return (self._lost_wait if self._lost_wait is not None else t) - self.settle

    # ------------------------------------------------------------------ shots nobody saw
    def _vanished(self, tracks: Sequence[Track], since: float, until: float, as_disc: bool = False) -> list[Track]:
        """Discs that rested where shots start and stopped being seen between ``since`` and
        ``until`` (covered or lifted since): shot discs whose flight nobody saw."""
        out = []
        for tr in tracks:
            if not ((tr.state == "rest" and tr.occluded) or tr.state == "lifted"):
                continue
            if not since <= tr.last_seen <= until or tr.id in self._shot_before or self.unlike_a_disc(tr) \
                    or self.unlike_a_striker(tr):
                continue
            at = tr.rest_xy if tr.state == "lifted" and tr.rest_xy is not None else tr.position()
            if tr.anchor_n:
                at = (float(tr.anchor[0]), float(tr.anchor[1]))
            # seen at rest for 3 detections over 0.1 s: a disc held under the player's fingers is
            # seen only in the moment they shift (triple.mp4: 4 frames at 25 fps, 0.12 s)
            # korona, ``as_disc``: a "disc" resting where a striker waits instead (the striker
            # read as its groove, whose ring is disc-sized)
            if as_disc:
                waits = isinstance(self.board, KoronaBoard) and tr.kind != STRIKER and self.board.striker_waits(*at)
            else:  # a korona striker set on its striking line (its centre on the line,
                # measured a mm or two either side: k4h_9506 at 7.2 s, south's striker read
                # 0.9 mm past the line, unseen in flight, made no shot); not one that came to
                # rest there in this episode (a shot's striker stopped by a line is no striker
                # waiting to be shot)
                waits = at_start_place(self.board, at, tr, on_line=0.0 if tr.id in self._moved else ON_LINE_MM)
            if waits and tr.last_seen - tr.born >= 0.1 and tr.hits >= 3:
                out.append(tr)
        return out


def by_id(tracks: Sequence[Track], track_id: int) -> Track | None:
    return next((tr for tr in tracks if tr.id == track_id), None)
