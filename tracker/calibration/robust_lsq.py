"""A small robust least-squares solver for the ring fits (Levenberg-Marquardt on soft-L1).

``scipy.optimize.least_squares`` costs about half a millisecond a step in its own bookkeeping
(an SVD, scaling, the trust region), and the crokinole ring fit takes 50 to 160 small fits
(500 residuals, 10 or 12 parameters) a calibration: that bookkeeping was the largest single
part of a broadcast frame's time. The ring fit's problems are small and well scaled, so a
plain Marquardt step on the normal equations does. With ``z = (f / f_scale)^2`` the soft-L1
cost (``least_squares(loss="soft_l1")``'s) has the gradient ``J' (f / sqrt(1 + z))`` and,
as ``least_squares`` approximates it, the Hessian ``J' diag((1 + z)^-1.5) J`` (Triggs'
correction: the second derivative of the loss along each residual, so a far outlier barely
bends the step); each step solves ``(A + lam diag(A)) dx = -g`` and is kept when the cost
falls. The minimum is the same cost's; the stopping
rule is ``least_squares``'s default (relative cost change or step under 1e-8).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def soft_l1_cost(f: np.ndarray, f_scale: float) -> float:
    """``least_squares``'s cost with ``loss="soft_l1"``: 0.5 f_scale^2 sum 2 (sqrt(1 + z) - 1)."""
    z = (f / f_scale) ** 2
    return float(f_scale**2 * np.sum(np.sqrt(1.0 + z) - 1.0))


def robust_lsq(fun: Callable[[np.ndarray], np.ndarray], jac: Callable[[np.ndarray], np.ndarray],
               x0: np.ndarray, f_scale: float = 1.0, max_steps: int = 100, ftol: float = 1e-8,
               xtol: float = 1e-8) -> np.ndarray:
    """The parameters minimising the soft-L1 cost of ``fun`` (residual vector), from ``x0``;
    ``jac`` gives its Jacobian (rows: residuals, columns: parameters)."""
    x = np.asarray(x0, dtype=np.float64).copy()
    f = fun(x)
    cost = soft_l1_cost(f, f_scale)
    lam = 1e-5
    for _ in range(max_steps):
        J = jac(x)
        z1 = 1.0 + (f / f_scale) ** 2
        A = J.T @ (J * (z1**-1.5)[:, None])
        g = J.T @ (f / np.sqrt(z1))
        d = np.maximum(np.diag(A), 1e-12 * max(float(np.max(np.diag(A))), 1e-300))
        while True:
            try:
                dx = np.linalg.solve(A + lam * np.diag(d), -g)
            except np.linalg.LinAlgError:
                dx = None
            if dx is not None and np.all(np.isfinite(dx)):
                xn = x + dx
                with np.errstate(all="ignore"):
                    fn = fun(xn)
                cn = soft_l1_cost(fn, f_scale) if np.all(np.isfinite(fn)) else np.inf
                if cn < cost:
                    break
            lam *= 10.0
            if lam > 1e10:
                return x
        small_step = float(np.linalg.norm(dx)) < xtol * (xtol + float(np.linalg.norm(x)))
        small_gain = cost - cn < ftol * cost
        x, f, cost = xn, fn, cn
        lam = max(lam / 10.0, 1e-12)
        if small_step or small_gain:
            break
    return x


def forward_jacobian(fun: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    """A Jacobian by one-sided differences, with the steps of ``least_squares``'s
    ``jac="2-point"`` (``sqrt(eps) sign(x) max(1, |x|)``), for fits without an analytic one."""
    eps = float(np.sqrt(np.finfo(np.float64).eps))

    def jac(x: np.ndarray) -> np.ndarray:
        f0 = fun(x)
        J = np.empty((len(f0), len(x)))
        for j in range(len(x)):
            h = eps * (1.0 if x[j] >= 0 else -1.0) * max(1.0, abs(float(x[j])))
            xj = x.copy()
            xj[j] += h
            J[:, j] = (fun(xj) - f0) / (xj[j] - x[j])
        return J

    return jac
