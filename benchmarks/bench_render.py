"""Render speed of synthetic matches at 1280x720 (easy and hard presets), and fixture sizes.

    .venv/bin/python benchmarks/bench_render.py [--quick]

For each preset and game a short match is simulated, then frames spread over it are rendered
one by one (with their motion-blur sub-frames, as ``tracker synth`` does). Reported: the median
and worst frames per second over those frames, the median per sub-frame render, and how many
sub-frames a frame needed. The first frame of each camera (board texture and ray-cast set-up)
is timed apart. Then the size of every fixture in fixtures/videos/.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tracker.render import Renderer  # noqa: E402
from tracker.sim.match import MatchConfig, run_match  # noqa: E402
from tracker.sim.output import n_frames, subframes  # noqa: E402

SIZE = (1280, 720)
FPS = 30.0


def bench(game: str, preset: str, frames: int) -> dict[str, float]:
    m = run_match(MatchConfig(game, 2, seed=11, preset=preset, max_shots=3, camera_bump=False, size=SIZE))
    total = n_frames(m, FPS)
    r = Renderer(m.board, m.look, SIZE, 11)
    cam = m.timeline.camera_at(0.0)
    t0 = time.perf_counter()
    r.render([m.timeline.scene_at(0.0)], cam, 0)
    setup = time.perf_counter() - t0
    step = max(1, total // frames)
    per_frame, per_sub, subs = [], [], []
    for i in range(1, total, step):
        sf = subframes(m, i, FPS)
        t0 = time.perf_counter()
        r.render(sf, m.timeline.camera_at(i / FPS), i)
        dt = time.perf_counter() - t0
        per_frame.append(dt)
        per_sub.append(dt / len(sf))
        subs.append(len(sf))
    return {
        "frames": len(per_frame),
        "setup_s": setup,
        "fps_median": 1.0 / statistics.median(per_frame),
        "fps_worst": 1.0 / max(per_frame),
        "subframe_fps_median": 1.0 / statistics.median(per_sub),
        "subframes_mean": statistics.mean(subs),
        "subframes_max": max(subs),
    }


def fixture_sizes() -> list[tuple[str, int, int]]:
    out = []
    base = ROOT / "fixtures" / "videos"
    if base.is_dir():
        for d in sorted(p for p in base.iterdir() if p.is_dir()):
            files = [p.stat().st_size for p in d.iterdir() if p.is_file()]
            out.append((d.name, sum(files), max(files, default=0)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description="render speed and fixture sizes")
    ap.add_argument("--quick", action="store_true", help="fewer frames")
    args = ap.parse_args()
    n = 12 if args.quick else 60
    print(f"render speed at {SIZE[0]}x{SIZE[1]}, one core, {n} frames spread over a 3-shot match")
    print(f"{'game':10} {'preset':6} {'frames':>6} {'setup s':>8} {'fps med':>8} {'fps worst':>9} "
          f"{'sub fps':>8} {'subs avg':>8} {'subs max':>8}")
    for game in ("crokinole", "korona"):
        for preset in ("easy", "hard"):
            b = bench(game, preset, n)
            print(f"{game:10} {preset:6} {b['frames']:6d} {b['setup_s']:8.2f} {b['fps_median']:8.1f} "
                  f"{b['fps_worst']:9.1f} {b['subframe_fps_median']:8.1f} {b['subframes_mean']:8.2f} "
                  f"{b['subframes_max']:8d}", flush=True)
    sizes = fixture_sizes()
    if sizes:
        print("\nfixtures (fixtures/videos)")
        print(f"{'name':28} {'MB':>6} {'largest file MB':>16}")
        for name, total, largest in sizes:
            print(f"{name:28} {total / 1e6:6.2f} {largest / 1e6:16.2f}")
        print(f"{'total':28} {sum(s[1] for s in sizes) / 1e6:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
