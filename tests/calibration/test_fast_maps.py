"""The line-ness map and the peak search's row median, computed the cheaper way, are the same
numbers as the plain formulas they replaced (black-hat + top-hat; np.median in float64)."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.calibration.crokinole_rings import _row_median
from tracker.calibration.features import lineness, odd


def _plain_lineness(image: np.ndarray, kernel: int) -> np.ndarray:
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (odd(kernel), odd(kernel)))
    chans = [image] if image.ndim == 2 else [image[:, :, i] for i in range(image.shape[2])]
    out: np.ndarray | None = None
    for c in chans:
        r = (cv2.morphologyEx(c, cv2.MORPH_BLACKHAT, k).astype(np.float32)
             + cv2.morphologyEx(c, cv2.MORPH_TOPHAT, k).astype(np.float32))
        out = r if out is None else np.maximum(out, r)
    assert out is not None
    return out


def test_lineness_is_blackhat_plus_tophat() -> None:
    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (61, 83, 3), dtype=np.uint8)
    cv2.circle(img, (40, 30), 20, (10, 200, 30), 2)
    for kernel in (5, 9, 15):
        got = lineness(img, kernel)
        assert got.dtype == np.float32
        assert np.array_equal(got, _plain_lineness(img, kernel))
    grey = img[:, :, 1].copy()
    assert np.array_equal(lineness(grey, 7), _plain_lineness(grey, 7))


def test_row_median_is_numpy_median() -> None:
    rng = np.random.default_rng(4)
    for m in (5, 12, 13, 81):
        v = (rng.random((40, m)) * 50).astype(np.float32)
        v[3] = 7.0  # ties
        assert np.array_equal(_row_median(v), np.median(v.astype(np.float64), axis=1))


def test_ransac_seed_is_the_loop_over_samples() -> None:
    """The RANSAC seed, its samples measured all at once, keeps the points the loop over samples
    (ellipse_uv of each, first best) kept: a contour holding two rings joined by a line."""
    import math

    from tracker.calibration.features import _ransac_seed, ellipse_uv

    t = np.linspace(0, 2 * math.pi, 300, endpoint=False)
    a = np.stack([200 + 90 * np.cos(t), 150 + 50 * np.sin(t)], axis=1)
    b = np.stack([200 + 60 * np.cos(t), 150 + 33 * np.sin(t)], axis=1)
    line = np.stack([np.linspace(260, 290, 40), np.full(40, 150.0)], axis=1)
    pts = (np.concatenate([a, b, line]) + np.random.default_rng(1).normal(0, 0.3, (640, 2))).astype(np.float32)

    def plain(rng: np.random.Generator) -> np.ndarray:
        best, best_n = pts, 0
        for _ in range(40):
            idx = np.sort(rng.choice(len(pts), 5, replace=False))
            try:
                (cx, cy), (d1, d2), ang = cv2.fitEllipseDirect(pts[idx])
            except cv2.error:
                continue
            if not (np.isfinite(d1) and np.isfinite(d2)) or min(d1, d2) < 4:
                continue
            u, v = ellipse_uv((cx, cy), (d1 / 2, d2 / 2), math.radians(ang), pts)
            on = np.abs(np.sqrt(u * u + v * v) - 1.0) < 0.02
            if int(on.sum()) > best_n:
                best, best_n = pts[on], int(on.sum())
        return best

    for seed in range(5):
        assert np.array_equal(_ransac_seed(pts, np.random.default_rng(seed)), plain(np.random.default_rng(seed)))



def test_ring_fits_sharing_one_cache_fit_as_alone(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Quick fits of one calibration share their maps: guesses a little apart in scale ask for
    one kernel under two blurs, and the morphology is made once for both; each fit is the
    same numbers as on its own, and lands on the true board (rendered, known homography)."""
    import tracker.calibration.crokinole_rings as rings
    from tests.calibration.conftest import crokinole_view
    from tracker.boards import CrokinoleBoard
    from tracker.calibration.geometry import apply_h

    img, H_true = crokinole_view(tilt=20.0, size=(1800, 1350))  # 1.26 px per mm
    G_true = np.linalg.inv(H_true)
    board = CrokinoleBoard()
    made: list[int] = []
    plain = rings.lineness

    def counting(image: np.ndarray, kernel: int) -> np.ndarray:
        made.append(kernel)
        return plain(image, kernel)

    monkeypatch.setattr(rings, "lineness", counting)
    # guesses 3% small and 3% large: blurs 0.7 and 0.8 px, the same kernel (13 px)
    guesses = [G_true @ np.diag([f, f, 1.0]) for f in (0.97, 1.03)]
    cache: dict = {}
    shared = [rings.fit_rings(img, G, board, schedule=(20.0, 10.0, 5.0), cache=cache) for G in guesses]
    blurred = [k for k in cache if len(k) == 3 and k[1] != "lineness"]
    assert len(blurred) == 2 and blurred[0][1] == blurred[1][1]  # one kernel, two blurs
    assert made == [blurred[0][1]]  # its morphology made once
    alone = [rings.fit_rings(img, G, board, schedule=(20.0, 10.0, 5.0)) for G in guesses]
    pts = np.array([[0.0, 0.0], [304.8, 0.0], [0.0, 203.2]])
    for a, b in zip(shared, alone, strict=True):
        assert np.array_equal(a.G, b.G) and a.rms_mm == b.rms_mm
        assert np.max(np.linalg.norm(apply_h(a.G, pts) - apply_h(G_true, pts), axis=1)) < 1.0
