"""A hand resting on the board, fingertips down beside the disc it holds, shows no disc at its
fingertips (ricochet.mp4: two fingertips were taken for discs and tracked at rest)."""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.pipeline import Pipeline
from tracker.render.camera import intrinsics, true_homography
from tracker.render.renderer import Renderer
from tracker.render.sampling import sample_camera, sample_look
from tracker.render.scene import DiscSprite, HandSprite, SceneFrame

BOARD = CrokinoleBoard()
SIZE = (640, 360)
DISCS = [(60.0, 60.0), (-5.0, -90.0), (-268.0, 130.0)]  # the last held by the hand, by the edge
SIDES = [0, 1, 1]  # light, dark, dark (the held disc dark)


def _scene(seed: int) -> tuple[np.ndarray, Calibration]:
    rng = np.random.default_rng(seed)
    look = sample_look("easy", rng, "crokinole")
    cam = sample_camera("easy", rng, SIZE, "crokinole")
    r, th = BOARD.disc_radius, BOARD.disc_thickness
    discs = tuple(DiscSprite(f"d{i}", x, y, r, th, side) for i, ((x, y), side) in enumerate(zip(DISCS, SIDES, strict=True)))
    held = DISCS[-1]
    out = math.atan2(held[1], held[0])  # the player sits beyond the edge nearest the disc
    # an open hand flat on the surface, its fingertips just past the disc
    hand = HandSprite(held[0] + 25.0 * math.cos(out), held[1] + 25.0 * math.sin(out), from_angle=out,
                      z=0.0, pose="open")
    img = Renderer(BOARD, look, SIZE, seed).render([SceneFrame(0.0, discs=discs, hands=(hand,))], cam)
    K, dist = intrinsics(cam, SIZE)
    return img, Calibration(homography=true_homography(cam, SIZE), image_size=SIZE, rms_mm=0.0, board=BOARD,
                            camera_matrix=K, dist_coeffs=dist, method="truth")


def test_fingertips_of_a_hand_holding_a_disc_are_no_discs() -> None:
    img, calib = _scene(11)
    p = Pipeline("crokinole", 2, calib=calib, fps=10.0)
    for i in range(6):  # the hand holds still: the first frames, then the settled board's passes
        p.process(img, i / 10.0, i)
    at = np.array([tr.position() for tr in p.tracker.tracks], float).reshape(-1, 2)
    truth = np.array(DISCS)
    # every disc tracked is one of the discs (a fingertip was taken for one, 40 mm past the held disc)
    near = [float(np.hypot(*(truth - q).T).min()) for q in at]
    assert all(d < BOARD.disc_radius for d in near), at.round()
    # and every disc is tracked, the held one too
    found = [float(np.hypot(*(at - q).T).min()) if len(at) else math.inf for q in truth]
    assert all(d < BOARD.disc_radius for d in found), (at.round(), found)
