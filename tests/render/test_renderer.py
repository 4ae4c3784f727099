"""The renderer draws things where the geometry says, occludes correctly and is deterministic."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.render import (
    Camera,
    DiscSprite,
    HandSprite,
    Look,
    Renderer,
    SceneFrame,
    project,
)

SIZE = (320, 180)
BOARD = CrokinoleBoard()
RED = (30, 30, 220)  # BGR
# A look without camera effects, so a pixel's colour is the scene's.
CLEAN = Look(surface="natural", line_color=(20, 20, 20), disc_colors=(RED, (30, 30, 30)),
             light_gradient=0.0, glare=0.0, vignette=0.0, exposure_drift=0.0, noise_sigma=0.0,
             jpeg_quality=100, blur_sigma=0.0, skin_tones=((60, 200, 60),),
             sleeve_colors=((200, 60, 60),))
TOP = Camera(height=1500, focal=190)
OBLIQUE = Camera(height=1100, tilt=40, azimuth=0, focal=210)


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer(BOARD, CLEAN, SIZE, seed=5)


def _disc(x: float, y: float, **kw: object) -> DiscSprite:
    return DiscSprite("s1", x, y, BOARD.disc_radius, BOARD.disc_thickness, 0, **kw)  # type: ignore[arg-type]


def _pixel(img: np.ndarray, cam: Camera, p: tuple[float, float, float]) -> np.ndarray:
    u, v = project(cam, SIZE, np.array([p]))[0]
    return img[int(round(v)), int(round(u))].astype(int)


def _is_red(bgr: np.ndarray) -> bool:
    b, g, r = bgr
    return r > 120 and r > 2.0 * g and r > 2.0 * b


@pytest.mark.parametrize("cam", [TOP, OBLIQUE])
@pytest.mark.parametrize("pos", [(150.0, -60.0), (-30.0, 250.0), (0.0, -170.0)])
def test_disc_is_drawn_at_its_projected_position(renderer: Renderer, cam: Camera,
                                                 pos: tuple[float, float]) -> None:
    x, y = pos
    empty = renderer.render([SceneFrame(0.0)], cam)
    img = renderer.render([SceneFrame(0.0, discs=(_disc(x, y),))], cam)
    top = (x, y, BOARD.disc_thickness)
    assert _is_red(_pixel(img, cam, top))
    assert not _is_red(_pixel(empty, cam, top))
    # a disc radius and a bit away, the board shows again
    off = (x + BOARD.disc_radius + 20.0, y, 0.0)
    assert not _is_red(_pixel(img, cam, off))


def test_rings_are_drawn_at_the_model_radii_in_the_look_colour() -> None:
    look = replace(CLEAN, line_color=(230, 40, 40), line_width=4.0)
    r = Renderer(BOARD, look, (640, 360), seed=1)
    cam = Camera(height=1500, focal=600)
    img = r.render([SceneFrame(0.0)], cam)
    for R in BOARD.line_radii:
        for ang in (0.0, 90.0, 180.0, 270.0):  # away from the pegs
            a = math.radians(ang)
            on = (R * math.cos(a), R * math.sin(a), 0.0)
            off = ((R + 8) * math.cos(a), (R + 8) * math.sin(a), 0.0)
            b, _, rr = _pixel_at(img, cam, (640, 360), on)
            b2, _, r2 = _pixel_at(img, cam, (640, 360), off)
            # on the line the pixel turns to the line's blue; 8 mm off it keeps the wood's red
            assert b - rr > 20 and b2 - r2 < -20, (R, ang, (b, rr), (b2, r2))


def _pixel_at(img: np.ndarray, cam: Camera, size: tuple[int, int],
              p: tuple[float, float, float]) -> np.ndarray:
    u, v = project(cam, size, np.array([p]))[0]
    return img[int(round(v)), int(round(u))].astype(int)


def test_hand_occludes_the_disc_under_it(renderer: Renderer) -> None:
    disc = _disc(0.0, -150.0)
    hand = HandSprite(0.0, 40.0, from_angle=math.radians(-90), z=40.0, pose="open")
    img = renderer.render([SceneFrame(0.0, discs=(disc,), hands=(hand,))], TOP)
    px = _pixel(img, TOP, (0.0, -150.0, BOARD.disc_thickness))
    assert not _is_red(px)
    b, g, r = px  # skin is green in this look, the sleeve blue
    assert g > r + 40 or b > r + 40
    # a hand elsewhere leaves the disc visible
    hand2 = HandSprite(200.0, 200.0, from_angle=math.radians(45), z=40.0)
    img2 = renderer.render([SceneFrame(0.0, discs=(disc,), hands=(hand2,))], TOP)
    assert _is_red(_pixel(img2, TOP, (0.0, -150.0, BOARD.disc_thickness)))


def test_sunk_discs_are_depth_tested_against_the_board() -> None:
    r = Renderer(BOARD, CLEAN, SIZE, seed=2)
    cam = Camera(height=900, tilt=40, azimuth=20, focal=170)
    ditch_r = (BOARD.surface_radius + BOARD.ditch_outer_radius) / 2
    z = -(BOARD.disc_thickness + 3.0)
    in_ditch = DiscSprite("a", 0.0, ditch_r, BOARD.disc_radius, BOARD.disc_thickness, 0,
                          state="ditch", z=z)
    # the same depth under the playing surface: the board hides it completely
    under = DiscSprite("b", 0.0, -200.0, BOARD.disc_radius, BOARD.disc_thickness, 0,
                       state="ditch", z=z)
    img = r.render([SceneFrame(0.0, discs=(in_ditch, under))], cam)
    top_z = z + BOARD.disc_thickness
    assert _is_red(_pixel(img, cam, (0.0, ditch_r, top_z)))
    assert not _is_red(_pixel(img, cam, (0.0, -200.0, top_z)))
    # and a disc that dropped into the 20-hole shows through the hole
    hole = DiscSprite("c", 0.0, 0.0, BOARD.disc_radius, BOARD.disc_thickness, 0, state="hole",
                      z=-BOARD.disc_thickness)
    img = r.render([SceneFrame(0.0, discs=(hole,))], cam)
    assert _is_red(_pixel(img, cam, (0.0, 0.0, 0.0)))


def test_motion_blur_averages_the_subframes(renderer: Renderer) -> None:
    path = [_disc(-100.0 + 25.0 * k, 60.0) for k in range(9)]
    subs = [SceneFrame(0.0, discs=(d,)) for d in path]
    img = renderer.render(subs, TOP)
    sharp = renderer.render([subs[4]], TOP)
    empty = renderer.render([SceneFrame(0.0)], TOP)
    p = _pixel(img, TOP, (0.0, 60.0, BOARD.disc_thickness))
    ps, pe = _pixel(sharp, TOP, (0.0, 60.0, BOARD.disc_thickness)), _pixel(
        empty, TOP, (0.0, 60.0, 0.0))
    # a streak: the middle pixel is the average of what each sub-frame shows there (the disc
    # on one, its edge or shadow on two, the board on the rest), neither the disc nor the board
    each = [_pixel(renderer.render([sf], TOP), TOP, (0.0, 60.0, BOARD.disc_thickness))
            for sf in subs]
    assert np.all(np.abs(p - np.mean(each, axis=0)) <= 3)
    assert np.abs(p - ps).sum() > 40 and np.abs(p - pe).sum() > 20


def test_render_is_deterministic_and_noise_changes_with_the_frame() -> None:
    look = replace(CLEAN, noise_sigma=4.0, jpeg_quality=70, exposure_drift=0.05, glare=0.3)
    scene = SceneFrame(0.0, discs=(_disc(50.0, 50.0),),
                       hands=(HandSprite(-100.0, 0.0, from_angle=math.pi, z=30.0),))
    a = Renderer(BOARD, look, SIZE, seed=9).render([scene], OBLIQUE, frame_index=3)
    b = Renderer(BOARD, look, SIZE, seed=9).render([scene], OBLIQUE, frame_index=3)
    assert a.dtype == np.uint8 and a.shape == (SIZE[1], SIZE[0], 3)
    assert np.array_equal(a, b)
    c = Renderer(BOARD, look, SIZE, seed=9).render([scene], OBLIQUE, frame_index=4)
    assert not np.array_equal(a, c)


def test_korona_board_with_strikers_and_cue_renders() -> None:
    kb = KoronaBoard()
    look = replace(CLEAN, outer_shape="square", surface="birch", striker_color=RED)
    r = Renderer(kb, look, SIZE, seed=4)
    cam = Camera(height=1600, focal=150)
    from tracker.render import CueSprite

    striker = DiscSprite("S", 100.0, -200.0, kb.striker_radius, kb.disc_thickness, 0,
                         kind="striker")
    cue = CueSprite(100.0, -200.0 - kb.striker_radius - 2, 100.0, -900.0)
    img = r.render([SceneFrame(0.0, discs=(striker,), cues=(cue,))], cam)
    assert _is_red(_pixel(img, cam, (100.0 + kb.striker_radius * 0.8, -200.0,
                                     kb.disc_thickness)))
    # the pockets are dark holes
    px, py = kb.pocket_centres()["ne"]
    assert _pixel(img, cam, (px, py, 0.0)).mean() < 60
    # the cue covers the board under it
    empty = r.render([SceneFrame(0.0)], cam)
    q = (100.0, -350.0, 0.0)
    assert np.abs(_pixel(img, cam, q) - _pixel(empty, cam, q)).sum() > 30


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="size"):
        Renderer(BOARD, CLEAN, (8, 8), seed=0)
    r = Renderer(BOARD, CLEAN, SIZE, seed=0)
    with pytest.raises(ValueError, match="at least one"):
        r.render([], TOP)


def test_a_disc_casts_its_shadow_away_from_the_light() -> None:
    look = replace(CLEAN, light_azimuth=0.0, light_elevation=35.0, shadow_strength=0.6)
    r = Renderer(BOARD, look, (640, 360), seed=3)
    cam = Camera(height=1500, focal=600)
    x, y = 120.0, -150.0
    img = r.render([SceneFrame(0.0, discs=(_disc(x, y),))], cam)
    empty = r.render([SceneFrame(0.0)], cam)
    gap = BOARD.disc_radius + 5.0
    # the light is to the east (+x): the shadow falls west of the disc, not east
    west = (x - gap, y, 0.0)
    east = (x + gap, y, 0.0)
    dw = _pixel_at(empty, cam, (640, 360), west).sum() - _pixel_at(img, cam, (640, 360), west).sum()
    de = _pixel_at(empty, cam, (640, 360), east).sum() - _pixel_at(img, cam, (640, 360), east).sum()
    # (east of it only the faint contact shadow all around the base remains)
    assert dw > 60 and dw > 4 * abs(de), (dw, de)


@pytest.mark.parametrize("game", ["crokinole", "korona"])
def test_random_hard_setups_render_every_kind_of_sprite(game: str) -> None:
    """Any sampled look and camera, discs in every state, hands in every pose, a cue: no
    exception, the right shape, and a picture that is not blank."""
    from tracker.render import CueSprite, sample_camera, sample_look

    rng = np.random.default_rng(17)
    board = BOARD if game == "crokinole" else KoronaBoard()
    size = (160, 90)
    states = ["surface", "hole", "ditch", "pocket", "off", "lifted"]
    for k in range(3):
        look = sample_look("hard", rng, game)
        cam = sample_camera("hard", rng, size, game)
        r = Renderer(board, look, size, seed=k)
        discs = tuple(
            DiscSprite(f"d{i}", float(rng.uniform(-400, 400)), float(rng.uniform(-400, 400)),
                       12.0 + 10.0 * (i % 2), 9.0, i, kind="striker" if i == 0 else "disc",
                       state=states[i % len(states)],  # type: ignore[arg-type]
                       z=float(rng.uniform(-15, 30)), angle=float(i))
            for i in range(12))
        hands = tuple(HandSprite(float(rng.uniform(-300, 300)), float(rng.uniform(-300, 300)),
                                 float(rng.uniform(0, 2 * math.pi)), skin=i, sleeve=i,
                                 pose=("flick", "pinch", "open")[i])  # type: ignore[arg-type]
                      for i in range(3))
        cues = (CueSprite(0.0, 0.0, 600.0, -600.0),)
        img = r.render([SceneFrame(0.0, discs, hands, cues)] * 2, cam, frame_index=k)
        assert img.shape == (size[1], size[0], 3) and img.dtype == np.uint8
        assert img.std() > 5.0


@pytest.mark.parametrize("tilt", [0.0, 30.0, 45.0])
def test_a_disc_covers_its_true_silhouette(tilt: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disc's picture covers what its silhouette does (the convex hull of its projected bottom
    and top circles), to within a quarter of a pixel all round. The anti-aliased polygon fill
    spreads each of the sprite's layers beyond its edge: the old drawing reached 0.75-1.2 px
    beyond the outline (about 1 mm too large in radius at 1280x720). (With ``TRUE_SIZE``, not
    yet the default: ``sprites.py``.)"""
    import cv2

    from tracker.render import sprites
    from tracker.render.camera import Projector
    from tracker.render.sprites import draw_cylinder, light_vector, ring

    monkeypatch.setattr(sprites, "TRUE_SIZE", True)

    size = (300, 300)
    proj = Projector(Camera(height=1000.0, focal=500.0, tilt=tilt), size)
    for r_mm, (x, y), h in ((16.0, (40.0, 30.0), 9.5), (32.0, (-20.0, 50.0), 9.5), (32.0, (10.0, 10.0), 0.5)):
        drawn = []
        for bg in (0, 255):  # the sprite's coverage: how much of the background still shows
            img = np.full((size[1], size[0], 3), bg, np.uint8)
            draw_cylinder(img, proj, x, y, 0.0, h, r_mm, (200.0, 100.0, 50.0), (120.0, 200.0, 250.0),
                          light_vector(30.0, 50.0), 0.3)
            drawn.append(img.astype(float))
        coverage = 1.0 - (drawn[1] - drawn[0]).mean(axis=2) / 255.0
        outline = np.concatenate([proj(ring(x, y, 0.0, r_mm, 512)), proj(ring(x, y, h, r_mm, 512))])
        hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2).astype(float)
        area = 0.5 * abs(float(hull[:, 0] @ np.roll(hull[:, 1], -1) - hull[:, 1] @ np.roll(hull[:, 0], -1)))
        perimeter = float(np.linalg.norm(hull - np.roll(hull, -1, axis=0), axis=1).sum())
        assert (coverage.sum() - area) / perimeter == pytest.approx(0.0, abs=0.3)
