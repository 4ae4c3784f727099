"""Drawing one annotated frame, and writing them as ``annotated.mp4``."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.errors import InputError

if TYPE_CHECKING:
    from tracker.pipeline.pipeline import FrameResult, Pipeline

SEAT_BGR = {"s": (60, 200, 255), "n": (255, 160, 60), "w": (120, 255, 120), "e": (200, 120, 255)}
CALL_SECONDS = 4.0


def _circle_mm(r: float, n: int = 96) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([r * np.cos(a), r * np.sin(a)], 1)


def board_polylines(board: CrokinoleBoard | KoronaBoard) -> list[np.ndarray]:
    """Outline curves of the board in mm (closed polylines)."""
    if isinstance(board, CrokinoleBoard):
        curves = [_circle_mm(r) for r in (board.surface_radius, *board.line_radii, board.hole_radius)]
        curves += [np.array(p) + _circle_mm(board.peg_diameter / 2, 12) for p in board.peg_positions()]
        return curves
    h = board.half
    curves = [np.array([[-h, -h], [h, -h], [h, h], [-h, h]], float)]
    curves += [np.array(c) + _circle_mm(board.pocket_radius, 32) for c in board.pocket_centres().values()]
    curves.append(_circle_mm(board.centre_circle_radius))
    return curves


class Annotator:
    """Collects annotated frames into a video file (mp4v)."""

    def __init__(self, path: str | Path, fps: float, size: tuple[int, int], pipeline: Pipeline) -> None:
        self.path = Path(path)
        self.pipeline = pipeline
        self.size = size
        self.writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter.fourcc(*"mp4v"), fps, size)
        if not self.writer.isOpened():
            raise InputError(f"cannot write {self.path}")
        self.calls: list[tuple[float, str]] = []
        self.score = ""
        self._outlines: tuple[int, list[np.ndarray]] | None = None

    def frame(self, image: np.ndarray, res: FrameResult) -> None:
        for out in res.outcomes:
            for d in out.decisions:
                self.calls.append((res.t, d.reason))
            self.score = score_line(self.pipeline.summary())
        self.calls = [(t, c) for t, c in self.calls if res.t - t < CALL_SECONDS][-6:]
        img = draw_frame(image, res, self.pipeline, self._curves())
        _text_block(img, [self.score] + [c for _, c in self.calls], (8, 20))
        self.writer.write(img)

    def _curves(self) -> list[np.ndarray]:
        calib = self.pipeline.calib
        assert calib is not None
        key = id(calib)
        if self._outlines is None or self._outlines[0] != key:
            self._outlines = (key, [calib.to_image(c).astype(np.int32) for c in board_polylines(calib.board)])
        return self._outlines[1]

    def close(self) -> None:
        self.writer.release()


def score_line(summary: dict[str, Any]) -> str:
    totals = summary.get("totals", {})
    cur = summary.get("current_round") or {}
    pts = cur.get("points") or cur.get("pocketed") or {}
    now = "  ".join(f"{k} {v}" for k, v in pts.items())
    tot = "  ".join(f"{k} {v}" for k, v in totals.items())
    return f"total: {tot}" + (f"   this round: {now}" if now else "")


def draw_frame(image: np.ndarray, res: FrameResult, pipeline: Pipeline, curves: list[np.ndarray]) -> np.ndarray:
    img = image.copy()
    calib = pipeline.calib
    if calib is None:
        return img
    cv2.polylines(img, [c.reshape(-1, 1, 2) for c in curves], True, (0, 255, 255), 1, cv2.LINE_AA)
    board = pipeline.board
    names = pipeline.namer.names
    for tr in res.tracks:
        if tr.state in ("lifted", "off", "pocket") or (tr.state == "rest" and tr.occluded):
            continue
        name = names.get(tr.id, f"#{tr.id}")
        colour = SEAT_BGR.get(name[:1], (230, 230, 230))
        trail = [(s.x, s.y) for s in tr.path[-20:]] if tr.state == "moving" else []
        if len(trail) >= 2:
            pts = calib.to_image(np.array(trail)).astype(np.int32)
            cv2.polylines(img, [pts.reshape(-1, 1, 2)], False, colour, 2, cv2.LINE_AA)
        x, y = tr.position()
        c, e = calib.to_image(np.array([[x, y], [x + tr.radius, y]]))
        r = max(int(round(float(np.hypot(*(e - c))))), 3)
        cx, cy = int(round(c[0])), int(round(c[1]))
        cv2.circle(img, (cx, cy), r, colour, 2, cv2.LINE_AA)
        label = name
        if isinstance(board, CrokinoleBoard) and tr.state in ("rest", "hole"):
            label += f" {board.zone(x, y, tr.radius)}"
        _label(img, label, (cx + r + 2, cy - r))
    return img


def _label(img: np.ndarray, text: str, org: tuple[int, int]) -> None:
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)


def _text_block(img: np.ndarray, lines: list[str], org: tuple[int, int]) -> None:
    x, y = org
    lines = [s for s in lines if s]
    if lines:
        w = max(cv2.getTextSize(s, cv2.FONT_HERSHEY_SIMPLEX, 0.45, 1)[0][0] for s in lines)
        shade = img[max(y - 14, 0):y + 18 * len(lines) - 10, max(x - 4, 0):x + w + 4]
        shade[:] = (shade * 0.45).astype(np.uint8)
    for line in lines:
        if line:
            cv2.putText(img, line, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3, cv2.LINE_AA)
            cv2.putText(img, line, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1, cv2.LINE_AA)
        y += 18
