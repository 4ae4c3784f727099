"""``medians.median_of``: the fits' median from one partition, the same value as ``np.median``."""

import numpy as np
import pytest

from tracker.detect.medians import median_of


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_median_is_numpys(dtype: type) -> None:
    rng = np.random.default_rng(5)
    for n in range(1, 60):
        for scale in (1.0, 1e3):
            a = (rng.normal(size=n) * scale).astype(dtype)
            a[rng.random(n) < 0.3] = a[0]  # ties
            m = median_of(a)
            assert m == np.median(a)
            assert m.dtype == np.median(a).dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_and_column_medians_are_numpys(dtype: type) -> None:
    from tracker.detect.medians import medians

    rng = np.random.default_rng(6)
    for rows in (1, 2, 7, 48):
        for cols in (1, 2, 3, 24, 25, 90):
            a = (rng.normal(size=(rows, cols)) * 50.0).astype(dtype)
            a[rng.random((rows, cols)) < 0.3] = a[0, 0]  # ties
            for axis in (0, 1):
                m = medians(a, axis)
                assert m.dtype == np.median(a, axis=axis).dtype
                assert np.array_equal(m, np.median(a, axis=axis))
