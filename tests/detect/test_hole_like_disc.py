"""The empty 20-hole of a board whose hole is about a disc's size, seen obliquely, in one photo
(``tracker photo``; broadcast still -S85EVHM_OY, about 40 degrees: the empty hole was a disc on
the surface beside it, a "15"). Fitted as a disc a thickness tall, the hole's rim sits beside
the hole; ``verify.seen_within_hole`` sees that the rim, fitted flat from the hole's centre,
explains the same outline. Rendered stills, true calibration, the photo's detector settings."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import IN_HOLE
from tracker.detect.detector import DetectorSettings, DiscDetector
from tracker.detect.photo import PHOTO_BEVEL_MM
from tracker.render.camera import intrinsics, true_homography
from tracker.render.renderer import Renderer
from tracker.render.sampling import sample_look
from tracker.render.scene import Camera, DiscSprite, SceneFrame

BOARD = replace(CrokinoleBoard(), hole_radius=16.5)  # a hole 1.3 mm wider than a disc's radius
SIZE = (1280, 720)


def _detect(seed: int, tilt: float, discs: tuple[DiscSprite, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    look = sample_look("hard", np.random.default_rng(seed), "crokinole")
    cam = Camera(height=900.0, tilt=tilt, focal=900.0)
    img = Renderer(BOARD, look, SIZE, seed).render([SceneFrame(t=0.0, discs=discs)], cam)
    K, dist = intrinsics(cam, SIZE)
    calib = Calibration(homography=true_homography(cam, SIZE), image_size=SIZE, rms_mm=0.0, board=BOARD,
                        camera_matrix=K, dist_coeffs=dist, method="truth")
    dets = DiscDetector(calib, "crokinole", settings=DetectorSettings(bevel=PHOTO_BEVEL_MM, bevel_in_fit=True)).detect(img)
    return dets.xy, dets.where


@pytest.mark.parametrize(("seed", "tilt"), [(3, 40.0), (6, 30.0)])
def test_the_empty_hole_seen_obliquely_is_no_disc(seed: int, tilt: float) -> None:
    # (before: seed 3 a disc on the surface 6 mm from the centre, seed 6 a disc in the hole)
    xy, _ = _detect(seed, tilt)
    assert len(xy) == 0, xy.round(1).tolist()


# (at seed 3, 40 degrees, the sunk disc is not found at all, before this check as after it)
@pytest.mark.parametrize(("seed", "tilt"), [(6, 30.0)])
def test_a_light_disc_down_in_that_hole_is_still_a_twenty(seed: int, tilt: float) -> None:
    sunk = DiscSprite("d0", 0.0, 0.0, BOARD.disc_radius, BOARD.disc_thickness, 0, state="hole",
                      z=-(BOARD.disc_thickness + 1.0))
    xy, where = _detect(seed, tilt, (sunk,))
    assert len(xy) == 1 and where[0] == IN_HOLE, (xy.round(1).tolist(), where.tolist())
