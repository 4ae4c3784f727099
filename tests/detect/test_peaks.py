"""``candidates.peaks`` dilates only the candidates' box (with the kernel's reach around it): the
local maxima are those of the whole map, at its borders too."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.detect.candidates import peaks


def whole_map_maxima(score: np.ndarray, k: int, threshold: float, valid: np.ndarray) -> set[tuple[int, int]]:
    dil = cv2.dilate(score, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    vs, us = np.nonzero((score >= dil) & (score > threshold) & valid)
    return set(zip(us.tolist(), vs.tolist(), strict=True))


def test_the_maxima_over_the_candidates_box_are_the_whole_maps() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        h, w = (int(n) for n in rng.integers(8, 90, 2))
        score = cv2.GaussianBlur(rng.normal(size=(h, w)).astype(np.float32), (0, 0), 1.5)
        valid = np.zeros((h, w), bool)
        y, x = int(rng.integers(0, h)), int(rng.integers(0, w))  # a patch, often at a border
        valid[y:y + int(rng.integers(1, 25)), x:x + int(rng.integers(1, 25))] = True
        # far apart: every local maximum is kept, at its own pixel (sub-pixel offsets within 0.5)
        uv = peaks(score, 5.0, -1.0, valid, limit=10_000)
        got = {(int(round(u)), int(round(v))) for u, v in uv}
        assert got <= whole_map_maxima(score, 5, -1.0, valid)
        # and the strongest of them is the whole map's strongest maximum
        ref = whole_map_maxima(score, 5, -1.0, valid)
        if ref:
            best = max(ref, key=lambda p: score[p[1], p[0]])
            assert len(uv) and (int(round(uv[0, 0])), int(round(uv[0, 1]))) == best
