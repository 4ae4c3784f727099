"""A pipeline runs the BLAS library (OpenBLAS) on one thread: its matrices are small, and the
library's threads cost more CPU than they save (``pipeline/threads.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.pipeline import Pipeline
from tracker.pipeline.threads import blas_threads, limit_blas_threads


def test_a_pipeline_sets_openblas_to_one_thread() -> None:
    if not blas_threads():
        pytest.skip("no OpenBLAS loaded (another BLAS)")
    limit_blas_threads(2)
    assert set(blas_threads().values()) == {2}
    Pipeline("crokinole", 2)
    assert set(blas_threads().values()) == {1}


def test_one_thread_gives_the_same_least_squares() -> None:
    # the region model's least squares (``silhouette.py``): a few thousand rows, a few columns
    rng = np.random.default_rng(3)
    A, b = rng.normal(size=(1500, 9)), rng.normal(size=(1500, 3))
    limit_blas_threads(2)
    many = np.linalg.lstsq(A, b, rcond=None)[0]
    limit_blas_threads(1)
    one = np.linalg.lstsq(A, b, rcond=None)[0]
    assert np.array_equal(many, one)
