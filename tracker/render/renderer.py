"""The renderer: scene frames in board millimetres -> webcam-like BGR images.

Pipeline, and what is cached where:

1. Per renderer (board, look, size, seed): the board's top-down texture with its mip pyramid and
   height map (``board_art``). Texture resolution follows the image size (0.5 mm per texel at
   720p, coarser for tiny test frames).
2. Per camera (cached, the last few cameras): the ray-cast picture of the empty board through the
   lens with per-pixel depth (``raycast``), and the camera effects maps (``fx``).
3. Per sub-frame: copy the static picture; multiply in the shadows of the pegs, discs, cues and
   hands (coverage masks blurred into penumbrae); draw the solid objects far-to-near from the
   camera (painter's algorithm), discs sunk below the surface through a per-pixel depth test
   against the static scene (so the rim of the 20-hole or the ditch wall hides them); then cues
   and hands on top.
4. Per frame: the sub-frames are averaged (motion blur), then exposure, glare, vignetting, lens
   blur, noise and JPEG are applied once.

Deterministic: every random choice comes from ``seed`` (and ``frame_index`` for per-frame
effects); nothing reads global random state.
"""

from __future__ import annotations

import math
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.render.board_art import BoardArt, build_art
from tracker.render.camera import Projector, mm_per_pixel_at
from tracker.render.fx import CameraFx, apply_fx, build_fx
from tracker.render.hands import draw_body, draw_hand, hand_shadow
from tracker.render.raycast import StaticView, render_static
from tracker.render.scene import Camera, DiscSprite, Look, SceneFrame
from tracker.render.sprites import (
    cue_shadow,
    cylinder_shadow,
    disc_grain_tile,
    draw_cue,
    draw_cylinder,
    light_vector,
)


@dataclass
class _CameraState:
    static: StaticView
    fx: CameraFx
    proj: Projector
    px_per_mm: float


def _board_radius(board: CrokinoleBoard | KoronaBoard) -> float:
    if isinstance(board, CrokinoleBoard):
        return board.surface_radius
    return board.half


def _tint(key: str, amount: float = 0.06) -> float:
    """A stable per-object brightness factor (no two wooden discs are quite alike)."""
    return 1.0 + amount * ((zlib.crc32(key.encode()) % 1000) / 500.0 - 1.0)


def _cylinder_depth(rays: np.ndarray, C: np.ndarray, disc: DiscSprite) -> np.ndarray:
    """Distance along each ray to the disc's top face or side wall (infinite where it misses,
    so the anti-aliasing fringe of a hidden part does not leave an outline)."""
    dx, dy, dz = rays[..., 0], rays[..., 1], np.minimum(rays[..., 2], -1e-6)
    z_top = disc.z + disc.thickness
    t_top = (C[2] - z_top) / -dz
    ox, oy = C[0] - disc.x, C[1] - disc.y
    a = dx * dx + dy * dy + 1e-12
    b = 2.0 * (dx * ox + dy * oy)
    c = ox * ox + oy * oy - disc.radius ** 2
    disc_ = b * b - 4 * a * c
    t_side = (-b - np.sqrt(np.maximum(disc_, 0.0))) / (2 * a)
    z_side = C[2] + t_side * dz
    on_top = (ox + t_top * dx) ** 2 + (oy + t_top * dy) ** 2 <= disc.radius ** 2
    on_side = (disc_ >= 0) & (z_side <= z_top) & (z_side >= disc.z)
    return np.where(on_top, t_top, np.where(on_side, t_side, np.inf))


