"""The wrong game named: the review refuses on the first calibration window, when the other
game's board fits it (``camera.refuse_other_game``), instead of sliding the fit through every
frame of the video first (crokinole_twenty with --game korona took two minutes to refuse).
A view that shows no board fits neither game and is waited for."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.video_frames import read_frames
from tracker.errors import CalibrationError
from tracker.pipeline import Pipeline

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "videos"


def first_frames(fixture: str, n: int) -> list[np.ndarray]:
    src = FIXTURES / fixture / "video.mp4"
    if not src.exists():
        pytest.skip(f"fixture {fixture} not generated")
    return read_frames(src, n)


@pytest.mark.parametrize(("fixture", "game", "other"), [("crokinole_twenty", "korona", "crokinole"),
                                                        ("korona_pocket", "crokinole", "korona")])
def test_the_other_games_board_is_refused_on_the_first_window(fixture: str, game: str, other: str) -> None:
    p = Pipeline(game, 2)
    frames = first_frames(fixture, p.calib_frames)
    with pytest.raises(CalibrationError, match=f"it looks like a {other} board: try --game {other}"):
        for i, f in enumerate(frames):
            p.process(f, i / 30.0, i)
    assert i == p.calib_frames - 1  # on the window's last frame, not at the video's end
    assert p.calib is None


def test_a_view_without_a_board_is_waited_for() -> None:
    """Blank frames (a camera being set up) fit neither game: no refusal, the buffer slides on
    and the next window is tried."""
    p = Pipeline("crokinole", 2)
    rng = np.random.default_rng(3)
    for i in range(3 * p.calib_frames):
        img = np.full((180, 320, 3), 90, np.uint8) + rng.integers(0, 6, (180, 320, 3), dtype=np.uint8)
        assert p.process(img, i / 30.0, i) == []
    assert p.calib is None and p.other_game_checked


def test_the_right_game_calibrates() -> None:
    p = Pipeline("crokinole", 2)
    frames = first_frames("crokinole_twenty", p.calib_frames)
    out = []
    for i, f in enumerate(frames):
        out = p.process(f, i / 30.0, i)
    assert p.calib is not None and len(out) == p.calib_frames and not p.other_game_checked
