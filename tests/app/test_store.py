"""The match store: WAL SQLite, nothing lost across a close and reopen."""

from __future__ import annotations

import sqlite3

from tracker.app.store import Store


def test_events_and_shots_survive_reopen(tmp_path):
    path = tmp_path / "m.db"
    s = Store(path)
    m = s.create_match("crokinole", 2, source="cam0")
    for i in range(5):
        s.append_event(m.id, {"type": "shot", "t": i * 1.5, "frame": i * 45, "seat": "south", "disc": f"s{i}"})
        s.append_shot(m.id, {"seat": "south", "disc": f"s{i}", "end": {f"s{i}": [0.0, 50.0 + i]}})
    s.add_correction(m.id, 2, {"end": {"s2": "off"}}, note="it fell")
    # No close(): a crash. A second connection sees everything committed.
    s2 = Store(path)
    assert [e["disc"] for e in s2.events(m.id)] == [f"s{i}" for i in range(5)]
    assert [e["seq"] for e in s2.events(m.id, since=3)] == [3, 4]
    assert len(s2.shots(m.id)) == 5
    assert s2.corrections(m.id)[0]["patch"] == {"end": {"s2": "off"}}
    live = s2.live_match("cam0")
    assert live is not None and live.id == m.id
    s2.set_status(m.id, "done")
    assert s2.live_match("cam0") is None
    s.close()
    s2.close()


def test_wal_mode(tmp_path):
    Store(tmp_path / "m.db").close()
    mode = sqlite3.connect(tmp_path / "m.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_delete_cascades(tmp_path):
    s = Store(tmp_path / "m.db")
    m = s.create_match("korona", 2)
    s.append_event(m.id, {"type": "shot", "t": 0, "frame": 0})
    s.delete_match(m.id)
    assert s.events(m.id) == []
    assert s.matches() == []
