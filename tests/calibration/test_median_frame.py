"""The fast per-pixel median of frames equals numpy's (calibration sources, the pipeline's
calibration buffer and camera-bump recovery all use it)."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.calibration.io import median_frame


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 8, 9])
def test_median_frame_equals_numpy_median_cast_to_uint8(k: int) -> None:
    rng = np.random.default_rng(k)
    frames = [rng.integers(0, 256, (12, 17, 3), dtype=np.uint8) for _ in range(k)]
    want = np.median(np.stack(frames), axis=0).astype(np.uint8)
    got = median_frame(frames)
    assert got.dtype == np.uint8 and got.shape == (12, 17, 3)
    assert np.array_equal(got, want)


def test_median_drops_a_hand_seen_in_a_minority_of_frames() -> None:
    board = np.full((20, 20, 3), 150, np.uint8)
    frames = [board.copy() for _ in range(5)]
    frames[1][5:15, 5:15] = 30  # a hand passes over in two of five frames
    frames[3][0:10, 0:10] = 240
    assert np.array_equal(median_frame(frames), board)
    with pytest.raises(ValueError):
        median_frame([])
