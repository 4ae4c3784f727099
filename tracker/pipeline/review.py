"""Reviewing a recorded match: drive the pipeline over a video file and write the outputs
(events.jsonl, shots.jsonl, summary.json, optionally annotated.mp4). The CLI is a thin layer
over :func:`review_video`."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.errors import CalibrationError, InputError, TrackerError
from tracker.events import write_events
from tracker.outdir import make_output_folder
from tracker.pipeline.pipeline import Pipeline
from tracker.pipeline.video import VideoSource
from tracker.shotlog import dump_shot_log


@dataclass
class ReviewResult:
    out: Path
    summary: dict[str, Any]
    frames: int
    seconds: float
    stopped_early: str | None = None  # where a damaged video stopped
    warnings: list[str] = field(default_factory=list)
    frames_detected: int = 0


def review_video(
    video: str | Path,
    game: str,
    players: int,
    out: str | Path,
    *,
    annotate: bool = False,
    south: str | None = None,
    rules: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    board: CrokinoleBoard | KoronaBoard | None = None,
) -> ReviewResult:
    """Score ``video``; write the outputs to ``out``. Raises InputError / CalibrationError (exit 2)
    when nothing could be scored (a still image, an unreadable video, no board), and then leaves
    nothing behind: ``out`` is made only once the video opens, and taken away again (with a
    partial ``annotated.mp4``) when the review fails. ``board``: the board model (a profile) the
    board is fitted, and the discs found and scored, on (default: the game's standard board)."""
    refuse_still_image(Path(video), game)
    src = VideoSource(video)
    info = src.info
    writer = None
    out = Path(out)
    made = make_output_folder(out, [*OUTPUTS, *(["annotated.mp4"] if annotate else [])])
    pipeline = Pipeline(game, players, board=board, south=south, rules=rules, fps=info.fps)
    if annotate:
        from tracker.annotate import Annotator

        writer = Annotator(out / "annotated.mp4", info.fps, (info.width, info.height), pipeline)
        pipeline.on_frame = writer.frame
    t0 = time.perf_counter()
    n = 0
    try:
        for index, t, frame in src:
            try:
                pipeline.process(frame, t, index)
            except CalibrationError as e:  # camera.refuse_other_game: the board of the other game
                raise CalibrationError(f"{info.path}: {e}") from None
            n += 1
            if progress is not None:
                progress(n, info.frames)
        if n == 0:
            raise InputError(f"video {info.path}: no frame could be decoded")
        try:
            pipeline.finish()
        except CalibrationError as e:
            other = "korona" if game == "crokinole" else "crokinole"
            hint = _other_game_hint(src, other)
            raise CalibrationError(f"{info.path}: {e}{hint}") from None
    except TrackerError:
        if writer is not None:
            writer.close()
            writer = None
            (out / "annotated.mp4").unlink(missing_ok=True)
        for folder in made:  # deepest first; only those this review made, and only when empty
            if not any(folder.iterdir()):
                folder.rmdir()
        raise
    finally:
        if writer is not None:
            writer.close()
    stopped = src.where_stopped() if src.stopped_early else None
    write_outputs(pipeline, out)
    return ReviewResult(out=out, summary=pipeline.summary(), frames=n, seconds=time.perf_counter() - t0,
                        stopped_early=stopped, warnings=list(pipeline.warnings),
                        frames_detected=pipeline.frames_detected)


def refuse_still_image(path: Path, game: str) -> None:
    """InputError when ``path`` is a photo (``imagefile.still_image_format``), pointing a
    crokinole player at ``tracker photo``."""
    from tracker.calibration.imagefile import still_image_file

    kind = still_image_file(path)  # None also when missing, a folder, unreadable: VideoSource says which
    if kind is None:
        return
    how = (f"to score a photo of a finished round, run `tracker photo {path} --game crokinole`"
           if game == "crokinole" else "korona is scored from a video of the game")
    raise InputError(f"{path} is a still image ({kind}), not a video: {how}")


# the files every review writes (``write_outputs``)
OUTPUTS = ("events.jsonl", "shots.jsonl", "summary.json")


def _other_game_hint(src: VideoSource, other: str) -> str:
    """' (it looks like a crokinole board: try --game crokinole)' when the other game fits."""
    from tracker.calibration.api import board_fits

    try:
        frame = next(iter(VideoSource(src.info.path)))[2]
    except Exception:
        return ""
    return f"; it looks like a {other} board: try --game {other}" if board_fits(frame, other) else ""


def write_outputs(pipeline: Pipeline, out: Path) -> None:
    """Write ``OUTPUTS``; InputError, one line, when the folder refuses them."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_events(out / "events.jsonl", pipeline.sorted_events())
        (out / "shots.jsonl").write_text(dump_shot_log(pipeline.entries))
        (out / "summary.json").write_text(json.dumps(pipeline.summary(), indent=2) + "\n")
    except OSError as e:
        raise InputError(f"cannot write into {out}: {e.strerror} ({e.filename})") from None


def korona_result(game: dict[str, Any]) -> str:
    """How a korona game in the summary stands: its winner, a draw, or still in play (a video
    that ends mid-game: ``over`` false, so no winner is not a draw)."""
    if game.get("winner"):
        return f"won by {game['winner']}"
    return "draw" if game.get("over", True) else "in play"


def score_table(summary: dict[str, Any]) -> str:
    """A plain-text table of the rounds (crokinole) or games (korona) and the totals."""
    totals: dict[str, Any] = summary.get("totals", {})
    sides = list(totals) or sorted({k for r in summary.get("rounds", []) for k in r.get("points", r.get("pocketed", {}))})
    rows: list[list[str]] = []
    game = summary.get("game", "")
    for r in summary.get("rounds", []):
        if game == "korona":
            cells = [str(r.get("pocketed", {}).get(s, "")) for s in sides]
            rows.append([f"game {r.get('index', len(rows)) + 1}", *cells, korona_result(r)])
        else:
            cells = [f"{r.get('points', {}).get(s, 0)}/{r.get('awarded', {}).get(s, 0)}" for s in sides]
            rows.append([f"round {r.get('index', len(rows)) + 1}", *cells, ""])
    cur = summary.get("current_round")
    if cur:
        cells = [str(cur.get("points", cur.get("pocketed", {})).get(s, "")) for s in sides]
        rows.append(["in play", *cells, ""])
    rows.append(["total", *[str(totals.get(s, "")) for s in sides], f"winner: {summary.get('winner') or '-'}"])
    head = ["", *sides, ""]
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [head, *rows]]
    note = "(crokinole rounds: points/awarded)" if game == "crokinole" else "(korona games: discs pocketed)"
    return "\n".join([*lines, note])


def progress_bar(stream: Any = None) -> Callable[[int, int], None] | None:
    """A one-line progress bar on stderr when it is a terminal, else None."""
    s = stream or sys.stderr
    if not s.isatty():
        return None
    last = [0.0]

    def show(n: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] < 0.2 and n != total:
            return
        last[0] = now
        if total:
            frac = min(n / total, 1.0)
            bar = "#" * int(frac * 30)
            s.write(f"\rreviewing [{bar:<30}] {n}/{total} frames")
        else:
            s.write(f"\rreviewing {n} frames")
        s.flush()

    return show
