"""A looping file source behaves like one long camera session: the clock and the frame index go
on across the wrap, one capture is open at a time, and a session keeps no frames beyond the few it
needs however long it runs (the live memory soak loops a video for an hour)."""

from __future__ import annotations

import gc
import time
import weakref
from typing import Any

import numpy as np

from tests.app.livehelp import write_video
from tracker.app.live import LiveSession, release_free_memory
from tracker.app.sources import FrameSource
from tracker.app.store import Store


def take(src: FrameSource, n: int, timeout: float = 20.0) -> list[Any]:
    out: list[Any] = []
    end = time.monotonic() + timeout
    while len(out) < n:
        assert time.monotonic() < end, f"only {len(out)} frames in {timeout} s"
        assert src.open_captures <= 1
        f = src.latest(timeout=0.2)
        if f is not None:
            out.append(f)
    return out


def test_a_looping_file_keeps_its_clock_and_index_across_the_wrap(tmp_path):
    video = write_video(tmp_path / "v.mp4", frames=10, fps=30.0)
    src = FrameSource(str(video), realtime=False, loop=True).start()
    try:
        frames = take(src, 35)
    finally:
        src.stop()
    assert src.loops >= 3
    assert [f.index for f in frames] == list(range(35))  # nothing dropped, nothing repeated
    t = np.array([f.t for f in frames])
    np.testing.assert_allclose(t, np.arange(35) / 30.0, atol=1e-6)  # 10 frames at 30 fps, then on
    assert src.open_captures == 0  # every capture opened was released


def test_a_resumed_looping_file_starts_the_next_play_from_the_beginning(tmp_path):
    video = write_video(tmp_path / "v.mp4", frames=10, fps=30.0)
    src = FrameSource(str(video), realtime=False, loop=True, start_frame=6).start()
    try:
        frames = take(src, 12)
    finally:
        src.stop()
    # frames 6..9 of the first play, then 0..9 of the next: 14 frames of video time, no gap
    assert [f.index for f in frames] == list(range(6, 18))
    np.testing.assert_allclose([f.t for f in frames], np.arange(6, 18) / 30.0, atol=1e-6)


def test_a_file_with_no_frames_does_not_loop_for_ever(tmp_path):
    empty = tmp_path / "empty.mp4"
    empty.write_bytes(b"")
    src = FrameSource(str(empty), realtime=False, loop=True).start()
    end = time.monotonic() + 10
    while not src.finished and time.monotonic() < end:
        time.sleep(0.02)
    src.stop()
    assert src.finished and src.loops == 0 and src.open_captures == 0


class RememberingProcessor:
    """Counts the camera frames still alive anywhere (weak references to every image it got)."""

    def __init__(self) -> None:
        self.refs: list[weakref.ref[np.ndarray]] = []
        self.times: list[float] = []

    def process(self, image, t, index):
        self.refs.append(weakref.ref(image))
        self.times.append(t)
        return [], []

    def overlay(self, image):
        return image.copy()

    def board_view(self):
        return None

    def calibrate_points(self, image, points, south):
        return {}

    def set_south(self, image, south):
        return {}

    def resume(self, shot_log):
        pass


def test_a_long_looping_session_holds_only_a_bounded_number_of_frames(tmp_path):
    store = Store(tmp_path / "m.db")
    video = write_video(tmp_path / "v.mp4", frames=12, fps=30.0)
    proc = RememberingProcessor()
    session = LiveSession(store, str(video), "crokinole", 2, proc, realtime=False)
    session.source.loop = True
    session.trim_every_s = 0.0  # hand free heap pages back after every frame
    session.start()
    try:
        end = time.monotonic() + 30
        while len(proc.times) < 12 * 6 and time.monotonic() < end:
            session.jpeg("camera")  # a page watching: views are drawn too
            time.sleep(0.01)
    finally:
        session.stop()
        store.close()
    assert len(proc.times) >= 12 * 6, "the session stopped early"
    assert session.source.loops >= 5
    assert np.all(np.diff(proc.times) > 0)  # the pipeline never sees time run backwards
    gc.collect()
    alive = sum(r() is not None for r in proc.refs)
    assert alive <= 3, f"{alive} of {len(proc.refs)} frames are still held"
    assert set(session._jpeg) <= {"camera", "board"}
    assert session.trims == (len(proc.times) if release_free_memory() else 0)


def test_free_heap_memory_is_handed_back_on_glibc():
    import platform

    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert release_free_memory() is True
