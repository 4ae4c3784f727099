"""The web app (FastAPI): scoreboard, calibration, review uploads, match history, corrections.

Viewing needs nothing; anything that changes a match needs the referee token printed at start-up
(``Authorization: Bearer <token>`` or ``?token=``). The JSON API is described at ``/docs`` and
``/openapi.json``.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, UploadFile, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, Response, StreamingResponse
from starlette.websockets import WebSocketDisconnect

from tracker.app import scoring
from tracker.app.hub import Hub
from tracker.app.jobs import ReviewJobs
from tracker.app.live import LiveSession
from tracker.app.models import ClickPoints, Correction, NewMatch, ShotLine, South, Status
from tracker.app.store import Match, Store
from tracker.errors import TrackerError

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "scoreboard.html", "/calibrate": "calibrate.html", "/review": "review.html",
         "/matches": "matches.html", "/match": "match.html"}


def need_live(request: Request) -> LiveSession:
    """The running camera session, or 404 when the app serves none."""
    live: LiveSession | None = request.app.state.live
    if live is None:
        raise HTTPException(404, "no camera session")
    return live


Live = Annotated[LiveSession, Depends(need_live)]


def create_app(
    store: Store,
    token: str | None = None,
    live: LiveSession | None = None,
    upload_dir: Path | None = None,
    max_upload_mb: float = 512.0,
) -> FastAPI:
    """Build the app around a store. ``live`` is the running camera session, if any."""
    token = token or secrets.token_urlsafe(16)
    hub = Hub()
    jobs = ReviewJobs(store, hub, upload_dir or store.path.parent / "uploads")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.bind(asyncio.get_running_loop())
        if live is not None:
            live.attach(hub)
        yield

    app = FastAPI(title="tracker", version="0.1.0", lifespan=lifespan,
                  description="Live scoring, match history and referee corrections for crokinole and korona.")
    app.state.store, app.state.hub, app.state.token, app.state.live, app.state.jobs = (
        store, hub, token, live, jobs)

    def referee(authorization: str | None = Header(None), token_q: str | None = Query(None, alias="token")) -> None:
        given = token_q
        if authorization and authorization.lower().startswith("bearer "):
            given = authorization[7:].strip()
        if not given:
            raise HTTPException(401, "referee token required (Authorization: Bearer <token>)")
        if not secrets.compare_digest(given, token):
            raise HTTPException(403, "wrong referee token")

    def get_match(match_id: int) -> Match:
        try:
            return store.match(match_id)
        except KeyError:
            raise HTTPException(404, f"no match {match_id}") from None

    def scored(m: Match) -> dict[str, Any]:
        try:
            return scoring.score(store, m)
        except TrackerError as e:
            raise HTTPException(409, f"the match log cannot be scored: {e}") from None

    def broadcast_score(m: Match) -> None:
        s = scored(m)
        hub.publish({"type": "score", "match": m.id, "summary": s["summary"], "turn": s["turn"],
                     "decisions": s["decisions"][-10:]})

    # ------------------------------------------------------------------ pages
    for route, name in PAGES.items():
        app.add_api_route(route, _page(name), methods=["GET"], response_class=HTMLResponse,
                          include_in_schema=False)

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> FileResponse:
        path = (STATIC / name).resolve()
        if path.parent != STATIC.resolve() or not path.is_file():
            raise HTTPException(404, "no such file")
        return FileResponse(path)

    # ------------------------------------------------------------------ matches
    @app.get("/api/matches")
    def list_matches(limit: int = Query(100, ge=1, le=1000), offset: int = Query(0, ge=0)) -> list[dict[str, Any]]:
        return [m.to_json() for m in store.matches(limit, offset)]

    @app.post("/api/matches", status_code=201, dependencies=[Depends(referee)])
    def new_match(body: NewMatch) -> dict[str, Any]:
        try:
            scoring.engine_for_match(Match(0, "", body.game, body.players, body.variant, body.options,
                                           None, "live", 0, 0))
        except (TrackerError, TypeError, ValueError) as e:
            raise HTTPException(422, str(e)) from None
        m = store.create_match(body.game, body.players, body.name, body.variant, body.options,
                               source="manual")
        return m.to_json()

    @app.get("/api/matches/{match_id}")
    def match_detail(match_id: int) -> dict[str, Any]:
        m = get_match(match_id)
        s = scored(m)
        return m.to_json() | {"summary": s["summary"], "turn": s["turn"], "decisions": s["decisions"],
                              "corrections": s["corrections"], "shots": len(s["log"]),
                              "score_after": s["after"]}

    @app.delete("/api/matches/{match_id}", status_code=204, dependencies=[Depends(referee)])
    def delete_match(match_id: int) -> Response:
        get_match(match_id)
        store.delete_match(match_id)
        return Response(status_code=204)

    @app.put("/api/matches/{match_id}/status", dependencies=[Depends(referee)])
    def set_status(match_id: int, body: Status) -> dict[str, Any]:
        get_match(match_id)
        store.set_status(match_id, body.status)
        return store.match(match_id).to_json()

    @app.get("/api/matches/{match_id}/events")
    def match_events(match_id: int, since: int = Query(0, ge=0)) -> list[dict[str, Any]]:
        get_match(match_id)
        return store.events(match_id, since)

    @app.get("/api/matches/{match_id}/shots")
    def match_shots(match_id: int, corrected: bool = True) -> list[dict[str, Any]]:
        m = get_match(match_id)
        return scored(m)["log"] if corrected else store.shots(match_id)

    @app.post("/api/matches/{match_id}/shots", status_code=201, dependencies=[Depends(referee)])
    def add_shot(match_id: int, body: ShotLine) -> dict[str, Any]:
        m = get_match(match_id)
        index = store.append_shot(match_id, body.entry)
        broadcast_score(m)
        return {"index": index}

    @app.get("/api/matches/{match_id}/corrections")
    def list_corrections(match_id: int) -> list[dict[str, Any]]:
        get_match(match_id)
        return store.corrections(match_id)

    @app.post("/api/matches/{match_id}/corrections", status_code=201, dependencies=[Depends(referee)])
    def correct(match_id: int, body: Correction) -> dict[str, Any]:
        m = get_match(match_id)
        before = scored(m)
        n = len(before["log"])
        limit = n if "insert_before" in body.patch else n - 1
        if body.shot > limit:
            raise HTTPException(422, f"shot {body.shot} is outside the log (0..{limit})")
        cid = store.add_correction(match_id, body.shot, body.patch, body.note)
        try:
            after = scored(m)
        except HTTPException:
            store.delete_correction(match_id, cid)
            raise
        hub.publish({"type": "correction", "match": match_id, "shot": body.shot, "note": body.note})
        broadcast_score(m)
        return {"id": cid, "summary": after["summary"], "decisions": after["decisions"]}

    @app.get("/api/matches/{match_id}/clip.mjpg")
    async def shot_clip(match_id: int, shot: int = Query(..., ge=0),
                        pad: float = Query(0.6, ge=0.0, le=5.0)) -> StreamingResponse:
        """The video of one shot (the n-th ``shot`` event), streamed once as MJPEG."""
        m = get_match(match_id)
        shots = [e for e in store.events(match_id) if e["type"] == "shot"]
        if shot >= len(shots):
            raise HTTPException(404, f"match {match_id} has {len(shots)} shot events")
        if not m.source or not Path(m.source).is_file():
            raise HTTPException(404, "the match video is not stored (live camera matches keep no video)")
        ev = shots[shot]
        t0, t1 = max(0.0, float(ev["t_start"]) - pad), float(ev["t_end"]) + pad

        async def gen() -> AsyncIterator[bytes]:
            import cv2

            cap = cv2.VideoCapture(str(m.source))
            fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
            cap.set(cv2.CAP_PROP_POS_FRAMES, int(t0 * fps))
            try:
                for _ in range(int((t1 - t0) * fps) + 1):
                    ok, frame = cap.read()
                    if not ok:
                        break
                    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
                    if ok:
                        yield mjpeg_part(buf.tobytes())
                    await asyncio.sleep(1.0 / fps)
            finally:
                cap.release()

        return StreamingResponse(gen(), media_type="multipart/x-mixed-replace; boundary=frame")

    @app.get("/api/matches/{match_id}/analytics")
    def match_analytics(match_id: int) -> dict[str, Any]:
        m = get_match(match_id)
        return scoring.analytics(m, scored(m)["log"], store.events(match_id))

    @app.get("/api/matches/{match_id}/export")
    def export(match_id: int, format: str = Query("json", pattern="^(json|csv)$")) -> Response:
        m = get_match(match_id)
        s = scored(m)
        if format == "json":
            body = {"match": m.to_json(), "summary": s["summary"], "events": store.events(match_id),
                    "shots": store.shots(match_id), "corrections": s["corrections"],
                    "decisions": s["decisions"]}
            return Response(json.dumps(body, indent=1), media_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="match-{m.id}.json"'})
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(["seq", "type", "t", "frame", "data"])
        for ev in store.events(match_id):
            rest = {k: v for k, v in ev.items() if k not in ("seq", "type", "t", "frame")}
            w.writerow([ev["seq"], ev["type"], ev["t"], ev["frame"], json.dumps(rest)])
        return Response(buf.getvalue(), media_type="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="match-{m.id}.csv"'})

    # ------------------------------------------------------------------ review uploads
    @app.post("/api/uploads", status_code=202, dependencies=[Depends(referee)])
    async def upload(request: Request, file: UploadFile, game: str = Query(..., pattern="^(crokinole|korona)$"),
                     players: int = Query(2, ge=2, le=4)) -> dict[str, Any]:
        length = request.headers.get("content-length")
        if length and int(length) > max_upload_mb * 1024 * 1024:
            raise HTTPException(413, f"upload larger than {max_upload_mb:.0f} MB")
        try:
            job = await jobs.accept(file, game, players, max_bytes=int(max_upload_mb * 1024 * 1024))
        except TrackerError as e:
            raise HTTPException(422, str(e)) from None
        return job

    @app.get("/api/jobs/{job_id}")
    def job_status(job_id: int) -> dict[str, Any]:
        job = jobs.get(job_id)
        if job is None:
            raise HTTPException(404, f"no job {job_id}")
        return job

    # ------------------------------------------------------------------ live
    @app.get("/api/live")
    def live_status() -> dict[str, Any]:
        return live.status() if live is not None else {"running": False, "message": "no camera session"}

    @app.get("/api/live/frame.jpg")
    def live_frame(session: Live, view: str = Query("camera", pattern="^(camera|board)$")) -> Response:
        jpg = session.jpeg(view)
        if jpg is None:
            raise HTTPException(503, "no frame yet")
        return Response(jpg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get("/api/live/stream.mjpg")
    async def live_stream(session: Live, view: str = Query("camera", pattern="^(camera|board)$"),
                          frames: int = Query(0, ge=0)) -> StreamingResponse:
        async def gen() -> AsyncIterator[bytes]:
            sent = 0
            while frames == 0 or sent < frames:
                jpg = session.jpeg(view)
                if jpg is not None:
                    yield mjpeg_part(jpg)
                    sent += 1
                await asyncio.sleep(0.1)

        return StreamingResponse(gen(), media_type="multipart/x-mixed-replace; boundary=frame")

    @app.post("/api/live/pause", dependencies=[Depends(referee)])
    def live_pause(session: Live) -> dict[str, Any]:
        session.pause()
        return session.status()

    @app.post("/api/live/resume", dependencies=[Depends(referee)])
    def live_resume(session: Live) -> dict[str, Any]:
        session.resume()
        return session.status()

    @app.post("/api/live/calibrate", dependencies=[Depends(referee)])
    def live_calibrate(body: ClickPoints, session: Live) -> dict[str, Any]:
        try:
            return session.calibrate_points(body.points, body.south)
        except TrackerError as e:
            raise HTTPException(422, str(e)) from None

    @app.post("/api/live/south", dependencies=[Depends(referee)])
    def live_south(body: South, session: Live) -> dict[str, Any]:
        try:
            return session.set_south(body.south)
        except TrackerError as e:
            raise HTTPException(422, str(e)) from None

    @app.websocket("/ws")
    async def ws(socket: WebSocket) -> None:
        await socket.accept()
        q = hub.subscribe()
        try:
            if live is not None:
                await socket.send_text(json.dumps({"type": "status", **live.status()}))
                if live.match_id is not None:
                    m = store.match(live.match_id)
                    s = scored(m)
                    await socket.send_text(json.dumps({"type": "score", "match": m.id, "summary": s["summary"],
                                                       "turn": s["turn"], "decisions": s["decisions"][-10:]}))
            while True:
                await socket.send_text(await q.get())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.unsubscribe(q)

    return app


def mjpeg_part(jpg: bytes) -> bytes:
    """One frame of a ``multipart/x-mixed-replace`` MJPEG stream."""
    return b"--frame\r\nContent-Type: image/jpeg\r\n\r\n" + jpg + b"\r\n"


def _page(name: str) -> Any:
    def page() -> HTMLResponse:
        return HTMLResponse((STATIC / name).read_text())

    page.__name__ = f"page_{name.split('.')[0]}"
    return page
