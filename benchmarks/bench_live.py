"""Live play: latency from the last disc stopping to the score on the scoreboard socket, frames
dropped at the camera rate, and memory over a long run (no growth).

    python benchmarks/bench_live.py [--quick] [--minutes M] [--soak-only] [--csv FILE]

* Latency: `tracker live`'s session plays a fixture in real time as its camera, behind the real web
  app on a loopback port; a WebSocket client (what the page runs) receives the score. The moment
  the last disc stopped comes from the fixture's per-frame truth (frames.jsonl); the source's
  playback clock (``FrameSource.clock_origin``) maps it to wall time.
* Dropped frames: the same at 1280x720 30 fps (a clip rendered by `tracker synth` once, cached).
* Soak: the 720p clip looped as a camera at its own frame rate for M minutes (default 60), with
  what the scoreboard page does connected the whole time: the WebSocket, both views polled as
  JPEG every 400 ms, the status every 2 s, plus one MJPEG stream of the camera view. Resident
  memory (and its anonymous part, from /proc/self/smaps_rollup) is sampled every 30 s; the growth
  is a least-squares line through the samples after the warm-up (the first 5 minutes, or a fifth
  of a shorter run). Latency and dropped frames are reported from the same run: a looping clip
  keeps one continuous clock, so every loop's shots are new shots.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import numpy as np

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


def clip_length(fixture: Path) -> float:
    """Seconds of video in one play of the clip (its frame count over its rate)."""
    import cv2

    cap = cv2.VideoCapture(str(fixture / "video.mp4"))
    n, fps = cap.get(cv2.CAP_PROP_FRAME_COUNT), cap.get(cv2.CAP_PROP_FPS) or 30.0
    cap.release()
    return float(n) / float(fps)


def serve(app, port: int):  # type: ignore[no-untyped-def]
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    while not server.started:
        time.sleep(0.05)
    return server, th


def page_client(port: int, stop: threading.Event) -> None:
    """What scoreboard.html does besides its socket: both views every 400 ms, status every 2 s."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    k = 0
    while not stop.is_set():
        try:
            for view in ("camera", "board"):
                conn.request("GET", f"/api/live/frame.jpg?view={view}&t={time.time()}")
                conn.getresponse().read()
            if k % 5 == 0:
                conn.request("GET", "/api/live")
                conn.getresponse().read()
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        k += 1
        stop.wait(0.4)
    conn.close()


def mjpeg_client(port: int, stop: threading.Event) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/live/stream.mjpg?view=camera", timeout=10) as r:
        while not stop.is_set():
            if not r.read(65536):
                return


class Scores:
    """Latency of every score pushed after a shot: its arrival minus the moment the last disc
    stopped (the latest truth stop, shifted by whole plays of a looping clip, before it)."""

    def __init__(self, stops: list[float], length: float):
        self.stops, self.length = np.array(stops), length
        self.latency_ms: list[float] = []
        self.messages = 0

    def arrived(self, wall: float, clock_origin: float) -> None:
        video_t = wall - clock_origin
        if video_t < 1.0 or not len(self.stops):
            return
        loop = np.floor(video_t / self.length)
        cands = np.concatenate([self.stops + loop * self.length, self.stops + (loop - 1) * self.length])
        before = cands[cands <= video_t]
        if len(before):
            self.latency_ms.append((video_t - float(before.max())) * 1000.0)


def run_session(fixture: Path, game: str, seconds_cap: float, loop: bool = False, page: bool = False,
                sample: Callable[[float, dict], None] | None = None, every: float = 30.0) -> tuple[Scores, dict]:
    from tests.app.livehelp import free_port
    from tracker.app.live import LiveSession
    from tracker.app.processor import PipelineProcessor
    from tracker.app.server import create_app
    from tracker.app.store import Store

    tmp = Path(tempfile.mkdtemp(prefix="bench-live-"))
    store = Store(tmp / "m.db")
    session = LiveSession(store, str(fixture / "video.mp4"), game, 2, PipelineProcessor(game, 2), realtime=True)
    session.source.loop = loop
    app = create_app(store, token="bench", live=session)
    port = free_port()
    server, th = serve(app, port)
    scores = Scores(stop_times(fixture), clip_length(fixture))
    ready, stop = threading.Event(), threading.Event()

    async def listen() -> None:
        import websockets

        async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
            ready.set()
            while not stop.is_set():
                try:
                    msg = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                scores.messages += 1
                if json.loads(msg).get("type") == "score":
                    scores.arrived(time.monotonic(), session.source.clock_origin)

    threads = [threading.Thread(target=lambda: asyncio.run(listen()), daemon=True)]
    if page:
        threads += [threading.Thread(target=page_client, args=(port, stop), daemon=True),
                    threading.Thread(target=mjpeg_client, args=(port, stop), daemon=True)]
    threads[0].start()
    ready.wait(10)
    session.start()
    for t in threads[1:]:
        t.start()
    t0 = time.monotonic()
    next_sample = t0
    while not session.finished and time.monotonic() - t0 < seconds_cap:
        time.sleep(0.05)
        if sample is not None and time.monotonic() >= next_sample:
            sample(time.monotonic() - t0, session.status())
            next_sample += every
    stop.set()
    for t in threads:
        t.join(5)
    status = session.status() | {"loops": session.source.loops, "error": session.error, "trims": session.trims}
    session.stop()
    server.should_exit = True
    th.join(5)
    store.close()
    return scores, status


