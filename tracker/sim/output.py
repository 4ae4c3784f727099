"""Writing a synthetic match: the video and its ground truth files.

* ``video.mp4``: every frame rendered by ``tracker.render.Renderer``; a frame with fast motion
  averages several sub-frames spread over the shutter time (motion blur);
* ``frames.jsonl``: per frame, its index, time, the true homography (undistorted image px ->
  board mm), the camera, and every disc in play (id, seat, kind, x_mm, y_mm, moving, state);
* ``shots.jsonl``: the true shot log (SPEC 4b);
* ``events.jsonl``: the true events (SPEC 4) with frame numbers;
* ``truth.json``: the summary (SPEC 4) = the rules engine over the true shot log.

A frame shows the instant ``t = index / fps`` (the middle of its exposure). An event at time
``t`` is stamped with the first frame at or after ``t``.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from tracker import events as ev
from tracker.render.scene import Camera, SceneFrame
from tracker.shotlog import dump_shot_log
from tracker.sim.match import Match

SHUTTER = 0.5  # fraction of the frame interval the shutter is open
BLUR_STEP_MM = 4.0  # one sub-frame for every this many mm a disc moves during the exposure
MAX_SUBFRAMES = 10
MOVING_MM_S = 5.0  # a disc faster than this is "moving" in the truth


def frame_of(t: float, fps: float) -> int:
    return max(0, math.ceil(t * fps - 1e-6))


def n_frames(match: Match, fps: float) -> int:
    return frame_of(match.timeline.end, fps) + 1


def _homography(camera: Camera, size: tuple[int, int]) -> np.ndarray:
    from tracker.render import true_homography  # type: ignore[attr-defined]

    H: np.ndarray = true_homography(camera, size)
    return H / H[2, 2]


def _r(v: float, nd: int = 2) -> float:
    return round(float(v), nd) + 0.0


def hlist(H: np.ndarray) -> list[list[float]]:
    """A homography as nested lists with 9 significant digits (sub-micron on the board)."""
    return [[float(f"{v:.9g}") for v in row] for row in np.asarray(H).tolist()]


def frame_truth(match: Match, index: int, fps: float, H: np.ndarray, camera: Camera) -> dict[str, Any]:
    t = index / fps
    discs = []
    for did, tr in match.timeline.discs.items():
        s = tr.at(t)
        if s is None:
            continue
        x, y, _z, state = s
        sp = tr.speed(t) if state not in ("off", "hole", "pocket") else 0.0
        # A disc that flew off the board (korona) is "off" in the truth, where it lies or flies.
        discs.append({"id": did, "seat": tr.disc.seat, "kind": tr.disc.kind, "x_mm": _r(x), "y_mm": _r(y),
                      "moving": bool(sp > MOVING_MM_S), "state": "off" if state == "flown" else state})
    return {
        "frame": index,
        "t": _r(t, 4),
        "homography": hlist(H),
        "camera": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(camera).items()},
        "discs": discs,
    }


def subframes(match: Match, index: int, fps: float) -> list[SceneFrame]:
    """The scene over the exposure of a frame: one instant at rest, several when discs fly."""
    tl = match.timeline
    t = index / fps
    exp = SHUTTER / fps
    speed = tl.max_speed(t - exp / 2, t + exp / 2)
    n = int(min(MAX_SUBFRAMES, max(1, math.ceil(speed * exp / BLUR_STEP_MM))))
    if n == 1:
        return [tl.scene_at(t)]
    return [tl.scene_at(t - exp / 2 + exp * (k + 0.5) / n) for k in range(n)]


def timed_events(match: Match, fps: float, H0: np.ndarray, bumps: list[tuple[float, np.ndarray]]) -> list[ev.Event]:
    out = [ev.calibrated(0.0, 0, hlist(H0), 0.0)]
    for t, H in bumps:
        t = round(t, 4)
        out.append(ev.calibrated(t, frame_of(t, fps), hlist(H), 0.0, camera_moved=True))
    for e in match.events:
        t = round(e.t, 4)
        out.append(replace(e, t=t, frame=frame_of(t, fps)))
    out.sort(key=lambda e: e.t)
    return out


def write_match(
    match: Match,
    out: Path,
    fps: float,
    video: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Render and write everything of SPEC 4 plus frames.jsonl into ``out``; returns figures.

    The video has the size the match was set up for (``match.config.size``): the camera's focal
    length was sampled for it.
    """
    size = match.config.size
    out.mkdir(parents=True, exist_ok=True)
    tl = match.timeline
    total = n_frames(match, fps)
    writer = None
    renderer = None
    if video:
        import cv2

        from tracker.render import Renderer  # type: ignore[attr-defined]

        renderer = Renderer(match.board, match.look, size, match.config.seed)
        fourcc = cv2.VideoWriter_fourcc(*"mp4v")  # type: ignore[attr-defined]
        writer = cv2.VideoWriter(str(out / "video.mp4"), fourcc, fps, size)
        if not writer.isOpened():
            from tracker.errors import InputError

            raise InputError(f"cannot write a video to {out / 'video.mp4'}")
    cache: dict[Camera, np.ndarray] = {}
    renders = 0
    try:
        with open(out / "frames.jsonl", "w") as fh:
            for i in range(total):
                cam = tl.camera_at(i / fps)
                if cam not in cache:
                    cache[cam] = _homography(cam, size)
                H = cache[cam]
                fh.write(json.dumps(frame_truth(match, i, fps, H, cam), separators=(",", ":")) + "\n")
                if renderer is not None and writer is not None:
                    subs = subframes(match, i, fps)
                    renders += len(subs)
                    writer.write(renderer.render(subs, cam, frame_index=i))
                if progress is not None:
                    progress(i + 1, total)
    finally:
        if writer is not None:
            writer.release()
    H0 = cache[tl.camera_at(0.0)]
    bumps = [(t + tl.bump_duration, _homography(c, size)) for t, c in tl.cameras[1:]]
    ev.write_events(out / "events.jsonl", timed_events(match, fps, H0, bumps))
    (out / "shots.jsonl").write_text(dump_shot_log(match.entries))
    (out / "truth.json").write_text(json.dumps(match.summary(), indent=2) + "\n")
    return {"frames": total, "renders": renders, "duration_s": tl.end}


def terminal_progress(label: str) -> Callable[[int, int], None] | None:
    """A one-line progress counter on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if done == total or done % 10 == 0:
            sys.stderr.write(f"\r{label}: frame {done}/{total}")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return show
