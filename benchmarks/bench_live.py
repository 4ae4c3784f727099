"""Live play: latency from the last disc stopping to the score on the scoreboard socket, frames
dropped at the camera rate, and memory over a long run (no growth).

    python benchmarks/bench_live.py [--quick] [--video V] [--minutes M]

* Latency: `tracker live`'s session plays a fixture in real time as its camera, behind the real web
  app on a loopback port; a WebSocket client (what the page runs) receives the score. The moment
  the last disc stopped comes from the fixture's per-frame truth (frames.jsonl); the playback clock
  maps it to wall time.
* Dropped frames: the same at 1280x720 30 fps (a clip rendered by `tracker synth` once, cached).
* Memory: the session loops a video for M minutes; resident memory is sampled every 10 s and the
  growth per hour is fitted after the first minute (warm-up).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIXTURES = ROOT / "fixtures" / "videos"
SCORING = ("crokinole_2p_round",)


def stop_times(fixture: Path) -> list[float]:
    """Video times at which every disc came to rest after moving (the end of each shot)."""
    out, moving_before = [], False
    for line in (fixture / "frames.jsonl").read_text().splitlines():
        f = json.loads(line)
        moving = any(d.get("moving") for d in f["discs"])
        if moving_before and not moving:
            out.append(float(f["t"]))
        moving_before = moving
    return out


def serve(app, port: int):  # type: ignore[no-untyped-def]
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    while not server.started:
        time.sleep(0.05)
    return server, th


def run_session(video: Path, game: str, seconds_cap: float, loop: bool = False,
                on_score=None, sample=None):  # type: ignore[no-untyped-def]
    from tests.app.livehelp import free_port
    from tracker.app.live import LiveSession
    from tracker.app.processor import PipelineProcessor
    from tracker.app.server import create_app
    from tracker.app.store import Store

    tmp = Path(tempfile.mkdtemp(prefix="bench-live-"))
    store = Store(tmp / "m.db")
    session = LiveSession(store, str(video), game, 2, PipelineProcessor(game, 2), realtime=True)
    session.source.loop = loop
    app = create_app(store, token="bench", live=session)
    port = free_port()
    server, th = serve(app, port)
    received: list[tuple[float, dict]] = []

    async def listen() -> None:
        import websockets

        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ready.set()
            while True:
                try:
                    msg = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    if stop.is_set():
                        return
                    continue
                if sample is None:  # a soak keeps nothing, so only the server's memory is measured
                    received.append((time.monotonic(), json.loads(msg)))

    ready, stop = threading.Event(), threading.Event()
    lt = threading.Thread(target=lambda: asyncio.run(listen()), daemon=True)
    lt.start()
    ready.wait(10)
    t0 = time.monotonic()
    session.start()
    start_wall = time.monotonic()
    next_sample = t0
    while not session.finished and time.monotonic() - t0 < seconds_cap:
        time.sleep(0.05)
        if sample is not None and time.monotonic() >= next_sample:
            sample(time.monotonic() - t0)
            next_sample += 10.0
    stop.set()
    lt.join(5)
    status = session.status()
    session.stop()
    server.should_exit = True
    th.join(5)
    return start_wall, received, status


def latency(quick: bool, folders: list[Path]) -> tuple[list[float], dict]:
    """For every score pushed after a shot: its arrival minus the moment the last disc stopped
    (the latest stop in the truth before that arrival, on the playback clock)."""
    lat: list[float] = []
    status: dict = {}
    for fx in folders:
        stops = stop_times(fx)
        start_wall, received, status = run_session(fx / "video.mp4", "crokinole", 30 if quick else 600)
        for t, m in received:
            if m.get("type") != "score" or t - start_wall < 1.0:
                continue
            before = [s for s in stops if start_wall + s <= t]
            if before:
                lat.append((t - (start_wall + before[-1])) * 1000.0)
    return lat, status


def hd_clip() -> Path:
    cache = Path(tempfile.gettempdir()) / "tracker-bench-live-720p"
    if not (cache / "video.mp4").exists():
        subprocess.run([sys.executable, "-m", "tracker", "synth", "--game", "crokinole", "--players", "2",
                        "--seed", "4242", "--size", "1280x720", "--fps", "30", "--max-shots", "4",
                        "--out", str(cache)], check=True)
    return cache / "video.mp4"


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--minutes", type=float, default=None, help="soak length (default 10, quick 1)")
    args = ap.parse_args()
    minutes = args.minutes if args.minutes is not None else (1.0 if args.quick else 10.0)

    video = hd_clip()
    print("| measure | value |\n|---|---|")
    for folder, label in ((FIXTURES / SCORING[0], "fixture 480x270 10 fps"), (video.parent, "1280x720 30 fps")):
        lat, _ = latency(args.quick, [folder])
        if lat:
            print(f"| {label}: last disc stopped -> score on the socket, median / worst of {len(lat)} | "
                  f"{statistics.median(lat):.0f} / {max(lat):.0f} ms |")
        else:
            print(f"| {label}: latency | no scoring shot seen |")

    _, _, st = run_session(video, "crokinole", 600)
    read = max(1, st["frames_read"])
    print(f"| 1280x720 30 fps: frames processed / read | {st['frames_processed']} / {st['frames_read']} "
          f"({100.0 * st['frames_processed'] / read:.0f}%) |")
    print(f"| 1280x720 30 fps: frames dropped | {st['frames_dropped']} ({100.0 * st['frames_dropped'] / read:.0f}%) |")

    samples: list[tuple[float, float]] = []
    run_session(video, "crokinole", minutes * 60.0, loop=True,
                sample=lambda t: samples.append((t, rss_mb())))
    warm_up = min(60.0, minutes * 60.0 * 0.2)
    warm = [(t, m) for t, m in samples if t >= warm_up]
    if len(warm) < 2:
        warm = samples
    if len(warm) >= 2:
        n = len(warm)
        mt = sum(t for t, _ in warm) / n
        mm = sum(m for _, m in warm) / n
        slope = sum((t - mt) * (m - mm) for t, m in warm) / max(1e-9, sum((t - mt) ** 2 for t, _ in warm))
        print(f"| memory over {minutes:g} min loop: first / last / peak | {warm[0][1]:.0f} / {warm[-1][1]:.0f} / "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB |")
        print(f"| memory growth (fit after warm-up) | {slope * 3600:.1f} MB per hour |")


if __name__ == "__main__":
    main()