class Renderer:
    """Renders :class:`SceneFrame` s of one board and look at one image size."""

    def __init__(self, board: CrokinoleBoard | KoronaBoard, look: Look, size: tuple[int, int],
                 seed: int) -> None:
        w, h = (int(v) for v in size)
        if w < 16 or h < 16:
            raise ValueError(f"size must be at least 16x16 pixels, got {size!r}")
        self.board = board
        self.look = look
        self.size = (w, h)
        self.seed = int(seed)
        extent = 2.0 * (_board_radius(board) + 80.0)
        tex_mm = float(np.clip(0.45 * extent / h, 0.5, 3.0))
        self.art: BoardArt = build_art(board, look, tex_mm, np.random.default_rng(self.seed))
        self.light = light_vector(look.light_azimuth, look.light_elevation)
        self._cams: OrderedDict[Camera, _CameraState] = OrderedDict()
        grng = np.random.default_rng([self.seed, 2])
        self._grain = [disc_grain_tile(grng) for _ in range(4)]

    # ------------------------------------------------------------------ per camera
    def _camera(self, camera: Camera) -> _CameraState:
        st = self._cams.get(camera)
        if st is not None:
            self._cams.move_to_end(camera)
            return st
        static = render_static(self.art, camera, self.size)
        rng = np.random.default_rng([self.seed, 1])
        fx = build_fx(self.look, static, self.size, _board_radius(self.board), rng)
        st = _CameraState(static=static, fx=fx, proj=Projector(camera, self.size),
                          px_per_mm=1.0 / mm_per_pixel_at(camera, self.size, 0.0, 0.0))
        self._cams[camera] = st
        while len(self._cams) > 3:
            self._cams.popitem(last=False)
        return st

    def static_image(self, camera: Camera) -> np.ndarray:
        """The empty board through the lens, before camera effects (for debugging and tests)."""
        return self._camera(camera).static.image.copy()

    # ------------------------------------------------------------------ per frame
    def render(self, subframes: Sequence[SceneFrame], camera: Camera,
               frame_index: int = 0) -> np.ndarray:
        """One video frame (BGR uint8, H x W): the average of ``subframes`` through ``camera``."""
        if len(subframes) == 0:
            raise ValueError("render needs at least one SceneFrame")
        st = self._camera(camera)
        if len(subframes) == 1:
            acc = self.draw_scene(subframes[0], camera).astype(np.float32)
        else:
            acc = np.zeros(st.static.image.shape, np.float32)
            for sf in subframes:
                acc += self.draw_scene(sf, camera)
            acc *= 1.0 / len(subframes)
        return apply_fx(acc, st.fx, self.look, self.seed, frame_index)

    def draw_scene(self, sf: SceneFrame, camera: Camera) -> np.ndarray:
        """One instant, with shadows and objects but no camera effects (uint8 BGR)."""
        st = self._camera(camera)
        img = st.static.image.copy()
        self._shadows(img, sf, st)
        objects: list[tuple[float, int, object]] = []
        if isinstance(self.board, CrokinoleBoard):
            b = self.board
            for i, (px, py) in enumerate(b.peg_positions()):
                d = float(st.proj.distance(np.array([px, py, b.peg_height / 2]))[0])
                objects.append((d, i, ("peg", px, py)))
        for j, disc in enumerate(sf.discs):
            if disc.state == "off":
                continue
            d = float(st.proj.distance(np.array([disc.x, disc.y, disc.z + disc.thickness]))[0])
            objects.append((d, 1000 + j, disc))
        objects.sort(key=lambda o: (-o[0], o[1]))
        for _, _, obj in objects:
            if isinstance(obj, DiscSprite):
                self._disc(img, obj, st)
            else:
                self._peg(img, obj[1], obj[2], st)  # type: ignore[index]
        for cue in sf.cues:
            draw_cue(img, st.proj, cue.x0, cue.y0, cue.x1, cue.y1, cue.z,
                     tuple(float(c) for c in self.look.cue_color), self.light)  # type: ignore[arg-type]
        reach = self._reach()
        bodies = {(round(hd.from_angle, 1), hd.skin, hd.sleeve): hd for hd in sf.hands}
        for hand in bodies.values():
            draw_body(img, st.proj, hand, self.look, reach, self.light)
        for hand in sorted(sf.hands, key=lambda hd: hd.z):
            draw_hand(img, st.proj, hand, self.look, reach, self.light)
        return img

    # ------------------------------------------------------------------ pieces
    def _reach(self) -> float:
        """How far from the board centre the players' shoulders are."""
        if isinstance(self.board, CrokinoleBoard):
            return self.board.outer_radius + 380.0
        return self.board.outer_size / 2.0 + 380.0

    def _peg(self, img: np.ndarray, x: float, y: float, st: _CameraState) -> None:
        b = self.board
        assert isinstance(b, CrokinoleBoard)
        pc = tuple(float(c) for c in self.look.peg_color)
        top = tuple(min(255.0, c * 1.6 + 30) for c in pc)
        draw_cylinder(img, st.proj, x, y, 0.0, b.peg_height, b.peg_diameter / 2, pc, top,  # type: ignore[arg-type]
                      self.light, self.look.gloss, bevel=0.8)

    def _disc_colors(self, disc: DiscSprite) -> tuple[tuple[float, float, float], ...]:
        if disc.kind == "striker":
            base = self.look.striker_color
        else:
            base = self.look.disc_colors[disc.side % len(self.look.disc_colors)]
        k = _tint(disc.id)
        top = (min(255.0, base[0] * k), min(255.0, base[1] * k), min(255.0, base[2] * k))
        side = (top[0] * 0.9, top[1] * 0.9, top[2] * 0.9)
        return side, top

    def _disc(self, img: np.ndarray, disc: DiscSprite, st: _CameraState) -> None:
        side, top = self._disc_colors(disc)
        groove = 0.62 if disc.kind == "striker" else 0.0
        bevel = min(2.0, disc.thickness * 0.2)
        grain = self._grain[zlib.crc32(disc.id.encode()) % len(self._grain)]
        sunk = disc.z < -0.5 or disc.state in ("hole", "ditch", "pocket")
        if not sunk:
            draw_cylinder(img, st.proj, disc.x, disc.y, disc.z, disc.thickness, disc.radius,
                          side, top, self.light, self.look.gloss, bevel, groove,  # type: ignore[arg-type]
                          grain, disc.angle)
            return
        # Depth test against the static scene: only where the board lies beyond the disc top.
        ring = np.array([[disc.x + disc.radius * math.cos(a), disc.y + disc.radius * math.sin(a),
                          z] for a in np.linspace(0, 2 * math.pi, 16)
                         for z in (disc.z, disc.z + disc.thickness)])
        px = st.proj(ring)
        if not np.all(np.isfinite(px)):  # behind the lens
            return
        h, w = img.shape[:2]
        x0, y0 = (int(v) - 2 for v in np.floor(px.min(axis=0)))
        x1, y1 = (int(v) + 3 for v in np.ceil(px.max(axis=0)))
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            return
        before = img[y0:y1, x0:x1].copy()
        draw_cylinder(img, st.proj, disc.x, disc.y, disc.z, disc.thickness, disc.radius,
                      side, top, self.light, self.look.gloss, bevel, groove,  # type: ignore[arg-type]
                      grain, disc.angle)
        t_disc = _cylinder_depth(st.static.rays[y0:y1, x0:x1], st.static.centre, disc)
        visible = st.static.depth[y0:y1, x0:x1] >= t_disc - 0.5
        img[y0:y1, x0:x1] = np.where(visible[..., None], img[y0:y1, x0:x1], before)

    def _shadows(self, img: np.ndarray, sf: SceneFrame, st: _CameraState) -> None:
        """Shadows: hard ones grouped by the level they fall on, then the soft ones of hands.

        A hard shadow is cast onto the plane its object stands on (the surface, the ditch floor,
        the bottom of the hole) and is kept only where the static scene shows that plane, so the
        shadow of a disc in the ditch does not darken the rail in front of it.
        """
        h, w = img.shape[:2]
        groups: dict[float, np.ndarray] = {}

        def mask_for(level: float) -> np.ndarray:
            key = round(level * 2.0) / 2.0
            if key not in groups:
                groups[key] = np.zeros((h, w), np.uint8)
            return groups[key]

        if isinstance(self.board, CrokinoleBoard):
            b = self.board
            for px, py in b.peg_positions():
                cylinder_shadow(mask_for(0.0), st.proj, px, py, 0.0, b.peg_height,
                                b.peg_diameter / 2, self.light, 0.0)
        for disc in sf.discs:
            if disc.state in ("off", "pocket"):
                continue
            ground = min(disc.z, 0.0) if disc.state in ("hole", "ditch") or disc.z < 0 else 0.0
            cylinder_shadow(mask_for(ground), st.proj, disc.x, disc.y, disc.z, disc.thickness,
                            disc.radius, self.light, ground)
        for cue in sf.cues:
            cue_shadow(mask_for(0.0), st.proj, cue.x0, cue.y0, cue.x1, cue.y1, cue.z, self.light)
        k = self.look.shadow_strength
        for level, mask in groups.items():
            self._apply_shadow(img, mask, st.px_per_mm * 1.5, k, st.static.hit_z, level)
        if sf.hands:
            soft = np.zeros((h, w), np.uint8)
            reach = self._reach()
            for hand in sf.hands:
                hand_shadow(soft, st.proj, hand, reach, self.light)
            max_z = max(hand.z for hand in sf.hands)
            self._apply_shadow(img, soft, st.px_per_mm * (8.0 + 0.25 * max_z), k * 0.85)

    @staticmethod
    def _apply_shadow(img: np.ndarray, mask: np.ndarray, sigma: float, strength: float,
                      hit_z: np.ndarray | None = None, level: float = 0.0) -> None:
        x, y, bw, bh = cv2.boundingRect(mask)
        if bw == 0 or bh == 0:
            return
        h, w = mask.shape
        pad = int(3 * sigma) + 2
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
        m: np.ndarray = mask[y0:y1, x0:x1].astype(np.float32) * (strength / 255.0)
        if sigma > 0.3:
            m = cv2.GaussianBlur(m, (0, 0), sigma)
        if hit_z is not None:
            m *= np.abs(hit_z[y0:y1, x0:x1] - level) < 1.5
        roi = img[y0:y1, x0:x1].astype(np.float32) * (1.0 - m[..., None])
        img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
