"""The stillness gate: same picture -> reuse the detections; a disc moving, a hand, a cut -> detect."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.pipeline.stillness import Settling, StillnessGate

W, H = 1280, 720


def scene(rng: np.random.Generator, disc_at: tuple[int, int] | None = (400, 300), noise: float = 2.0) -> np.ndarray:
    img = np.full((H, W, 3), (120, 170, 215), np.uint8)
    yy = np.arange(H)[:, None]
    img = np.clip(img + (8 * np.sin(yy / 11.0))[..., None], 0, 255).astype(np.uint8)
    if disc_at is not None:
        cv2.circle(img, disc_at, 22, (40, 45, 60), -1)  # a disc about 32 mm wide at 1.4 px/mm
    if noise:
        img = np.clip(img + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)
    return img


def test_same_picture_with_sensor_noise_is_still_and_a_moved_disc_is_not() -> None:
    rng = np.random.default_rng(0)
    g = StillnessGate()
    first = scene(rng)
    assert not g.still(first)  # nothing remembered yet
    g.remember(first)
    assert g.still(scene(rng))  # new noise, same picture
    assert not g.still(scene(rng, disc_at=(400 + 30, 300)))  # the disc slid by about 21 mm
    assert not g.still(scene(rng, disc_at=None))  # lifted away


def test_a_detection_is_forced_every_max_skip_frames() -> None:
    rng = np.random.default_rng(1)
    g = StillnessGate(max_skip=3)
    f = scene(rng)
    g.still(f)
    g.remember(f)
    got = [g.still(scene(rng)) for _ in range(4)]
    assert got == [True, True, True, False]
    g.remember(f)
    assert g.still(scene(rng))


def test_a_cut_changes_most_of_the_picture() -> None:
    rng = np.random.default_rng(2)
    g = StillnessGate()
    f = scene(rng)
    g.still(f)
    g.remember(f)
    g.still(scene(rng))
    assert g.changed < 0.01
    g.still(255 - scene(rng))
    assert g.changed > 0.4


def test_remember_uses_the_thumbnail_of_the_frame_just_tested_only() -> None:
    """``remember`` right after ``still`` on the same frame reuses its thumbnail; a buffer filled
    with a new picture in between (a camera reading into one array) is shrunk again."""
    rng = np.random.default_rng(3)
    g = StillnessGate()
    buf = scene(rng)
    g.still(buf)
    g.remember(buf)
    buf[:] = scene(rng, disc_at=(900, 500))  # the same array, a new picture
    assert not g.still(buf)
    g.remember(buf)
    assert g.still(scene(rng, disc_at=(900, 500)))


def test_the_thumbnail_averages_a_sparse_grid_like_the_whole_frame() -> None:
    rng = np.random.default_rng(4)
    f = scene(rng, noise=6.0)
    g = StillnessGate()
    thumb = g._thumb(f).astype(float)
    full = cv2.cvtColor(cv2.resize(f, thumb.shape[::-1], interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    assert thumb.shape == (36, 64)
    assert np.median(np.abs(thumb - full)) < 2.0
    # small frames are shrunk directly
    small = cv2.resize(f, (160, 90), interpolation=cv2.INTER_AREA)
    assert g._thumb(small).shape == (36, 64)


def test_one_full_pass_once_the_board_has_settled_after_motion() -> None:
    """Motion, then still frames: skipped until ``frames`` still ones in a row, then one full
    pass, then skipped again; a hand's pause shorter than that gets none."""
    s = Settling(3)
    assert s.step(still=True, moving=False) == (False, False)  # nothing moved yet: nothing due
    assert s.step(still=False, moving=True) == (True, False)  # motion: an incremental pass
    s.detected(False, moving=True, changed=True)
    assert s.step(still=True, moving=False) == (False, False)  # a pause ...
    assert s.step(still=False, moving=False) == (True, False)  # ... and the flick
    s.detected(False, moving=False, changed=True)
    got = [s.step(still=True, moving=False) for _ in range(3)]
    assert got == [(False, False), (False, False), (True, True)]  # settled: one full pass
    s.detected(True, moving=False, changed=True)
    assert [s.step(still=True, moving=False) for _ in range(4)] == [(False, False)] * 4


