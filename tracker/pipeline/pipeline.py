"""The video pipeline, one frame at a time: calibration -> detection -> tracking -> events ->
rules -> outputs. ``review`` drives it from a file; ``live`` will drive it from a camera.

Design decisions:

* Incremental. ``process(frame, t, index)`` does one frame's work and returns what changed (new
  events, new shot-log entries); nothing needs the whole video. The only look-ahead is the
  calibration buffer: the first ``calib_frames`` frames are held back, the board is fitted on
  their median (hands move, the board does not), then they are processed in order.
* The rules engine is the referee. Vision writes only observations into the shot log (SPEC 4b);
  removals, 20s and scores are the engine's decisions, turned into events by
  :func:`tracker.rules.outcome_events`. The engine's actions close the loop: discs it said must
  be lifted out are checked against what the hands did, and korona discs it says go back are
  announced to the tracker so they keep their identity.
* Camera bumps: a :class:`DriftMonitor` checks the board every ``drift_every`` seconds; when it
  moved, the board is fitted again and a new ``calibrated`` event is written. Tracks live in
  millimetres, so they carry across.
* Still frames are cheap: when the picture did not change since the last detected frame (a
  small grey thumbnail, compared in a fraction of a millisecond) and nothing is moving, the last
  detections are reused; the detector runs when something moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tracker import events as ev
from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration import Calibration
from tracker.detect.datatypes import Detections
from tracker.errors import CalibrationError
from tracker.infer import HandEvent, Namer, ShotRecord, ShotSegmenter
from tracker.pipeline.stillness import StillnessGate
from tracker.rules import engine_for, outcome_events, shot_flags
from tracker.rules.datatypes import Outcome
from tracker.shotlog import Entry, Shot
from tracker.track import Track, Tracker


@dataclass
class FrameResult:
    index: int
    t: float
    tracks: list[Track] = field(default_factory=list)
    detections: Detections | None = None
    events: list[ev.Event] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    detected: bool = True  # False when the stillness gate reused the last detections


class Pipeline:
    def __init__(
        self,
        game: str,
        players: int,
        *,
        calib: Calibration | None = None,
        board: CrokinoleBoard | KoronaBoard | None = None,
        south: str | None = None,
        rules: dict[str, Any] | None = None,
        calib_frames: int = 9,
        drift_every: float = 1.0,
        fps: float = 30.0,
        on_frame: Callable[[np.ndarray, FrameResult], None] | None = None,
    ) -> None:
        if game not in ("crokinole", "korona"):
            raise ValueError(f"game must be crokinole or korona, got {game!r}")
        self.game = game
        self.players = players
        self.board_hint = board
        self.south = south
        self.fps = fps
        self.calib_frames = calib_frames
        self.drift_every = drift_every
        self.on_frame = on_frame
        self.engine = engine_for(game, players, **(rules or {}))
        self.events: list[ev.Event] = []
        self.entries: list[Entry] = []
        self.outcomes: list[Outcome] = []
        self.warnings: list[str] = []
        self.calib: Calibration | None = None
        self.calibration_error: str | None = None
        self._buffer: list[tuple[int, float, np.ndarray]] = []
        self._pending_lift: dict[int, str] = {}  # track id -> reason the rules gave
        self._round_over = False
        self._need_setup = game == "korona"
        self._last_drift_t = 0.0
        self._last_dets = Detections.empty()
        self.frames_seen = 0
        self.frames_detected = 0
        if calib is not None:
            self._start(calib, 0.0, 0)

    # ------------------------------------------------------------------ calibration
    def _start(self, calib: Calibration, t: float, index: int) -> None:
        from tracker.detect import DiscDetector

        if calib.board.game != self.game:
            raise CalibrationError(f"the calibration is for a {calib.board.game} board, not {self.game}")
        first = self.calib is None
        self.calib = calib
        self.board = calib.board
        self.detector = DiscDetector(calib, self.game)
        if first:
            self.tracker = Tracker(self.board)
            self.segmenter = ShotSegmenter(self.board)
            self.namer = Namer(self.game, self.players, self.board)
        else:
            self.tracker.board = self.board
        self.gate = StillnessGate()
        self.drift = None
        self.events.append(ev.calibrated(t, index, calib.homography.tolist(), round(float(calib.rms_mm), 3)))

    def _try_calibrate(self) -> bool:
        from tracker.calibration import calibrate_image

        frames = [f for _, _, f in self._buffer]
        median = np.median(np.stack(frames[:: max(1, len(frames) // 5)]), axis=0).astype(np.uint8)
        idx, t = self._buffer[0][0], self._buffer[0][1]
        for img in (median, frames[-1]):
            try:
                calib = calibrate_image(img, self.game, board=self.board_hint, south=self.south)
            except CalibrationError as e:
                self.calibration_error = str(e)
                continue
            self._start(calib, t, idx)
            self._reference = img
            self._set_drift(img)
            if self.game == "crokinole" or True:
                self.detector.set_background(img) if self._empty_enough(img) else None
            return True
        return False

    def _empty_enough(self, img: np.ndarray) -> bool:
        """Use the calibration frame as the streak background only when no disc is on it."""
        return len(self.detector.detect(img)) == 0

    def _set_drift(self, img: np.ndarray) -> None:
        from tracker.calibration import DriftMonitor

        assert self.calib is not None
        try:
            self.drift = DriftMonitor(self.calib, img)
        except Exception:  # a monitor is a nicety; never fail the review for it
            self.drift = None

    def _check_drift(self, frame: np.ndarray, t: float, index: int) -> None:
        if self.drift is None or t - self._last_drift_t < self.drift_every:
            return
        self._last_drift_t = t
        if self.segmenter.in_shot:
            return
        report = self.drift.check(frame)
        if not getattr(report, "drifted", False):
            return
        from tracker.calibration import calibrate_image

        try:
            calib = calibrate_image(frame, self.game, board=self.board_hint, south=self.south)
        except CalibrationError:
            return  # a hand over the board: try again at the next check
        self._start(calib, t, index)
        self._set_drift(frame)
        self.warnings.append(f"camera moved at t = {t:.2f} s: board fitted again")

    # ------------------------------------------------------------------ per frame
    def process(self, frame: np.ndarray, t: float, index: int) -> list[FrameResult]:
        """Feed one frame; returns the results of the frames processed now (the calibration
        buffer holds the first frames back, then releases them all at once)."""
        self.frames_seen += 1
        if self.calib is None:
            self._buffer.append((index, t, frame))
            if len(self._buffer) < self.calib_frames:
                return []
            if not self._try_calibrate():
                self._buffer = self._buffer[len(self._buffer) // 2:]  # slide on: try later frames
                return []
            held, self._buffer = self._buffer, []
            return [self._step(f, tt, i) for i, tt, f in held]
        return [self._step(frame, t, index)]

    def _step(self, frame: np.ndarray, t: float, index: int) -> FrameResult:
        self._check_drift(frame, t, index)
        moving = any(tr.state == "moving" for tr in self.tracker.tracks) or bool(self.tracker._tentative)
        detected = True
        if not moving and self.gate.still(frame):
            dets = self._last_dets
            detected = False
        else:
            dets = self.detector.detect(frame)
            self.gate.remember(frame)
            self.frames_detected += 1
        self._last_dets = dets
        tracks = self.tracker.update(dets, t)
        res = FrameResult(index, t, tracks, dets, detected=detected)
        shots, hands = self.segmenter.update(tracks, t, index)
        for h in hands:
            self._hand(h, res)
        for rec in shots:
            self._shot(rec, res)
        if self.on_frame is not None:
            self.on_frame(frame, res)
        return res

    # ------------------------------------------------------------------ events and rules
    def _hand(self, h: HandEvent, res: FrameResult) -> None:
        if h.kind != "lifted":
            return
        if h.track in self._pending_lift:
            self._pending_lift.pop(h.track)
            return
        if h.where == "surface" and not self._round_over and h.track in self.namer.names:
            e = ev.removed(h.t, h.frame, self.namer.name(h.track), "by_hand", expected=False)
            self._emit(e, res)

    def _apply(self, entry: Entry, res: FrameResult, t: float, frame: int) -> Outcome:
        out = self.engine.apply(entry)
        self.entries.append(entry)
        self.outcomes.append(out)
        res.entries.append(entry)
        res.outcomes.append(out)
        return out

    def _shot(self, rec: ShotRecord, res: FrameResult) -> None:
        tracks = {tr.id: tr for tr in self.tracker.tracks}
        for tid, reason in list(self._pending_lift.items()):
            tr = tracks.get(tid)
            if tr is not None and tr.alive:
                self._emit(ev.Event("not_removed", rec.t_start, rec.frame_start,
                                    {"disc": self.namer.name(tid), "reason": reason}), res)
                self.warnings.append(f"t = {rec.t_start:.2f} s: {self.namer.name(tid)} was not removed ({reason})")
        self._pending_lift.clear()
        self._round_over = False
        if self._need_setup:
            self._classify_colours(tracks, rec)
            setup = self.namer.setup(tracks, {k: v for k, v in rec.before.items() if k in tracks}, rec.disc)
            self._apply(setup, res, rec.t_start, rec.frame_start)
            self._need_setup = False
        expected = self.outcomes[-1].next_seat if self.outcomes else None
        shot = self.namer.shot(rec, tracks, expected)
        for c in rec.contacts:
            a, b = shot_name(self.namer, shot, c.a), shot_name(self.namer, shot, c.b)
            self._emit(ev.collision(c.t, self._frame_of(c.t), a, b), res)
        out = self._apply(shot, res, rec.t_end, rec.frame_end)
        hit, foul = shot_flags(out)
        self._emit(ev.shot(rec.t_end, rec.frame_end, shot.seat, shot.disc, round(rec.t_start, 3),
                           round(rec.t_end, 3), hit, foul), res)
        for name, end in shot.end.items():
            if end == "off":
                self._emit(ev.off_board(rec.t_end, rec.frame_end, name), res)
            elif isinstance(end, str) and end.startswith("pocket:"):
                self._emit(ev.pocketed(rec.t_end, rec.frame_end, name, self._owner(name, shot), end[7:]), res)
        for e in outcome_events(out, rec.t_end, rec.frame_end):
            self._emit(e, res)
        ids = {v: k for k, v in self.namer.names.items()}
        for act in out.actions:
            tid = ids.get(act.disc)
            if tid is None:
                continue
            if act.kind == "lift_out":
                self._pending_lift[tid] = act.reason
            elif act.at is not None and act.kind.startswith("place"):
                self.tracker.expect(tid, act.at)
        if out.round_over or out.game_over:
            self._round_over = True
            if self.game == "korona":
                self._need_setup = True

    def _owner(self, name: str, shot: Shot) -> str:
        if name in self.namer.strikers.values():
            return shot.seat
        return {"s": "south", "w": "west", "n": "north", "e": "east"}.get(name[:1], shot.seat)

    def _classify_colours(self, tracks: dict[int, Track], rec: ShotRecord) -> None:
        """Korona: learn the players' disc colours from the discs at rest before the first shot."""
        from tracker.detect.color import ColorModel

        discs = [tracks[k] for k in rec.before if k in tracks and tracks[k].kind == 0 and tracks[k].color_n]
        k = min(self.players, len(discs))
        if k < 2:
            return
        model = ColorModel.fit(np.array([d.color for d in discs]), k=k)
        for d, c in zip(discs, model.predict(np.array([d.color for d in discs])), strict=True):
            d.cls_votes, d.cls = {}, int(c)

    def _frame_of(self, t: float) -> int:
        return int(round(t * self.fps))

    def _emit(self, e: ev.Event, res: FrameResult) -> None:
        self.events.append(e)
        res.events.append(e)

    # ------------------------------------------------------------------ end
    def finish(self) -> None:
        """End of the input: calibrate what is buffered if not done yet (or say why not)."""
        if self.calib is None:
            if self._buffer and self._try_calibrate():
                held, self._buffer = self._buffer, []
                for i, tt, f in held:
                    self._step(f, tt, i)
                return
            why = self.calibration_error or "no frames"
            raise CalibrationError(f"no {self.game} board found ({why})")

    def summary(self) -> dict[str, Any]:
        return self.engine.summary()

    def sorted_events(self) -> list[ev.Event]:
        return sorted(self.events, key=lambda e: e.t)


def shot_name(namer: Namer, shot: Shot, who: int | str) -> str:
    if isinstance(who, str):
        return who
    if namer.game == "korona" and who not in namer.names:
        return shot.disc
    return namer.name(who)
