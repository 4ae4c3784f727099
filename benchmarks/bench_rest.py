"""Where the position error at rest comes from: calibration, the detector's fit, or the rest estimate.

    python benchmarks/bench_rest.py [MATCH_DIR ...] [--cache DIR] [--shots]
    python benchmarks/bench_rest.py --static N

``--static N``: the detector alone on N rendered still frames per game, camera preset and size
(1280x720, 640x360), true calibration, with and without the region model (``static_rows``).

Each MATCH_DIR holds what ``tracker synth`` writes (video.mp4, truth.json, shots.jsonl,
frames.jsonl); without arguments, the fixtures in fixtures/videos/. Every match is reviewed once
through the real pipeline (``Pipeline.process`` frame by frame, as ``tracker review`` does) while
recording, per frame, the detections the tracker was fed, whether the detector ran, and the
calibration in use; ``--cache DIR`` keeps that recording (a pickle per match) so later runs only
re-analyse. Then, against the per-frame truth (``frames.jsonl``):

* **per-frame detector error**: every disc at rest on the surface, on every frame the detector ran,
  against the nearest detection (within 8 mm); median and 95th percentile;
* **calibration share**: where the pipeline's calibration puts the true disc's image point,
  against the truth (the image point comes from the true camera); the detector's own error is
  the error with that vector taken off;
* split by situation: ``free``, ``neardisc`` (another disc within 10 mm), ``touch`` (within 3 mm),
  ``hole``, ``peg``, ``rim`` (the playing surface's edge or a korona rim);
* **reported end**: each shot's end positions in the shot log against the truth's end (as
  ``bench_review`` matches them), and, for the same disc, the **median over every detected frame
  of that rest** (what a robust rest estimate could give at best from these detections).

If the reported error and the median over the rest agree, the rest estimate is not the problem
and the error is in the calibration or in the fit of each disc's edge (a static bias: the picture
of a disc at rest does not change from frame to frame). ``--shots`` prints every matched end.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_detect import _truth_calib  # noqa: E402
from bench_review import rules_of  # noqa: E402

from tracker.boards import CrokinoleBoard, KoronaBoard, board_for  # noqa: E402
from tracker.shotlog import Shot, parse_shot_log  # noqa: E402

MATCH_MM = 8.0  # a detection within this of a true disc at rest is that disc
CATS = ("free", "neardisc", "touch", "hole", "peg", "rim")


def record(folder: Path) -> dict[str, Any]:
    """Review ``folder``'s video through the pipeline, keeping what the tracker was fed."""
    from tracker.pipeline import Pipeline
    from tracker.pipeline.video import VideoSource

    truth = json.loads((folder / "truth.json").read_text())
    src = VideoSource(folder / "video.mp4")
    p = Pipeline(truth["game"], int(truth["players"]), rules=rules_of(truth), fps=src.info.fps)
    fed: list[tuple[int, float, Any, bool, int]] = []
    calibs: dict[int, Any] = {}

    def on_frame(frame: np.ndarray, res: Any) -> None:
        calibs[id(p.calib)] = p.calib
        fed.append((res.index, res.t, res.detections, res.detected, id(p.calib)))

    p.on_frame = on_frame
    for index, t, frame in src:
        p.process(frame, t, index)
    p.finish()
    return {"fed": fed, "calibs": calibs, "size": (src.info.width, src.info.height),
            "shots": [e for e in p.entries if isinstance(e, Shot)],
            "events": [e.to_json() for e in p.sorted_events()]}


def situation(board: CrokinoleBoard | KoronaBoard, did: str, p: np.ndarray, discs: list[dict[str, Any]]) -> list[str]:
    """The situations a disc at ``p`` is in (see the module docstring)."""
    r = board.disc_radius
    out = []
    gaps = [float(np.hypot(d["x_mm"] - p[0], d["y_mm"] - p[1])) - 2 * r for d in discs
            if d["id"] != did and d.get("state", "surface") == "surface"]
    gap = min(gaps, default=99.0)
    if gap < 3.0:
        out.append("touch")
    elif gap < 10.0:
        out.append("neardisc")
    if isinstance(board, CrokinoleBoard):
        d = float(np.hypot(*p))
        if d < board.hole_radius + r + 3.0:
            out.append("hole")
        if min(float(np.hypot(px - p[0], py - p[1])) for px, py in board.peg_positions()) < r + board.peg_diameter / 2 + 3.0:
            out.append("peg")
        if d + r > board.surface_radius - 5.0:
            out.append("rim")
    elif float(np.abs(p).max()) + r > board.half - 5.0:
        out.append("rim")
    return out or ["free"]


