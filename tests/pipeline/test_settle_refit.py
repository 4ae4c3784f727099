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


def test_a_fit_at_rest_that_strays_from_the_carried_bump_fit_is_not_taken(monkeypatch) -> None:
    """c2h_9956: the bump's fit was within 0.14 mm, the fresh fit at rest came out turned 2.5 degrees
    (8.4 mm mean) and was taken. The bump's fit carried onto the view at rest by registering the
    two images is taken instead when the fresh fit strays from it."""
    from tracker.pipeline import camera

    cam, views = camera_and_views()
    real = camera.fit_again

    def fit_again(p: Pipeline, frame: np.ndarray) -> object:
        fit = real(p, frame)
        if fit is None or p._bumped or p._settle_at is not None:
            return fit
        calib, img = fit  # the settle fit: turned 2.5 degrees about the board's centre
        a = np.radians(2.5)
        R = np.array([[np.cos(a), -np.sin(a), 0.0], [np.sin(a), np.cos(a), 0.0], [0.0, 0.0, 1.0]])
        return dataclasses.replace(calib, homography=R @ np.asarray(calib.homography, float)), img

    monkeypatch.setattr(camera, "fit_again", fit_again)
    p = Pipeline("crokinole", 2, fps=FPS)
    for i, a in enumerate(AIM):
        p.process(views[a], i / FPS, i)
    p.finish()
    fits = [e for e in p.events if e.type == "calibrated"]
    assert [bool(e.data.get("settled")) for e in fits] == [False, False, True], [e.to_json() for e in fits]
    mean, worst = reprojection_error_mm(np.asarray(p.calib.homography, float),
                                        true_homography(aimed(cam, AIM[-1]), SIZE), BOARD.surface_radius)
    assert mean < 0.8 and worst < 1.5, (mean, worst)


def test_a_fit_is_carried_onto_a_moved_view_by_registration() -> None:
    from tracker.calibration import calibrate_image
    from tracker.calibration.register import register_view

    cam, views = camera_and_views()
    calib = calibrate_image(views[0.0], "crokinole")
    carried = register_view(calib, views[0.0], views[10.5])
    assert carried is not None
    truth = true_homography(aimed(cam, 10.5), SIZE)
    before = reprojection_error_mm(np.asarray(calib.homography, float), truth, BOARD.surface_radius)[0]
    mean, worst = reprojection_error_mm(np.asarray(carried.homography, float), truth, BOARD.surface_radius)
    own = reprojection_error_mm(np.asarray(calib.homography, float), true_homography(cam, SIZE), BOARD.surface_radius)
    # near as close to the moved view's truth as the fit was to its own view's (a referee for the
    # fit at rest, which strays millimetres when it goes wrong)
    assert before > 5.0 and mean < own[0] + 0.4 and worst < own[1] + 1.5, (before, own, mean, worst)
