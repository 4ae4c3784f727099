"""A live scoring session: camera frames -> the video pipeline -> the match store -> the hub.

The session owns three things: the frame source (bounded, drops frames when behind), the pipeline
that turns frames into events and shot-log lines, and the match row it writes to. Every event and
shot line is committed to SQLite as it happens; starting again on the same source finds the
unfinished match and resumes it (the pipeline replays nothing: the shot log already holds the
match; the rules engine rebuilds the score from it).
"""

from __future__ import annotations

import ctypes
import fcntl
import hashlib
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from tracker.app.hub import Hub
from tracker.app.sources import FrameSource
from tracker.app.store import Store
from tracker.corrections import apply_corrections, line_origins
from tracker.errors import InputError, TrackerError

TRIM_EVERY_S = 20.0


def _load_malloc_trim() -> Callable[[int], int] | None:
    try:
        fn: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to hand back this way
        return None
    return fn


_MALLOC_TRIM = _load_malloc_trim()


def release_free_memory() -> bool:
    """Hand the C heap's free pages back to the OS (glibc ``malloc_trim``); False where there is
    no glibc.

    Why a live session needs this (measured with bench_live's soak, /proc/self/smaps_rollup):
    every frame makes large temporaries (2.7 MB frames, float views of the board, the 9-frame
    median of a refit, FFT buffers) on the pipeline thread. glibc raises its mmap threshold to the
    largest block freed so far (up to 32 MB), after which such blocks come from the thread's arena
    instead of being unmapped, and a freed block in the middle of an arena stays resident. Python
    objects stayed flat (tracemalloc) and captures, sockets and frames stayed bounded, yet resident
    memory went up in steps of 30-60 MB that never came down. ``malloc_trim(0)`` returns every
    free page of every arena (madvise), so what stays resident is what is in use. It takes a few
    milliseconds, so the session calls it every ``TRIM_EVERY_S`` seconds between two frames.
    (A fixed ``M_MMAP_THRESHOLD`` of 1-4 MB also kept memory flat, but cost 17-24% more CPU per
    frame in page faults.)"""
    if _MALLOC_TRIM is None:
        return False
    _MALLOC_TRIM(0)
    return True


