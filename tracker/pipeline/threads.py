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
pipeline is made, so the limit is set through its own ``*_set_num_threads`` entry points, in every
OpenBLAS loaded in the process (numpy's and scipy's wheels each bring one). Where none is found
(another BLAS, another platform) nothing changes.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

# The entry points of the OpenBLAS builds numpy's and scipy's wheels ship (with their symbol
# prefixes and 64-bit integer suffixes), and of a plain OpenBLAS.
_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads", "openblas_set_num_threads")
_GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads", "openblas_get_num_threads")
_done: dict[Path, int] = {}  # the libraries set so far, and to how many threads


def _loaded_openblas() -> list[Path]:
    """The OpenBLAS shared libraries mapped into this process (Linux: ``/proc/self/maps``)."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    found = {Path(line.split(None, 5)[5]) for line in maps.splitlines()
             if len(line.split(None, 5)) == 6 and "openblas" in line.rsplit("/", 1)[-1].lower()}
    return sorted(found)


def limit_blas_threads(n: int = 1) -> int:
    """Limit every loaded OpenBLAS to ``n`` threads; returns how many libraries were set."""
    import numpy  # noqa: F401  (loads numpy's OpenBLAS)

    count = 0
    for path in _loaded_openblas():
        if _done.get(path) == n:
            continue
        try:
            lib = ctypes.CDLL(str(path))
        except OSError:
            continue
        for name in _SETTERS:
            setter = getattr(lib, name, None)
            if setter is not None:
                setter.argtypes = [ctypes.c_int]
                setter.restype = None
                setter(n)
                _done[path] = n
                count += 1
                break
    return count


def blas_threads() -> dict[str, int]:
    """The thread count of every loaded OpenBLAS, by library file name."""
    out: dict[str, int] = {}
    for path in _loaded_openblas():
        try:
            lib = ctypes.CDLL(str(path))
        except OSError:
            continue
        for name in _GETTERS:
            getter = getattr(lib, name, None)
            if getter is not None:
                getter.restype = ctypes.c_int
                out[path.name] = int(getter())
                break
    return out
