"""Medians of small arrays without ``np.median``'s own overhead: the same values (the middle one,
or the mean of the middle two in the array's own precision) from one ``np.partition``. The disc
fits (``refine.py``) take a dozen of them per fit, of a few dozen numbers each.
"""

from __future__ import annotations

import numpy as np


def median_of(a: np.ndarray) -> np.floating:
    """``np.median`` of a non-empty 1-D array without NaNs, the same value (the middle one, or the
    mean of the middle two in the array's own precision) from one ``np.partition``: the fits take
    a dozen medians of a few dozen numbers each, where ``np.median``'s own overhead was most of
    the cost."""
    n = len(a)
    h = n // 2
    if n % 2:
        return np.partition(a, h)[h]  # type: ignore[no-any-return]
    part = np.partition(a, (h - 1, h))
    return (part[h - 1] + part[h]) / 2  # type: ignore[no-any-return]


def medians(a: np.ndarray, axis: int) -> np.ndarray:
    """``np.median(a, axis)`` of a 2-D array without NaNs, the same values the same way (one
    ``np.partition`` along ``axis``, the middle one or the mean of the middle two), without
    ``np.median``'s own overhead (each fit takes two or three of these)."""
    n = a.shape[axis]
    h = n // 2
    if n % 2:
        return np.take(np.partition(a, h, axis=axis), h, axis=axis)
    part = np.partition(a, (h - 1, h), axis=axis)
    return (np.take(part, h - 1, axis=axis) + np.take(part, h, axis=axis)) / 2  # type: ignore[no-any-return]
