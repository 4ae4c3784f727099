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
  millimetres, so they carry across; but until the bump was noticed the discs were measured
  through the old fit, a few mm off, so on the first frame of a new fit the resting tracks take
  the nearest new detections as their places (``Tracker.rebase``), whatever that frame set
  moving rests where it is, and the episode in progress is dropped (``ShotSegmenter.abandon``):
  the correction is not a shot's motion. (The fitting and the watching are in ``camera.py``.)
* Still frames are cheap: when the picture did not change since the last detected frame (a
  small grey thumbnail, compared in a fraction of a millisecond) and nothing is moving, the last
  detections are reused; the detector runs when something moves, incrementally (only where its
  view changed). Once the board has settled after motion, one full pass
  (``stillness.Settling``) finds what was set down unseen; the detector keeps every disc whose
  place did not change, so that pass only adds. The gate's other tests and the detector's
  noise filter are switched per game in ``settings.py``.
* At >= 30 fps, a moving frame may go without detection or tracking when no two discs can
  change places before the next look (``stride.py``; ``skip_moving``, off by default).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tracker import events as ev
from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration import Calibration, DriftMonitor
from tracker.detect.datatypes import Detections
from tracker.errors import CalibrationError, TrackerError
from tracker.infer import HandEvent, Namer, ShotRecord, ShotSegmenter, pocket_glimpse
from tracker.infer.striker_look import StrikerLook
from tracker.pipeline import camera, hands, referee, rest_places, rest_search, resume
from tracker.pipeline.board_gate import board_test
from tracker.pipeline.players_ruling import DoubtfulFoul
from tracker.pipeline.settings import (
    ADAPTIVE_GATE,
    BLOCK_GATE,
    BOARD_GATE,
    CHANGE_NOISE,
    FRAME_PASSES,
    NOISE_HOLDS,
    SETTLE_S,
    SKIP_MOVING,
)
from tracker.pipeline.stillness import FullPasses, Settling, StillnessGate
from tracker.pipeline.stride import StrideGate
from tracker.pipeline.threads import limit_blas_threads
from tracker.pipeline.withdraw import withdraw
from tracker.rules import engine_for
from tracker.rules.datatypes import Outcome
from tracker.shotlog import Entry
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
    skip_moving = SKIP_MOVING  # (``settings.py``: "off", "safe", "blind", "odd", "even")
    # The stillness gate's threshold follows the picture's noise (``stillness.py``): True, False,
    # or None for the game's own (``ADAPTIVE_GATE``).
    adaptive_gate: bool | None = None
    # The gate's block test (``stillness.py``): True, False, or None for the game's own (``BLOCK_GATE``).
    block_gate: bool | None = None
    # The gate's board test (``board_gate.py``): True, False, or None for the game's own (``BOARD_GATE``).
    board_gate: bool | None = None
    frame_passes = FRAME_PASSES  # (``settings.py``)
    # The detector's change mask without the parts that do not stand out of the picture's noise
    # (``detect/change_noise.py``): that many standard deviations, or None for the game's own
    # (``CHANGE_NOISE``).
    change_noise: float | None = None
    # OpenBLAS's threads for the whole process, set when a pipeline is made (``threads.py``: the
    # matrices are small, the threads cost more than they give); None leaves them as they are.
    blas_threads: int | None = 1

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
        drift_in_shot: float = 0.25,
        fps: float = 30.0,
        on_frame: Callable[[np.ndarray, FrameResult], None] | None = None,
    ) -> None:
        if game not in ("crokinole", "korona"):
            raise ValueError(f"game must be crokinole or korona, got {game!r}")
        if self.blas_threads is not None:
            limit_blas_threads(self.blas_threads)
        self.game = game
        self.players = players
        self.board_hint = board
        self.south = south
        self.fps = fps
        self.calib_frames = calib_frames
        self.drift_every = drift_every
        self.drift_in_shot = drift_in_shot
        self.on_frame = on_frame
        self.rules = rules
        options = dict(rules or {})
        if board is not None:  # a board profile: the referee judges on it too (pockets, lines)
            options.setdefault("board", board)
        self.engine = engine_for(game, players, **options)
        self.events: list[ev.Event] = []
        self.entries: list[Entry] = []
        self.outcomes: list[Outcome] = []
        self.entry_t: list[float] = []  # when each entry was logged (the shot's end), s
        self.warnings: list[str] = []
        self.calib: Calibration | None = None
        self.calibration_error: str | None = None
        self.other_game_checked = False  # camera.refuse_other_game: once, on the first failed window
        self._buffer: list[tuple[int, float, np.ndarray]] = []
        self._pending_lift: dict[int, str] = {}  # track id -> reason the rules gave
        self._lift_pending: dict[int, HandEvent] = {}  # unexpected lifts, said at the next shot
        self._expect_place: list[tuple[str, tuple[float, float] | None]] = []
        self._round_over = False
        self._doubtful_foul: DoubtfulFoul | None = None  # a foul call the players may not carry out
        self._need_setup = game == "korona"
        self._seat_colours: dict[str, np.ndarray] = {}  # korona: each player's disc colour (Lab)
        self._last_drift_t = 0.0
        self._bumped = False
        self._drift_episode = False  # the segmenter was in a shot at the last drift look
        self._seat_hinted = False  # the --south warning was given (``camera.seat_side_hint``)
        self._bump_tries = 0
        self._bump_t = 0.0
        self._settle_at: float | None = None  # when the board is fitted once more after a bump's fit
        self._recent: list[np.ndarray] = []
        self._fit_frame: np.ndarray | None = None  # the image the bump's fit was made on (``camera.restart``)
        self._last_dets = Detections.empty()
        self._frame: np.ndarray | None = None  # the frame being processed (``_step``), for ``rest_places``
        self._judged: rest_search.Judged | None = None  # the board the last shot was judged on (``rest_search``)
        self.settling = Settling(round(SETTLE_S * fps))
        self.passes = FullPasses()  # the periodic full passes, in frames (``_start``: the detector's)
        self.strider = StrideGate(fps)
        self.frames_seen = 0
        self.frames_detected = 0
        self._resume_at: dict[str, tuple[float, float]] = {}
        self._resume_counts: Counter[str] | None = None
        if calib is not None:
            self._start(calib, 0.0, 0)

    # ------------------------------------------------------------------ calibration
    def _start(self, calib: Calibration, t: float, index: int, **extra: Any) -> None:
        from tracker.detect.detector import DiscDetector
        from tracker.detect.priors import resting

        if calib.board.game != self.game:
            raise CalibrationError(f"the calibration is for a {calib.board.game} board, not {self.game}")
        first = self.calib is None
        self.calib = calib
        old: DiscDetector | None = None if first else getattr(self, "detector", None)
        self.detector = DiscDetector(calib, self.game)
        adaptive = ADAPTIVE_GATE[self.game] if self.adaptive_gate is None else self.adaptive_gate
        # ``frame_passes``: the periodic full passes come from ``self.passes``, counted in frames,
        # not calls (``stillness.FullPasses``); else the detector's own count
        self.detector.periodic = not self.frame_passes
        self.detector.noise.sigmas = CHANGE_NOISE[self.game] if self.change_noise is None else self.change_noise
        self.detector.noise.hold_discs = NOISE_HOLDS[self.game]
        self.passes.frames = self.detector.settings.refresh_frames if self.frame_passes else 0
        if old is not None:  # a new fit of the same board (the camera moved)
            self.detector.carry_over(old, resting(self.tracker.tracks, calib.board))
        self.detector.background.auto_start = True  # learns the empty board even without a frame of it
        if first:
            self.start_tracking(calib.board)
        else:
            self.board = calib.board
            self.tracker.board = self.board
        blocks = BLOCK_GATE[self.game] if self.block_gate is None else self.block_gate
        self.gate = StillnessGate(adaptive=adaptive, blocks=blocks, board=board_test(
            calib, BOARD_GATE[self.game] if self.board_gate is None else self.board_gate))
        self.drift: DriftMonitor | None = None
        self.events.append(ev.calibrated(t, index, calib.homography.tolist(), round(float(calib.rms_mm), 3), **extra))

    def set_calibration(self, calib: Calibration, image: np.ndarray, t: float = 0.0, index: int = 0) -> None:
        """Use a calibration made elsewhere (clicked points, markers) from now on."""
        self._buffer = []
        self._bumped = False
        self._start(calib, t, index)
        self._reference = image
        self._set_drift(image)

    def resume(self, entries: list[Entry]) -> None:
        """Continue a match whose shot log is already stored (after a crash or restart):
        ``resume.resume``."""
        resume.resume(self, entries)

    def _apply_resume_counts(self) -> None:
        resume.apply_counts(self)

    def start_tracking(self, board: CrokinoleBoard | KoronaBoard) -> None:
        """Set up the stages after the detector (also used alone, fed with detections)."""
        self.board = board
        self._tracked_board = board  # the board the tracks were measured on (see process_detections)
        self.tracker: Tracker = Tracker(board)
        self.segmenter = ShotSegmenter(board)
        self.namer = Namer(self.game, self.players, board)
        self.segmenter.unlike_a_disc = self.namer.looks_like_board  # (false finds: no unseen shot)
        self.striker_look = StrikerLook()  # (korona: false striker finds: no unseen shot either)
        self.segmenter.unlike_a_striker = self.striker_look.unlike
        self.segmenter.seats = self.namer.seats
        self.segmenter.next_seat = lambda: self.outcomes[-1].next_seat if self.outcomes else None
        self._apply_resume_counts()

    def _try_calibrate(self) -> bool:
        return camera.try_calibrate(self)

    def _set_drift(self, img: np.ndarray) -> None:
        camera.set_drift(self, img)

    def _check_drift(self, frame: np.ndarray, t: float, index: int) -> None:
        camera.check_drift(self, frame, t, index)

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
                window = [f for _, _, f in self._buffer]
                self._buffer = self._buffer[len(self._buffer) // 2:]  # slide on: try later frames
                camera.refuse_other_game(self, window)
                return []
            held, self._buffer = self._buffer, []
            return [self._step(f, tt, i) for i, tt, f in held]
        return [self._step(frame, t, index)]

    def _step(self, frame: np.ndarray, t: float, index: int) -> FrameResult:
        still = self.gate.still(frame)
        self._check_drift(frame, t, index)
        if self._bumped:  # the board moved and is not found again yet: nothing to track
            res = FrameResult(index, t, list(self.tracker.tracks), Detections.empty(), detected=False)
            if self.on_frame is not None:
                self.on_frame(frame, res)
            return res
        moving = any(tr.state == "moving" for tr in self.tracker.tracks) or bool(self.tracker._tentative)
        detected = True
        run, full = self.settling.step(still, moving)
        # due by the frames seen, on a frame the detector runs on anyway (``stillness.FullPasses``)
        periodic = run and self.passes.due(index)
        if run and not full and not periodic and not still and self._skip(index):
            res = FrameResult(index, t, list(self.tracker.tracks), self._last_dets, detected=False)
            if self.on_frame is not None:
                self.on_frame(frame, res)
            return res
        if not run:
            dets = self._last_dets
            detected = False
        else:
            if full or periodic:  # the board settled after motion (``stillness.Settling``), or due
                self.detector.refresh()
            dets = self.detector.detect(frame)
            self.settling.detected(full, moving, self.detector.changed)
            self.passes.detected(index, periodic)
            self.gate.remember(frame)
            self.frames_detected += 1
        self._last_dets = dets
        self._frame = frame  # (the frame a shot judged now reports its discs at rest from)
        res = self.process_detections(dets, t, index)
        self._frame = None
        res.detected = detected
        if self.on_frame is not None:
            self.on_frame(frame, res)
        return res

    def _skip(self, index: int) -> bool:
        """This moving frame goes without detection or tracking (``stride.py``)."""
        return self.strider.decide(self.skip_moving, index, self.tracker.tracks, bool(self.tracker._tentative),
                                   self.board)

    def process_detections(self, dets: Detections, t: float, index: int) -> FrameResult:
        """Everything after the detector, for one frame (tests and benchmarks feed this)."""
        refit = self.board is not self._tracked_board
        if refit:  # fitted again after the camera moved: the old places were seen through the old fit
            self._tracked_board = self.board
            # (the tracker's last frame was the bump's notice: the camera moved within a check's period before)
            self.tracker.drop_bump_doubles(self.tracker._t_now - self.drift_every)
            self.tracker.rebase(dets, t)
            self._judged = None
        tracks = self.tracker.update(dets, t)
        if refit:  # what moved since the bump, or jumped now, was the picture: start afresh
            self.tracker.settle_moving(t)
            self.segmenter.abandon(tracks, t, "the camera moved: board fitted again")
        if self._resume_at:
            resume.claim_resting(self, tracks)
        if self.skip_moving != "off":
            self.strider.observe(tracks)
        res = FrameResult(index, t, tracks, dets)
        if self.segmenter.in_shot:  # korona: a disc glimpsed in a pocket's mouth (``pocket_glimpse``)
            self.segmenter.glimpses += pocket_glimpse.glimpses(self.board, dets, self.tracker.det_track, tracks, t)
        shots, hands = self.segmenter.update(tracks, t, index)
        for h in hands:
            self._hand(h, res)
        for rec in shots:
            self._shot(rest_places.refit_ends(getattr(self, "detector", None), self._frame, rec, tracks, self._judged), res)
        if (shots or self._judged is None) and self._frame is not None and self.game == "crokinole" and rest_search.ON:
            self._judged = rest_search.remember(self._frame, tracks)  # (the next shot's search: ``rest_search``)
        if not self.segmenter.in_shot:  # a disc called pocketed or off seen on the board again
            withdraw(self, res, t, index)
        return res

    # ------------------------------------------------------------------ events and rules
    # (hands: ``hands.py``)
    def _hand(self, h: HandEvent, res: FrameResult) -> None:
        hands.hand(self, h, res)

    def _flush_lifts(self, res: FrameResult) -> None:
        hands.flush_lifts(self, res)

    def _apply(self, entry: Entry, res: FrameResult, t: float, frame: int) -> Outcome | None:
        try:
            out = self.engine.apply(entry)
        except TrackerError as e:  # an observation the rules cannot take: skip it, say so
            self.warnings.append(f"t = {t:.2f} s: shot not scored: {e}")
            self._emit(ev.Event("unscored", t, frame, {"why": str(e)}), res)
            return None
        self.entries.append(entry)
        self.entry_t.append(t)
        self.outcomes.append(out)
        res.entries.append(entry)
        res.outcomes.append(out)
        return out

    def _shot(self, rec: ShotRecord, res: FrameResult) -> None:
        referee.judge(self, rec, res)

    def _name_owner(self, name: str) -> str | None:
        return referee.name_owner(self, name)

    def _frame_of(self, t: float) -> int:
        return int(round(t * self.fps))

    def _emit(self, e: ev.Event, res: FrameResult) -> None:
        self.events.append(e)
        res.events.append(e)

    # ------------------------------------------------------------------ end
    def finish(self) -> None:
        """End of the input: calibrate what is buffered if not done yet (or say why not), and
        close a shot still in progress."""
        if self.calib is not None or hasattr(self, "segmenter"):
            if hasattr(self, "segmenter") and self.segmenter.in_shot:
                last = self.segmenter.t
                res = FrameResult(-1, last)
                for rec in self.segmenter.flush(self.tracker.tracks, last, self._frame_of(last)):
                    self._shot(rec, res)
            if hasattr(self, "tracker"):
                self._flush_lifts(FrameResult(-1, self.segmenter.t))
            return
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
