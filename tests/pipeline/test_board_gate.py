"""The stillness gate's board test (``board_gate.py``): on a rendered noisy camera (the hard preset),
a still board is called still, a disc moving or set down by hand never is, and what happens beside
the board does not count."""

from __future__ import annotations

from functools import cache

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.pipeline.board_gate import BoardGate, board_test
from tracker.pipeline.stillness import StillnessGate
from tracker.render.renderer import Renderer
from tracker.render.sampling import sample_camera, sample_look
from tracker.render.scene import Camera, DiscSprite, HandSprite, SceneFrame
from tracker.render.still import truth_calibration

SIZE = (640, 360)
SEED = 7
BOARD = CrokinoleBoard()


@cache
def setup() -> tuple[Renderer, Camera, Calibration]:
    rng = np.random.default_rng(SEED)
    look = sample_look("hard", rng, "crokinole")
    cam = sample_camera("hard", rng, SIZE, "crokinole")
    return Renderer(BOARD, look, SIZE, SEED), cam, truth_calibration(BOARD, cam, SIZE)


def disc(x: float, y: float, i: int = 0) -> DiscSprite:
    return DiscSprite(id=f"d{i}", x=x, y=y, radius=BOARD.disc_radius, thickness=BOARD.disc_thickness,
                      side=i % 2, angle=0.5)


RESTING = (disc(-120.0, 80.0, 0), disc(150.0, -60.0, 1), disc(30.0, 200.0, 2))


def frame(index: int, discs: tuple[DiscSprite, ...] = RESTING, hands: tuple[HandSprite, ...] = ()) -> np.ndarray:
    """Frame ``index`` of the video (its own sensor noise and compression)."""
    renderer, cam, _ = setup()
    return renderer.render([SceneFrame(t=index / 30.0, discs=discs, hands=hands)], cam, frame_index=index)


def gate() -> BoardGate:
    g = board_test(setup()[2], True)
    assert g is not None
    return g


def test_a_still_board_on_a_noisy_camera_is_still() -> None:
    g = gate()
    first = frame(0)
    assert not g.still(first)  # nothing remembered yet
    g.remember(first)
    calls = [g.still(frame(i)) for i in range(1, 13)]
    # (at 640x360 a cell is 9 pixels wide: the noise's tail reaches the threshold now and then;
    # at 1280x720 the cells average four times the pixels)
    assert sum(calls) >= 10, (calls, g.largest, g.threshold)
    # the whole picture's thumbnail, at its fixed threshold, sees the noise as change
    thumb = StillnessGate(max_skip=100)
    thumb.still(first)
    thumb.remember(first)
    assert sum(thumb.still(frame(i)) for i in range(1, 13)) < sum(calls)


def test_a_moving_disc_is_never_still() -> None:
    g = gate()
    first = frame(0)
    g.still(first)
    g.remember(first)
    for i in range(1, 6):  # quiet frames: the noise is learned
        g.still(frame(i))
    # the middle disc slides slowly along x, 3 mm a frame (about an image pixel at 640x360), the
    # gate comparing each frame with the last detected one, which it asks to be the one before
    for i in range(1, 8):
        moved = (RESTING[0], disc(150.0 + 3 * i, -60.0, 1), RESTING[2])
        f = frame(5 + i, moved)
        assert not g.still(f), (i, g.largest, g.threshold)
        g.remember(f)


def _settled(frames: int) -> BoardGate:
    """A gate that saw the resting board detected on frame 0 and still on frames 1..frames-1."""
    g = gate()
    first = frame(0)
    g.still(first)
    g.remember(first)
    for i in range(1, frames):
        g.still(frame(i))
    return g


def test_a_disc_set_down_by_hand_while_the_rest_is_still_is_caught() -> None:
    g = _settled(6)
    hand = HandSprite(x=-40.0, y=-150.0, from_angle=-np.pi / 2, pose="pinch")
    new = (*RESTING, disc(-40.0, -150.0, 3))
    assert not g.still(frame(6, new, (hand,)))  # the hand over the board
    assert not g.still(frame(7, new))  # the hand gone, the disc left where it was set down
    g.remember(frame(8, new))
    assert g.still(frame(9, new))  # and the board still again after the detector saw it


def test_a_hand_beside_the_board_does_not_count() -> None:
    g = _settled(4)
    r = BOARD.ditch_outer_radius
    hand = HandSprite(x=0.0, y=-(r + 120.0), from_angle=-np.pi / 2, pose="open", z=10.0)
    assert g.still(frame(4, hands=(hand,)))


def test_the_stillness_gate_takes_the_board_test_s_word() -> None:
    first = frame(0)
    g = StillnessGate(max_skip=100, board=gate())
    assert not g.still(first)
    g.remember(first)
    assert sum(g.still(frame(i)) for i in range(1, 8)) >= 6
    assert not g.still(frame(8, (RESTING[0], disc(170.0, -60.0, 1), RESTING[2])))


def test_the_pipeline_uses_it_only_when_asked() -> None:
    from tracker.pipeline import Pipeline

    calib = setup()[2]
    assert Pipeline("crokinole", 2, calib=calib).gate.board is None  # off by default (``BOARD_GATE``)
    Pipeline.board_gate = True
    try:
        assert Pipeline("crokinole", 2, calib=calib).gate.board is not None
    finally:
        Pipeline.board_gate = None
