"""Speed of ``tracker review`` against decoding alone, in CPU time (one core), frame by frame.

    python benchmarks/bench_speed.py [VIDEO ...] [--game G --players N] [--profile N]
                                     [--frames N] [--threads N] [--quick] [--skip MODES]
                                     [--gate adaptive|fixed|board] [--blocks on|off] [--noise SIGMAS]

Without a video (as ``tracker bench speed`` runs it), a 1280x720 30 fps crokinole match (seed
7201, 8 shots; 3 with ``--quick``) is rendered into a temporary folder first.

For each video (a ``tracker synth`` folder's video.mp4: the game and players come from the
truth.json beside it, else from ``--game``/``--players``):

* decode only: CPU seconds of a loop that only decodes the frames;
* review: CPU seconds of the same loop feeding ``Pipeline.process`` (calibration, detection,
  tracking, events, rules; no output files), and the ratio of the two frame rates (the issue's
  target: review at >= 50% of decode speed at 1280x720 on one core);
* per frame: milliseconds of ``Pipeline.process`` (decode excluded) on frames the detector ran
  on (something moved, or the pipeline asked for a full pass) and on the ones the stillness gate
  let through without it ("still"): median, mean and 95th percentile;
* peak memory (max resident set) of the process;
* ``--profile N``: the N most expensive functions (cProfile on CPU time, cumulative) of the review loop;
* ``--stages``: CPU seconds, calls and ms a call of the detector's stages (rectify, change mask,
  ring-filter search, fits, second pass, streaks, the chamfer, creep and region-model refits of
  crokinole discs (``deferred.py``, ``chamfer.py``), ...) and of the tracking after it, timed by
  wrappers (a profiler's own cost distorts the many small calls of a fit);
* ``--skip off,safe``: run the review once per mode of skipping moving frames at >= 30 fps
  (``Pipeline.skip_moving``: off, safe, blind, odd, even; default: the pipeline's own), to
  compare their speed on the same video (the decode-only figure is measured once);
* ``--gate adaptive|fixed|board``: the stillness gate's threshold follows the picture's noise, or
  stays fixed (``Pipeline.adaptive_gate``; default: the game's own, ``pipeline.ADAPTIVE_GATE``),
  or the gate looks at the board alone (``Pipeline.board_gate``, ``board_gate.py``; default: the
  game's own, ``pipeline.BOARD_GATE``);
* ``--blocks on|off``: the gate's block test, a second look at frames its thumbnail calls changed
  (``Pipeline.block_gate``; default: the game's own, ``pipeline.BLOCK_GATE``);
* ``--noise SIGMAS``: the detector's change mask keeps only the parts that stand out of the
  picture's noise by that many standard deviations (``Pipeline.change_noise``; default: the game's own, ``pipeline.CHANGE_NOISE``; 0: off).

CPU time, not wall time: the machine is shared, and wall time would measure the neighbours.
OpenCV is limited to ``--threads`` threads (default 1: the target is one core).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tracker.pipeline import Pipeline  # noqa: E402
from tracker.pipeline.video import VideoSource  # noqa: E402


def decode_cpu(video: Path, limit: int | None) -> tuple[int, float]:
    n = 0
    t0 = time.process_time()
    for _ in VideoSource(video):
        n += 1
        if limit is not None and n >= limit:
            break
    return n, time.process_time() - t0


def review_cpu(video: Path, game: str, players: int, limit: int | None
               ) -> tuple[int, float, list[float], list[float], int]:
    """Frames, CPU seconds of the whole loop (decode included), ms of ``process`` on detector
    frames and on frames without detection (still, or skipped), and frames detected."""
    src = VideoSource(video)
    p = Pipeline(game, players, fps=src.info.fps)
    moving: list[float] = []
    still: list[float] = []
    n = 0
    t0 = time.process_time()
    for index, t, frame in src:
        a = time.process_time()
        results = p.process(frame, t, index)
        dt = 1e3 * (time.process_time() - a)
        n += 1
        if len(results) == 1:  # (the calibration frame releases its buffer at once: left out)
            (moving if results[0].detected else still).append(dt)
        if limit is not None and n >= limit:
            break
    p.finish()
    return n, time.process_time() - t0, moving, still, p.frames_detected


def stats(ms: list[float]) -> str:
    if not ms:
        return f"{'-':>7} {'-':>7} {'-':>7} {0:6d}"
    a = np.asarray(ms)
    return f"{np.median(a):7.2f} {a.mean():7.2f} {np.percentile(a, 95):7.2f} {len(a):6d}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("videos", nargs="*", type=Path)
    ap.add_argument("--quick", action="store_true", help="a shorter rendered match when no video is given")
    ap.add_argument("--game", default=None)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--frames", type=int, default=None, help="only the first N frames")
    ap.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1)")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions")
    ap.add_argument("--stages", action="store_true", help="CPU time of the detector's stages")
    ap.add_argument("--skip", default=None, metavar="MODES", help="comma-separated Pipeline.skip_moving modes")
    ap.add_argument("--blocks", choices=("on", "off"), default=None,
                    help="the stillness gate's block test (default: the game's own, stillness.py)")
    ap.add_argument("--gate", choices=("adaptive", "fixed", "board"), default=None,
                    help="the stillness gate's threshold, or its board test (board_gate.py; default: the game's own)")
    ap.add_argument("--noise", type=float, default=None, metavar="SIGMAS",
                    help="the change mask's noise hysteresis (Pipeline.change_noise; default: the game's own)")
    args = ap.parse_args()
    Pipeline.adaptive_gate = None if args.gate in (None, "board") else args.gate == "adaptive"
    Pipeline.board_gate = None if args.gate is None else args.gate == "board"
    Pipeline.block_gate = None if args.blocks is None else args.blocks == "on"
    Pipeline.change_noise = args.noise
    import cv2

    cv2.setNumThreads(args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        videos = args.videos or [render_match(Path(tmp), 3 if args.quick else 8)]
        for video in videos:
            report(video, args)
    return 0


def render_match(folder: Path, shots: int) -> Path:
    """A 1280x720 30 fps rendered crokinole match (``tracker synth``), for when no video is given."""
    cmd = [sys.executable, "-m", "tracker", "synth", "--game", "crokinole", "--seed", "7201",
           "--max-shots", str(shots), "--out", str(folder)]
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return folder / "video.mp4"


def report(video: Path, args: argparse.Namespace) -> None:
    tj = video.parent / "truth.json"
    truth = json.loads(tj.read_text()) if tj.exists() else {}
    game = args.game or truth.get("game", "crokinole")
    players = args.players or int(truth.get("players", 2))
    n_dec, cpu_dec = decode_cpu(video, args.frames)
    for mode in (args.skip.split(",") if args.skip else [Pipeline.skip_moving]):
        Pipeline.skip_moving = mode
        report_mode(video, args, game, players, n_dec, cpu_dec)


def report_mode(video: Path, args: argparse.Namespace, game: str, players: int, n_dec: int, cpu_dec: float) -> None:
    if args.profile:
        import cProfile
        import pstats

        # CPU time, as the rest of this benchmark: cProfile's default clock is wall time, which
        # on a shared machine charges the neighbours' time to whatever call was running (the
        # decoder's read came out at 4.6 ms a frame against 1.3 ms of CPU)
        prof = cProfile.Profile(time.process_time)
        prof.enable()
    timer = StageTimer() if args.stages else None
    n, cpu, moving, still, detected = review_cpu(video, game, players, args.frames)
    if timer is not None:
        timer.undo()
    if args.profile:
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(args.profile)
    src = VideoSource(video)
    w, h = src.info.width, src.info.height
    dec_fps, rev_fps = n_dec / max(cpu_dec, 1e-9), n / max(cpu, 1e-9)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n{video} ({w}x{h}, {n} frames, {game}, {players} players, CPU time, {args.threads} OpenCV thread(s), "
          f"skip_moving={Pipeline.skip_moving}: detector ran on {detected} frames)")
    print(f"  {'decode only':<14} {dec_fps:8.1f} fps  ({1e3 / dec_fps:.2f} ms a frame)")
    print(f"  {'review':<14} {rev_fps:8.1f} fps  ({1e3 / rev_fps:.2f} ms a frame) = {rev_fps / dec_fps:.0%} of decode")
    print(f"  {'ms a frame':<14} {'median':>7} {'mean':>7} {'p95':>7} {'frames':>6}  (process only, decode excluded)")
    print(f"  {'detector ran':<14} {stats(moving)}")
    print(f"  {'not detected':<14} {stats(still)}  ({len(still) / max(len(still) + len(moving), 1):.0%} of frames)")
    print(f"  {'peak memory':<14} {peak:8.0f} MB")
    if timer is not None:
        timer.report(cpu)


# (module, attribute, label) of the stages ``--stages`` times; nested stages are included in
# their callers' figures (``fit_kind`` holds the search, the fits and the second pass).
STAGES = [
    ("tracker.detect.detector", "DiscDetector.detect", "detect (all)"),
    ("tracker.detect.detector", "DiscDetector.rectify", "  rectify"),
    ("tracker.detect.detector", "DiscDetector._changed", "  change mask"),
    ("tracker.detect.rejects", "RejectMemory.advance", "  reject memory"),
    ("tracker.detect.detector", "untouched", "  discs kept"),
    ("tracker.detect.detector", "fit_kind", "  fits of a kind"),
    ("tracker.detect.detector", "search", "    ring search"),
    ("tracker.detect.refine", "Refiner.refine", "    one fit"),
    ("tracker.detect.clusters", "ClusterPass.run", "    second pass"),
    ("tracker.detect.streaks", "find_streaks", "  streaks"),
    ("tracker.detect.background", "BackgroundModel.update", "  empty-board model"),
    ("tracker.detect.deferred", "DeferredChamfer.begin", "  refits of kept discs"),
    ("tracker.detect.deferred", "DeferredChamfer._creep", "    creep refits"),
    ("tracker.detect.chamfer", "ChamferCorrection.note", "  chamfer refits"),
    ("tracker.detect.chamfer", "ChamferCorrection.modelled", "    region model"),
    ("tracker.detect.rows", "row_fill", "  korona rows"),
    ("tracker.pipeline.pipeline", "Pipeline.process_detections", "tracking+events"),
]


class StageTimer:
    """Wraps the ``STAGES`` with CPU-time accumulators (``undo`` puts the originals back)."""

    def __init__(self) -> None:
        import importlib

        self.total: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._undo: list[tuple[object, str, object]] = []
        for mod_name, attr, label in STAGES:
            owner: object = importlib.import_module(mod_name)
            *path, name = attr.split(".")
            for part in path:
                owner = getattr(owner, part)
            orig = getattr(owner, name)
            self.total[label], self.calls[label] = 0.0, 0
            setattr(owner, name, self._wrap(orig, label))
            self._undo.append((owner, name, orig))

    def _wrap(self, f: object, label: str) -> object:
        def timed(*a: object, **k: object) -> object:
            t0 = time.process_time()
            try:
                return f(*a, **k)  # type: ignore[operator]
            finally:
                self.total[label] += time.process_time() - t0
                self.calls[label] += 1
        return timed

    def undo(self) -> None:
        for owner, name, orig in reversed(self._undo):
            setattr(owner, name, orig)

    def report(self, cpu: float) -> None:
        print(f"  {'stage':<22} {'CPU s':>7} {'share':>6} {'calls':>7} {'ms/call':>8}")
        for label, t in self.total.items():
            n = self.calls[label]
            if n:
                print(f"  {label:<22} {t:7.2f} {t / max(cpu, 1e-9):6.0%} {n:7d} {1e3 * t / n:8.2f}")


if __name__ == "__main__":
    raise SystemExit(main())