class FrameProcessor(Protocol):
    """What the live session needs from the video pipeline (see tracker.app.processor)."""

    def process(self, image: np.ndarray, t: float, index: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Returns (new SPEC events, new shot-log lines) produced by this frame."""
        ...

    def overlay(self, image: np.ndarray) -> np.ndarray: ...

    def board_view(self) -> np.ndarray | None: ...

    def calibrate_points(self, image: np.ndarray, points: list[tuple[float, float, float, float]],
                         south: str | None) -> dict[str, Any]: ...

    def set_south(self, image: np.ndarray, south: str) -> dict[str, Any]: ...

    def resume(self, shot_log: list[dict[str, Any]]) -> None:
        """Continue after a restart from the stored shot log."""
        ...


class CameraLock:
    """One ``live`` per camera: an exclusive lock file named after the source."""

    def __init__(self, folder: Path, spec: str):
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha1(spec.encode()).hexdigest()[:12]
        self.path = folder / f"camera-{digest}.lock"
        self._fh = open(self.path, "a+")  # noqa: SIM115 - held for the session's life
        try:
            fcntl.flock(self._fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._fh.close()
            raise InputError(
                f"camera {spec} is already used by another `tracker live` (lock {self.path})"
            ) from None
        self._fh.seek(0)
        self._fh.truncate()
        self._fh.write(str(os.getpid()))
        self._fh.flush()

    def release(self) -> None:
        fcntl.flock(self._fh, fcntl.LOCK_UN)
        self._fh.close()


class LiveSession:
    def __init__(
        self,
        store: Store,
        source: str,
        game: str,
        players: int,
        processor: FrameProcessor,
        variant: str | None = None,
        options: dict[str, Any] | None = None,
        realtime: bool = True,
    ):
        self.store = store
        self.source_spec = source
        self.processor = processor
        self.lock = CameraLock(store.path.parent / "locks", source)
        existing = store.live_match(source)
        if existing is not None and existing.game == game and existing.players == players:
            self.match_id: int | None = existing.id
            self.resumed = True
        else:
            self.match_id = store.create_match(game, players, variant=variant, options=options,
                                               source=source).id
            self.resumed = False
        start = 0
        self._last_stored_frame = -1
        self.error: str | None = None
        # The stored line (index into ``store.shots``) behind each line the pipeline numbers; a
        # referee's deletion or insertion moves lines in the corrected log (``corrections``).
        self._line_raw: list[int | None] = []
        self._raw_count = 0
        if self.resumed:
            assert self.match_id is not None
            state = store.load_state(self.match_id) or {}
            stored = store.events(self.match_id)
            self._last_stored_frame = max((e["frame"] for e in stored), default=-1)
            start = int(state.get("resume_frame", 0))
            self._resume_processor(processor)
        self.source = FrameSource(source, realtime=realtime, start_frame=start)
        self.hub: Hub | None = None
        self.processed = 0
        self.last_latency_ms = 0.0
        self._jpeg: dict[str, bytes] = {}
        self._watched_until = 0.0
        self._last_encode = 0.0
        self._last_image: np.ndarray | None = None
        self._stop = threading.Event()
        self._requests: queue.Queue[tuple[Callable[[], dict[str, Any]], Future[dict[str, Any]]]] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="live pipeline", daemon=True)
        self.trim_every_s = TRIM_EVERY_S
        self.trims = 0  # times free heap memory was handed back (see release_free_memory)
        self._last_trim = time.monotonic()

    def _resume_processor(self, processor: FrameProcessor) -> None:
        """Give the pipeline the log as it stands: the stored lines with every correction (the
        referee's and the pipeline's own withdrawn calls) applied, so turn and score go on from
        what the match page shows."""
        assert self.match_id is not None
        raw = self.store.shots(self.match_id)
        fixes = self.store.corrections(self.match_id)
        self._raw_count = len(raw)
        try:
            log = apply_corrections(raw, fixes)
            self._line_raw = line_origins(len(raw), fixes)
        except TrackerError as e:  # a stored correction that no longer applies: go on from the log as seen
            self.error = f"resumed without the corrections: {e}"
            log, self._line_raw = raw, list(range(len(raw)))
        processor.resume(log)

    def _store_withdrawn(self, ev: dict[str, Any]) -> None:
        """Store a call the pipeline withdrew (``pipeline.withdraw``: a disc seen again;
        ``pipeline.players_ruling``: a foul the players did not carry out) as a correction of its
        line, beside the log as a referee's is, at the place that line stands now in the corrected
        log."""
        assert self.match_id is not None
        line = int(ev["line"])
        raw = self._line_raw[line] if 0 <= line < len(self._line_raw) else None
        now = line_origins(self._raw_count, self.store.corrections(self.match_id))
        if "add_contacts" in ev:  # a foul the players did not carry out (``players_ruling``)
            what = f"{', '.join(ev['removed'])} left on the board"
            patch: dict[str, Any] = {"add_contacts": ev["add_contacts"]}
            note = f"{what}: foul withdrawn ({ev['add_contacts'][0][0]} passed {ev['gap_mm']} mm from " \
                   f"{ev['add_contacts'][0][1]})"
        else:
            what = f"{ev['disc']} seen again"
            patch = {"end": {ev["disc"]: ev["end"]}}
            note = f"{ev['disc']} seen on the board again (was {ev['was']})"
        if raw is None or raw not in now:  # the referee inserted or deleted that line: theirs stands
            self.error = f"not stored: {what}, but its shot was changed by the referee"
            return
        self.store.add_correction(self.match_id, now.index(raw), patch, note=note)

    def attach(self, hub: Hub) -> None:
        self.hub = hub

    def start(self) -> LiveSession:
        self.source.start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.source.stop()
        self._thread.join(timeout=10)
        self.lock.release()

    @property
    def finished(self) -> bool:
        return self.source.finished and not self._thread.is_alive()

    def status(self) -> dict[str, Any]:
        return {
            "running": not self._stop.is_set() and not self.source.finished,
            "paused": self.source.paused,
            "camera": self.source_spec,
            "connected": self.source.connected,
            "message": self.error or self.source.message,
            "match": self.match_id,
            "resumed": self.resumed,
            "frames_read": self.source.read,
            "frames_processed": self.processed,
            "frames_dropped": self.source.dropped,
            "latency_ms": round(self.last_latency_ms, 1),
        }

    def pause(self) -> None:
        self.source.pause()
        self._publish({"type": "status", **self.status()})

    def resume(self) -> None:
        self.source.resume()
        self._publish({"type": "status", **self.status()})

    def jpeg(self, view: str) -> bytes | None:
        """The latest view as JPEG. Views are drawn only while someone is watching (a request in
        the last few seconds), at most a few times a second, so an unwatched session spends
        nothing on them."""
        self._watched_until = time.monotonic() + 3.0
        return self._jpeg.get(view)

    def calibrate_points(self, points: list[tuple[float, float, float, float]], south: str | None) -> dict[str, Any]:
        """Calibrate from clicked points (image px -> board mm)."""
        return self._on_pipeline_thread(lambda image: self.processor.calibrate_points(image, points, south))

    def set_south(self, south: str) -> dict[str, Any]:
        """Fit the board again with ``south`` at that side of the image."""
        return self._on_pipeline_thread(lambda image: self.processor.set_south(image, south))

    def _on_pipeline_thread(self, job: Callable[[np.ndarray], dict[str, Any]]) -> dict[str, Any]:
        """Run ``job(last frame)``. The pipeline is not thread-safe, so while the session runs the
        job is handed to its thread and done between two frames."""
        image = self._last_image
        if image is None:
            raise InputError("no camera frame yet to calibrate on")
        if not self._thread.is_alive():
            return job(image)
        done: Future[dict[str, Any]] = Future()
        self._requests.put((lambda: job(self._last_image if self._last_image is not None else image), done))
        return done.result(timeout=30)

    def _serve_requests(self) -> None:
        while True:
            try:
                job, done = self._requests.get_nowait()
            except queue.Empty:
                return
            try:
                done.set_result(job())
            except BaseException as e:  # handed back to the caller's thread
                done.set_exception(e)

    def _publish(self, message: dict[str, Any]) -> None:
        if self.hub is not None:
            self.hub.publish(message)

    def _run(self) -> None:
        assert self.match_id is not None
        was_connected = None
        while not self._stop.is_set():
            self._serve_requests()
            frame = self.source.latest(timeout=0.5)
            if self.source.connected != was_connected:
                was_connected = self.source.connected
                self._publish({"type": "status", **self.status()})
            if frame is None:
                if self.source.finished:
                    self._publish({"type": "status", **self.status()})
                    return
                continue
            started = time.monotonic()
            try:
                events, shots = self.processor.process(frame.image, frame.t, frame.index)
            except TrackerError as e:
                self.error = str(e)
                events, shots = [], []
            except Exception as e:  # a bug must not stop live scoring: say so and go on
                self.error = f"internal error on frame {frame.index}: {type(e).__name__}: {e}"
                events, shots = [], []
            self._last_image = frame.image
            for ev in events:
                if int(ev.get("frame", 0)) <= self._last_stored_frame:
                    continue  # already stored before the restart
                self.store.append_event(self.match_id, ev)
                self._publish({"type": "event", "match": self.match_id, "event": ev})
            for line in shots:
                self.store.append_shot(self.match_id, line)
                self._line_raw.append(self._raw_count)
                self._raw_count += 1
            for ev in events:
                if ev.get("type") == "corrected":
                    self._store_withdrawn(ev)
            if shots and self.source.is_file:
                # All discs are at rest after a shot: a restart resumes the file from here.
                self.store.save_state(self.match_id, {"resume_frame": frame.index + 1})
            if shots or any(ev.get("type") in ("round_end", "game_end", "corrected") for ev in events):
                self._publish_score()
            self.processed += 1
            self.last_latency_ms = (time.monotonic() - started) * 1000.0
            now = time.monotonic()
            if (now < self._watched_until and now - self._last_encode >= 0.2) or not self._jpeg:
                self._last_encode = now
                try:
                    self._encode(frame.image)
                except Exception as e:  # a view that cannot be drawn must not stop scoring
                    self.error = f"cannot draw frame {frame.index}: {type(e).__name__}: {e}"
            if now - self._last_trim >= self.trim_every_s:
                self._last_trim = now
                self.trims += release_free_memory()

    def _publish_score(self) -> None:
        from tracker.app import scoring

        assert self.match_id is not None
        m = self.store.match(self.match_id)
        try:
            s = scoring.score(self.store, m)
        except TrackerError as e:
            self.error = f"cannot score the log: {e}"
            return
        self._publish({"type": "score", "match": m.id, "summary": s["summary"], "turn": s["turn"],
                       "decisions": s["decisions"][-10:], "at": time.time()})

    def _encode(self, image: np.ndarray) -> None:
        ok, buf = cv2.imencode(".jpg", self.processor.overlay(image), [cv2.IMWRITE_JPEG_QUALITY, 75])
        if ok:
            self._jpeg["camera"] = buf.tobytes()
        board = self.processor.board_view()
        if board is not None:
            ok, buf = cv2.imencode(".jpg", board, [cv2.IMWRITE_JPEG_QUALITY, 75])
            if ok:
                self._jpeg["board"] = buf.tobytes()
