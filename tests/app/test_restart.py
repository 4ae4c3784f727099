"""Kill `tracker live` mid-match (SIGKILL: no clean shutdown), start it again on the same camera and
database: it resumes the same match, keeps every event stored before the kill unchanged, stores
nothing twice, and the completed shot log matches the fixture's true shots."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parents[2] / "fixtures" / "videos" / "crokinole_foul"
pytestmark = pytest.mark.slow


def live(db: Path, port: int) -> subprocess.Popen:
    env = dict(os.environ, XDG_DATA_HOME=str(db.parent / "data"))
    return subprocess.Popen(
        [sys.executable, "-m", "tracker", "live", "--camera", str(FIXTURE / "video.mp4"), "--game", "crokinole",
         "--fast", "--port", str(port), "--token", "ref", "--db", str(db)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def rows(db: Path, sql: str) -> list[tuple]:
    try:
        con = sqlite3.connect(db)
        try:
            return con.execute(sql).fetchall()
        finally:
            con.close()
    except sqlite3.OperationalError:  # not created yet
        return []


def wait(cond, proc: subprocess.Popen, timeout: float = 240.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not cond():
        if proc.poll() is not None and not cond():
            raise AssertionError(f"tracker live exited early: {proc.stderr.read() if proc.stderr else ''}")
        if time.monotonic() > end:
            proc.kill()
            raise AssertionError("timed out")
        time.sleep(0.2)


def test_kill_mid_match_and_resume(tmp_path):
    from tests.app.livehelp import free_port

    db = tmp_path / "m.db"
    truth = [json.loads(x) for x in (FIXTURE / "shots.jsonl").read_text().splitlines() if x.strip()]
    p1 = live(db, free_port())
    wait(lambda: len(rows(db, "SELECT seq FROM shots")) >= 1, p1)
    p1.send_signal(signal.SIGKILL)
    p1.wait()
    events_before = rows(db, "SELECT seq, type, frame, data FROM events ORDER BY seq")
    shots_before = rows(db, "SELECT seq, entry FROM shots ORDER BY seq")
    assert rows(db, "SELECT status FROM matches") == [("live",)]
    assert 1 <= len(shots_before) < len(truth)

    p2 = live(db, free_port())
    wait(lambda: bool(rows(db, "SELECT data FROM state")) and
         json.loads(rows(db, "SELECT data FROM state")[0][0]).get("resume_frame", 0) > 0 and
         len(rows(db, "SELECT seq FROM shots")) >= len(truth), p2)
    # Let it finish the video, then stop it cleanly.
    time.sleep(1.0)
    p2.send_signal(signal.SIGTERM)
    p2.wait(timeout=30)

    assert rows(db, "SELECT COUNT(*) FROM matches") == [(1,)]  # the same match, resumed
    events_after = rows(db, "SELECT seq, type, frame, data FROM events ORDER BY seq")
    shots_after = rows(db, "SELECT seq, entry FROM shots ORDER BY seq")
    assert events_after[: len(events_before)] == events_before  # nothing lost or rewritten
    assert shots_after[: len(shots_before)] == shots_before
    keys = [(t, f, d) for _, t, f, d in events_after]
    assert len(keys) == len(set(keys))  # nothing stored twice
    got = [(json.loads(e)["seat"], json.loads(e)["disc"]) for _, e in shots_after]
    assert got == [(s["seat"], s["disc"]) for s in truth]
