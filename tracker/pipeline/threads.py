"""One thread for the BLAS/LAPACK library numpy and scipy were built with (OpenBLAS).

The video pipeline's linear algebra is all small: least squares of a few hundred to a few
thousand rows and a handful of columns (the region model's colours, ``detect/silhouette.py``;
the edge fits' Gauss-Newton steps; the calibration's fits). OpenBLAS splits even those over every
core, and its threads then spend far more time waiting on each other than computing: at
1280x720 one region-model fit's ``np.linalg.lstsq`` (about 1500 x 9) took 2.3 ms of CPU with
OpenBLAS's default threads on a 2-core machine and 0.1 ms with one, for the same numbers
(``benchmarks/bench_speed.py``: the review's largest cost on crokinole matches before). So the
pipeline runs it single-threaded, as OpenCV's own work is kept to the caller's choice.

OpenBLAS reads ``OPENBLAS_NUM_THREADS`` only when it is loaded, which has happened by the time a
pipeline is made, so the limit is set at run time through ``threadpoolctl`` (scikit-learn's
library for this), in every BLAS loaded in the process (numpy's and scipy's wheels each bring
an OpenBLAS; MKL and BLIS too). Where none is found nothing changes.
"""

from __future__ import annotations

from threadpoolctl import threadpool_info, threadpool_limits


def limit_blas_threads(n: int = 1) -> int:
    """Limit every loaded BLAS library to ``n`` threads, for the rest of the process; returns
    how many libraries there are."""
    import numpy  # noqa: F401  (loads numpy's BLAS)

    threadpool_limits(limits=n, user_api="blas")
    return len(blas_threads())


def blas_threads() -> dict[str, int]:
    """The thread count of every loaded BLAS library, by library file name."""
    return {str(i["filepath"]).rsplit("/", 1)[-1]: int(i["num_threads"])
            for i in threadpool_info() if i.get("user_api") == "blas"}
