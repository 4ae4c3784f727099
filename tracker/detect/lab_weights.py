"""How much each channel of 8-bit Lab counts in the detector's colour differences.

Wooden discs differ from the board and from each other mostly in hue (a and b), and a shadow or a
change of light moves lightness (L) most, so a and b count 1.6 times L. Every detector step that
measures a colour difference (a disc's edge, its face against its surround, a view against the
empty board, a rim row's strip) weighs the channels alike, so its thresholds mean the same thing
everywhere. The arrays are read-only: they are shared by every module that imports them.
"""

from __future__ import annotations

import numpy as np

CHANNEL_WEIGHTS = (1.0, 1.6, 1.6)  # L, a, b
WEIGHTS = np.array(CHANNEL_WEIGHTS)
WEIGHTS32 = np.array(CHANNEL_WEIGHTS, np.float32)
WEIGHTS.setflags(write=False)
WEIGHTS32.setflags(write=False)
