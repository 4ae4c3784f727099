"""Disc detection on rendered frames: recall, precision, position error at rest, time per frame.

Frames come from the project's renderer (``tracker.render``: random looks and cameras of the
``easy`` and ``hard`` presets, 1280x720) with discs at rest at known positions. The detector gets
the true calibration (homography and lens), so the figures are the detector's own; a second row
per preset uses the automatic calibration (``calibrate_image``) where it succeeds, to show the
end-to-end error. Run: ``python benchmarks/bench_detect.py [--frames N] [--quick]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tracker.boards import CrokinoleBoard  # noqa: E402
from tracker.calibration.datatypes import Calibration  # noqa: E402
from tracker.detect.detector import DiscDetector  # noqa: E402

SIZE = (1280, 720)


def random_discs(rng: np.random.Generator, board: CrokinoleBoard, n: int) -> list[tuple[float, float, int]]:
    out: list[tuple[float, float, int]] = []
    r = board.disc_radius
    while len(out) < n:
        rho = board.surface_radius * np.sqrt(rng.uniform(0.02, 0.85))
        a = rng.uniform(0, 2 * np.pi)
        x, y = rho * np.cos(a), rho * np.sin(a)
        if np.hypot(x, y) < board.hole_radius + r + 2:
            continue
        if any(np.hypot(x - u, y - v) < 2 * r + 0.5 for u, v, _ in out):
            continue
        if any(np.hypot(x - px, y - py) < r + board.peg_diameter / 2 + 0.5 for px, py in board.peg_positions()):
            continue
        out.append((float(x), float(y), len(out) % 2))
    return out


def frame(seed: int, preset: str) -> tuple[np.ndarray, Calibration, list[tuple[float, float, int]]]:
    from tracker.render import DiscSprite, Renderer, SceneFrame, intrinsics, sample_camera, sample_look, true_homography

    rng = np.random.default_rng(seed)
    board = CrokinoleBoard()
    look = sample_look(preset, rng, "crokinole")
    cam = sample_camera(preset, rng, SIZE, "crokinole")  # type: ignore[arg-type]
    discs = random_discs(rng, board, int(rng.integers(6, 15)))
    sprites = tuple(DiscSprite(id=f"d{i}", x=x, y=y, radius=board.disc_radius, thickness=board.disc_thickness,
                               side=s, angle=float(rng.uniform(0, 6.28))) for i, (x, y, s) in enumerate(discs))
    img = Renderer(board, look, SIZE, seed).render([SceneFrame(t=0.0, discs=sprites)], cam)
    K, dist = intrinsics(cam, SIZE)
    calib = Calibration(homography=true_homography(cam, SIZE), image_size=SIZE, rms_mm=0.0, board=board,
                        camera_matrix=K, dist_coeffs=dist, method="truth")
    return img, calib, discs


def match(xy: np.ndarray, truth: list[tuple[float, float, int]], tol: float = 6.0) -> tuple[list[float], int, int]:
    errs: list[float] = []
    used = np.zeros(len(xy), bool)
    for x, y, _ in truth:
        if len(xy) == 0:
            break
        e = np.hypot(xy[:, 0] - x, xy[:, 1] - y)
        e[used] = np.inf
        j = int(np.argmin(e))
        if e[j] <= tol:
            errs.append(float(e[j]))
            used[j] = True
    return errs, len(truth) - len(errs), int((~used).sum())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--frames", type=int, default=12, help="frames per preset")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 3 if args.quick else args.frames
    try:
        import tracker.render  # noqa: F401
    except ImportError:
        print("bench_detect: the renderer (tracker.render) is not available; nothing to measure")
        return 0
    from tracker.calibration import calibrate_image
    from tracker.errors import TrackerError

    print(f"{'preset':8} {'calib':6} {'frames':>6} {'discs':>6} {'recall':>7} {'precis':>7} "
          f"{'med mm':>7} {'p95 mm':>7} {'max mm':>7} {'ms/frame':>9}")
    for preset in ("easy", "hard"):
        rows: dict[str, dict[str, list[float]]] = {k: {"err": [], "miss": [], "extra": [], "ms": [], "n": []}
                                                   for k in ("true", "auto")}
        for seed in range(n):
            img, calib, truth = frame(1000 * (preset == "hard") + seed, preset)
            calibs = {"true": calib}
            try:
                calibs["auto"] = calibrate_image(img, "crokinole")
            except TrackerError:
                pass
            for key, c in calibs.items():
                det = DiscDetector(c, "crokinole")
                det.detect(img)  # warm-up (FFT plans, first-call costs)
                t0 = time.perf_counter()
                dets = det.detect(img)
                ms = 1e3 * (time.perf_counter() - t0)
                on = dets.xy[np.hypot(dets.xy[:, 0], dets.xy[:, 1]) < 340]
                errs, miss, extra = match(on, truth)
                r = rows[key]
                r["err"] += errs
                r["miss"].append(miss)
                r["extra"].append(extra)
                r["ms"].append(ms)
                r["n"].append(len(truth))
        for key, r in rows.items():
            if not r["n"]:
                print(f"{preset:8} {key:6} {0:>6}   (automatic calibration failed on every frame)")
                continue
            total = sum(r["n"])
            found = total - sum(r["miss"])
            err = np.array(r["err"]) if r["err"] else np.array([np.nan])
            print(f"{preset:8} {key:6} {len(r['n']):>6} {int(total):>6} {found / total:>7.3f} "
                  f"{found / max(found + sum(r['extra']), 1):>7.3f} {np.median(err):>7.2f} "
                  f"{np.percentile(err, 95):>7.2f} {err.max():>7.2f} {np.median(r['ms']):>9.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
