"""The views the scoreboard polls: the rectified board is warped with maps made once per
calibration (it was rebuilt on every request, most of a core while a page was open), labels land
on their discs, and a track at an absurd place never breaks the drawing."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.app.processor import BoardWarp, PipelineProcessor, pixel_in
from tracker.boards import CrokinoleBoard
from tracker.calibration import rectify
from tracker.calibration.datatypes import Calibration
from tracker.track import Track

SIZE = (320, 240)


def distorted_calib(k1: float = -0.08) -> Calibration:
    """A face-on camera, 2.5 mm per pixel, board centre at the image centre, barrel distortion."""
    s = 2.5
    H = np.array([[s, 0.0, -s * SIZE[0] / 2], [0.0, -s, s * SIZE[1] / 2], [0.0, 0.0, 1.0]])  # px -> mm
    K = np.array([[300.0, 0.0, SIZE[0] / 2], [0.0, 300.0, SIZE[1] / 2], [0.0, 0.0, 1.0]])
    return Calibration(homography=H, image_size=SIZE, rms_mm=0.0, board=CrokinoleBoard(),
                       camera_matrix=K, dist_coeffs=np.array([k1, 0.0, 0.0, 0.0, 0.0]))


def textured_frame() -> np.ndarray:
    rng = np.random.default_rng(3)
    img = cv2.resize(rng.integers(0, 255, (30, 40, 3), dtype=np.uint8), SIZE, interpolation=cv2.INTER_CUBIC)
    return img


def test_the_cached_board_warp_matches_rectify_and_is_built_once_per_calibration():
    calib, frame = distorted_calib(), textured_frame()
    warp = BoardWarp(4.0)
    a, _ = warp.warp(frame, calib)
    b, _ = warp.warp(frame, calib)
    ref = rectify(frame, calib, 4.0)
    assert a.shape == ref.shape
    assert np.abs(a.astype(int) - ref.astype(int)).mean() < 1.0  # fixed-point maps: sub-grey-level
    assert np.array_equal(a, b)
    assert warp.builds == 1
    warp.warp(frame, distorted_calib(-0.02))  # the board was fitted again: new maps
    assert warp.builds == 2


def test_a_label_transform_puts_a_board_point_on_its_rectified_pixel():
    calib = distorted_calib()
    at_mm = np.array([[100.0, -50.0]])
    frame = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    p = np.round(calib.to_image(at_mm)[0]).astype(int)
    cv2.circle(frame, (int(p[0]), int(p[1])), 3, (255, 255, 255), -1)
    img, M = BoardWarp(2.0).warp(frame, calib)
    q = cv2.perspectiveTransform(at_mm.reshape(1, 1, 2), M)[0, 0]
    grey = img[:, :, 0].astype(float)
    ys, xs = np.nonzero(grey > 128)
    assert len(xs) > 0
    assert np.hypot(xs.mean() - q[0], ys.mean() - q[1]) < 1.5  # pixels of 2 mm


def test_pixel_in_refuses_what_cannot_be_drawn():
    shape = (240, 320, 3)
    assert pixel_in(np.array([10.4, 20.6]), shape) == (10, 20)
    assert pixel_in(np.array([np.nan, 5.0]), shape) is None
    assert pixel_in(np.array([np.inf, 5.0]), shape) is None
    assert pixel_in(np.array([3e12, -4e12]), shape) is None
    assert pixel_in(np.array([-40.0, 260.0]), shape) == (-40, 260)  # just outside: still drawn


def test_views_with_a_track_at_an_absurd_place_are_still_drawn():
    proc = PipelineProcessor("crokinole", 2)
    proc.pipeline.calib = distorted_calib()
    frame = textured_frame()
    proc._image = frame
    proc._tracks = [Track(id=1, kind=0, radius=16.0, xy=np.array([1e15, -1e15])),
                    Track(id=2, kind=0, radius=16.0, xy=np.array([np.nan, 0.0])),
                    Track(id=3, kind=0, radius=16.0, xy=np.array([0.0, 0.0]))]
    over = proc.overlay(frame)
    board = proc.board_view()
    assert over.shape == frame.shape and board is not None
    assert not np.array_equal(over, frame)  # the rings and track 3's label were drawn
