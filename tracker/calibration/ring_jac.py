"""The analytic Jacobian of the crokinole ring fit (``crokinole.fit_rings``) without a lens.

The ring fit's parameters are the 8 free entries of the homography H (normalised image ->
board mm) and the 10 and 15 line radii; its residuals are, per observed line point q,
``|H(q)| - R(ring)``, then one gauge row ``10 atan2`` of a reference point's image (no spin).
By finite differences each step cost ten evaluations of the residuals, most of the time of a
calibration; the fits with a lens (12 parameters, a few of them) still use finite differences.
"""

from __future__ import annotations

import numpy as np


def _project(x: np.ndarray, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, ...]:
    """The homography's denominator ``W``, the board point ``(px, py) = H(u, v)`` and its radius
    ``rho`` (kept off zero), which both Jacobians differentiate."""
    X = x[0] * u + x[1] * v + x[2]
    Y = x[3] * u + x[4] * v + x[5]
    W = x[6] * u + x[7] * v + 1.0
    px, py = X / W, Y / W
    return W, px, py, np.maximum(np.hypot(px, py), 1e-12)


def ring_jacobian(x: np.ndarray, Q: np.ndarray, ring: np.ndarray, ref_n: np.ndarray) -> np.ndarray:
    """Jacobian of ``fit_rings``'s residuals without the lens (its quick fits, and most of the
    time of a calibration: by finite differences it took 10 evaluations of the residuals a
    step). Rows: one per point (radius of H(q) - ring radius), then the gauge."""
    u, v = Q[:, 0], Q[:, 1]
    W, px, py, rho = _project(x, u, v)
    dX, dY, dW = px / (rho * W), py / (rho * W), -rho / W
    J = np.zeros((len(Q) + 1, 10))
    J[:-1, 0], J[:-1, 1], J[:-1, 2] = dX * u, dX * v, dX
    J[:-1, 3], J[:-1, 4], J[:-1, 5] = dY * u, dY * v, dY
    J[:-1, 6], J[:-1, 7] = dW * u, dW * v
    J[:-1, 8] = -(ring == 1).astype(np.float64)
    J[:-1, 9] = -(ring == 2).astype(np.float64)
    # gauge 10 atan2(by, bx) at the reference point
    a, b = ref_n[0]
    Xr, Yr, Wr = x[0] * a + x[1] * b + x[2], x[3] * a + x[4] * b + x[5], x[6] * a + x[7] * b + 1.0
    bx, by = Xr / Wr, Yr / Wr
    n2 = max(bx * bx + by * by, 1e-24)
    gx, gy = -10.0 * by / n2, 10.0 * bx / n2  # d gauge / d bx, d by
    J[-1, 0:3] = gx * np.array([a, b, 1.0]) / Wr
    J[-1, 3:6] = gy * np.array([a, b, 1.0]) / Wr
    J[-1, 6:8] = -(gx * bx + gy * by) * np.array([a, b]) / Wr
    return J


def ring_jacobian_lens(x: np.ndarray, Q: np.ndarray, ring: np.ndarray, ref_n: np.ndarray,
                       prior_rows: np.ndarray) -> np.ndarray:
    """Jacobian of ``fit_rings``'s residuals with the lens: parameters as above plus (k1, k2);
    ``Q`` are the raw (distorted) normalised points, undistorted in the residuals by
    ``lens.undistort_n``. Rows: one per point, the gauge, then the priors, whose derivatives
    are the constant ``prior_rows`` (one row each, 12 columns).

    The undistorted point ``q = n ru / rd`` solves ``ru (1 + k1 ru^2 + k2 ru^4) = rd``, so
    ``dq/dk1 = -q ru^2 / D`` and ``dq/dk2 = -q ru^4 / D`` with ``D = 1 + 3 k1 ru^2 + 5 k2 ru^4``;
    the point rows chain that through ``|H(q)|``. (By finite differences each step cost 13
    evaluations of the residuals, each undistorting every point.)"""
    from tracker.calibration.lens import undistort_n

    k1, k2 = float(x[10]), float(x[11])
    q = undistort_n(Q, k1, k2, 4)
    Jh = ring_jacobian(x[:10], q, ring, ref_n)
    u, v = q[:, 0], q[:, 1]
    W, px, py, rho = _project(x, u, v)
    # d rho / d q (through p = H(q))
    gx, gy = px / rho, py / rho
    dq_u = (gx * (x[0] - px * x[6]) + gy * (x[3] - py * x[6])) / W
    dq_v = (gx * (x[1] - px * x[7]) + gy * (x[4] - py * x[7])) / W
    r2 = u * u + v * v
    D = 1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2
    D = np.where(np.abs(D) > 1e-6, D, 1e-6)
    along = dq_u * u + dq_v * v  # (d rho / d q) . q
    J = np.zeros((len(Q) + 1 + len(prior_rows), 12))
    J[: len(Q) + 1, :10] = Jh
    J[: len(Q), 10] = -along * r2 / D
    J[: len(Q), 11] = -along * r2 * r2 / D
    J[len(Q) + 1:] = prior_rows
    return J
