"""Review page backend: upload a recorded video, the job runs the real pipeline, the match holds its
events and shot log, the scored summary matches the fixture's truth, and each shot has its clip."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tracker.app.server import create_app
from tracker.app.store import Store

FIXTURE = Path(__file__).parents[2] / "fixtures" / "videos" / "crokinole_twenty"
pytestmark = pytest.mark.slow


def test_upload_reviews_the_video_and_serves_shot_clips(tmp_path):
    store = Store(tmp_path / "m.db")
    app = create_app(store, token="ref", upload_dir=tmp_path / "uploads", max_upload_mb=20)
    with TestClient(app) as client:
        data = (FIXTURE / "video.mp4").read_bytes()
        r = client.post("/api/uploads?game=crokinole&players=2", files={"file": ("twenty.mp4", data)},
                        headers={"Authorization": "Bearer ref"})
        assert r.status_code == 202, r.text
        job = r.json()
        assert job["frames"] > 0
        end = time.monotonic() + 180
        while job["status"] not in ("done", "failed"):
            assert time.monotonic() < end, "review job did not finish"
            time.sleep(0.3)
            job = client.get(f"/api/jobs/{job['id']}").json()
        assert job["status"] == "done", job["message"]
        m = client.get(f"/api/matches/{job['match']}").json()
        assert m["status"] == "done"
        truth = json.loads((FIXTURE / "truth.json").read_text())
        assert m["summary"]["current_round"]["points"] == truth["current_round"]["points"]
        types = [e["type"] for e in client.get(f"/api/matches/{job['match']}/events").json()]
        assert "calibrated" in types and "shot" in types and "twenty" in types
        with client.stream("GET", f"/api/matches/{job['match']}/clip.mjpg?shot=0") as clip:
            assert clip.status_code == 200
            body = b"".join(clip.iter_bytes())
        assert body.count(b"\xff\xd8") >= 5  # several JPEG frames of the shot
        assert client.get(f"/api/matches/{job['match']}/clip.mjpg?shot=9").status_code == 404
