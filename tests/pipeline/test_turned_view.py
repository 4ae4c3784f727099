"""A new fit after a camera change may name the board frame by another picture edge: a crokinole
board looks the same turned a quarter (triple.mp4: a broadcast cut to its second camera turned
the board 90 degrees, and the discs at rest became new discs). The refit turns its frame back so
the discs at rest stay where they were (``camera.board_turn``)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.pipeline import Pipeline
from tracker.pipeline.camera import best_turn, board_turn, turned
from tracker.render.still import still_frame

BOARD = CrokinoleBoard()
REST = np.array([[41.0, 242.0], [53.0, 111.0], [-150.0, -60.0]])


def _quarter(xy: np.ndarray, k: int) -> np.ndarray:
    c, s = np.cos(k * np.pi / 2), np.sin(k * np.pi / 2)
    return xy @ np.array([[c, s], [-s, c]])  # rows turned k quarters counter-clockwise


def test_best_turn_finds_the_quarter_that_puts_the_found_discs_on_the_resting_ones() -> None:
    rng = np.random.default_rng(1)
    for k in range(4):
        found = _quarter(REST, -k) + rng.normal(0.0, 3.0, REST.shape)  # the new frame, turned back by k
        assert best_turn(REST, found, BOARD.disc_radius) == k
    # a bump: the same frame, a few mm off, is kept as it is
    assert best_turn(REST, REST + 4.0, BOARD.disc_radius) == 0
    # one disc of three matched by a turn is not enough (it may be chance)
    found = np.array([_quarter(REST[:1], 3)[0], [300.0, 0.0], [0.0, -300.0]])
    assert best_turn(REST, found, BOARD.disc_radius) == 0


def test_turned_calibration_maps_the_image_onto_the_turned_board() -> None:
    _, calib = still_frame(BOARD, "easy", (320, 180), 3, lambda rng: [])
    px = calib.to_image(REST)
    for k in range(4):
        assert np.allclose(turned(calib, k).to_board(px), _quarter(REST, k), atol=1e-6)
    assert np.allclose(turned(turned(calib, 1), 3).homography, calib.homography)


def test_refit_seen_turned_is_turned_back_onto_the_discs_at_rest() -> None:
    discs = [(float(x), float(y), i % 2) for i, (x, y) in enumerate(REST)]
    img, calib = still_frame(BOARD, "easy", (480, 270), 5, lambda rng: discs)
    p = Pipeline("crokinole", 2, calib=calib)
    for i in range(12):
        p.process_detections(p.detector.detect(img), i / 30.0, i)
    assert sum(tr.state == "rest" for tr in p.tracker.tracks) == 3
    new = turned(calib, 1)  # the new fit names another edge south: everything a quarter on
    k = board_turn(p, new, img)
    assert k == 3
    assert np.allclose(turned(new, k).homography, calib.homography)
    assert board_turn(p, calib, img) == 0
