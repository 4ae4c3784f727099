"""The ring fit's least squares (``robust_lsq``) minimises the same soft-L1 cost as
``scipy.optimize.least_squares(loss="soft_l1")``, outliers and all."""

from __future__ import annotations

import numpy as np
from scipy.optimize import least_squares

from tracker.calibration.robust_lsq import robust_lsq, soft_l1_cost


def test_same_minimum_as_scipy_soft_l1_with_outliers() -> None:
    rng = np.random.default_rng(3)
    # points on a circle of radius 5 about (1, -2), a fifth of them far off it
    t = rng.uniform(0, 2 * np.pi, 200)
    r = 5.0 + rng.normal(0, 0.05, 200)
    r[:40] += rng.uniform(1.0, 4.0, 40)
    P = np.stack([1.0 + r * np.cos(t), -2.0 + r * np.sin(t)], axis=1)

    def fun(x: np.ndarray) -> np.ndarray:
        return np.hypot(P[:, 0] - x[0], P[:, 1] - x[1]) - x[2]

    def jac(x: np.ndarray) -> np.ndarray:
        d = np.maximum(np.hypot(P[:, 0] - x[0], P[:, 1] - x[1]), 1e-12)
        return np.stack([-(P[:, 0] - x[0]) / d, -(P[:, 1] - x[1]) / d, -np.ones(len(P))], axis=1)

    x0 = np.array([0.0, 0.0, 3.0])
    for f_scale in (1.0, 0.5, 0.1):
        ours = robust_lsq(fun, jac, x0, f_scale=f_scale)
        ref = least_squares(fun, x0, jac=jac, loss="soft_l1", f_scale=f_scale, x_scale="jac").x
        assert np.abs(ours - ref).max() < 1e-4, (ours, ref)
        assert soft_l1_cost(fun(ours), f_scale) <= soft_l1_cost(fun(ref), f_scale) + 1e-9
    # the outliers pull a plain least-squares radius out; the robust one stays on the circle
    assert abs(robust_lsq(fun, jac, x0, f_scale=0.1)[2] - 5.0) < 0.05


def test_forward_jacobian_as_least_squares_two_point() -> None:
    """The korona fit's Jacobian by forward differences: the same steps as scipy's "2-point"."""
    from scipy.optimize._numdiff import approx_derivative

    from tracker.calibration.robust_lsq import forward_jacobian

    def fun(x: np.ndarray) -> np.ndarray:
        return np.array([x[0] ** 2 * x[1], np.sin(x[1]) + 1e3 * x[2], np.exp(0.1 * x[0]) - x[2] ** 3])

    x = np.array([2.0, -0.5, 1e-3])
    J = forward_jacobian(fun)(x)
    assert np.allclose(J, approx_derivative(fun, x, method="2-point"), rtol=1e-12, atol=1e-12)
    assert np.allclose(J, [[2 * x[0] * x[1], x[0] ** 2, 0], [0, np.cos(x[1]), 1e3],
                           [0.1 * np.exp(0.1 * x[0]), 0, -3 * x[2] ** 2]], atol=1e-6)
