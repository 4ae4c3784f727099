"""Renderer micro-benchmark: set-up, per-camera ray cast, and frames per second per sub-frame.

Run: ``.venv/bin/python benchmarks/bench_renderer.py [WIDTH HEIGHT]``. Prints a table. Times are
CPU seconds of this process (``time.process_time``), so they mean one core even on a busy
machine; wall-clock fps is printed beside them. (``bench_render.py`` times whole synthetic
matches; this one times the renderer alone on fixed scenes.)
"""

from __future__ import annotations

import sys
import time

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.render import Renderer, sample_camera, sample_look
from tracker.render.samples import crokinole_scene, korona_scene, motion_subframes


def _timed(fn) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    c0, w0 = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c0, time.perf_counter() - w0


def bench(game: str, preset: str, size: tuple[int, int], frames: int = 12) -> dict[str, float]:
    rng = np.random.default_rng(3)
    board = CrokinoleBoard() if game == "crokinole" else KoronaBoard()
    look = sample_look(preset, rng, game)
    cam = sample_camera(preset, rng, size, game)
    holder: list[Renderer] = []
    setup, _ = _timed(lambda: holder.append(Renderer(board, look, size, 3)))
    r = holder[0]
    camera, _ = _timed(lambda: r.static_image(cam))
    scene = crokinole_scene(board, rng) if isinstance(board, CrokinoleBoard) else korona_scene(
        board, rng)
    one_cpu, one_wall = _timed(lambda: [r.render([scene], cam, frame_index=i)
                                        for i in range(frames)])
    subs = motion_subframes(scene, scene.discs[0].id, 100.0, 0.0, 8)
    n = max(1, frames // 4)
    blur_cpu, _ = _timed(lambda: [r.render(subs, cam, frame_index=i) for i in range(n)])
    return {"setup": setup, "camera": camera, "fps": frames / one_cpu,
            "fps_wall": frames / one_wall, "sub_fps": 8 * n / blur_cpu}


def main() -> None:
    size = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (1280, 720)
    print(f"renderer at {size[0]}x{size[1]}: CPU seconds of one core (wall fps beside)")
    print(f"{'game':10} {'preset':6} {'setup s':>8} {'camera s':>9} {'fps':>6} {'fps wall':>9} "
          f"{'sub-frames/s':>13}")
    for game in ("crokinole", "korona"):
        for preset in ("easy", "hard"):
            b = bench(game, preset, size)
            print(f"{game:10} {preset:6} {b['setup']:8.2f} {b['camera']:9.2f} {b['fps']:6.1f} "
                  f"{b['fps_wall']:9.1f} {b['sub_fps']:13.1f}")


if __name__ == "__main__":
    main()
