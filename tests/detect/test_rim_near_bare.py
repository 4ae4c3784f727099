"""Korona rim strip: a long row against the rim is judged "against the rim" by the bare rim's level
next to it, not by the whole rim's statistics, which the row itself lifts (``rim._near_low``).
The profiles are k4h_10212's west rim on the first full pass with its row laid (every 10th mm of
the 725 sampled; ``rim_strip.strip_scores``): 8 dark discs against a red rim read 18-39 next to
the rim, the bare rim 2-21; the whole rim's threshold (28.9 here, 27.1 on every mm) stood above
the row's median (25.7) and the row was refused as "off the rim"."""

from __future__ import annotations

import numpy as np

from tracker.detect import rim

NEAR = np.array([4, 8, 7, 9, 10, 12, 9, 7, 2, 4, 4, 4, 7, 9, 6, 5, 8, 4, 5, 4, 4, 3, 2, 3, 4, 11, 35, 39, 24,
                 35, 21, 18, 33, 23, 25, 29, 22, 34, 24, 29, 26, 22, 29, 19, 25, 28, 28, 15, 6, 13, 10, 11, 12,
                 7, 9, 8, 5, 7, 9, 8, 9, 9, 8, 10, 9, 10, 11, 16, 13, 11, 11, 17, 21], float)
SCORE = np.array([5, 7, 7, 6, 6, 7, 8, 8, 4, 3, 3, 4, 5, 6, 5, 3, 5, 5, 5, 3, 5, 4, 3, 3, 4, 23, 125, 95, 80,
                  98, 74, 80, 88, 75, 93, 80, 83, 85, 76, 97, 79, 83, 87, 75, 90, 80, 73, 11, 6, 7, 6, 8, 9, 8,
                  10, 8, 5, 6, 7, 7, 7, 7, 7, 6, 7, 7, 8, 10, 8, 9, 10, 11, 45], float)


def test_a_long_row_stands_above_the_bare_rim_next_to_it() -> None:
    high, low = rim._threshold(SCORE), rim._threshold(SCORE, rim.LOW_SPREAD)
    row, bare = np.greater(SCORE, high), np.less_equal(SCORE, low)
    level = float(np.median(NEAR[row]))
    assert level > rim._near_low(NEAR, bare)
    # the whole rim's statistics, lifted by the row: the row read "off the rim" (before)
    assert level <= rim._threshold(NEAR, rim.LOW_SPREAD)


def test_a_rim_mostly_covered_keeps_the_whole_rims_threshold() -> None:
    few = np.zeros(len(NEAR), bool)
    few[:10] = True  # bare under a quarter of the rim: too little to stand for it
    assert rim._near_low(NEAR, few) == rim._threshold(NEAR, rim.LOW_SPREAD)
