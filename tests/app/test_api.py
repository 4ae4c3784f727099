"""The JSON API through FastAPI's test client: auth, matches, shots, corrections, exports."""

from __future__ import annotations

import csv
import io

from tests.app.conftest import TOKEN

SOUTH_TWENTY = {"seat": "south", "disc": "s1", "start": [0.0, -304.8], "contacts": [], "end": {"s1": "hole"}}
NORTH_FIFTEEN = {"seat": "north", "disc": "n1", "start": [0.0, 304.8], "contacts": [], "end": {"n1": [0.0, 60.0]}}


def new_match(client, auth, **body):
    r = client.post("/api/matches", json={"game": "crokinole", "players": 2, **body}, headers=auth)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_auth_no_token_wrong_token_right_token(client):
    body = {"game": "crokinole", "players": 2}
    assert client.post("/api/matches", json=body).status_code == 401
    assert client.post("/api/matches", json=body, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.post("/api/matches", json=body, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 201
    assert client.post(f"/api/matches?token={TOKEN}", json=body).status_code == 201
    # Viewing needs no token.
    assert client.get("/api/matches").status_code == 200


def test_malformed_bodies_are_422_naming_the_field(client, auth):
    r = client.post("/api/matches", json={"game": "chess", "players": 2}, headers=auth)
    assert r.status_code == 422 and "game" in r.text
    r = client.post("/api/matches", json={"game": "crokinole", "players": 9}, headers=auth)
    assert r.status_code == 422 and "players" in r.text
    mid = new_match(client, auth)
    r = client.post(f"/api/matches/{mid}/shots", json={"entry": {"seat": "middle", "disc": "x"}}, headers=auth)
    assert r.status_code == 422 and "seat" in r.text
    r = client.post(f"/api/matches/{mid}/corrections", json={"shot": 0, "patch": {"colour": 1}}, headers=auth)
    assert r.status_code == 422 and "colour" in r.text
    r = client.post(f"/api/matches/{mid}/corrections", json={"shot": 0, "patch": {"delete": True}}, headers=auth)
    assert r.status_code == 422 and "outside the log" in r.text
    assert client.get("/api/matches/999").status_code == 404


def test_shots_score_and_a_correction_changes_the_score(client, auth):
    mid = new_match(client, auth)
    for line in (SOUTH_TWENTY, NORTH_FIFTEEN):
        assert client.post(f"/api/matches/{mid}/shots", json={"entry": line}, headers=auth).status_code == 201
    m = client.get(f"/api/matches/{mid}").json()
    assert m["shots"] == 2
    assert m["turn"] == "south"
    assert any("20" in d["reason"] for d in m["decisions"])
    # Close the round: A has a 20, B has a 15 -> A is awarded 5.
    client.post(f"/api/matches/{mid}/shots", json={"entry": {"round_end": True}}, headers=auth)
    m = client.get(f"/api/matches/{mid}").json()
    assert m["summary"]["totals"] == {"A": 5, "B": 0}
    # The referee says n1 actually touched the 15 line from outside: 10, not 15 -> A by 10.
    r = client.post(f"/api/matches/{mid}/corrections",
                    json={"shot": 1, "patch": {"end": {"n1": [0.0, 115.0]}}, "note": "touching the 15 line"},
                    headers=auth)
    assert r.status_code == 201, r.text
    assert r.json()["summary"]["totals"] == {"A": 10, "B": 0}
    assert client.get(f"/api/matches/{mid}").json()["summary"]["totals"] == {"A": 10, "B": 0}
    # The observed log is kept as it was; the corrected one is what is scored.
    assert client.get(f"/api/matches/{mid}/shots?corrected=false").json()[1]["end"]["n1"] == [0.0, 60.0]
    assert client.get(f"/api/matches/{mid}/shots").json()[1]["end"]["n1"] == [0.0, 115.0]


def test_export_json_and_csv(client, auth, store):
    mid = new_match(client, auth)
    store.append_event(mid, {"type": "shot", "t": 1.0, "frame": 30, "seat": "south", "disc": "s1"})
    store.append_event(mid, {"type": "twenty", "t": 2.0, "frame": 60, "seat": "south", "disc": "s1"})
    j = client.get(f"/api/matches/{mid}/export?format=json").json()
    assert [e["type"] for e in j["events"]] == ["shot", "twenty"]
    rows = list(csv.reader(io.StringIO(client.get(f"/api/matches/{mid}/export?format=csv").text)))
    assert rows[0] == ["seq", "type", "t", "frame", "data"] and rows[2][1] == "twenty"
    assert client.get(f"/api/matches/{mid}/export?format=xml").status_code == 422


def test_analytics_per_player(client, auth, store):
    mid = new_match(client, auth)
    store.append_event(mid, {"type": "shot", "t": 1.0, "frame": 30, "seat": "south", "disc": "s1",
                             "hit_opponent": None, "speed_mm_s": 1500.0})
    store.append_event(mid, {"type": "twenty", "t": 1.5, "frame": 45, "seat": "south", "disc": "s1"})
    store.append_event(mid, {"type": "shot", "t": 3.0, "frame": 90, "seat": "north", "disc": "n1",
                             "hit_opponent": True, "speed_mm_s": 2500.0})
    store.append_shot(mid, SOUTH_TWENTY)
    store.append_shot(mid, NORTH_FIFTEEN)
    a = client.get(f"/api/matches/{mid}/analytics").json()
    assert a["south"]["shots"] == 1 and a["south"]["twenties"] == 1 and a["south"]["hit_rate"] is None
    assert a["north"]["hit_rate"] == 1.0 and a["north"]["mean_speed_mm_s"] == 2500.0
    assert a["north"]["rest"] == [[0.0, 60.0]]


def test_uploads_refuse_non_video_and_oversized(client, auth, store):
    r = client.post("/api/uploads?game=crokinole", files={"file": ("notes.txt", b"hello")}, headers=auth)
    assert r.status_code == 422 and "not a video" in r.text
    r = client.post("/api/uploads?game=crokinole", files={"file": ("match.mp4", b"\x00" * 1000)}, headers=auth)
    assert r.status_code == 422 and "not a readable video" in r.text
    r = client.post("/api/uploads?game=crokinole", files={"file": ("big.mp4", b"\x00" * (2 << 20))}, headers=auth)
    assert r.status_code == 413
    r = client.post("/api/uploads?game=crokinole", files={"file": ("match.mp4", b"\x00")})
    assert r.status_code == 401
    assert store.matches() == []  # nothing stored


def test_openapi_and_pages(client):
    spec = client.get("/openapi.json").json()
    assert "/api/matches/{match_id}/corrections" in spec["paths"]
    for page in ("/", "/calibrate", "/review", "/matches", "/match"):
        r = client.get(page)
        assert r.status_code == 200 and "<html" in r.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/../server.py").status_code == 404


def test_score_after_each_shot(client, auth):
    mid = new_match(client, auth)
    for line in (SOUTH_TWENTY, NORTH_FIFTEEN, {"round_end": True}):
        client.post(f"/api/matches/{mid}/shots", json={"entry": line}, headers=auth)
    after = client.get(f"/api/matches/{mid}").json()["score_after"]
    assert [a["round"] for a in after[:2]] == [{"A": 20, "B": 0}, {"A": 20, "B": 15}]
    assert after[2]["totals"] == {"A": 5, "B": 0}
