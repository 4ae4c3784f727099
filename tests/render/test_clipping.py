"""Geometry near and behind the camera is clipped to the view volume before it is projected, so
what is drawn is what a real camera sees, never a wedge thrown across the picture."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.render import Camera, HandSprite, Look, Renderer, SceneFrame, project
from tracker.render.camera import Projector
from tracker.render.clipping import clip_polygon
from tracker.render.sprites import fill_3d

SIZE = (256, 144)
CLEAN = Look(light_gradient=0.0, glare=0.0, vignette=0.0, exposure_drift=0.0, noise_sigma=0.0,
             jpeg_quality=100, blur_sigma=0.0)


def _area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))


def test_clip_polygon_keeps_the_part_inside_the_half_space() -> None:
    square = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 2.0, 0.0], [0.0, 2.0, 0.0]])
    x_ge_half = np.array([[1.0, 0.0, 0.0, 0.5]])
    cut = clip_polygon(square, x_ge_half)
    assert _area(cut) == pytest.approx(3.0)
    assert cut[:, 0].min() == pytest.approx(0.5)
    assert np.array_equal(clip_polygon(square, np.array([[1.0, 0.0, 0.0, -1.0]])), square)
    assert clip_polygon(square, np.array([[1.0, 0.0, 0.0, 5.0]])).shape == (0, 3)


@pytest.mark.parametrize("k1, k2", [(0.0, 0.0), (0.03, -0.033), (-0.1, 0.01)])
def test_a_polygon_reaching_behind_the_camera_is_drawn_on_the_side_it_is_seen(
        k1: float, k2: float) -> None:
    """A strip from the surface up past the lens: its near edge is in view right of the centre,
    its far edge is above the camera and left of it. A real camera sees the strip run from its
    near edge off the right of the frame (where it crosses the camera plane, right of the lens);
    nothing of it may appear left of its near edge."""
    cam = Camera(height=1000.0, focal=120.0, k1=k1, k2=k2)
    proj = Projector(cam, SIZE)
    strip = np.array([[150.0, -10.0, 500.0], [150.0, 10.0, 500.0],
                      [-50.0, 10.0, 1300.0], [-50.0, -10.0, 1300.0]])
    near = project(cam, SIZE, strip[:2])
    assert np.all(np.isfinite(near)) and near[:, 0].min() > SIZE[0] / 2
    mask = np.zeros((SIZE[1], SIZE[0]), np.uint8)
    fill_3d(mask, proj, strip, 255.0)
    ys, xs = np.nonzero(mask)
    assert len(xs) > 0
    assert xs.min() >= near[:, 0].min() - 2.0
    assert xs.max() == SIZE[0] - 1  # it leaves the frame on the right


def test_points_behind_the_lens_or_beyond_its_field_do_not_fold_over() -> None:
    cam = Camera(height=1000.0, focal=120.0, k1=0.03, k2=-0.033)
    proj = Projector(cam, SIZE)
    px = proj(np.array([[0.0, 0.0, 1200.0], [5000.0, 0.0, 990.0]]))
    assert np.all(np.isnan(px[0]))  # behind the camera
    assert px[1, 0] > SIZE[0]  # far right stays right (a radius past the lens's range held)


def test_a_polygon_in_view_projects_vertex_by_vertex() -> None:
    cam = Camera(height=1100.0, tilt=35.0, azimuth=20.0, focal=200.0, k1=-0.2, k2=0.02)
    proj = Projector(cam, SIZE)
    poly = np.array([[-100.0, -80.0, 0.0], [120.0, -60.0, 0.0], [90.0, 140.0, 30.0]])
    assert np.allclose(proj.polygon(poly), project(cam, SIZE, poly))


def test_a_player_leaning_in_under_an_oblique_camera_stays_at_the_frame_edge() -> None:
    """Seed 8803's set-up, small: a low oblique camera right above the south player, whose
    head is level with the lens. Her arm enters from the bottom of the frame; nothing she
    draws may reach the board centre (it used to be a bowtie of black wedges through it)."""
    s = SIZE[0] / 1280
    cam = Camera(height=837.0, tilt=30.2, azimuth=11.85, roll=9.7, focal=677.3 * s, k1=0.03,
                 k2=-0.033, target=(-7.8, -56.3))
    r = Renderer(CrokinoleBoard(), CLEAN, SIZE, seed=5)
    hand = HandSprite(81.3, -385.0, from_angle=-1.3627, z=40.0, pose="open")
    empty = r.draw_scene(SceneFrame(0.0), cam)
    with_hand = r.draw_scene(SceneFrame(0.0, hands=(hand,)), cam)
    diff = np.abs(empty.astype(int) - with_hand.astype(int)).max(axis=2)
    ys, xs = np.nonzero(diff > 8)
    centre = project(cam, SIZE, np.array([[0.0, 0.0, 0.0]]))[0]
    tip = project(cam, SIZE, np.array([[hand.x, hand.y, hand.z]]))[0]
    assert len(ys) > 0
    assert diff[int(round(centre[1])), int(round(centre[0]))] == 0
    assert ys.min() > centre[1]  # the arm comes from the south, below the centre
    assert diff[int(round(tip[1])), int(round(tip[0]))] > 8  # and its fingertips are drawn
