"""Texture lookups through the mip pyramid put board features where the geometry says.

A horizontal/vertical ramp texture (value = level-0 column/row index) survives cv2.pyrDown
exactly (a linear function stays linear under a symmetric blur), so looking it up at board
point (x, y) at any pyramid level must return that point's level-0 texel coordinates. Before
the fix, level k came out (2**k - 1) / 2 texels off (about 0.3 mm on rendered 1280x720 boards,
which the calibration benchmark saw as a constant offset of every fit).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tracker.render import raycast
from tracker.render.board_art import BoardArt

N, S0 = 256, 0.5
HALF = N * S0 / 2


def _ramp_art() -> BoardArt:
    ramp = np.tile(np.arange(N, dtype=np.float32), (N, 1))
    base = np.dstack([ramp, ramp.T, ramp]).astype(np.uint8)
    levels: list[np.ndarray] = [base]
    while levels[-1].shape[0] > 16:
        levels.append(cv2.pyrDown(levels[-1]))
    z = np.zeros((N, N), np.float32)
    return BoardArt(mm_per_px=S0, half_extent=HALF, levels=levels, height=z, wall_shade=z,
                    z_top=0.0, z_table=-10.0, env=base, env_mm_per_px=1.0, env_half=1.0,
                    table_half=1.0, table=base, table_mm_per_px=1.0, z_floor=-20.0)


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_lookup_at_every_level_is_centred(level: int) -> None:
    art = _ramp_art()
    step = S0 * 2**level * 1.2  # pixel footprint that selects this level
    xs = np.arange(-20.0, 20.0, step)
    X, Y = np.meshgrid(xs, -xs)
    out = raycast._mip_lookup(art, X, Y)
    col = (X + HALF) / S0 - 0.5
    row = (HALF - Y) / S0 - 0.5
    # uint8 output: within a quarter texel on average (0.125 mm), whatever the level
    assert abs(float(np.mean(out[..., 0] - col))) * S0 < 0.125
    assert abs(float(np.mean(out[..., 1] - row))) * S0 < 0.125
