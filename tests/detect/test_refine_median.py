"""``refine._median``: the fits' median from one partition, the same value as ``np.median``."""

import numpy as np
import pytest

from tracker.detect.refine import _median


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_median_is_numpys(dtype: type) -> None:
    rng = np.random.default_rng(5)
    for n in range(1, 60):
        for scale in (1.0, 1e3):
            a = (rng.normal(size=n) * scale).astype(dtype)
            a[rng.random(n) < 0.3] = a[0]  # ties
            m = _median(a)
            assert m == np.median(a)
            assert m.dtype == np.median(a).dtype
