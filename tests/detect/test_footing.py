"""A disc down in the far ditch, seen nearly edge on, is no disc standing on the shooting line."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.detect.footing import board_footed
from tracker.detect.geometry import camera_pose
from tracker.detect.photo import score_detections
from tracker.render import Camera, Renderer, SceneFrame, sample_look
from tracker.render.board_art import ditch_depth
from tracker.render.camera import intrinsics, true_homography
from tracker.render.sampling import board_outline, fit_focal
from tracker.render.scene import DiscSprite

SIZE = (960, 540)
ON_BOARD = [(150.0, 250.0), (120.0, 80.0), (-100.0, -200.0)]  # standing on the surface
IN_FAR_DITCH = (0.0, 350.0)  # the camera looks from -y


def _scene(tilt: float, seed: int) -> tuple[np.ndarray, Calibration]:
    board = CrokinoleBoard()
    look = sample_look("easy", np.random.default_rng(seed), "crokinole")
    cam = Camera(height=1500.0, tilt=tilt, azimuth=0.0, roll=0.0, target=(0.0, 0.0))
    cam = dataclasses.replace(cam, focal=fit_focal(cam, SIZE, board_outline(board), 0.8))
    r, th = board.disc_radius, board.disc_thickness
    discs = [DiscSprite(f"s{i}", x, y, r, th, i % 2) for i, (x, y) in enumerate(ON_BOARD)]
    discs.append(DiscSprite("d0", *IN_FAR_DITCH, r, th, 1, state="ditch", z=-ditch_depth(board)))
    img = Renderer(board, look, SIZE, seed).render([SceneFrame(t=0.0, discs=tuple(discs))], cam)
    K, dist = intrinsics(cam, SIZE)
    return img, Calibration(homography=true_homography(cam, SIZE), image_size=SIZE, rms_mm=0.0, board=board,
                            camera_matrix=K, dist_coeffs=dist, method="truth")


def _taken_as_standing(calib: Calibration) -> np.ndarray:
    """Where a disc standing on the surface shows its top face where the ditch disc's is seen
    (the detector takes every disc as standing): along the camera's ray to the ditch disc's top
    face, at a disc's thickness above the surface."""
    board = calib.board
    assert isinstance(board, CrokinoleBoard)
    C = camera_pose(calib).centre
    top = np.array([*IN_FAR_DITCH, board.disc_thickness - ditch_depth(board)])
    t = (board.disc_thickness - C[2]) / (top[2] - C[2])
    return (C + t * (top - C))[:2]


@pytest.mark.parametrize("seed", [1, 3])
def test_a_disc_in_the_far_ditch_seen_edge_on_is_not_scored_on_the_shooting_line(seed: int) -> None:
    img, calib = _scene(75.0, seed)
    board = calib.board
    assert isinstance(board, CrokinoleBoard)
    ghost = _taken_as_standing(calib)
    # nearly edge on, the ditch disc is taken to stand tens of mm in, by the shooting line
    assert board.surface_radius - 60 < float(np.hypot(*ghost)) < board.surface_radius - 15
    pose = camera_pose(calib)
    assert board_footed(img, calib, pose, board, ghost)
    assert not any(board_footed(img, calib, pose, board, np.array(p)) for p in ON_BOARD)
    finds = np.array([*ON_BOARD, ghost])
    dets = Detections(xy=finds, color=np.tile([40.0, 0.0, 0.0], (len(finds), 1)),
                      where=np.full(len(finds), ON_SURFACE), surround=np.tile([70.0, 5.0, 25.0], (len(finds), 1)))
    result = score_detections(calib, dets, image=img)
    assert sorted((round(d.x), round(d.y)) for d in result.discs) == sorted((round(x), round(y)) for x, y in ON_BOARD)
    assert any("left out a find" in n for n in result.notes)


def test_discs_standing_on_the_board_are_kept_at_a_steep_view_too() -> None:
    img, calib = _scene(60.0, 1)
    board = calib.board
    assert isinstance(board, CrokinoleBoard)
    pose = camera_pose(calib)
    assert not any(board_footed(img, calib, pose, board, np.array(p)) for p in ON_BOARD)