def hd_clip() -> Path:
    cache = Path(tempfile.gettempdir()) / "tracker-bench-live-720p"
    if not (cache / "video.mp4").exists():
        subprocess.run([sys.executable, "-m", "tracker", "synth", "--game", "crokinole", "--players", "2",
                        "--seed", "4242", "--size", "1280x720", "--fps", "30", "--max-shots", "4",
                        "--out", str(cache)], check=True)
    return cache


def memory_mb() -> dict[str, float]:
    """Resident and anonymous memory of this process in MB (smaps_rollup), and its threads."""
    out: dict[str, float] = {}
    with open("/proc/self/smaps_rollup") as fh:
        for line in fh:
            key, value = line.split()[:2]
            if key in ("Rss:", "Anonymous:"):
                out[key[:-1].lower()] = int(value) / 1024.0
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("Threads:"):
                out["threads"] = float(line.split()[1])
    return out


def slope_per_hour(samples: list[tuple[float, float]]) -> float:
    t = np.array([s[0] for s in samples])
    m = np.array([s[1] for s in samples])
    return float(np.polyfit(t, m, 1)[0] * 3600.0) if len(samples) >= 3 else float("nan")


def floor(samples: list[dict[str, float]], window: float) -> list[tuple[float, float]]:
    """(window middle, lowest RSS in it) for consecutive windows of ``window`` seconds: what stays
    resident, without the transient peaks a sample happens to catch (a refit's temporaries)."""
    out: dict[int, tuple[float, float]] = {}
    for s in samples:
        k = int(s["t"] // window)
        if k not in out or s["rss"] < out[k][1]:
            out[k] = ((k + 0.5) * window, s["rss"])
    return sorted(out.values())


def latency_row(label: str, scores: Scores) -> str:
    lat = scores.latency_ms
    if not lat:
        return f"| {label}: latency | no scoring shot seen |"
    return (f"| {label}: last disc stopped -> score on the socket, median / worst of {len(lat)} | "
            f"{statistics.median(lat):.0f} / {max(lat):.0f} ms |")


def frames_rows(label: str, st: dict) -> list[str]:
    read = max(1, st["frames_read"])
    return [f"| {label}: frames processed / read | {st['frames_processed']} / {st['frames_read']} "
            f"({100.0 * st['frames_processed'] / read:.0f}%) |",
            f"| {label}: frames dropped | {st['frames_dropped']} ({100.0 * st['frames_dropped'] / read:.0f}%) |"]


def soak(minutes: float, csv: Path | None) -> list[str]:
    clip = hd_clip()
    samples: list[dict[str, float]] = []

    def sample(t: float, st: dict) -> None:
        row = {"t": t, **memory_mb(), "read": st["frames_read"], "processed": st["frames_processed"],
               "dropped": st["frames_dropped"]}
        samples.append(row)
        print(f"  t={t / 60:5.1f} min  rss {row['rss']:6.1f} MB  anon {row['anonymous']:6.1f} MB  "
              f"processed {row['processed']}/{row['read']}", file=sys.stderr, flush=True)

    scores, st = run_session(clip, "crokinole", minutes * 60.0, loop=True, page=True, sample=sample)
    if csv is not None:
        keys = list(samples[0])
        csv.write_text("\n".join([",".join(keys)] + [",".join(f"{s[k]:.2f}" for k in keys) for s in samples]) + "\n")
    warm_up = min(300.0, minutes * 60.0 * 0.2)
    warm = [s for s in samples if s["t"] >= warm_up] or samples
    label = f"soak {minutes:g} min, 1280x720 30 fps looped, page + socket + MJPEG connected"
    rows = [f"| {label}: RSS at start / after warm-up ({warm_up / 60:.0f} min) / end / peak | "
            f"{samples[0]['rss']:.0f} / {warm[0]['rss']:.0f} / {samples[-1]['rss']:.0f} / "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB |",
            f"| soak: RSS growth after warm-up (least squares over {len(warm)} samples every 30 s) | "
            f"{slope_per_hour([(s['t'], s['rss']) for s in warm]):+.1f} MB per hour |",
            f"| soak: anonymous memory growth after warm-up | "
            f"{slope_per_hour([(s['t'], s['anonymous']) for s in warm]):+.1f} MB per hour |",
            f"| soak: floor growth (line through the lowest RSS of each 5 min after warm-up: transient "
            f"peaks left out) | {slope_per_hour(floor(warm, 300.0)):+.1f} MB per hour |",
            latency_row("soak", scores), *frames_rows("soak", st),
            f"| soak: plays of the clip / socket messages / heap trims / session error | {st['loops']} / "
            f"{scores.messages} / {st['trims']} / {st['error'] or 'none'} |"]
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="30 s latency runs and a 3 min soak")
    ap.add_argument("--minutes", type=float, default=None, help="soak length (default 60, quick 3)")
    ap.add_argument("--soak-only", "--soak", action="store_true", help="only the soak")
    ap.add_argument("--csv", type=Path, default=None, help="write the soak's memory samples here")
    args = ap.parse_args()
    minutes = args.minutes if args.minutes is not None else (3.0 if args.quick else 60.0)

    rows = []
    if not args.soak_only:
        clip = hd_clip()
        scores, _ = run_session(FIXTURES / SCORING[0], "crokinole", 30 if args.quick else 600)
        rows.append(latency_row("fixture 480x270 10 fps", scores))
        scores, st = run_session(clip, "crokinole", 600)
        rows += [latency_row("1280x720 30 fps", scores), *frames_rows("1280x720 30 fps", st)]
    rows += soak(minutes, args.csv)
    print("| measure | value |\n|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
