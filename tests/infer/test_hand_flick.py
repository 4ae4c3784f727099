"""A crokinole shot disc whose track followed the flicking hand (hand-made detections, board mm):
``tracker.infer.hand_flick.followed_the_hand``."""

from __future__ import annotations

import math

import numpy as np

from tests.infer.scenes import shots
from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import IN_DITCH, ON_SURFACE, Detections
from tracker.pipeline import Pipeline

FPS = 30.0


def _dets(*rows: tuple[float, float, int]) -> Detections:
    return Detections(xy=np.array([(x, y) for x, y, _ in rows], float).reshape(-1, 2),
                      radius=np.full(len(rows), 16.0), where=np.array([w for _, _, w in rows], int))


START_X = -150.0


END = (-20.0, -90.0)


def _straight(a: np.ndarray, b: np.ndarray, v0: float = 900.0) -> list[np.ndarray]:
    """Places a frame apart from ``a`` to ``b``, leaving at ``v0`` mm/s and slowing to a stop there."""
    run = float(np.hypot(*(b - a)))
    u = (b - a) / run
    decel = v0 * v0 / (2 * run)
    n = int(math.ceil(v0 / decel * FPS))
    return [a + u * (run if (k + 1) / FPS >= v0 / decel else v0 * (k + 1) / FPS - 0.5 * decel * ((k + 1) / FPS) ** 2)
            for k in range(n)]


def _bounced(board: CrokinoleBoard, start: np.ndarray) -> list[np.ndarray]:
    """From ``start`` at 900 mm/s into the peg at (-38.9, -93.9), glancing off it, back out to a
    stop 120 mm on."""
    peg = np.array(board.peg_positions()[5])
    normal = np.array([-0.95, -0.31]) / np.hypot(-0.95, -0.31)
    hit = peg + normal * (16.0 + board.peg_diameter / 2)
    u = (hit - start) / np.hypot(*(hit - start))
    away = u - 2 * float(u @ normal) * normal
    n_in = int(float(np.hypot(*(hit - start))) / 900.0 * FPS)
    into = [start + (hit - start) * (k + 1) / n_in for k in range(n_in)]
    return into + _straight(hit, hit + away * 120.0, 600.0)


def _review(hand: bool, bounce: bool = False) -> Pipeline:
    """South's disc on the shooting line at (-150, -265), flicked in at 900 mm/s towards (-20, -90)
    and unseen for its first 6 frames. With ``hand``, the finger behind it is found twice, 16 mm out
    behind the line, and the hand once in the ditch (c2h_9986 at 15.7 s). With ``bounce`` it is
    first seen coming back off a peg (its run does not line back to where it was flicked)."""
    board = CrokinoleBoard()
    start = np.array([START_X, -math.sqrt(board.shooting_line_radius ** 2 - START_X ** 2)])
    out = start / np.hypot(*start)
    path = _bounced(board, start) if bounce else _straight(start, np.array(END))
    frames: list[Detections] = [_dets((*start, ON_SURFACE))] * 20
    for k, at in enumerate(path):
        rows: list[tuple[float, float, int]] = [(*at, ON_SURFACE)] if k >= 6 else []
        if hand and k < 2:
            rows.append((*(start + out * 16.0 + np.array([1.0, 0.0]) * 3 * k), ON_SURFACE))
        if hand and k == 6:
            rows.append((*(start + out * 62.0), IN_DITCH))
        frames.append(_dets(*rows))
    frames += [_dets((*path[-1], ON_SURFACE))] * 40
    p = Pipeline("crokinole", 2)
    p.start_tracking(board)
    for i, det in enumerate(frames):
        p.process_detections(det, i / FPS, i)
    p.finish()
    return p


def test_a_shot_disc_whose_track_followed_the_flicking_hand_comes_to_rest_where_the_disc_did() -> None:
    """With the hand's finds or without, south's shot disc rests where it stopped (not in the
    ditch); the rules call the same: no disc off the board, no foul. First seen in flight, its run
    lined back to the line: the track of the hand's finds rested where it left (``the_hand``);
    first seen off a peg: the track that rested there is the shot disc's, and the disc a new track
    (``followed_the_hand``)."""
    for bounce in (False, True):
        calls = []
        for hand in (False, True):
            p = _review(hand, bounce)
            log = shots(p)
            assert [s.seat for s in log] == ["south"], (hand, bounce, log)
            stop = log[0].end[log[0].disc]
            assert isinstance(stop, tuple) and math.dist(stop, tuple(_review_end(bounce))) < 3.0, (hand, bounce, log)
            assert not [e for e in p.events if e.type == "off_board"], (hand, bounce, p.events)
            calls.append(sorted((e.type, e.data.get("reason")) for e in p.events))
        assert calls[0] == calls[1], (bounce, calls)


def _review_end(bounce: bool) -> np.ndarray:
    board = CrokinoleBoard()
    start = np.array([START_X, -math.sqrt(board.shooting_line_radius ** 2 - START_X ** 2)])
    return _bounced(board, start)[-1] if bounce else np.array(END)
