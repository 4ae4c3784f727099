"""Review jobs: an uploaded video is stored, checked, then scored on a worker thread.

An upload is streamed to disk with a size cap; anything that is not a readable video is refused
(422) and deleted, so nothing half-made is stored. Progress is published on the hub.
"""

from __future__ import annotations

import threading
import uuid
from pathlib import Path
from typing import Any

import cv2
from fastapi import UploadFile

from tracker.app.hub import Hub
from tracker.app.store import Store
from tracker.errors import InputError, TrackerError

VIDEO_SUFFIXES = (".mp4", ".mov", ".avi", ".mkv", ".webm", ".m4v")


class ReviewJobs:
    def __init__(self, store: Store, hub: Hub, folder: Path):
        self.store = store
        self.hub = hub
        self.folder = folder
        self._jobs: dict[int, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._next = 1

    def get(self, job_id: int) -> dict[str, Any] | None:
        with self._lock:
            job = self._jobs.get(job_id)
            return dict(job) if job else None

    async def accept(self, file: UploadFile, game: str, players: int, max_bytes: int) -> dict[str, Any]:
        name = Path(file.filename or "upload.mp4").name
        suffix = Path(name).suffix.lower()
        if suffix not in VIDEO_SUFFIXES:
            raise InputError(f"{name}: not a video file (expected one of {', '.join(VIDEO_SUFFIXES)})")
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{uuid.uuid4().hex}{suffix}"
        size = 0
        try:
            with open(path, "wb") as out:
                while chunk := await file.read(1 << 20):
                    size += len(chunk)
                    if size > max_bytes:
                        raise InputError(f"{name}: larger than {max_bytes // (1 << 20)} MB")
                    out.write(chunk)
            frames = _probe(path)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        match = self.store.create_match(game, players, name=f"review {name}", source=str(path),
                                        status="reviewing")
        with self._lock:
            job_id = self._next
            self._next += 1
            job = {"id": job_id, "match": match.id, "file": name, "frames": frames, "progress": 0.0,
                   "status": "queued", "message": ""}
            self._jobs[job_id] = job
        threading.Thread(target=self._work, args=(job_id, path, game, players), daemon=True).start()
        return dict(job)

    def _update(self, job_id: int, **changes: Any) -> None:
        with self._lock:
            self._jobs[job_id].update(changes)
            job = dict(self._jobs[job_id])
        self.hub.publish({"type": "job", **job})

    def _work(self, job_id: int, path: Path, game: str, players: int) -> None:
        from tracker.app.processor import review_file

        match_id = self._jobs[job_id]["match"]
        self._update(job_id, status="running")
        try:
            def progress(fraction: float) -> None:
                self._update(job_id, progress=round(fraction, 3))

            events, shots, message = review_file(path, game, players, progress)
            for ev in events:
                self.store.append_event(match_id, ev)
            for line in shots:
                self.store.append_shot(match_id, line)
            self.store.set_status(match_id, "done")
            self._update(job_id, status="done", progress=1.0, message=message)
        except TrackerError as e:
            self.store.set_status(match_id, "failed")
            self._update(job_id, status="failed", message=str(e))
        except Exception as e:  # a bug must not kill the server; the job says what happened
            self.store.set_status(match_id, "failed")
            self._update(job_id, status="failed", message=f"internal error: {type(e).__name__}: {e}")


def _probe(path: Path) -> int:
    cap = cv2.VideoCapture(str(path))
    try:
        ok, _ = cap.read()
        if not cap.isOpened() or not ok:
            raise InputError(f"{path.name}: not a readable video")
        n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
    finally:
        cap.release()
    return n
