"""Manual calibration from the page: 4+ clicked points on the live camera frame."""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
from fastapi.testclient import TestClient

from tracker.app.live import LiveSession
from tracker.app.processor import PipelineProcessor
from tracker.app.server import create_app
from tracker.app.store import Store

FIXTURE = Path(__file__).parents[2] / "fixtures" / "videos" / "crokinole_twenty"


def test_clicked_points_calibrate_the_live_pipeline(tmp_path):
    first = json.loads((FIXTURE / "frames.jsonl").read_text().splitlines()[0])
    H = np.array(first["homography"])  # true image px -> board mm
    board_pts = np.array([[0.0, 0.0], [101.6, 0.0], [0.0, 203.2], [-203.2, -101.6], [250.0, -150.0]])
    img_pts = cv2.perspectiveTransform(board_pts.reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2)
    store = Store(tmp_path / "m.db")
    processor = PipelineProcessor("crokinole", 2)
    session = LiveSession(store, str(FIXTURE / "video.mp4"), "crokinole", 2, processor, realtime=False)
    app = create_app(store, token="ref", live=session)
    with TestClient(app) as client:
        body = {"points": [[*p, *b] for p, b in zip(img_pts.tolist(), board_pts.tolist(), strict=True)]}
        assert client.post("/api/live/calibrate", json=body).status_code == 401
        r = client.post("/api/live/calibrate", json=body, headers={"Authorization": "Bearer ref"})
        assert r.status_code == 422 and "no camera frame" in r.text  # not started yet
        session.start()
        end = time.monotonic() + 60
        while session.status()["frames_processed"] < 3:
            assert time.monotonic() < end
            time.sleep(0.05)
        r = client.post("/api/live/calibrate", json=body, headers={"Authorization": "Bearer ref"})
        assert r.status_code == 200, r.text
        assert r.json()["rms_mm"] < 0.5
        calib = processor.pipeline.calib
        assert calib is not None and calib.method == "points"
        got = calib.to_board(img_pts)
        assert np.abs(got - board_pts).max() < 0.5
        # Pick south: fit the board again with south at the top of the image.
        bottom = img_pts[np.argmax(img_pts[:, 1])]  # the clicked point lowest in the image
        before = processor.pipeline.calib
        assert before is not None and before.to_board(bottom[None])[0, 1] < 0  # south side now
        r = client.post("/api/live/south", json={"south": "top"}, headers={"Authorization": "Bearer ref"})
        assert r.status_code == 200, r.text
        after = processor.pipeline.calib
        assert after is not None and after.to_board(bottom[None])[0, 1] > 0  # now the north side
        assert client.post("/api/live/south", json={"south": "up"},
                           headers={"Authorization": "Bearer ref"}).status_code == 422
        bad = {"points": body["points"][:3]}
        assert client.post("/api/live/calibrate", json=bad, headers={"Authorization": "Bearer ref"}).status_code == 422
    session.stop()