class Analysis:
    def __init__(self, folder: Path, rec: dict[str, Any]) -> None:
        self.folder = folder
        self.rec = rec
        self.rows = [json.loads(x) for x in (folder / "frames.jsonl").open()]
        self.game = json.loads((folder / "truth.json").read_text())["game"]
        self.board = board_for(self.game)
        self.by_frame = {f[0]: f for f in rec["fed"]}
        self._tcal: dict[str, Any] = {}

    def calib_error(self, index: int, p: np.ndarray) -> np.ndarray:
        """Where the pipeline's calibration puts the true disc's image point, minus the truth."""
        key = json.dumps(self.rows[index]["homography"])
        if key not in self._tcal:
            self._tcal[key] = _truth_calib(self.rows[index], self.game, self.rec["size"], 1.0)
        calib = self.rec["calibs"][self.by_frame[index][4]]
        out: np.ndarray = calib.to_board(self._tcal[key].to_image(p[None]))[0] - p
        return out

    def per_frame(self) -> dict[str, list[tuple[float, float, float]]]:
        """Per situation: (error, error without the calibration's share, calibration share)."""
        per: dict[str, list[tuple[float, float, float]]] = {"all": []}
        for index, _t, dets, detected, _c in self.rec["fed"]:
            if not detected or dets is None or len(dets) == 0:
                continue
            discs = self.rows[index]["discs"]
            for d in discs:
                if d.get("moving") or d.get("state", "surface") != "surface":
                    continue
                p = np.array([d["x_mm"], d["y_mm"]])
                dd = np.hypot(*(dets.xy - p).T)
                j = int(np.argmin(dd))
                if dd[j] > MATCH_MM:
                    continue
                e = dets.xy[j] - p
                ce = self.calib_error(index, p)
                row = (float(np.hypot(*e)), float(np.hypot(*(e - ce))), float(np.hypot(*ce)))
                per["all"].append(row)
                for c in situation(self.board, d["id"], p, discs):
                    per.setdefault(c, []).append(row)
        return per

    def ends(self, verbose: bool) -> list[tuple[float, float]]:
        """(reported error, error of the median over the rest) for each matched shot end."""
        truth = [e for e in parse_shot_log((self.folder / "shots.jsonl").read_text().splitlines()) if isinstance(e, Shot)]
        shot_ev = [e for e in self.rec["events"] if e["type"] == "shot"]
        out: list[tuple[float, float]] = []
        for k, (mine, want) in enumerate(zip(self.rec["shots"], truth, strict=False)):
            tp = {n: v for n, v in want.end.items() if isinstance(v, tuple)}
            closed = shot_ev[k]["frame"] if k < len(shot_ev) else 0
            for name, v in mine.end.items():
                if not isinstance(v, tuple) or not tp:
                    continue
                tname = min(tp, key=lambda n: float(np.hypot(tp[n][0] - v[0], tp[n][1] - v[1])))
                t_xy, v_xy = np.array(tp[tname]), np.array(v)
                err = float(np.hypot(*(v_xy - t_xy)))
                if err > 15.0:
                    continue
                seen = self._rest_detections(tname, t_xy, closed)
                med = float(np.hypot(*(np.median(seen, axis=0) - t_xy))) if len(seen) else float("nan")
                out.append((err, med))
                if verbose:
                    where = situation(self.board, tname, t_xy, self.rows[min(closed, len(self.rows) - 1)]["discs"])
                    print(f"    shot {k:2d} {name:>4} -> {tname:<4} reported {err:5.2f} mm, median over {len(seen):3d} "
                          f"frames {med:5.2f} mm  ({','.join(where)})")
        return out

    def _rest_detections(self, did: str, t_xy: np.ndarray, closed: int) -> np.ndarray:
        """The detections of disc ``did`` on every detected frame of its rest at ``t_xy``."""
        seen: list[np.ndarray] = []
        last = -1
        for index, _t, dets, detected, _c in self.rec["fed"]:
            if index < closed - 60:
                continue
            here = [d for d in self.rows[index]["discs"] if d["id"] == did]
            resting = bool(here) and not here[0].get("moving") and \
                abs(here[0]["x_mm"] - t_xy[0]) < 0.01 and abs(here[0]["y_mm"] - t_xy[1]) < 0.01
            if not resting:
                if last >= 0 and index > last + 1:
                    break
                continue
            last = index
            if detected and dets is not None and len(dets):
                dd = np.hypot(*(dets.xy - t_xy).T)
                j = int(np.argmin(dd))
                if dd[j] < MATCH_MM:
                    seen.append(dets.xy[j].copy())
        return np.array(seen).reshape(-1, 2)


