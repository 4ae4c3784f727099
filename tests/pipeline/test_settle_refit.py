"""A camera bump that lasts several frames (c2e_9601: the camera moved over frames 410-414).

The board is fitted again on the frame the bump is noticed, which may come before the camera
stops; what it still moved after that (2-3 mm there) is under the drift check's 3 mm threshold,
so every disc was measured that far off for the rest of the match. Once the camera is at rest the
board is fitted once more. Rendered frames, the real board fit and drift check.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.geometry import reprojection_error_mm
from tracker.pipeline import Pipeline
from tracker.render.camera import true_homography
from tracker.render.renderer import Renderer
from tracker.render.sampling import sample_camera, sample_look
from tracker.render.scene import Camera, SceneFrame

BOARD = CrokinoleBoard()
SIZE = (640, 360)
FPS = 10.0
# The camera's aim, mm east of where it started, frame by frame: still for 2 s, knocked 8 mm on
# frame 20 (the drift check's look at 2.0 s sees it), then still moving for two frames.
AIM = [0.0] * 20 + [8.0, 9.5, 10.5] + [10.5] * 14


@functools.cache
def camera_and_views() -> tuple[Camera, dict[float, np.ndarray]]:
    rng = np.random.default_rng(11)
    look = sample_look("easy", rng, "crokinole")
    cam = sample_camera("easy", rng, SIZE, "crokinole")
    renderer = Renderer(BOARD, look, SIZE, 11)
    views = {a: renderer.render([SceneFrame(t=0.0)], aimed(cam, a)) for a in sorted(set(AIM))}
    return cam, views


def aimed(cam: Camera, east_mm: float) -> Camera:
    return dataclasses.replace(cam, target=(cam.target[0] + east_mm, cam.target[1]))


def test_the_board_is_fitted_again_once_the_bumped_camera_is_at_rest() -> None:
    cam, views = camera_and_views()
    p = Pipeline("crokinole", 2, fps=FPS)
    for i, a in enumerate(AIM):
        p.process(views[a], i / FPS, i)
    p.finish()
    fits = [e for e in p.events if e.type == "calibrated"]
    assert len(fits) == 3, [e.to_json() for e in fits]  # the start, the bump, the camera at rest
    assert [bool(e.data.get("settled")) for e in fits] == [False, False, True]  # no new view began
    mean, worst = reprojection_error_mm(np.asarray(p.calib.homography, float),
                                        true_homography(aimed(cam, AIM[-1]), SIZE), BOARD.surface_radius)
    assert mean < 0.8 and worst < 1.5, (mean, worst)