def test_a_re_detection_of_an_unchanged_view_is_not_motion() -> None:
    """The gate re-detects after many skipped frames; if the detector saw no change, no full
    pass follows."""
    s = Settling(2)
    s.step(still=False, moving=False)
    s.detected(False, moving=False, changed=False)
    assert [s.step(still=True, moving=False) for _ in range(4)] == [(False, False)] * 4


def test_the_threshold_follows_a_noisy_cameras_noise_and_a_moved_disc_still_shows() -> None:
    """A camera as noisy as the hard preset's (thumbnail differences up to ~10 grey levels on a
    still board): the gate learns the noise and calls the still board still, while a disc that
    slid by about 21 mm, or a hand coming in, still makes it detect. A clean picture keeps the
    given threshold."""
    rng = np.random.default_rng(7)
    g = StillnessGate(adaptive=True)
    first = scene(rng, noise=10.0)
    g.still(first)
    g.remember(first)
    for _ in range(12):
        g.still(scene(rng, noise=10.0))
        g.remember(first)
    assert g.threshold > g.base  # (at the given 6 the noise read as motion)
    assert all(g.still(scene(rng, noise=10.0)) for _ in range(5))
    g.remember(first)
    assert not g.still(scene(rng, disc_at=(400 + 30, 300), noise=10.0))
    hand = scene(rng, noise=10.0)
    cv2.rectangle(hand, (300, 500), (520, 720), (60, 90, 140), -1)
    assert not g.still(hand)
    clean = StillnessGate(adaptive=True)
    f = scene(rng)
    clean.still(f)
    clean.remember(f)
    for _ in range(12):
        clean.still(scene(rng))
    assert clean.threshold == clean.base
    fixed = StillnessGate()  # the default: the given threshold whatever the noise
    fixed.still(first)
    fixed.remember(first)
    assert not all(fixed.still(scene(rng, noise=10.0)) for _ in range(5))
    assert fixed.threshold == fixed.base


def creeping(rng: np.random.Generator, x: float, noise: float) -> np.ndarray:
    """``scene`` with the disc's centre at a fractional x (sub-pixel drawing)."""
    img = scene(rng, disc_at=None, noise=0.0)
    cv2.circle(img, (round(x * 16), 300 * 16), 22 * 16, (40, 45, 60), -1, cv2.LINE_AA, shift=4)
    return np.clip(img + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)


def test_the_block_test_calls_a_noisy_still_board_still_and_slow_creep_trips_it() -> None:
    """On a camera as noisy as the hard preset's the thumbnail calls every frame changed; the
    block test (a full area shrink, noise averaged over 16x16 pixels) calls the still board
    still. A disc creeping a quarter pixel a frame passes frame by frame but is compared with
    the last detected frame, so the creep adds up and makes the gate detect within ~2 px."""
    rng = np.random.default_rng(11)
    for blocks, passed in ((False, 0), (True, 9)):
        g = StillnessGate(blocks=blocks, max_skip=100)
        first = scene(rng, noise=10.0)
        g.still(first)
        g.remember(first)
        assert sum(g.still(scene(rng, noise=10.0)) for _ in range(9)) == passed
    g.remember(first)
    assert not g.still(scene(rng, disc_at=(400 + 30, 300), noise=10.0))  # slid by about 21 mm
    start = creeping(rng, 400.0, 10.0)
    g.still(start)
    g.remember(start)
    tripped = next(k for k in range(1, 40) if not g.still(creeping(rng, 400.0 + 0.25 * k, 10.0)))
    assert 2 <= tripped <= 8  # not at the first quarter pixel, by two pixels at the latest