def static_frame(game: str, preset: str, size: tuple[int, int], seed: int) -> tuple[np.ndarray, Any, np.ndarray]:
    """A rendered still frame with 8-12 discs at rest at known places (apart from each other, the
    hole, the pegs and the rim), and its true calibration."""
    from tracker.render.still import spread_frame

    return spread_frame(board_for(game), preset, size, seed)


def static_rows(n: int) -> None:
    """The detector's own position error at rest, on ``n`` rendered still frames per game, preset
    and size (seeds 5000...), with the true calibration: each frame detected twice (the second
    call keeps the discs, so their deferred position refits are made), against the true contact
    points; with the region model of ``silhouette.py`` and without it (edge fits and the chamfer
    refit only)."""
    from tracker.detect import chamfer
    from tracker.detect.detector import DiscDetector

    print(f"{'game':10} {'preset':6} {'size':>9} {'n':>4} {'edge fits':>11} {'with model':>11}")
    for size in ((1280, 720), (640, 360)):
        for preset in ("easy", "hard"):
            for game in ("crokinole", "korona"):
                errs: dict[bool, list[float]] = {False: [], True: []}
                for seed in range(5000, 5000 + n):
                    img, calib, truth = static_frame(game, preset, size, seed)
                    for model in (False, True):
                        keep = chamfer.REGION_MODEL
                        chamfer.REGION_MODEL = model
                        try:
                            det = DiscDetector(calib, game)
                        finally:
                            chamfer.REGION_MODEL = keep
                        det.detect(img)
                        dets = det.detect(img)
                        for p in truth:
                            d = np.hypot(*(dets.xy - p).T) if len(dets) else np.array([99.0])
                            if d.min() < MATCH_MM:
                                errs[model].append(float(d.min()))
                print(f"{game:10} {preset:6} {size[0]:>4}x{size[1]:<4} {len(errs[True]):>4} {_mp(errs[False])} "
                      f"{_mp(errs[True])}", flush=True)


def _mp(v: list[float]) -> str:
    a = np.array(v, float)
    a = a[np.isfinite(a)]
    return f"{np.median(a):5.2f}/{np.percentile(a, 95):<5.2f}" if len(a) else "    -      "


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--cache", type=Path, help="keep each match's recording in this folder (reused when present)")
    ap.add_argument("--shots", action="store_true", help="print every matched shot end")
    ap.add_argument("--static", type=int, metavar="N", default=0,
                    help="instead: N rendered still frames per game, preset and size (see static_rows)")
    args = ap.parse_args()
    if args.static:
        static_rows(args.static)
        return 0
    folders = args.folders or sorted(p.parent for p in (ROOT / "fixtures" / "videos").glob("*/video.mp4"))
    print("median/p95 in mm. det: per-frame detector error at rest; calib: the calibration's share; "
          "fit: det without it;\nreported: shot-log end positions; rest-med: median of the detections over the rest")
    head = (f"{'match':26} {'n':>5} {'det':>11} {'calib':>11} {'fit':>11} {'ends':>4} {'reported':>11} "
            f"{'rest-med':>11}  fit by situation (n)")
    print(head)
    print("-" * len(head))
    all_pf: list[tuple[float, float, float]] = []
    all_end: list[tuple[float, float]] = []
    for folder in folders:
        path = args.cache / f"{folder.name}.pkl" if args.cache else None
        if path is not None and path.exists():
            rec = pickle.loads(path.read_bytes())
        else:
            rec = record(folder)
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(pickle.dumps(rec))
        an = Analysis(folder, rec)
        per = an.per_frame()
        ends = an.ends(args.shots)
        rows = per["all"]
        all_pf += rows
        all_end += ends
        sit = "  ".join(f"{c} {np.median([r[1] for r in per[c]]):.2f} ({len(per[c])})" for c in CATS if c in per)
        print(f"{folder.name:26} {len(rows):>5} {_mp([r[0] for r in rows])} {_mp([r[2] for r in rows])} "
              f"{_mp([r[1] for r in rows])} {len(ends):>4} {_mp([e[0] for e in ends])} {_mp([e[1] for e in ends])}  {sit}",
              flush=True)
    print("-" * len(head))
    print(f"{'ALL':26} {len(all_pf):>5} {_mp([r[0] for r in all_pf])} {_mp([r[2] for r in all_pf])} "
          f"{_mp([r[1] for r in all_pf])} {len(all_end):>4} {_mp([e[0] for e in all_end])} {_mp([e[1] for e in all_end])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
