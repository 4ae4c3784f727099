"""The rings' and rims' peak search (``crokinole_rings._peak_search``) with no room for a peak."""

from __future__ import annotations

import numpy as np

from tracker.calibration.crokinole_rings import _peak_search


def test_a_search_narrower_than_its_step_finds_nothing() -> None:
    # A degenerate fit (a crokinole board taken for a korona one: crokinole_twenty at frame 32)
    # gave the korona rim search a half-width under a sample step: one sample, and an IndexError.
    img = np.zeros((40, 40), np.float32)
    img[:, 20] = 1.0
    p0 = np.array([[18.0, 10.0], [19.0, 30.0]])
    nrm = np.array([[1.0, 0.0], [1.0, 0.0]])
    for half in (0.0, 0.1, 0.3):
        off, strength = _peak_search(img, p0, nrm, half)
        assert off.shape == (2,) and not strength.any()
    off, strength = _peak_search(img, p0, nrm, 4.0)  # room enough: the line is found
    assert np.allclose(off, [2.0, 1.0], atol=0.3) and (strength > 0).all()


def test_a_search_wider_than_the_image_finds_nothing() -> None:
    # The whole crokinole_twenty video reviewed as korona: a degenerate fit gave the rim search a
    # half-width of thousands of pixels, and OpenCV's remap refused a map that wide (a traceback).
    img = np.zeros((40, 40), np.float32)
    img[:, 20] = 1.0
    p0 = np.array([[18.0, 10.0], [19.0, 30.0]])
    nrm = np.array([[1.0, 0.0], [1.0, 0.0]])
    for half in (81.0, 2.0e4, float("inf"), float("nan")):
        off, strength = _peak_search(img, p0, nrm, half)
        assert off.shape == (2,) and not strength.any()
    off, strength = _peak_search(img, p0, nrm, 60.0)  # wide, but inside the image: found
    assert np.allclose(off, [2.0, 1.0], atol=0.3) and (strength > 0).all()
