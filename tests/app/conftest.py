from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tracker.app.server import create_app
from tracker.app.store import Store

TOKEN = "test-token"


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "matches.db")
    yield s
    s.close()


@pytest.fixture
def client(store, tmp_path):
    app = create_app(store, token=TOKEN, upload_dir=tmp_path / "uploads", max_upload_mb=1)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def auth():
    return {"Authorization": f"Bearer {TOKEN}"}
