"""Disc detection on rendered frames: recall, precision, position error at rest, time per frame.

Frames come from the project's renderer (``tracker.render``: random looks and cameras of the
``easy`` and ``hard`` presets, 1280x720) with discs at rest at known positions. The detector gets
the true calibration (homography and lens), so the figures are the detector's own; a second row
per preset uses the automatic calibration (``calibrate_image``) where it succeeds, to show the
end-to-end error. Run: ``python benchmarks/bench_detect.py [--frames N] [--quick]``.

Fixture mode (``--fixtures [NAME|DIR ...]``): the bundled fixture videos (or matches written by
``tracker synth``, e.g. ``/tmp/bench/<match>``; ``--width 640`` shrinks 1280x720 ones to
640x360) at sampled frames (``--stride``), each a full pass, against ``frames.jsonl``: recall of
discs at rest on the surface, of korona strikers, of discs in the 20-hole and the ditch, extra
detections per frame, median / 95th-percentile error at rest and CPU ms per full pass. The
calibration is the pipeline's own (``calibrate_image`` on the median of the first frames of each
camera position) unless ``--true-calib``. ``--overlays DIR`` writes a crop of every missed disc
(``*_miss.png``: truth circle green, detections red) and of every extra detection (``*_x*.png``);
``--no-clusters`` turns the second pass (``tracker/detect/clusters.py``) off for comparison.

Fed mode (``--fed DIR [--fixtures NAME|DIR ...]``): the detections ``tracker review`` fed its
tracker, as ``bench_review.py --dets DIR`` cached them, every frame against ``frames.jsonl``:
recall of discs at rest and detections near no disc, per frame (what the tracker had to work
with, through the pipeline's stillness gate, reuse and settled full passes).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from tracker.boards import CrokinoleBoard  # noqa: E402
from tracker.calibration.datatypes import Calibration  # noqa: E402
from tracker.detect.detector import DetectorSettings, DiscDetector  # noqa: E402

SIZE = (1280, 720)
SETTINGS = DetectorSettings()


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
    from tracker.render.still import still_frame

    board = CrokinoleBoard()
    discs: list[tuple[float, float, int]] = []

    def place(rng: np.random.Generator) -> list[tuple[float, float, int]]:
        discs.extend(random_discs(rng, board, int(rng.integers(6, 15))))
        return discs

    img, calib = still_frame(board, preset, SIZE, seed, place)
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
    ap.add_argument("--bevel", type=float, default=None,
                    help="disc edge chamfer for the detector, mm (default: DetectorSettings' own)")
    ap.add_argument("--fixtures", nargs="*", default=None,
                    help="only the fixture mode: these fixtures (names under fixtures/videos or folders such as "
                         "/tmp/bench/<match>; none given: every fixture), full passes at sampled frames")
    ap.add_argument("--stride", type=int, default=None, help="fixture mode: every Nth frame (default ~60 a video)")
    ap.add_argument("--true-calib", action="store_true", help="fixture mode: the true calibration")
    ap.add_argument("--overlays", type=Path, default=None, help="fixture mode: crops of missed discs here")
    ap.add_argument("--no-clusters", action="store_true", help="without the second pass (clusters.py)")
    ap.add_argument("--width", type=int, default=None, help="fixture mode: shrink wider videos to this width")
    ap.add_argument("--fed", type=Path, default=None, metavar="DIR",
                    help="the detections review fed its tracker, cached by bench_review.py --dets DIR: recall "
                         "of discs at rest and extras, every frame (of --fixtures, or every match cached)")
    args = ap.parse_args()
    global SETTINGS
    if args.bevel is not None:
        SETTINGS = DetectorSettings(bevel=args.bevel)
    if args.no_clusters:
        SETTINGS = DetectorSettings(bevel=SETTINGS.bevel, clusters=False)
    if args.fed is not None:
        fed_rows(args.fed, args.fixtures or [])
        return 0
    if args.fixtures is not None:
        root = Path(__file__).resolve().parents[1] / "fixtures" / "videos"
        names = args.fixtures or sorted(p.name for p in root.iterdir() if (p / "frames.jsonl").exists())
        fixture_rows(names, args.stride, args.true_calib, args.overlays, args.width)
        return 0
    n = 3 if args.quick else args.frames
    try:
        import tracker.render  # noqa: F401
    except ImportError:
        print("bench_detect: the renderer (tracker.render) is not available; nothing to measure")
        return 0
    from tracker.calibration import calibrate_image
    from tracker.errors import TrackerError

    print(f"{'preset':8} {'calib':6} {'frames':>6} {'discs':>6} {'recall':>7} {'precis':>7} "
          f"{'med mm':>7} {'p95 mm':>7} {'max mm':>7} {'full ms':>8} {'still ms':>8}")
    for preset in ("easy", "hard"):
        rows: dict[str, dict[str, list[float]]] = {k: {"err": [], "miss": [], "extra": [], "ms": [], "n": []}
                                                   for k in ("true", "auto")}
        # rows[...]["still"]: time of a repeated still frame (reuse), ms
        for seed in range(n):
            img, calib, truth = frame(1000 * (preset == "hard") + seed, preset)
            calibs = {"true": calib}
            with contextlib.suppress(TrackerError):
                calibs["auto"] = calibrate_image(img, "crokinole")
            for key, c in calibs.items():
                det = DiscDetector(c, "crokinole", settings=SETTINGS)
                det.detect(img)  # warm-up (FFT plans, first-call costs)
                det.reset()
                t0 = time.perf_counter()
                dets = det.detect(img)  # a full pass
                ms = 1e3 * (time.perf_counter() - t0)
                t0 = time.perf_counter()
                det.detect(img)  # the same view again: still discs reused
                r_still = rows[key]
                r_still.setdefault("still", []).append(1e3 * (time.perf_counter() - t0))
                xy = dets.xy
                if key == "auto" and len(xy):
                    # The automatic calibration names the seats from the image (south at the
                    # bottom): compare in the true frame, through the image.
                    xy = calib.to_board(c.to_image(xy))
                on = xy[np.hypot(xy[:, 0], xy[:, 1]) < 340]
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
                  f"{np.percentile(err, 95):>7.2f} {err.max():>7.2f} {np.median(r['ms']):>8.0f} "
                  f"{np.median(r['still']):>8.1f}")
    video_rows(3 if args.quick else None)
    return 0


def _camera(d: dict) -> object:
    from tracker.render import Camera

    return Camera(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items()})  # type: ignore[arg-type]


def video_rows(max_fixtures: int | None) -> None:
    """Whole fixture videos, frame by frame as the pipeline calls the detector (with reuse):
    mean time per frame against decode time, recall and error of discs at rest (true
    calibration from frames.jsonl; ``extra/f``: detections matching no disc, per frame)."""
    import json

    import cv2

    from tracker.render import intrinsics

    root = Path(__file__).resolve().parents[1] / "fixtures" / "videos"
    from tracker.boards import board_for

    names = sorted(p.name for p in root.iterdir() if (p / "frames.jsonl").exists())
    if max_fixtures is not None:
        names = [n for n in names if n.startswith("crokinole")][:max_fixtures] + \
                [n for n in names if n.startswith("korona")][:1]
    if not names:
        print("no fixture videos; video rows skipped")
        return
    print()
    print(f"{'fixture':24} {'size':>9} {'frames':>6} {'decode ms':>9} {'detect ms':>9} {'ratio':>6} "
          f"{'recall':>7} {'extra/f':>7} {'med mm':>7} {'p95 mm':>7}")
    for name in names:
        game = name.split("_")[0]
        frames = [json.loads(line) for line in (root / name / "frames.jsonl").open()]
        cap = cv2.VideoCapture(str(root / name / "video.mp4"))
        imgs = []
        t0 = time.perf_counter()
        while True:
            ok, img = cap.read()
            if not ok:
                break
            imgs.append(img)
        decode = (time.perf_counter() - t0) / max(len(imgs), 1)
        h, w = imgs[0].shape[:2]
        f0 = frames[0]
        cam = _camera(f0["camera"])
        K, dist = intrinsics(cam, (w, h))  # type: ignore[arg-type]
        det: DiscDetector | None = None
        cur_h = None
        errs: list[float] = []
        n_true = 0
        extra = 0
        spent = 0.0
        for img, fr in zip(imgs, frames, strict=False):
            if fr["homography"] != cur_h:
                cur_h = fr["homography"]
                cam = _camera(fr["camera"])
                K, dist = intrinsics(cam, (w, h))  # type: ignore[arg-type]
                calib = Calibration(homography=np.array(cur_h), image_size=(w, h), rms_mm=0.0,
                                    board=board_for(game), camera_matrix=K, dist_coeffs=dist)
                det = DiscDetector(calib, game, settings=SETTINGS)
            assert det is not None
            t0 = time.perf_counter()
            dets = det.detect(img)
            spent += time.perf_counter() - t0
            for kind in (0, 1):  # discs, then strikers (korona)
                rest = [(d["x_mm"], d["y_mm"], 0) for d in fr["discs"]
                        if not d.get("moving") and d.get("state", "surface") == "surface"
                        and (d.get("kind") == "striker") == (kind == 1)]
                e, _, _ = match(dets.xy[dets.kind == kind], rest)
                errs += e
                n_true += len(rest)
            # Extra: a detection near no disc at all (moving, in the ditch or the hole included).
            every = np.array([[d["x_mm"], d["y_mm"]] for d in fr["discs"] if d.get("state") != "off"]).reshape(-1, 2)
            for p in dets.xy:
                if len(every) == 0 or np.hypot(*(every - p).T).min() > 8.0:
                    extra += 1
        per = spent / max(len(imgs), 1)
        err = np.array(errs) if errs else np.array([np.nan])
        print(f"{name:24} {w:>4}x{h:<4} {len(imgs):>6} {1e3 * decode:>9.2f} {1e3 * per:>9.2f} "
              f"{per / max(decode, 1e-9):>6.1f} {len(errs) / max(n_true, 1):>7.3f} "
              f"{extra / max(len(imgs), 1):>7.2f} {np.median(err):>7.2f} {np.percentile(err, 95):>7.2f}")


# ---------------------------------------------------------------------------- as review saw them
def fed_rows(cache: Path, names: list[str]) -> None:
    """Per frame, the detections ``tracker review`` fed its tracker (``bench_review.py --dets``
    caches them, with the pipeline's own calibration, stillness gate and settled full passes)
    against frames.jsonl: the share of discs at rest on the surface found within 10 mm
    (strikers included), and the detections near no disc at all, per frame. This is what the
    tracker and the rules had to work with; a full pass at sampled frames (``--fixtures``)
    says what the detector can find, not what it holds from frame to frame."""
    import json
    import pickle

    root = Path(__file__).resolve().parents[1] / "fixtures" / "videos"
    picks = [Path(n).name for n in names] or sorted(p.stem for p in cache.glob("*.pkl"))
    print(f"{'match':28} {'frames':>6} {'rest':>7} {'recall':>7} {'extra/f':>7}")
    for name in picks:
        path = cache / f"{name}.pkl"
        folder = next((Path(n) for n in names if Path(n).name == name and Path(n).is_dir()), root / name)
        if not path.exists() or not (folder / "frames.jsonl").exists():
            print(f"{name:28} (not cached in {cache}, or no frames.jsonl)")
            continue
        fed = pickle.loads(path.read_bytes())
        frames = [json.loads(line) for line in (folder / "frames.jsonl").open()]
        total = got = extra = 0
        for dets, _t, index, _board in fed:
            fr = frames[index]
            want = np.array([[q["x_mm"], q["y_mm"]] for q in fr["discs"]
                             if not q.get("moving") and q.get("state", "surface") == "surface"]).reshape(-1, 2)
            every = np.array([[q["x_mm"], q["y_mm"]] for q in fr["discs"] if q.get("state") != "off"]).reshape(-1, 2)
            xy = dets.xy
            total += len(want)
            got += sum(1 for w_ in want if len(xy) and np.hypot(*(xy - w_).T).min() < 10.0)
            extra += sum(1 for p in xy if len(every) == 0 or np.hypot(*(every - p).T).min() > 10.0)
        print(f"{name:28} {len(fed):>6} {total:>7} {got / max(total, 1):>7.3f} {extra / max(len(fed), 1):>7.2f}")


# ---------------------------------------------------------------------------- fixtures at rest
def _truth_calib(fr: dict, game: str, size: tuple[int, int], scale: float) -> Calibration:
    from tracker.boards import board_for
    from tracker.render import intrinsics

    cam = _camera(fr["camera"])
    K, dist = intrinsics(cam, size)  # type: ignore[arg-type]
    H = np.array(fr["homography"], float) @ np.diag([1 / scale, 1 / scale, 1.0])
    return Calibration(homography=H, image_size=size, rms_mm=0.0, board=board_for(game),
                       camera_matrix=K, dist_coeffs=dist, method="truth")


def _read(path: Path, scale: float, keep: set[int]) -> dict[int, np.ndarray]:
    import cv2

    cap = cv2.VideoCapture(str(path))
    out: dict[int, np.ndarray] = {}
    i = 0
    while True:
        ok = cap.grab()
        if not ok:
            break
        if i in keep:
            _, img = cap.retrieve()
            if scale != 1.0:
                img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            out[i] = img
        i += 1
    return out


def _overlay(path: Path, img: np.ndarray, calib: Calibration, truth_xy: np.ndarray, found: np.ndarray,
             dets_img: np.ndarray, r_mm: float) -> None:
    """A crop around each missed disc, 6x: truth circle green, detections red."""
    import cv2

    for j, p in enumerate(truth_xy):
        c = calib.to_image(p[None])[0]
        edge = calib.to_image(np.array([p + [r_mm, 0.0]]))[0]
        rp = float(np.hypot(*(edge - c)))
        half = int(4 * rp) + 4
        x0, y0 = int(c[0]) - half, int(c[1]) - half
        pad = cv2.copyMakeBorder(img, half, half, half, half, cv2.BORDER_CONSTANT)
        crop = pad[y0 + half: y0 + 3 * half, x0 + half: x0 + 3 * half]
        s = 6
        big = cv2.resize(crop, None, fx=s, fy=s, interpolation=cv2.INTER_NEAREST)
        cv2.circle(big, (int((c[0] - x0) * s), int((c[1] - y0) * s)), int(rp * s), (0, 255, 0), 1)
        for q in dets_img:
            cv2.circle(big, (int((q[0] - x0) * s), int((q[1] - y0) * s)), 3, (0, 0, 255), -1)
        cv2.imwrite(str(path.with_name(f"{path.stem}_{j}{'' if found[j] else '_miss'}.png")), big)


def fixture_rows(names: list[str], stride: int | None, true_calib: bool, overlays: Path | None,
                 scale_to: int | None) -> None:
    """Each fixture (or /tmp/bench match) at sampled frames, as a full pass (no reuse), against
    frames.jsonl: recall of discs at rest on the surface (strikers apart for korona), of discs in
    the 20-hole and the ditch, extra detections per frame, position error at rest and the time of
    a full pass. The calibration is the pipeline's own (``calibrate_image`` on the median of the
    first frames of each camera position) unless ``true_calib``; positions are compared in the
    truth's board frame through the image."""
    import json

    from tracker.calibration import calibrate_image
    from tracker.errors import TrackerError

    root = Path(__file__).resolve().parents[1] / "fixtures" / "videos"
    print(f"{'fixture':28} {'size':>9} {'calib':5} {'frames':>6} {'rest':>5} {'recall':>7} {'strk':>5} "
          f"{'hole':>5} {'ditch':>5} {'extra/f':>7} {'med mm':>7} {'p95 mm':>7} {'cpu ms':>8}")
    for name in names:
        d = Path(name) if Path(name).is_dir() else root / name
        game = d.name.split("_")[0]
        frames = [json.loads(line) for line in (d / "frames.jsonl").open()]
        st = stride or max(1, len(frames) // 60)
        pick = set(range(st // 2, len(frames), st))
        # First frames of each camera position, for the pipeline-like calibration.
        seg_start = [i for i, f in enumerate(frames) if i == 0 or f["homography"] != frames[i - 1]["homography"]]
        calib_frames = {j for s in seg_start for j in range(s, min(s + 10, len(frames)))}
        import cv2

        cap = cv2.VideoCapture(str(d / "video.mp4"))
        w0 = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH))
        cap.release()
        scale = 1.0 if scale_to is None or w0 <= scale_to else scale_to / w0
        imgs = _read(d / "video.mp4", scale, pick | calib_frames)
        h, w = next(iter(imgs.values())).shape[:2]
        calibs: dict[int, tuple[Calibration, Calibration]] = {}
        for s in seg_start:
            truth_c = _truth_calib(frames[s], game, (w, h), scale)
            use = truth_c
            if not true_calib:
                med = np.median(np.stack([imgs[j] for j in range(s, min(s + 10, len(frames))) if j in imgs]),
                                axis=0).astype(np.uint8)
                try:
                    use = calibrate_image(med, game)
                except TrackerError as e:
                    print(f"{d.name}: calibration failed at frame {s}: {e}")
                    continue
            calibs[s] = (truth_c, use)
        errs: list[float] = []
        n = {"rest": 0, "strk": 0, "hole": 0, "ditch": 0}
        got = {"rest": 0, "strk": 0, "hole": 0, "ditch": 0}
        extra = 0
        ms: list[float] = []
        det: DiscDetector | None = None
        cur = -1
        for i in sorted(pick):
            seg = max(s for s in seg_start if s <= i)
            if seg not in calibs:
                continue
            truth_c, use = calibs[seg]
            if seg != cur:
                det = DiscDetector(use, game, settings=SETTINGS)
                det.detect(imgs[i])  # warm-up
                cur = seg
            assert det is not None
            det.reset()
            t0 = time.process_time()  # CPU time: the machine may be shared
            dets = det.detect(imgs[i])
            ms.append(1e3 * (time.process_time() - t0))
            dimg = use.to_image(dets.xy) if len(dets) else np.zeros((0, 2))
            dxy = truth_c.to_board(dimg) if len(dets) else np.zeros((0, 2))
            fr = frames[i]
            missed_xy: list[np.ndarray] = []
            for key, kind, states in (("rest", 0, ("surface",)), ("strk", 1, ("surface",)),
                                      ("hole", 0, ("hole",)), ("ditch", 0, ("ditch", "pocket"))):
                want = [(q["x_mm"], q["y_mm"], 0) for q in fr["discs"] if not q.get("moving")
                        and q.get("state", "surface") in states and (q.get("kind") == "striker") == (kind == 1)]
                if not want:
                    continue
                found, _, _ = match(dxy[dets.kind == kind], want, tol=8.0)
                n[key] += len(want)
                got[key] += len(found)
                if key in ("rest", "strk"):
                    errs += found
                    if overlays is not None and len(found) < len(want):
                        ok = np.array([np.hypot(*(dxy - np.array(w_[:2])).T).min() <= 8.0 if len(dxy) else False
                                       for w_ in want])
                        missed_xy += [np.array(w_[:2]) for w_, f_ in zip(want, ok, strict=True) if not f_]
            every = np.array([[q["x_mm"], q["y_mm"]] for q in fr["discs"] if q.get("state") != "off"]).reshape(-1, 2)
            for q_xy in dxy:
                if len(every) == 0 or np.hypot(*(every - q_xy).T).min() > 8.0:
                    extra += 1
                    if overlays is not None:
                        overlays.mkdir(parents=True, exist_ok=True)
                        _overlay(overlays / f"{d.name}_{i:04d}_x{extra}.png", imgs[i], truth_c, q_xy[None],
                                 np.ones(1, bool), dimg, 8.0)
            if overlays is not None and missed_xy:
                overlays.mkdir(parents=True, exist_ok=True)
                _overlay(overlays / f"{d.name}_{i:04d}.png", imgs[i], truth_c, np.array(missed_xy),
                         np.zeros(len(missed_xy), bool), dimg, truth_c.board.disc_radius)
        err = np.array(errs) if errs else np.array([np.nan])

        def rate(k: str, got: dict[str, int] = got, n: dict[str, int] = n) -> str:
            return f"{got[k] / n[k]:.3f}" if n[k] else "-"

        print(f"{d.name:28} {w:>4}x{h:<4} {'true' if true_calib else 'auto':5} {len(ms):>6} {n['rest']:>5} "
              f"{rate('rest'):>7} {rate('strk'):>5} {rate('hole'):>5} {rate('ditch'):>5} "
              f"{extra / max(len(ms), 1):>7.2f} {np.median(err):>7.2f} {np.nanpercentile(err, 95):>7.2f} "
              f"{np.median(ms) if ms else float('nan'):>8.1f}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
