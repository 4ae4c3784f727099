"""Frame sources for live play: a camera index, a stream URL, or a file played at its own rate.

A reader thread keeps only the newest frame (a one-slot mailbox): when processing falls behind,
older frames are dropped and counted, never queued without limit, so latency stays bounded. A
camera that disappears is reopened with back-off while the status says so.

A looping file (soak tests, demos) must look like one long camera session: its clock and frame
index go on across the wrap instead of starting again at 0. Time running backwards breaks the
tracker (dt < 0: resting discs never settle, finished tracks never finish, their paths grow for
ever, and the match stops producing shots), which is what an early soak measured as a leak.
Only one capture is open at a time: the old one is released before the file is opened again.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class Frame:
    image: np.ndarray
    t: float  # seconds since the source started (file: its own timestamps)
    index: int  # frames read from the source so far (dropped ones included)


class FrameSource:
    """Reads frames on a thread; ``latest()`` hands out the newest unseen frame or None."""

    def __init__(self, spec: str, realtime: bool = True, reconnect_s: float = 1.0, loop: bool = False,
                 start_frame: int = 0):
        self.spec = spec
        self.start_frame = start_frame  # a file resumes here after a restart
        self.realtime = realtime
        self.reconnect_s = reconnect_s
        self.loop = loop
        self.connected = False
        self.finished = False
        self.message = "starting"
        self.read = 0
        self.dropped = 0
        self.fps = 0.0
        self.loops = 0  # times a looping file wrapped round
        self.open_captures = 0  # captures opened and not yet released (at most 1)
        self._t_offset = 0.0  # a looping file's clock: the length of the plays before this one
        self.clock_origin = 0.0  # a real-time file: the monotonic time at which its t would be 0
        self._slot: Frame | None = None
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._running = threading.Event()  # cleared while paused
        self._running.set()
        self._thread = threading.Thread(target=self._run, name=f"source {spec}", daemon=True)

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def pause(self) -> None:
        """A file stops where it is; a camera keeps being read, and its frames are dropped."""
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    @property
    def is_file(self) -> bool:
        return not self.spec.isdigit() and "://" not in self.spec

    def _open(self) -> cv2.VideoCapture:
        cap = cv2.VideoCapture(int(self.spec)) if self.spec.isdigit() else cv2.VideoCapture(self.spec)
        self.open_captures += 1
        return cap

    def _release(self, cap: cv2.VideoCapture) -> None:
        cap.release()
        self.open_captures -= 1

    def start(self) -> FrameSource:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._running.set()
        with self._cond:
            self._cond.notify_all()
        self._thread.join(timeout=5)

    def latest(self, timeout: float = 0.5) -> Frame | None:
        with self._cond:
            if self._slot is None:
                self._cond.wait(timeout)
            frame, self._slot = self._slot, None
            self._cond.notify_all()
        return frame

    def _put(self, frame: Frame) -> None:
        with self._cond:
            if self.is_file and not self.realtime:
                # A file played as fast as it can be processed: wait for the consumer, drop nothing.
                while self._slot is not None and not self._stop.is_set():
                    self._cond.wait(0.1)
            if self._slot is not None:
                self.dropped += 1
            self._slot = frame
            self._cond.notify_all()

    def _run(self) -> None:
        t0 = time.monotonic()
        while not self._stop.is_set():
            cap = self._open()
            if not cap.isOpened():
                self.connected = False
                self.message = f"camera {self.spec} is not available; retrying"
                self._release(cap)
                if self.is_file:
                    self.message = f"cannot open video {self.spec}"
                    self.finished = True
                    return
                self._stop.wait(self.reconnect_s)
                continue
            self.connected = True
            self.message = "camera connected"
            fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
            self.fps = fps if 1 <= fps <= 240 else 30.0
            start_wall = time.monotonic()
            n_file = 0
            if self.is_file and self.start_frame:
                cap.set(cv2.CAP_PROP_POS_FRAMES, self.start_frame)
                n_file = self.read = self.start_frame
                start_wall -= n_file / self.fps
            self.clock_origin = start_wall - self._t_offset
            while not self._stop.is_set():
                if self.is_file and self.paused:
                    self._running.wait(0.1)
                    start_wall = time.monotonic() - n_file / self.fps
                    self.clock_origin = start_wall - self._t_offset
                    continue
                ok, img = cap.read()
                if not ok:
                    break
                if self.paused:
                    self.dropped += 1
                    continue
                if self.is_file:
                    played = n_file / self.fps  # time into this play of the file
                    t = self._t_offset + played
                    n_file += 1
                    if self.realtime:
                        delay = start_wall + played - time.monotonic()
                        if delay > 0:
                            self._stop.wait(delay)
                else:
                    t = time.monotonic() - t0
                self.read += 1
                self._put(Frame(img, t, self.read - 1))
            self._release(cap)
            self.connected = False
            if self.is_file:
                if self.loop and not self._stop.is_set() and n_file > 0:
                    self._t_offset += n_file / self.fps  # the clock goes on across the wrap
                    self.loops += 1
                    self.start_frame = 0
                    continue
                self.finished = True
                self.message = "end of video"
                with self._cond:
                    self._cond.notify_all()
                return
            self.message = f"camera {self.spec} disappeared; waiting for it to come back"
            self._stop.wait(self.reconnect_s)
