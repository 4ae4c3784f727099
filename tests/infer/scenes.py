"""Synthetic scenes shared by the shot-inference tests."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import STRIKER, Detections
from tracker.pipeline import Pipeline
from tracker.shotlog import Shot
from tracker.track.synthetic import World


def feed(frames: list[tuple[float, Detections]], **rules: object) -> Pipeline:
    """A 2-player crokinole pipeline fed ``frames`` (time, detections) and finished."""
    p = Pipeline("crokinole", 2, rules=dict(rules) or None)
    p.start_tracking(CrokinoleBoard())
    for i, (t, det) in enumerate(frames):
        p.process_detections(det, t, i)
    p.finish()
    return p


def shots(p: Pipeline) -> list[Shot]:
    """The shots of ``p``'s log."""
    return [e for e in p.entries if isinstance(e, Shot)]


def slide_to(a: tuple[float, float], b: tuple[float, float], frames: int) -> list[tuple[float, float]]:
    """Positions from ``a`` to ``b`` over ``frames`` frames, slowing to a stop."""
    s = 1.0 - (1.0 - np.linspace(0.0, 1.0, frames + 1)[1:]) ** 2
    return [(a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f) for f in s]


def discs_at(*xy: tuple[float, float]) -> Detections:
    """Crokinole discs (radius 16 mm) found at ``xy`` (board mm)."""
    return Detections(xy=np.array(xy, float).reshape(-1, 2), radius=np.full(len(xy), 16.0))


def south_shot(p: Pipeline) -> tuple[Shot, tuple[float, float]]:
    """The one shot of ``p``'s log, south's, and where its disc came to rest on the board."""
    log = shots(p)
    assert [s.seat for s in log] == ["south"], log
    end = log[0].end[log[0].disc]
    assert isinstance(end, tuple)
    return log[0], end


def korona_pot(fps: float = 30.0, wait: float = 0.5, hand: bool = False) -> World:
    """South's striker, from behind its line, drives d1 (north's colour class 0) into the ne
    pocket; d2 rests elsewhere. With ``hand`` a hand hangs over the board as the shot is
    played (the striker's run is then hidden at 10 fps)."""
    board = KoronaBoard()
    w = World(board, fps=fps, seed=6)
    px, py = board.pocket_centres()["ne"]
    target = np.array([px, py]) * 0.55
    w.place("d1", target[0], target[1], cls=0)
    w.place("d2", -150, 60, cls=1)
    start = np.array([target[0] - 60.0, -(board.half - board.striking_line_offset) - 12.0])
    u = np.array([px, py]) - target
    u /= np.hypot(*u)
    contact = target - u * (board.disc_radius + board.striker_radius)
    w.place("S", start[0], start[1], kind=STRIKER, cls=2)
    w.run(wait)
    if hand:
        w.hand(0, 0, 700, 1.0)
    w.shoot("S", *((contact - start) / np.hypot(*(contact - start)) * 3000))
    return w
