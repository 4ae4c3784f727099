"""The ring fit's analytic Jacobian equals the derivative of its residuals."""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize._numdiff import approx_derivative

from tracker.calibration.geometry import apply_h
from tracker.calibration.ring_jac import ring_jacobian


def test_ring_jacobian_matches_central_differences() -> None:
    rng = np.random.default_rng(0)
    Q = rng.normal(0, 0.5, (40, 2))
    ring = rng.integers(0, 3, 40)
    ref = np.array([[0.3, 0.1]])
    x = np.array([300.0, 10, 5, -8, 290, 3, 0.05, -0.08, 200, 100])

    def residuals(x: np.ndarray) -> np.ndarray:  # as in crokinole.fit_rings without a lens
        H = np.append(x[:8], 1.0).reshape(3, 3)
        r = np.array([304.8, x[8], x[9]])[ring]
        b = apply_h(H, ref)[0]
        return np.append(np.linalg.norm(apply_h(H, Q), axis=1) - r, 10 * math.atan2(b[1], b[0]))

    J = ring_jacobian(x, Q, ring, ref)
    Jn = approx_derivative(residuals, x, method="3-point")
    assert J.shape == Jn.shape == (41, 10)
    assert np.abs(J - Jn).max() < 1e-6 * np.abs(Jn).max()
