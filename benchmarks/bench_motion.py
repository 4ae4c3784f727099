"""Benchmark of fast discs: are discs seen while they slide (sharp or as streaks)?

    python benchmarks/bench_motion.py [MATCH_DIR ...] [--png DIR] [--all-frames]

Runs the review pipeline over each rendered match (default: the fixtures in fixtures/videos/) and
compares what the detector handed the tracker with the per-frame truth (``frames.jsonl``):

* moving recall: truth discs on the surface that move faster than ``--min-speed`` mm per frame,
  with a detection (any kind) within ``--near`` mm of where the disc was at mid-exposure;
* streak recall: the share of those found as streaks (rows with a non-zero ``streak``);
* false streaks: streak rows with no disc in motion (any speed, or carried) within ``--near`` mm
  (per 100 counted movers);
* streak centre error (median / p95 mm) of matched streaks, and the streak length error;
* the share of frames the detector ran on, and ms per frame of the whole pipeline.

``--png DIR`` writes, per match, crops of the coarse view around moving discs with the streaks
drawn (green: found, red: missed moving disc, yellow: false streak) for a person to look at.
Discs carried by a hand (state ``lifted``) are not counted: the hand hides them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tracker.pipeline import Pipeline  # noqa: E402
from tracker.pipeline.pipeline import FrameResult  # noqa: E402
from tracker.pipeline.video import VideoSource  # noqa: E402


def run(folder: Path, near: float, min_step: float, png: Path | None) -> dict[str, Any]:
    truth = json.loads((folder / "truth.json").read_text())
    rows = [json.loads(x) for x in (folder / "frames.jsonl").read_text().splitlines() if x.strip()]
    by_frame = {r["frame"]: r for r in rows}
    src = VideoSource(folder / "video.mp4")
    seen: dict[int, tuple[np.ndarray, FrameResult]] = {}

    def on_frame(frame: np.ndarray, res: FrameResult) -> None:
        seen[res.index] = (frame, res)

    p = Pipeline(truth["game"], int(truth["players"]), fps=src.info.fps, on_frame=on_frame)
    t0 = time.perf_counter()
    n = 0
    keep: dict[int, np.ndarray] = {}
    for index, t, frame in src:
        p.process(frame, t, index)
        n += 1
        keep[index] = frame
        if len(keep) > 40:
            keep.pop(min(keep))
        # evaluate as we go (frames are large at 720p)
        for k in list(seen):
            _, res = seen.pop(k)
            _score(k, res, by_frame, near, min_step, stats, p, keep.get(k), png, folder.name)
    p.finish()
    ms = 1000 * (time.perf_counter() - t0) / max(n, 1)
    stats["ms"] = ms
    stats["detected"] = p.frames_detected / max(n, 1)
    return stats


stats: dict[str, Any] = {}


def _reset() -> None:
    stats.clear()
    stats.update(moving=0, found=0, streak=0, false=0, err=[], len_err=[], pngs=0)


def _score(k: int, res: FrameResult, by_frame: dict[int, Any], near: float, min_step: float,
           st: dict[str, Any], p: Pipeline, frame: np.ndarray | None, png: Path | None, name: str) -> None:
    row = by_frame.get(k)
    prev, nxt = by_frame.get(k - 1), by_frame.get(k + 1)
    if row is None or res.detections is None:
        return
    dets = res.detections
    to_mine = _truth_to_pipeline(row, p)
    movers: list[tuple[np.ndarray, float]] = []
    # anything in motion (any speed, carried by a hand too) may rightly show as a streak
    anything = [to_mine(np.array([d["x_mm"], d["y_mm"]])) for d in row["discs"] if d.get("moving")]
    for d in row["discs"]:
        if d.get("state") != "surface" or not d.get("moving"):
            continue
        xy = np.array([d["x_mm"], d["y_mm"]])
        # the disc's travel per frame, from its neighbours in time
        step = 0.0
        for other in (prev, nxt):
            if other is None:
                continue
            for e in other["discs"]:
                if e["id"] == d["id"]:
                    step = max(step, float(np.hypot(e["x_mm"] - xy[0], e["y_mm"] - xy[1])))
        if step >= min_step:
            movers.append((to_mine(xy), step))
    is_streak = np.hypot(*dets.streak.T) > 0 if len(dets) else np.zeros(0, bool)
    found_any = False
    miss: list[np.ndarray] = []
    for xy, step in movers:
        st["moving"] += 1
        d = np.hypot(*(dets.xy - xy).T) if len(dets) else np.zeros(0)
        if len(d) and d.min() <= near:
            st["found"] += 1
            found_any = True
            j = int(np.argmin(d))
            if is_streak[j]:
                st["streak"] += 1
                st["err"].append(float(d[j]))
                # blur length over the exposure: half the frame step (shutter 0.5)
                st["len_err"].append(float(np.hypot(*dets.streak[j])) - 0.5 * step)
        else:
            miss.append(xy)
    false = []
    for j in map(int, np.nonzero(is_streak)[0]):
        if not any(np.hypot(*(dets.xy[j] - xy)) <= near for xy in anything):
            st["false"] += 1
            false.append(j)
    if png is not None and frame is not None and (movers or false) and st["pngs"] < 200 and hasattr(p, "detector"):
        _draw(png, name, k, frame, p, dets, is_streak, miss, false, [m for m, _ in movers])
        st["pngs"] += 1
    del found_any


def _truth_to_pipeline(row: dict[str, Any], p: Pipeline) -> Any:
    """Truth board mm -> the pipeline's board mm, through the image (the pipeline may have
    fitted the board turned by a symmetry of it, or a little off)."""
    calib = p.calib
    if calib is None:
        return lambda xy: xy
    G = np.linalg.inv(np.array(row["homography"], float))

    def f(xy: np.ndarray) -> np.ndarray:
        q = G @ np.array([xy[0], xy[1], 1.0])
        return np.asarray(calib.to_board(np.array([[q[0] / q[2], q[1] / q[2]]]))[0])

    return f


def _draw(out: Path, name: str, k: int, frame: np.ndarray, p: Pipeline, dets: Any, is_streak: np.ndarray,
          miss: list[np.ndarray], false: list[int], movers: list[np.ndarray]) -> None:
    import cv2

    det = p.detector
    view = det.rectify(frame)
    scale = 3
    big = cv2.resize(view, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    v = det.view

    def px(xy: np.ndarray) -> tuple[int, int]:
        u = v.to_px(np.asarray(xy, float).reshape(1, 2))[0] * scale
        return int(round(u[0])), int(round(u[1]))

    r = int(round(det.board.disc_radius / v.mm_per_px * scale))
    for j in range(len(dets)):
        c = px(dets.xy[j])
        if is_streak[j]:
            a = dets.xy[j] - dets.streak[j] / 2
            b = dets.xy[j] + dets.streak[j] / 2
            colour = (0, 255, 255) if j in false else (0, 255, 0)
            cv2.line(big, px(a), px(b), colour, 2)
            cv2.circle(big, c, r, colour, 1)
        else:
            cv2.circle(big, c, r, (255, 128, 0), 1)
    for m in movers:
        cv2.drawMarker(big, px(m), (255, 255, 255), cv2.MARKER_CROSS, 10, 1)
    for m in miss:
        cv2.circle(big, px(m), 2 * r + 3, (0, 0, 255), 2)
    out.mkdir(parents=True, exist_ok=True)
    tag = "F" if false else ("M" if miss else "")
    cv2.imwrite(str(out / f"{name}_{k:04d}{tag}.png"), big)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--near", type=float, default=20.0, help="mm: a detection this close finds a mover")
    ap.add_argument("--min-step", type=float, default=30.0, help="mm per frame: slower discs are not counted")
    ap.add_argument("--png", type=Path, default=None)
    args = ap.parse_args()
    folders = args.folders or sorted(p.parent for p in (ROOT / "fixtures" / "videos").glob("*/video.mp4"))
    head = f"{'match':28} {'movers':>7} {'found':>6} {'streak':>7} {'false/100':>10} {'err med/p95':>12} {'len err':>8} {'det%':>5} {'ms/fr':>6}"
    print(head)
    print("-" * len(head))
    tot = {"moving": 0, "found": 0, "streak": 0, "false": 0}
    errs: list[float] = []
    for f in folders:
        _reset()
        try:
            s = run(f, args.near, args.min_step, args.png)
        except Exception as err:  # a bench reports, it does not stop
            print(f"{f.name:28} {type(err).__name__}: {err}")
            continue
        for key in tot:
            tot[key] += s[key]
        errs += s["err"]
        e = np.array(s["err"]) if s["err"] else np.array([np.nan])
        le = float(np.median(s["len_err"])) if s["len_err"] else float("nan")
        m = max(s["moving"], 1)
        print(f"{f.name:28} {s['moving']:>7} {s['found'] / m:>6.0%} {s['streak'] / m:>7.0%} {100 * s['false'] / m:>10.1f} "
              f"{np.median(e):5.1f}/{np.percentile(e, 95):<6.1f} {le:>8.1f} {s['detected']:>5.0%} {s['ms']:>6.1f}")
    m = max(tot["moving"], 1)
    e = np.array(errs) if errs else np.array([np.nan])
    print("-" * len(head))
    print(f"{'ALL':28} {tot['moving']:>7} {tot['found'] / m:>6.0%} {tot['streak'] / m:>7.0%} {100 * tot['false'] / m:>10.1f} "
          f"{np.median(e):5.1f}/{np.percentile(e, 95):<6.1f}")


if __name__ == "__main__":
    main()
