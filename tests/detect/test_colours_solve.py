"""``colours_solve.colours_of``, the region model's least squares by the normal equations: the
SVD's solution to rounding where the problem is well posed, the SVD itself where it is not, and
the same fits of rendered discs."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.detect import silhouette
from tracker.detect.colours_solve import colours_of
from tracker.detect.geometry import camera_pose
from tracker.detect.silhouette import SilhouetteFitter


def _svd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.linalg.lstsq(a, b, rcond=None)[0]
    return out


def test_a_well_posed_problem_gets_the_svds_solution_to_rounding() -> None:
    rng = np.random.default_rng(1)
    for rows, cols in ((40, 3), (600, 10), (3000, 12)):
        for _ in range(10):
            # coverages in 0..1, as the model's columns, with a few columns much smaller than others
            a = rng.random((rows, cols)) * rng.uniform(0.01, 1.0, cols)
            b = rng.normal(120.0, 40.0, (rows, 3))
            got, want = colours_of(a, b), _svd(a, b)
            assert got.shape == want.shape
            assert np.abs(got - want).max() <= 1e-9 * np.abs(want).max()


@pytest.mark.parametrize("case", ["zero column", "repeated column", "nearly repeated column"])
def test_a_rank_deficient_problem_is_left_to_the_svd(case: str) -> None:
    """A region missing from the picture (a zero column), or two regions the pixels cannot tell
    apart: the normal equations would lose the solution; the SVD's (minimum norm) is returned
    exactly."""
    rng = np.random.default_rng(2)
    a = rng.random((500, 8))
    if case == "zero column":
        a[:, 3] = 0.0
    elif case == "repeated column":
        a[:, 5] = a[:, 2]
    else:
        a[:, 5] = a[:, 2] + 1e-7 * rng.random(500)
    b = rng.normal(100.0, 30.0, (500, 3))
    assert np.array_equal(colours_of(a, b), _svd(a, b))


def test_the_model_fits_rendered_discs_where_the_svd_did(monkeypatch: pytest.MonkeyPatch) -> None:
    """The region model's fits of rendered discs (shadow searched, started, held): the same
    centres, shadows and residuals as with the SVD, to 1e-9."""
    from tests.detect.test_silhouette import _scene

    img, calib, truth, r, h = _scene("crokinole", 12, "hard")
    fitter = SilhouetteFitter(calib, camera_pose(calib), h, 1.9)
    starts = [(P + np.array([0.7, -0.5]), shadow, fix) for P in truth[:4]
              for shadow, fix in ((None, False), (np.array([0.3, 0.2]), False), (np.array([0.3, 0.2]), True))]
    fast = [fitter.fit(img, p, r, shadow=s, fix_shadow=f) for p, s, f in starts]
    monkeypatch.setattr(silhouette, "colours_of", _svd)
    svd = [fitter.fit(img, p, r, shadow=s, fix_shadow=f) for p, s, f in starts]
    for a, b in zip(fast, svd, strict=True):
        assert a is not None and b is not None
        assert np.abs(a.centre - b.centre).max() < 1e-9
        assert np.abs(a.shadow - b.shadow).max() < 1e-9
        assert abs(a.rms - b.rms) < 1e-9 and a.pixels == b.pixels


def test_switched_off_the_svd_solves_every_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    from tracker.detect import colours_solve

    monkeypatch.setattr(colours_solve, "NORMAL_EQUATIONS", False)
    rng = np.random.default_rng(3)
    a, b = rng.random((300, 9)), rng.normal(100.0, 30.0, (300, 3))
    assert np.array_equal(colours_of(a, b), _svd(a, b))
