"""Look and camera sampling: ranges per preset, and the whole board in view."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import board_for
from tracker.render import project, sample_camera, sample_look
from tracker.render.sampling import board_outline

SIZE = (1280, 720)


@pytest.mark.parametrize("game", ["crokinole", "korona"])
@pytest.mark.parametrize("preset", ["easy", "hard"])
def test_cameras_see_the_whole_board(game: str, preset: str) -> None:
    rng = np.random.default_rng(11)
    outline = board_outline(board_for(game))
    for _ in range(40):
        cam = sample_camera(preset, rng, SIZE, game)  # type: ignore[arg-type]
        px = project(cam, SIZE, outline)
        assert np.all(np.isfinite(px))
        assert px[:, 0].min() >= 0 and px[:, 0].max() <= SIZE[0] - 1
        assert px[:, 1].min() >= 0 and px[:, 1].max() <= SIZE[1] - 1
        # and the board is not a speck: it spans at least half the frame height
        assert px[:, 1].max() - px[:, 1].min() > 0.45 * SIZE[1] or \
            px[:, 0].max() - px[:, 0].min() > 0.45 * SIZE[0]


def test_camera_ranges_per_preset() -> None:
    rng = np.random.default_rng(2)
    easy = [sample_camera("easy", rng, SIZE, "crokinole") for _ in range(200)]
    hard = [sample_camera("hard", rng, SIZE, "crokinole") for _ in range(200)]
    assert max(c.tilt for c in easy) <= 8.0
    assert max(abs(c.azimuth) for c in easy) <= 4.0  # south stays at the bottom
    assert max(abs(c.k1) for c in easy) <= 0.06
    assert max(c.tilt for c in hard) <= 45.0 and max(c.tilt for c in hard) > 35.0
    azs = np.array([c.azimuth % 360 for c in hard])
    assert azs.min() < 60 and azs.max() > 300  # any rotation
    assert min(c.k1 for c in hard) < -0.2  # strong barrel distortion occurs
    assert max(np.hypot(*c.target) for c in hard) > 50.0  # off-centre


@pytest.mark.parametrize("game", ["crokinole", "korona"])
def test_look_ranges_per_preset(game: str) -> None:
    rng = np.random.default_rng(4)
    easy = [sample_look("easy", rng, game) for _ in range(60)]
    hard = [sample_look("hard", rng, game) for _ in range(60)]
    for lk in easy:
        assert lk.noise_sigma <= 2.5 and lk.jpeg_quality >= 85 and lk.glare <= 0.1
        assert 1.5 <= lk.line_width <= 2.5
    for lk in hard:
        assert lk.noise_sigma >= 3.0 and lk.jpeg_quality <= 80 and lk.glare >= 0.15
        assert 1.0 <= lk.line_width <= 4.0
    if game == "crokinole":
        assert {lk.surface for lk in easy} <= {"natural", "birch"}
        assert len({lk.surface for lk in hard}) >= 4
        assert {lk.outer_shape for lk in easy + hard} == {"round", "octagon"}
        assert all(len(lk.disc_colors) >= 2 for lk in easy + hard)
        assert len({lk.disc_colors[:2] for lk in easy + hard}) >= 4  # four colour pairs
    else:
        assert all(lk.outer_shape == "square" for lk in easy + hard)
        assert all(len(lk.disc_colors) >= 4 for lk in easy + hard)  # up to four players


def test_bad_preset_and_game_are_refused() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="preset"):
        sample_look("medium", rng, "crokinole")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="game"):
        sample_look("easy", rng, "carrom")
    with pytest.raises(ValueError, match="preset"):
        sample_camera("medium", rng, SIZE, "crokinole")  # type: ignore[arg-type]


def test_lens_is_one_to_one_out_to_the_image_corners() -> None:
    """Strong barrel distortion must not fold back inside the frame (no mirrored rings)."""
    from tracker.render.camera import distort_normalized, undistort_normalized

    rng = np.random.default_rng(5)
    for _ in range(60):
        cam = sample_camera("hard", rng, SIZE, "korona")
        corner = np.array([[SIZE[0] / 2.0, SIZE[1] / 2.0]]) / cam.focal
        und = undistort_normalized(corner, cam.k1, cam.k2)
        assert np.allclose(distort_normalized(und, cam.k1, cam.k2), corner, atol=1e-9)
        r = np.linspace(0.0, float(np.hypot(*und[0])), 200)
        rd = r * (1 + cam.k1 * r**2 + cam.k2 * r**4)
        assert np.all(np.diff(rd) > 0)
