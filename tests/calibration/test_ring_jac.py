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


def test_ring_jacobian_with_lens_matches_central_differences() -> None:
    from tracker.calibration.lens import undistort_n
    from tracker.calibration.ring_jac import ring_jacobian_lens

    rng = np.random.default_rng(1)
    Q = rng.normal(0, 0.5, (40, 2))
    ring = rng.integers(0, 3, 40)
    ref = np.array([[0.3, 0.1]])
    x = np.array([300.0, 10, 5, -8, 290, 3, 0.05, -0.08, 200, 100, -0.12, 0.03])
    prior = np.zeros((4, 12))
    prior[0, 10], prior[1, 11], prior[2, 8], prior[3, 9] = 10.0, 50.0, 0.5, 0.5

    def residuals(x: np.ndarray) -> np.ndarray:  # as in crokinole.fit_rings with a lens
        H = np.append(x[:8], 1.0).reshape(3, 3)
        r = np.array([304.8, x[8], x[9]])[ring]
        q = undistort_n(Q, x[10], x[11], 4)
        b = apply_h(H, ref)[0]
        pr = [10 * x[10], 50 * x[11], (x[8] - 203.2) * 0.5, (x[9] - 101.6) * 0.5]
        return np.concatenate([np.linalg.norm(apply_h(H, q), axis=1) - r, [10 * math.atan2(b[1], b[0])], pr])

    J = ring_jacobian_lens(x, Q, ring, ref, prior)
    Jn = approx_derivative(residuals, x, method="3-point")
    assert J.shape == Jn.shape == (45, 12)
    assert np.abs(J - Jn).max() < 1e-5 * np.abs(Jn).max()
