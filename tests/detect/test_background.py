"""The empty-board model: learned from still frames, kept under resting discs, robust to exposure
drift, slow to take in what no detection explains. Synthetic Lab views with known content."""

from __future__ import annotations

import numpy as np

from tracker.detect.background import BackgroundModel, silhouettes

H = W = 80


def board(seed: int = 0) -> np.ndarray:
    """A textured 'wood' view in 8-bit Lab (float32), already blurred as the model expects."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    lab = np.zeros((H, W, 3), np.float32)
    lab[..., 0] = 170 + 12 * np.sin(yy / 5.0 + np.sin(xx / 20.0))
    lab[..., 1] = 135.0
    lab[..., 2] = 160.0
    lab += rng.normal(0, 1.0, lab.shape).astype(np.float32)
    return BackgroundModel.prepare(lab)


def with_disc(view: np.ndarray, centre: tuple[int, int], r: int = 6, L: float = 40.0) -> np.ndarray:
    out = view.copy()
    yy, xx = np.mgrid[0:H, 0:W]
    inside = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= r * r
    out[inside] = (L, 128.0, 128.0)
    return out


def disc_mask(centre: tuple[int, int], r: int = 6) -> np.ndarray:
    return silhouettes((H, W), np.array([centre], float), np.array([centre], float), np.array([r + 1.0]))


def valid() -> np.ndarray:
    v = np.ones((H, W), bool)
    v[:, :3] = False  # a strip outside the board
    return v


def test_reset_marks_covered_pixels_unknown_and_they_never_count_as_different() -> None:
    empty = board()
    shot = with_disc(empty, (40, 40))
    m = BackgroundModel(valid())
    m.reset(shot, covered=disc_mask((40, 40)))
    assert not m.known[40, 40] and m.known[10, 60] and not m.known[10, 1]
    # the disc leaves: its place is unknown, so no difference is reported there yet
    d = m.difference(empty)
    assert d[40, 40] == 0.0
    # a still frame without it teaches the model the board there at once
    m.update(empty, covered=np.zeros((H, W), bool))
    assert m.known[40, 40] and m.lab is not None
    assert np.abs(m.lab[40, 40] - empty[40, 40]).max() < 1e-3


def test_the_board_under_a_resting_disc_is_kept_so_its_departure_leaves_no_ghost() -> None:
    empty = board()
    m = BackgroundModel(valid())
    m.reset(empty)
    shot = with_disc(empty, (30, 50))
    for _ in range(30):  # the disc rests there for many still frames (explained by a detection)
        m.update(shot, covered=disc_mask((30, 50)))
    assert m.lab is not None
    assert np.abs(m.lab[50, 30] - empty[50, 30]).max() < 1e-3
    assert m.difference(empty)[50, 30] < 1.0  # gone again: nothing left behind
    assert m.difference(shot)[50, 30] > 50.0  # and while it is there it differs


def test_exposure_drift_is_taken_out_of_the_difference_and_followed_by_the_model() -> None:
    empty = board()
    m = BackgroundModel(valid())
    m.reset(empty)
    brighter = empty + np.array([9.0, 1.0, -1.0], np.float32)
    m.offset = m.exposure_offset(brighter)
    assert np.allclose(m.offset, [9.0, 1.0, -1.0], atol=0.2)
    assert np.percentile(m.difference(brighter)[:, 3:], 99) < 1.0
    m.update(brighter, covered=np.zeros((H, W), bool))
    assert m.lab is not None
    assert np.abs(m.lab[20, 20] - brighter[20, 20]).max() < 0.5
    # a disc on the drifted board still stands out
    assert m.difference(with_disc(brighter, (60, 20)))[20, 60] > 50.0


def test_an_unexplained_stable_object_is_absorbed_only_after_absorb_after_still_updates() -> None:
    empty = board()
    m = BackgroundModel(valid(), absorb_after=5)
    m.reset(empty)
    missed = with_disc(empty, (20, 20))  # a disc the detector does not find: nothing covers it
    free = np.zeros((H, W), bool)
    for k in range(4):
        m.update(missed, covered=free)
        assert m.difference(missed)[20, 20] > 50.0, k  # still a difference: no ghost is made yet
    m.update(missed, covered=free)
    assert m.difference(missed)[20, 20] < 1.0  # taken in after five still updates
    # the model's noise figure stays that of the board, not of the object
    assert m.noise < 3.0


def test_difference_in_a_window_matches_the_full_view() -> None:
    empty = board()
    m = BackgroundModel(valid())
    m.reset(empty)
    shot = with_disc(empty, (50, 30))
    full = m.difference(shot)
    box = (20, 45, 35, 70)
    win = m.difference(shot[20:45, 35:70], box)
    assert win.shape == (25, 35)
    assert np.allclose(win, full[20:45, 35:70])


def test_rim_band_is_the_edge_of_the_board_region() -> None:
    v = np.zeros((H, W), bool)
    yy, xx = np.mgrid[0:H, 0:W]
    v[(xx - 40) ** 2 + (yy - 40) ** 2 <= 30**2] = True
    m = BackgroundModel(v)
    assert m.rim[40, 10] and m.rim[40, 70] and not m.rim[40, 40] and not m.rim[40, 5]


def test_difference_is_the_weighted_absolute_difference_bit_for_bit_with_or_without_an_offset() -> None:
    """The zero offset is not added and the unseen pixels are zeroed by a product (speed): the
    numbers are those of the plain formula, |frame - (model + offset)| weighted, 0 where unseen."""
    import cv2

    from tracker.detect.lab_weights import WEIGHTS32 as WEIGHTS

    empty = board()
    m = BackgroundModel(valid())
    m.reset(empty, covered=disc_mask((30, 40)))
    shot = with_disc(empty, (55, 25))
    for offset in ([0.0, 0.0, 0.0], [2.5, -1.0, 0.75]):
        m.offset = np.array(offset, np.float32)
        assert m.lab is not None
        for box in (None, (10, 60, 5, 75)):
            y0, y1, x0, x1 = box if box is not None else (0, H, 0, W)
            want = cv2.transform(cv2.absdiff(shot[y0:y1, x0:x1], m.lab[y0:y1, x0:x1] + m.offset), WEIGHTS.reshape(1, 3))
            want[~m.known[y0:y1, x0:x1]] = 0.0
            got = m.difference(shot if box is None else shot[y0:y1, x0:x1], box)
            assert got.dtype == want.dtype and np.array_equal(got, want)
            assert (got[~m.known[y0:y1, x0:x1]] == 0).all() and got.max() > 50.0


def test_the_exposure_offset_enters_the_model_as_numpy_would_add_it() -> None:
    """``update`` adds the exposure offset in OpenCV, in place (speed): the model after it is bit
    for bit the one ``lab + offset`` gives, then blended with the frame as before."""
    import cv2

    empty = board()
    m = BackgroundModel(valid())
    m.reset(empty)
    brighter = empty + np.array([9.37, 1.21, -1.05], np.float32)
    off = m.exposure_offset(brighter)
    assert m.lab is not None
    want = m.lab + off
    nothing = np.zeros((H, W), bool)
    diff = cv2.transform(cv2.absdiff(brighter, want), np.array([[1.0, 1.6, 1.6]], np.float32))
    blend = m.valid & (diff < m.close * max(m.noise, 1.0))
    cv2.accumulateWeighted(brighter, want, m.rate, mask=blend.view(np.uint8))
    m.update(brighter, covered=nothing)
    assert np.array_equal(m.lab, want)
