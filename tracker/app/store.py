"""Match history in SQLite: matches, their event log, shot log and referee corrections.

One file (WAL journal, so the live writer and page readers do not block each other). Events and
shots are appended as they happen and committed at once, so killing the process mid-match loses
nothing: starting again finds the match ``live`` and resumes it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    variant TEXT,
    options TEXT NOT NULL DEFAULT '{}',
    source TEXT,
    status TEXT NOT NULL DEFAULT 'live',
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    t REAL NOT NULL,
    frame INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS shots (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    shot INTEGER NOT NULL,
    patch TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS state (
    match_id INTEGER PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    data TEXT NOT NULL
);
"""

STATUSES = ("live", "reviewing", "done", "failed")


def default_db_path() -> Path:
    """``$TRACKER_DB``, else ``$XDG_DATA_HOME/tracker/matches.db`` (``~/.local/share/...``)."""
    env = os.environ.get("TRACKER_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tracker" / "matches.db"


@dataclass(frozen=True)
class Match:
    id: int
    name: str
    game: str
    players: int
    variant: str | None
    options: dict[str, Any]
    source: str | None
    status: str
    created: float
    updated: float

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "game": self.game, "players": self.players,
            "variant": self.variant, "options": self.options, "source": self.source,
            "status": self.status, "created": self.created, "updated": self.updated,
        }


class Store:
    """Thread-safe access to the match database (one connection, serialised by a lock)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ------------------------------------------------------------------ matches
    def create_match(
        self,
        game: str,
        players: int,
        name: str | None = None,
        variant: str | None = None,
        options: dict[str, Any] | None = None,
        source: str | None = None,
        status: str = "live",
    ) -> Match:
        now = time.time()
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO matches (name, game, players, variant, options, source, status, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (name or f"{game} {time.strftime('%Y-%m-%d %H:%M')}", game, players, variant,
                 json.dumps(options or {}), source, status, now, now),
            )
            match_id = int(cur.lastrowid or 0)
        return self.match(match_id)

    def match(self, match_id: int) -> Match:
        with self._lock:
            row = self._db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise KeyError(match_id)
        return _match(row)

    def matches(self, limit: int = 100, offset: int = 0) -> list[Match]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM matches ORDER BY id DESC LIMIT ? OFFSET ?", (limit, offset)
            ).fetchall()
        return [_match(r) for r in rows]

    def live_match(self, source: str) -> Match | None:
        """The most recent unfinished live match on this source (to resume after a restart)."""
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM matches WHERE source = ? AND status = 'live' ORDER BY id DESC LIMIT 1",
                (source,),
            ).fetchone()
        return _match(row) if row else None

    def set_status(self, match_id: int, status: str) -> None:
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, not {status!r}")
        with self._tx() as db:
            db.execute("UPDATE matches SET status = ?, updated = ? WHERE id = ?",
                       (status, time.time(), match_id))

    def delete_match(self, match_id: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    # ------------------------------------------------------------------ logs
    def append_event(self, match_id: int, event: dict[str, Any]) -> int:
        """Append one SPEC event dict (type, t, frame, ...). Returns its sequence number."""
        data = {k: v for k, v in event.items() if k not in ("type", "t", "frame")}
        with self._tx() as db:
            seq = db.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE match_id = ?",
                             (match_id,)).fetchone()[0]
            db.execute(
                "INSERT INTO events (match_id, seq, type, t, frame, data) VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, seq, str(event["type"]), float(event.get("t", 0.0)),
                 int(event.get("frame", 0)), json.dumps(data)),
            )
            db.execute("UPDATE matches SET updated = ? WHERE id = ?", (time.time(), match_id))
        return int(seq)

    def events(self, match_id: int, since: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, type, t, frame, data FROM events WHERE match_id = ? AND seq >= ? ORDER BY seq",
                (match_id, since),
            ).fetchall()
        return [{"seq": r["seq"], "type": r["type"], "t": r["t"], "frame": r["frame"],
                 **json.loads(r["data"])} for r in rows]

    def append_shot(self, match_id: int, entry: dict[str, Any]) -> int:
        """Append one shot-log line (SPEC 4b JSON object). Returns its index in the log."""
        with self._tx() as db:
            seq = db.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM shots WHERE match_id = ?",
                             (match_id,)).fetchone()[0]
            db.execute("INSERT INTO shots (match_id, seq, entry) VALUES (?, ?, ?)",
                       (match_id, seq, json.dumps(entry)))
            db.execute("UPDATE matches SET updated = ? WHERE id = ?", (time.time(), match_id))
        return int(seq)

    def shots(self, match_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT entry FROM shots WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
        return [json.loads(r["entry"]) for r in rows]

    # ------------------------------------------------------------------ corrections
    def add_correction(self, match_id: int, shot: int, patch: dict[str, Any], note: str = "") -> int:
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO corrections (match_id, shot, patch, note, created) VALUES (?, ?, ?, ?, ?)",
                (match_id, shot, json.dumps(patch), note, time.time()),
            )
            db.execute("UPDATE matches SET updated = ? WHERE id = ?", (time.time(), match_id))
        return int(cur.lastrowid or 0)

    def delete_correction(self, match_id: int, correction_id: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM corrections WHERE match_id = ? AND id = ?", (match_id, correction_id))

    def corrections(self, match_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, shot, patch, note, created FROM corrections WHERE match_id = ? ORDER BY id",
                (match_id,),
            ).fetchall()
        return [{"id": r["id"], "shot": r["shot"], "patch": json.loads(r["patch"]),
                 "note": r["note"], "created": r["created"]} for r in rows]

    # ------------------------------------------------------------------ resumable state
    def save_state(self, match_id: int, data: dict[str, Any]) -> None:
        """Pipeline state needed to resume (calibration, track table...)."""
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO state (match_id, data) VALUES (?, ?)",
                       (match_id, json.dumps(data)))

    def load_state(self, match_id: int) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT data FROM state WHERE match_id = ?", (match_id,)).fetchone()
        return json.loads(row["data"]) if row else None


def _match(row: sqlite3.Row) -> Match:
    return Match(
        id=row["id"], name=row["name"], game=row["game"], players=row["players"],
        variant=row["variant"], options=json.loads(row["options"]), source=row["source"],
        status=row["status"], created=row["created"], updated=row["updated"],
    )
