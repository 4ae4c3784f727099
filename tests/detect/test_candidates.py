"""The ring-filter search (``tracker/detect/candidates.py``, ``ring_filter.py``): how its filters are made and kept
must change nothing but the cost."""

from __future__ import annotations

import numpy as np
import scipy.fft as sfft

from tracker.detect.ring_filter import RingFilter, _ring_kernels, ring_half


def test_filter_spectra_are_the_zero_padded_transforms_of_the_kernels() -> None:
    """Only the kernel's own rows are transformed first: the same numbers as ``rfft2``."""
    for shape, r, extra in [((96, 128), 8.2, 1.7), ((64, 160), 11.0, 2.3), ((387, 387), 7.9, 0.0)]:
        f = RingFilter.build(shape, r, 1.5, extra)
        half, kernels = _ring_kernels(r, 1.5, extra)
        assert f.half == half == ring_half(r, 1.5, extra)
        assert f.fft_shape[0] >= shape[0] + 2 * half and f.fft_shape[1] >= shape[1] + 2 * half
        got = [k for sector in zip(f.cos_k, f.sin_k, f.mag_k, strict=True) for k in sector]
        for kernel, spectrum in zip(kernels, got, strict=True):
            want = sfft.rfft2(kernel, s=f.fft_shape, workers=1)
            assert spectrum.dtype == want.dtype and np.array_equal(spectrum, want)
        assert f.nbytes == sum(k.nbytes for k in got)


def test_edge_field_in_bands_of_rows_is_the_whole_views() -> None:
    """A large view's edge field is made a band of rows at a time (``EDGE_ROWS``, for the
    processor's cache): the same numbers as made whole, at the bands' seams too, masked or not."""
    import cv2

    from tracker.detect import candidates

    rng = np.random.default_rng(5)
    img = cv2.GaussianBlur(rng.uniform(0, 255, (431, 300, 3)).astype(np.uint8), (0, 0), 1.5)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab).astype(np.float32)
    mask = (rng.uniform(size=lab.shape[:2]) > 0.2).astype(np.float32)
    assert lab.shape[0] * lab.shape[1] > candidates.EDGE_PIXELS  # (banded)
    for m in (None, mask):
        banded = candidates.edge_field(lab, m)
        old = candidates.EDGE_PIXELS
        try:
            candidates.EDGE_PIXELS = 1 << 30  # whole
            whole = candidates.edge_field(lab, m)
        finally:
            candidates.EDGE_PIXELS = old
        for a, b in zip(banded, whole, strict=True):
            assert a.dtype == np.float32 and np.array_equal(a, b)


def test_opencv_inverse_gives_scipys_responses() -> None:
    """The ring filter's inverse transforms by OpenCV (``OPENCV_INVERSE``, even FFT sizes; the
    half spectrum packed as ``cv2.dft`` packs it): the responses scipy's ``irfft2`` gives, to
    float32 rounding."""
    import cv2

    from tracker.detect import candidates, ring_filter

    rng = np.random.default_rng(8)
    x = rng.normal(size=(48, 64)).astype(np.float32)
    assert np.abs(ring_filter._packed(sfft.rfft2(x), 48, 64) - cv2.dft(x)).max() < 1e-4
    for shape, r in [((431, 431), 6.25), ((96, 128), 8.2)]:
        f = RingFilter.build(shape, r, 1.5, 1.5)
        img = cv2.GaussianBlur(rng.uniform(0, 255, (*shape, 3)).astype(np.uint8), (0, 0), 2.0)
        lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab).astype(np.float32)
        spectrum = candidates.field_spectra(lab, f.fft_shape)[2] * f.mag_k[0]
        old = ring_filter.OPENCV_INVERSE
        try:
            ring_filter.OPENCV_INVERSE = False
            ref = f._apply(spectrum)
            ring_filter.OPENCV_INVERSE = True
            got = f._apply(spectrum)
        finally:
            ring_filter.OPENCV_INVERSE = old
        assert got.shape == ref.shape == shape and got.dtype == np.float32
        assert np.abs(got - ref).max() <= 1e-5 * np.abs(ref).max()


def test_crop_filters_count_their_bytes_and_let_the_least_recently_used_go() -> None:
    from tracker.detect.candidates import CropFilters

    small = RingFilter.build((32, 32), 6.0)
    large = RingFilter.build((64, 64), 6.0)
    cache = CropFilters(count=3, nbytes=small.nbytes + large.nbytes)
    cache.add((0, 32, 32), small)
    cache.add((1, 32, 32), RingFilter.build((32, 32), 7.0))
    assert cache.get((0, 32, 32)) is small  # (now the most recently used)
    assert cache.get((2, 32, 32)) is None
    cache.add((0, 64, 64), large)  # over the bytes: the least recently used (kind 1) goes
    assert cache.get((1, 32, 32)) is None
    assert len(cache) == 2 and cache.nbytes == small.nbytes + large.nbytes
    assert cache.get((0, 32, 32)) is small and cache.get((0, 64, 64)) is large
    cache.add((1, 32, 32), RingFilter.build((32, 32), 7.0))  # over the bytes again: the small one goes
    assert cache.get((0, 32, 32)) is None
    assert cache.nbytes == sum(f.nbytes for f in (large, cache.get((1, 32, 32))) if f is not None)
