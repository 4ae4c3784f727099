"""Drawing one annotated frame, and writing them as ``annotated.mp4``.

The calls shown are taken from the pipeline's own lists (its outcomes and shot events) since the
last frame drawn, not only from the frame's result: a shot may be judged outside any frame's
result (closed when the camera cuts away, ``camera.close_shot``), and the viewer must still see
it. Each logged shot is shown as one line (who shot, what left the board or went in the hole),
then the referee's decisions with their reasons.
"""

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
    from tracker.track.datatypes import Track

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
        self._outcomes_seen = len(pipeline.outcomes)
        self._events_seen = len(pipeline.events)
        self._outlines: tuple[int, list[np.ndarray]] | None = None
        self.view_began = -math.inf  # when the view drawn began (``shown``)

    def frame(self, image: np.ndarray, res: FrameResult) -> None:
        p = self.pipeline
        self.calls += [(res.t, line) for line in shot_lines(p.events[self._events_seen:])]
        self.view_began = max([self.view_began, *(e.t for e in p.events[self._events_seen:]
                                                  if e.type == "calibrated" and not e.data.get("settled"))])
        self._events_seen = len(p.events)
        new = p.outcomes[self._outcomes_seen:]
        self._outcomes_seen = len(p.outcomes)
        for out in new:
            for d in out.decisions:
                self.calls.append((res.t, d.reason))
        if new:
            self.score = score_line(p.summary())
        self.calls = [(t, c) for t, c in self.calls if res.t - t < CALL_SECONDS][-6:]
        img = draw_frame(image, res, self.pipeline, self._curves(), self.view_began)
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


def shot_lines(events: list[Any]) -> list[str]:
    """One line per ``shot`` event among ``events`` (in the order written): 'north shot n1: off
    s1 s2, 20 n1', with the off-board and 20 events written with it (same time)."""
    lines: list[list[str]] = []
    t_shot = None
    for e in events:
        if e.type == "shot":
            lines.append([f"{e.data.get('seat', '?')} shot {e.data.get('disc', '?')}", "", ""])
            t_shot = e.t
        elif lines and e.t == t_shot and e.type in ("off_board", "twenty"):
            k = 1 if e.type == "off_board" else 2
            lines[-1][k] += " " + str(e.data.get("disc", ""))
    out = []
    for head, off, hole in lines:
        parts = ([f"off{off}"] if off else []) + ([f"20{hole}"] if hole else [])
        out.append(head + (": " + ", ".join(parts) if parts else ""))
    return out


def score_line(summary: dict[str, Any]) -> str:
    totals = summary.get("totals", {})
    cur = summary.get("current_round") or {}
    pts = cur.get("points") or cur.get("pocketed") or {}
    now = "  ".join(f"{k} {v}" for k, v in pts.items())
    tot = "  ".join(f"{k} {v}" for k, v in totals.items())
    return f"total: {tot}" + (f"   this round: {now}" if now else "")


def draw_frame(image: np.ndarray, res: FrameResult, pipeline: Pipeline, curves: list[np.ndarray],
               view_began: float = -math.inf) -> np.ndarray:
    img = image.copy()
    calib = pipeline.calib
    if calib is None:
        return img
    cv2.polylines(img, [c.reshape(-1, 1, 2) for c in curves], True, (0, 255, 255), 1, cv2.LINE_AA)
    names = pipeline.namer.names
    for tr in res.tracks:
        if not shown(tr, view_began):
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
        _label(img, disc_label(pipeline, tr, name), (cx + r + 2, cy - r))
    return img


def shown(tr: Track, view_began: float = -math.inf) -> bool:
    """Whether the track is drawn: a disc on the board and seen, or moving; not one lifted, off or
    pocketed, a disc at rest hidden by a hand, nor one in the 20-hole not seen since the view
    began (``view_began``: the time of the last fit of the board that was not a settling refit).
    The tracker keeps an unseen 20 in the hole for ``TrackerConfig.hole_gone`` before it calls it
    taken out; ricochet.mp4 cut to a view where the red 20 had been taken out, and "s2 20" stayed
    drawn over the empty hole all that second. (A 20 sunk in this view stays drawn unseen: a black
    disc down in the dark hole is seldom found there.)"""
    if tr.state in ("lifted", "off", "pocket") or (tr.state == "rest" and tr.occluded):
        return False
    return not (tr.state == "hole" and tr.last_seen < view_began)


def disc_label(pipeline: Pipeline, tr: Track, name: str) -> str:
    """The text beside a disc: its name, and for a crokinole disc at rest or in the hole the
    points the rules engine gives it, on the engine's board (``zone_shown``), so the labels add
    up to the score line even where the measured rings differ from the rules' board."""
    scoring = getattr(pipeline.engine, "board", pipeline.board)
    if isinstance(scoring, CrokinoleBoard) and tr.state in ("rest", "hole"):
        x, y = tr.position()
        return f"{name} {zone_shown(scoring, tr.state, x, y)}"
    return name


def zone_shown(board: CrokinoleBoard, state: str, x: float, y: float) -> int:
    """The points shown beside a disc: 20 for a disc the tracker has in the 20-hole, else the
    zone where it lies as the rules score it (``board`` is the rules engine's, the disc its
    regulation size). (A disc down in the hole is measured a few millimetres off the hole's
    centre under an oblique camera, its face level with the surface; ``zone`` there gives the 15
    ring: ricochet.mp4 showed the red 20 as "s1 15" while the calls said 20 for it. Labels from
    the measured board and the disc's measured radius showed ricochet.mp4's last red as "s3 15"
    while the score counted it 10: 85.2 mm out, its edge 0.5 mm over the regulation 15 line's
    inner edge, 0.1 mm inside the measured one.)"""
    if state == "hole":
        return 20
    return int(board.zone(x, y))


_AROUND = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))


def _outlined(img: np.ndarray, text: str, org: tuple[int, int], scale: float) -> None:
    """White text with a black outline. The outline is the same thin text drawn one pixel off
    around it: drawn thicker, OpenCV's glyphs advance further and the outline's last letters
    stuck out past the white text as ghost letters."""
    x, y = org
    for dx, dy in _AROUND:
        cv2.putText(img, text, (x + dx, y + dy), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 1, cv2.LINE_AA)


def _label(img: np.ndarray, text: str, org: tuple[int, int]) -> None:
    _outlined(img, text, org, 0.4)


def _text_block(img: np.ndarray, lines: list[str], org: tuple[int, int]) -> None:
    x, y = org
    lines = [s for s in lines if s]
    if lines:
        w = max(cv2.getTextSize(s, cv2.FONT_HERSHEY_SIMPLEX, 0.45, 1)[0][0] for s in lines)
        shade = img[max(y - 14, 0):y + 18 * len(lines) - 10, max(x - 4, 0):x + w + 4]
        shade[:] = (shade * 0.45).astype(np.uint8)
    for line in lines:
        if line:
            _outlined(img, line, (x, y), 0.45)
        y += 18
