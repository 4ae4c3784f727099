"""The live session: bounded frame source, events persisted as they happen, resume after a kill,
one session per camera."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from tests.app.livehelp import write_video
from tracker.app.live import CameraLock, LiveSession
from tracker.app.sources import FrameSource
from tracker.app.store import Store
from tracker.errors import InputError


class ScriptedProcessor:
    """Emits one shot line and its event when it sees the frame with the given index."""

    def __init__(self, at: dict[int, dict[str, Any]]):
        self.at = at

    def process(self, image, t, index):
        if index in self.at:
            line = self.at[index]
            return [{"type": "shot", "t": t, "frame": index, "seat": line["seat"], "disc": line["disc"]}], [line]
        return [], []

    def overlay(self, image):
        return image

    def board_view(self):
        return None

    def calibrate_points(self, image, points, south):
        return {"rms_mm": 0.0}

    def set_south(self, image, south):
        return {"rms_mm": 0.0, "south": south}

    def resume(self, shot_log):
        self.resumed_with = list(shot_log)


def wait_until(cond, timeout=20.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.02)


def test_file_source_drops_frames_when_processing_is_slow(tmp_path):
    video = write_video(tmp_path / "v.mp4", frames=90, fps=90.0)
    src = FrameSource(str(video), realtime=True).start()
    got: list[int | None] = []
    while not src.finished or got[-1:] != [None]:
        f = src.latest(timeout=0.2)
        got.append(None if f is None else f.index)
        if f is not None:
            time.sleep(0.05)  # a slow pipeline: 20 fps against a 90 fps source
        if src.finished and f is None:
            break
    seen = [g for g in got if g is not None]
    assert src.read == 90
    assert src.dropped > 30
    assert len(seen) + src.dropped == 90
    assert seen == sorted(seen)


def test_missing_camera_is_reported_not_fatal():
    src = FrameSource("97", reconnect_s=0.1).start()
    time.sleep(0.3)
    assert not src.connected and "not available" in src.message
    src.stop()


def test_events_persist_and_a_restart_resumes_the_same_match(tmp_path):
    video = write_video(tmp_path / "v.mp4", frames=40)
    lines = {5: {"seat": "south", "disc": "s1", "end": {"s1": "hole"}},
             30: {"seat": "north", "disc": "n1", "end": {"n1": [0.0, 60.0]}}}
    store = Store(tmp_path / "m.db")
    s1 = LiveSession(store, str(video), "crokinole", 2, ScriptedProcessor({5: lines[5]}), realtime=False).start()
    wait_until(lambda: s1.finished)
    s1.stop()  # as if killed after the video ended mid-match: the match stays live
    assert s1.match_id is not None
    first = store.events(s1.match_id)
    assert [e["disc"] for e in first] == ["s1"]
    store2 = Store(tmp_path / "m.db")
    s2 = LiveSession(store2, str(video), "crokinole", 2, ScriptedProcessor({30: lines[30]}), realtime=False)
    assert s2.resumed and s2.match_id == s1.match_id
    s2.start()
    wait_until(lambda: s2.finished)
    s2.stop()
    assert s2.match_id is not None
    assert [e["disc"] for e in store2.events(s2.match_id)] == ["s1", "n1"]
    assert store2.shots(s2.match_id) == [lines[5], lines[30]]


def test_second_session_on_the_same_camera_is_refused(tmp_path):
    lock = CameraLock(tmp_path, "0")
    with pytest.raises(InputError, match="already used"):
        CameraLock(tmp_path, "0")
    lock.release()
    CameraLock(tmp_path, "0").release()


def test_status_reports_frames(tmp_path):
    video = write_video(tmp_path / "v.mp4", frames=20)
    store = Store(tmp_path / "m.db")
    s = LiveSession(store, str(video), "crokinole", 2, ScriptedProcessor({}), realtime=False).start()
    wait_until(lambda: s.finished)
    st = s.status()
    s.stop()
    assert st["frames_read"] == 20 and st["frames_processed"] + st["frames_dropped"] == 20
    jpg = s.jpeg("camera")
    assert jpg is not None and np.frombuffer(jpg, np.uint8)[0] == 0xFF


def test_a_stream_camera_that_disappears_is_waited_for_and_resumed():
    """An MJPEG camera over HTTP that drops after 15 frames each time: the source says it
    disappeared, reconnects by itself and goes on reading."""
    import asyncio

    import cv2
    from fastapi import FastAPI
    from fastapi.responses import StreamingResponse

    from tests.app.livehelp import ServerThread, free_port
    from tracker.app.server import mjpeg_part

    app = FastAPI()

    @app.get("/cam.mjpg")
    async def cam():
        async def gen():
            for i in range(15):
                img = np.full((120, 160, 3), i * 10, np.uint8)
                yield mjpeg_part(cv2.imencode(".jpg", img)[1].tobytes())
                await asyncio.sleep(0.02)

        return StreamingResponse(gen(), media_type="multipart/x-mixed-replace; boundary=frame")

    with ServerThread(app, free_port()) as server:
        src = FrameSource(server.url + "/cam.mjpg", reconnect_s=0.2).start()
        messages = set()
        end = time.monotonic() + 20
        while src.read < 40 and time.monotonic() < end:
            src.latest(0.05)
            messages.add(src.message)
        src.stop()
    assert src.read >= 40  # more than two connections' worth of frames
    assert any("disappeared" in m for m in messages) and "camera connected" in messages


class CorrectingProcessor(ScriptedProcessor):
    """Logs a shot that calls s1 pocketed, then withdraws the call (``pipeline.withdraw``)."""

    def process(self, image, t, index):
        if index == 5:
            return [], [{"seat": "south", "disc": "S", "end": {"s1": "pocket:ne"}}]
        if index == 20:
            return [{"type": "corrected", "t": t, "frame": index, "line": 0, "disc": "s1", "was": "pocket:ne",
                     "end": [-87.5, 412.5], "t_call": 0.2}], []
        return [], []


def _played(tmp_path, game, processor):
    """A 30-frame video played through a live session with ``processor``, to its end."""
    video = write_video(tmp_path / "v.mp4", frames=30)
    store = Store(tmp_path / "m.db")
    s = LiveSession(store, str(video), game, 2, processor, realtime=False).start()
    wait_until(lambda: s.finished)
    s.stop()
    return store, s


def test_a_withdrawn_call_is_stored_as_a_correction_of_its_line(tmp_path):
    store, s = _played(tmp_path, "korona", CorrectingProcessor({}))
    assert s.match_id is not None
    assert store.shots(s.match_id) == [{"seat": "south", "disc": "S", "end": {"s1": "pocket:ne"}}]  # as seen
    fixes = store.corrections(s.match_id)
    assert [(c["shot"], c["patch"]) for c in fixes] == [(0, {"end": {"s1": [-87.5, 412.5]}})]


class FoulWithdrawingProcessor(ScriptedProcessor):
    """Logs a crokinole shot the rules call a foul, then withdraws it (``pipeline.players_ruling``)."""

    def process(self, image, t, index):
        if index == 5:
            return [], [{"seat": "south", "disc": "s1", "start": [30.0, -304.8], "contacts": [],
                         "end": {"s1": [30.0, 150.0]}}]
        if index == 20:
            return [{"type": "corrected", "t": t, "frame": index, "line": 0, "add_contacts": [["s1", "n1"]],
                     "was": "foul", "removed": ["s1"], "gap_mm": 1.5, "t_call": 0.2}], []
        return [], []


def test_a_withdrawn_foul_is_stored_as_the_contact_it_adds(tmp_path):
    store, s = _played(tmp_path, "crokinole", FoulWithdrawingProcessor({}))
    assert s.match_id is not None and s.error is None
    fixes = store.corrections(s.match_id)
    assert [(c["shot"], c["patch"]) for c in fixes] == [(0, {"add_contacts": [["s1", "n1"]]})]
    assert "foul withdrawn" in fixes[0]["note"]


class WithdrawAfterResume(ScriptedProcessor):
    """After a resume, logs one shot (its line 1) and withdraws calls on its lines 0 and 1."""

    def process(self, image, t, index):
        if index == 5:
            return [], [{"seat": "south", "disc": "S", "end": {"s2": "pocket:ne"}}]
        if index == 20:
            return [{"type": "corrected", "t": t, "frame": index, "line": line, "disc": disc, "was": "pocket:ne",
                     "end": [float(line), 0.0], "t_call": 0.2} for line, disc in ((0, "s1"), (1, "s2"))], []
        return [], []


def test_a_resumed_match_goes_on_from_the_corrected_log_and_files_corrections_where_lines_stand(tmp_path):
    video = write_video(tmp_path / "v.mp4", frames=30)
    store = Store(tmp_path / "m.db")
    match = store.create_match("korona", 2, source=str(video))
    bogus = {"seat": "north", "disc": "S", "end": {"n1": "pocket:sw"}}
    kept = {"seat": "south", "disc": "S", "end": {"s1": "pocket:ne"}}
    store.append_shot(match.id, bogus)
    store.append_shot(match.id, kept)
    store.add_correction(match.id, 0, {"delete": True})  # the referee: line 0 was not a shot
    proc = WithdrawAfterResume({})
    s = LiveSession(store, str(video), "korona", 2, proc, realtime=False).start()
    wait_until(lambda: s.finished)
    s.stop()
    assert s.resumed and proc.resumed_with == [kept]  # the log as the match page shows it
    fixes = [(c["shot"], c["patch"]) for c in store.corrections(match.id)]
    # the pipeline's lines 0 and 1 are stored lines 1 and 2: corrected-log places 0 and 1
    assert fixes == [(0, {"delete": True}), (0, {"end": {"s1": [0.0, 0.0]}}), (1, {"end": {"s2": [1.0, 0.0]}})]
