"""The region model's colours (``silhouette.py``): the linear least squares solved at every step
of its search, by the normal equations.

Each of the model's ~50 steps a fit solves ``min |A c - b|`` for the colours ``c`` of its
regions: ``A`` a few thousand pixels by a dozen regions' coverages, ``b`` the pixels' three
channels (both weighted). ``np.linalg.lstsq`` (LAPACK's SVD-based ``dgelsd``) took half of a
model fit's time; the Cholesky factor of ``A^T A`` solves the same problem in a fifth of that.
Squaring ``A`` squares its condition number, so where ``A``'s columns are close to dependent (a
region the disc hardly covers: a band a pixel wide, a line or a hole barely in view, a cast
shadow hidden under the disc) the normal equations lose digits that the SVD keeps, and a region
missing altogether leaves ``A^T A`` singular. There (the factor's diagonal spanning more than
``MAX_SPREAD``, i.e. ``A``'s condition number over about 1e5, or no factor at all) the SVD solves
it as before. Elsewhere the colours agree with the SVD's to about 1e-13 of their size.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import LinAlgError, cho_solve, cholesky

# Whether the colours are solved by the normal equations (else always by the SVD, as before).
# On, reviewed afresh (the 27 crokinole dev matches, the 6 crokinole and 5 korona fixtures): every
# detection within 3e-5 mm of the SVD's on 37 of them (korona's detections do not use the model:
# identical), but c2h_9702 drifted from 2 um at 7.3 s (a disc being set down) into a different
# camera refit at 12.8 s: its positions at rest 0.59/1.71 -> 0.41/1.56 mm (median/p95), every
# event figure the same.
NORMAL_EQUATIONS = True
# Largest ratio of the Cholesky factor's largest to smallest diagonal entry taken (about the
# condition number of ``A``; ``A^T A``'s is its square).
MAX_SPREAD = 1e5


def colours_of(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The least-squares solution of ``a @ x = b`` (``a`` (N, M) of full column rank, ``b`` (N,)
    or (N, K)): by Cholesky on the normal equations, or ``np.linalg.lstsq`` where ``a`` is close to
    rank deficient (see the module docstring)."""
    if not NORMAL_EQUATIONS:
        return _svd(a, b)
    g = a.T @ a
    try:
        u = cholesky(g, lower=False, check_finite=False)
    except LinAlgError:
        u = None
    if u is not None:
        d = np.abs(np.diag(u))
        if np.all(np.isfinite(u)) and d.min() * MAX_SPREAD > d.max():
            out: np.ndarray = cho_solve((u, False), a.T @ b, check_finite=False)
            return out
    return _svd(a, b)


def _svd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    x: np.ndarray = np.linalg.lstsq(a, b, rcond=None)[0]
    return x
