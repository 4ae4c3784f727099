"""A disc down in the 20-hole under an oblique camera (issue #5), on rendered still frames.

Positions are corrected for a disc's face a thickness above the surface; a disc in the hole shows
its face about level with the surface, so it is measured that correction too far towards the
camera (3-8 mm at 25-40 degrees of tilt) and was taken for a disc on the surface beside the hole:
c4h_9203's two 20s were scored as 15s. A disc resting on the surface over the hole's edge on the
camera's side must stay on the surface, and so must one resting over the edge anywhere round
the hole (centred 9-13 mm out: ``CrokinoleBoard.tips_into_hole`` keeps it up): the dark hole's
rim, its open part closed by the disc's edge, was fitted as a disc centred on the hole and
scored a 20 (``twenty_hole.resting_over_edge``).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import IN_HOLE, ON_SURFACE, Detections
from tracker.detect.detector import DiscDetector
from tracker.detect.geometry import camera_pose
from tracker.render.scene import DiscSprite
from tracker.render.still import sprites_frame

BOARD = CrokinoleBoard()
SIZE = (640, 360)


def _frame(seed: int, discs: tuple[DiscSprite, ...]) -> tuple[np.ndarray, Calibration]:
    return sprites_frame(BOARD, "hard", SIZE, seed, discs)


@functools.lru_cache(maxsize=8)
def _detector(seed: int) -> DiscDetector:
    empty, calib = _frame(seed, ())
    det = DiscDetector(calib, "crokinole")
    det.set_background(empty, det.detect(empty))
    return det


def _tilt(seed: int) -> float:
    c = camera_pose(_frame(seed, ())[1]).centre
    return float(np.degrees(np.arctan2(np.hypot(c[0], c[1]), c[2])))


def _near_centre(dets: Detections, within: float) -> int:
    near = np.nonzero(np.hypot(dets.xy[:, 0], dets.xy[:, 1]) < within)[0]
    assert len(near) == 1, f"found {dets.xy.round(1).tolist()}"
    return int(near[0])


@pytest.mark.parametrize("seed", [7961, 7962, 7964, 7970])
def test_a_disc_down_in_the_hole_under_an_oblique_camera_is_in_the_hole(seed: int) -> None:
    assert _tilt(seed) > 25.0
    sunk = DiscSprite("d0", 0.0, 0.0, BOARD.disc_radius, BOARD.disc_thickness, 0, state="hole",
                      z=-(BOARD.disc_thickness + 1.0))
    img, _ = _frame(seed, (sunk,))
    dets = _detector(seed).detect(img)
    i = _near_centre(dets, 12.0)
    assert dets.where[i] == IN_HOLE, f"measured at {dets.xy[i].round(1).tolist()}"


@pytest.mark.parametrize("seed", [7962, 7970])
def test_a_disc_over_the_hole_edge_on_the_cameras_side_stays_on_the_surface(seed: int) -> None:
    foot = camera_pose(_frame(seed, ())[1]).centre[:2]
    x, y = 15.0 * foot / np.linalg.norm(foot)  # 15 mm out, towards the camera
    edge = DiscSprite("d0", float(x), float(y), BOARD.disc_radius, BOARD.disc_thickness, 0)
    img, _ = _frame(seed, (edge,))
    dets = _detector(seed).detect(img)
    i = _near_centre(dets, 30.0)
    assert dets.where[i] == ON_SURFACE, f"measured at {dets.xy[i].round(1).tolist()}"


@pytest.mark.parametrize(("d", "angle"), [(9.0, 0), (9.0, 60), (9.0, 120), (11.0, 0), (11.0, 60), (11.0, 300),
                                          (13.0, 0)])
def test_a_disc_resting_over_the_hole_edge_is_on_the_surface(d: float, angle: int) -> None:
    seed = 7964
    assert _tilt(seed) > 25.0
    x, y = d * np.cos(np.radians(angle)), d * np.sin(np.radians(angle))
    assert not BOARD.tips_into_hole(x, y) and not BOARD.in_hole(x, y)
    img, _ = _frame(seed, (DiscSprite("d0", x, y, BOARD.disc_radius, BOARD.disc_thickness, 0),))
    dets = _detector(seed).detect(img)
    i = _near_centre(dets, 40.0)
    assert dets.where[i] == ON_SURFACE, f"measured at {dets.xy[i].round(1).tolist()}"
    # at 2.6 mm a pixel, under three pixels off (the hole's dark rim still pulls the fit)
    assert float(np.hypot(dets.xy[i, 0] - x, dets.xy[i, 1] - y)) < 7.0
