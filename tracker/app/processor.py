"""Adapters from the video pipeline (``tracker.pipeline``) to the web app: a live frame processor
and the review of an uploaded file. The pipeline does the work; this module only turns its results
into the store's JSON, draws the views and picks out close calls for the referee."""

from __future__ import annotations

import base64
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.shotlog import Shot

CLOSE_CALL_MM = 1.0
BOARD_MM_PER_PX = 1.5


class BoardWarp:
    """The rectified board view, with its pixel maps made once per calibration.

    ``tracker.calibration.rectify`` builds the per-pixel map (``rectify_maps``) on every call: with lens
    distortion that is a few hundred milliseconds of CPU and tens of megabytes of temporaries for
    a 1280x720 frame. The scoreboard asks for the view several times a second, which took most of
    the pipeline's core (live dropped ~90% of frames while a page was open) and churned the heap.
    The map depends only on the calibration, so it is kept until the pipeline fits the board again
    (a new Calibration object) and each view is then one ``cv2.remap``."""

    def __init__(self, mm_per_px: float):
        self.mm_per_px = mm_per_px
        self._calib: Any = None
        self._maps: tuple[np.ndarray, np.ndarray] | None = None
        self._M = np.eye(3)
        self.builds = 0  # maps made so far (one per calibration)

    def warp(self, image: np.ndarray, calib: Any) -> tuple[np.ndarray, np.ndarray]:
        """(rectified image, board mm -> rectified px matrix) for ``image`` under ``calib``."""
        from tracker.calibration import rectify, rectify_matrix
        from tracker.calibration.rectify import rectify_maps

        if calib is not self._calib:
            self._calib, self._maps = calib, None
            # board mm -> rectified px, for the labels
            self._M = np.linalg.inv(rectify_matrix(calib, self.mm_per_px))
            maps = rectify_maps(calib, self.mm_per_px)
            if maps is not None:
                self._maps = cv2.convertMaps(maps[0], maps[1], cv2.CV_16SC2)
            self.builds += 1
        if self._maps is None:  # no distortion: one perspective warp is already cheap
            return rectify(image, calib, self.mm_per_px), self._M
        return cv2.remap(image, self._maps[0], self._maps[1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT), self._M


class PipelineProcessor:
    """``process(image, t, index) -> (events, shot lines)`` for :class:`tracker.app.live.LiveSession`."""

    def __init__(self, game: str, players: int, variant: str | None = None,
                 rules: dict[str, Any] | None = None, fps: float = 30.0,
                 board: CrokinoleBoard | KoronaBoard | None = None):
        from tracker.pipeline import Pipeline

        options = dict(rules or {})
        if variant:
            options["variant"] = variant
        self.pipeline = Pipeline(game, players, board=board, rules=options, fps=fps)  # board: a profile
        self._tracks: list[Any] = []
        self._image: np.ndarray | None = None
        self._board_warp = BoardWarp(BOARD_MM_PER_PX)

    def process(self, image: np.ndarray, t: float, index: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        events: list[dict[str, Any]] = []
        lines: list[dict[str, Any]] = []
        if index >= 30 and t > 0:
            self.pipeline.fps = index / t  # the source's real rate, for event frame numbers
        for res in self.pipeline.process(image, t, index):
            self._tracks = list(res.tracks)
            events.extend(e.to_json() for e in res.events)
            for entry in res.entries:
                lines.append(entry.to_json())
                if isinstance(entry, Shot):
                    events.extend(self._close_calls(entry, image, res.t, res.index))
        self._image = image
        return events, lines

    def set_south(self, image: np.ndarray, south: str) -> dict[str, Any]:
        """Fit the board again on ``image`` with ``south`` at that side of the image."""
        from tracker.calibration import calibrate_image

        self.pipeline.south = south
        calib = calibrate_image(image, self.pipeline.game, board=self.pipeline.board_hint, south=south)
        self.pipeline.set_calibration(calib, image)
        return {"rms_mm": calib.rms_mm, "south": south, "method": calib.method}

    def resume(self, shot_log: list[dict[str, Any]]) -> None:
        from tracker.shotlog import parse_entry

        self.pipeline.resume([parse_entry(obj, i + 1) for i, obj in enumerate(shot_log)])

    def _close_calls(self, shot: Shot, image: np.ndarray, t: float, index: int) -> list[dict[str, Any]]:
        """A ``close_call`` event for every disc that came to rest within 1 mm of a line, with an
        evidence crop from the camera frame and the measured gap."""
        board = self.pipeline.calib.board if self.pipeline.calib else None
        if not isinstance(board, CrokinoleBoard):
            return []
        out = []
        for disc, end in shot.end.items():
            if not isinstance(end, tuple):
                continue
            line, gap = board.closest_line_gap(*end)
            if abs(gap) > CLOSE_CALL_MM:
                continue
            out.append({"type": "close_call", "t": t, "frame": index, "disc": disc, "line": line,
                        "gap_mm": round(gap, 2), "points": board.zone(*end), "at": list(end),
                        "crop": self._crop(image, end)})
        return out

    def _crop(self, image: np.ndarray, at: tuple[float, float], half_mm: float = 30.0) -> str | None:
        calib = self.pipeline.calib
        if calib is None:
            return None
        corners = calib.to_image(np.array([[at[0] - half_mm, at[1] - half_mm], [at[0] + half_mm, at[1] + half_mm],
                                           [at[0] - half_mm, at[1] + half_mm], [at[0] + half_mm, at[1] - half_mm]]))
        x0, y0 = np.floor(corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
        h, w = image.shape[:2]
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return None
        crop = cv2.resize(image[y0:y1, x0:x1], (128, 128), interpolation=cv2.INTER_CUBIC)
        ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return base64.b64encode(buf.tobytes()).decode() if ok else None

    def overlay(self, image: np.ndarray) -> np.ndarray:
        """The camera frame with the fitted board and each tracked disc's id."""
        calib = self.pipeline.calib
        out = image.copy()
        if calib is None:
            cv2.putText(out, "looking for the board...", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 200, 255), 2)
            return out
        board = calib.board
        if isinstance(board, CrokinoleBoard):
            a = np.linspace(0, 2 * np.pi, 120)
            for r in (board.surface_radius, *board.line_radii):
                pts = calib.to_image(np.stack([r * np.cos(a), r * np.sin(a)], axis=1))
                cv2.polylines(out, [np.round(pts).astype(np.int32)], True, (0, 220, 255), 1, cv2.LINE_AA)
        else:
            h = board.half
            pts = calib.to_image(np.array([[-h, -h], [h, -h], [h, h], [-h, h]]))
            cv2.polylines(out, [np.round(pts).astype(np.int32)], True, (0, 220, 255), 1, cv2.LINE_AA)
        names = self.pipeline.namer.names if hasattr(self.pipeline, "namer") else {}
        for tr in self._tracks:
            if not tr.alive:
                continue
            at = pixel_in(calib.to_image(np.asarray(tr.xy, float).reshape(1, 2))[0], out.shape)
            if at is None:
                continue
            cv2.putText(out, names.get(tr.id, f"#{tr.id}"), (at[0] + 6, at[1] - 6),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1, cv2.LINE_AA)
        return out

    def board_view(self) -> np.ndarray | None:
        """The rectified board (north up) with each disc's id and zone value."""
        calib = self.pipeline.calib
        if calib is None or self._image is None:
            return None
        img, M = self._board_warp.warp(self._image, calib)
        names = self.pipeline.namer.names if hasattr(self.pipeline, "namer") else {}
        board = calib.board
        for tr in self._tracks:
            if not tr.alive:
                continue
            q = pixel_in(cv2.perspectiveTransform(np.asarray(tr.xy, float).reshape(1, 1, 2), M)[0, 0], img.shape)
            if q is None:
                continue
            label = names.get(tr.id, f"#{tr.id}")
            if isinstance(board, CrokinoleBoard) and tr.state == "rest":
                label += f" {board.zone(float(tr.xy[0]), float(tr.xy[1]))}"
            cv2.putText(img, label, (q[0] + 8, q[1]), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                        (255, 255, 255), 1, cv2.LINE_AA)
        return img

    def calibrate_points(self, image: np.ndarray, points: list[tuple[float, float, float, float]],
                         south: str | None) -> dict[str, Any]:
        from tracker.calibration import calibrate_points

        arr = np.asarray(points, dtype=float)
        calib = calibrate_points(arr[:, :2], arr[:, 2:], (image.shape[1], image.shape[0]),
                                 game=self.pipeline.game)
        if south:
            calib.south = south
        self.pipeline.set_calibration(calib, image)
        return {"rms_mm": calib.rms_mm, "residuals_mm": calib.residuals_mm, "method": calib.method}


def pixel_in(p: np.ndarray, shape: tuple[int, ...], margin: int = 50) -> tuple[int, int] | None:
    """``p`` as integer pixel coordinates, or None when it is not finite or far outside the image.

    A track's position seen through the homography can land anywhere (near the horizon line it
    tends to infinity), and OpenCV's drawing calls reject coordinates that do not fit an int:
    one such label must not cost the frame, let alone the session."""
    if not np.all(np.isfinite(p)):
        return None
    x, y = float(p[0]), float(p[1])
    if not (-margin <= x <= shape[1] + margin and -margin <= y <= shape[0] + margin):
        return None
    return int(x), int(y)


def review_file(path: str | Path, game: str, players: int,
                progress: Callable[[float], None]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """Review an uploaded video: (events, shot lines, a message such as where it stopped)."""
    from tracker.pipeline.review import review_video

    with tempfile.TemporaryDirectory(prefix="tracker-review-") as tmp:
        def on_progress(n: int, total: int) -> None:
            if total and n % 15 == 0:
                progress(min(1.0, n / total))

        result = review_video(path, game, players, tmp, progress=on_progress)
        events = [json.loads(s) for s in (Path(tmp) / "events.jsonl").read_text().splitlines() if s.strip()]
        lines = [json.loads(s) for s in (Path(tmp) / "shots.jsonl").read_text().splitlines() if s.strip()]
    message = f"stopped early: {result.stopped_early}" if result.stopped_early else f"{result.frames} frames"
    return events, lines, message
