"""Circles painted on a korona-family board (carrom base circles and centre circle) are not discs
(``detect/marks.py``), on rendered carrom boards with discs at known places; a disc laid on a
painted circle once the empty board was seen is still found."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import KoronaBoard, load_profile
from tracker.detect.detector import DiscDetector
from tracker.render.still import still_frame

SIZE = (1280, 720)


def carrom() -> KoronaBoard:
    board = load_profile("carrom")
    assert isinstance(board, KoronaBoard)
    return board


def test_base_circles_end_the_striking_lines() -> None:
    board = carrom()
    centres = board.base_circles()
    assert len(centres) == 8 and len(board.painted_circles()) == 9
    r, w = board.base_circle_radius, board.line_width
    for seat in ("south", "north", "west", "east"):
        (x0, y0), (x1, y1) = board.striking_line(seat)  # type: ignore[arg-type]
        for end in ((x0, y0), (x1, y1)):
            near = min(centres, key=lambda c: np.hypot(c[0] - end[0], c[1] - end[1]))
            # tangent to the line on the field side, its far edge at the line's end
            across = abs(near[1] - y0) if y0 == y1 else abs(near[0] - x0)
            along = abs(near[0] - end[0]) if y0 == y1 else abs(near[1] - end[1])
            assert across == pytest.approx(r + w / 2) and along == pytest.approx(r + w / 2)
            assert np.hypot(*near) < np.hypot(*end)  # on the field side
    assert KoronaBoard().base_circles() == []  # the default korona board paints none


def _matched(found: np.ndarray, truth: list[tuple[float, float, int]], tol: float = 5.0) -> bool:
    if len(found) != len(truth):
        return False
    d = np.hypot(*(found[:, None] - np.array([t[:2] for t in truth])[None]).transpose(2, 0, 1))
    return bool((d.min(axis=0) < tol).all())


@pytest.mark.parametrize("seed", [1, 3])
def test_painted_circles_are_not_discs(seed: int) -> None:
    """Three discs on a carrom board whose 8 base circles and centre circle are drawn: exactly
    the three are found (before: 12, every painted circle a disc)."""
    discs = [(0.0, 150.0, 0), (-120.0, -60.0, 1), (200.0, 0.0, 0)]
    img, calib = still_frame(carrom(), "easy", SIZE, seed, lambda rng: discs)
    dets = DiscDetector(calib, "korona").detect(img)
    assert _matched(dets.xy, discs), dets.xy.round().tolist()


def test_a_disc_on_a_painted_circle_is_found_once_the_board_was_seen() -> None:
    """The empty board seen first (the detector's empty-board picture): a disc then laid
    centred on a base circle, and one on the centre circle, are found; the empty board again
    gives nothing."""
    board = carrom()
    bx, by = board.base_circles()[0]
    on_marks = [(bx, by, 1), (0.0, 0.0, 1), (150.0, 60.0, 0)]
    empty, calib = still_frame(board, "easy", SIZE, 5, lambda rng: [])
    laid, calib2 = still_frame(board, "easy", SIZE, 5, lambda rng: on_marks)
    assert np.allclose(calib.homography, calib2.homography)  # the same camera and look
    det = DiscDetector(calib, "korona")
    det.set_background(empty)
    assert len(det.detect(empty)) == 0
    dets = det.detect(laid)
    assert _matched(dets.xy, on_marks), dets.xy.round().tolist()
