"""The static board as a top-down texture and a height map, built once per renderer.

Every figure comes from the board model (``tracker.boards``) in millimetres; only the look decides
colours, materials and the drawn line width. The texture is a map of the board seen from straight
above at ``mm_per_px`` (row 0 is north, column 0 is west), with a mip pyramid so that a camera far
away samples a pre-filtered level instead of aliasing the thin lines.

The height map gives the height in mm of the board's top at each texel (rail top, playing surface
at 0, ditch floor, 20-hole or pocket pit, table level outside). The per-camera ray caster
(``tracker.render.raycast``) marches each pixel's ray through it, which gives rails that hide the
ditch at oblique angles and visible walls for free, for round, octagonal and square boards alike.

Lines are drawn from exact distance fields (|rho - R| for rings, distance to a segment for the
other lines) with a one-texel anti-aliasing ramp, so their centre radii and widths are exact to a
fraction of a texel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.render import textures
from tracker.render.scene import Look


@dataclass
class BoardArt:
    mm_per_px: float
    half_extent: float  # the texture covers [-E, E] x [-E, E] mm
    levels: list[np.ndarray]  # uint8 BGR mip pyramid; level k has mm_per_px * 2**k
    height: np.ndarray  # float32 mm, same grid as level 0
    wall_shade: np.ndarray  # float32 shading factor for walls facing each texel's downhill side
    z_top: float  # highest point of the board (rail / rim top)
    z_table: float  # table level (the board stands on it)
    env: np.ndarray  # uint8 BGR texture of table and floor
    env_mm_per_px: float
    env_half: float
    table_half: float  # the table is the square [-T, T]^2 at z_table
    table: np.ndarray  # uint8 BGR texture of the table top with its clutter, covers [-T, T]^2
    table_mm_per_px: float
    z_floor: float

    def texel(self, x: np.ndarray, y: np.ndarray, level: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Texture coordinates (column, row) of board points at a pyramid level."""
        s = self.mm_per_px * (2**level)
        return (x + self.half_extent) / s - 0.5, (self.half_extent - y) / s - 0.5


def ditch_depth(board: CrokinoleBoard) -> float:
    """Depth of the ditch floor below the playing surface: a disc lies in it below the surface."""
    return board.disc_thickness + 3.0


def _grid(n: int, s: float, half: float) -> tuple[np.ndarray, np.ndarray]:
    c = (np.arange(n, dtype=np.float32) + 0.5) * s - half
    x = np.broadcast_to(c[None, :], (n, n))
    y = np.broadcast_to(-c[:, None], (n, n))
    return x, y


def _line_alpha(dist: np.ndarray, width: float, s: float) -> np.ndarray:
    """Coverage of a line of ``width`` mm at distance ``dist`` mm, one-texel AA ramp."""
    return np.clip((width / 2.0 - dist) / s + 0.5, 0.0, 1.0)


def _over(img: np.ndarray, alpha: np.ndarray, color: tuple[int, int, int] | np.ndarray) -> None:
    """Paint ``color`` (a BGR triple or an image) over ``img`` with coverage ``alpha``, in place.

    Only texels with non-zero coverage are touched: most lines cover a sliver of the texture.
    """
    m = alpha > 0
    a = alpha[m][:, None].astype(np.float32)
    c = np.asarray(color, np.float32)
    src = c[None, :] if c.ndim == 1 else c[m]
    img[m] = img[m] * (1.0 - a) + a * src


def _octagon_rho(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """'Radius' whose level sets are octagons with flats facing the seats (and the diagonals)."""
    ax, ay = np.abs(x), np.abs(y)
    return np.maximum(np.maximum(ax, ay), (ax + ay) * np.float32(math.sqrt(0.5)))


def _segment_dist(x: np.ndarray, y: np.ndarray, p: tuple[float, float],
                  q: tuple[float, float]) -> np.ndarray:
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    L2 = dx * dx + dy * dy
    t = np.clip(((x - px) * dx + (y - py) * dy) / L2, 0.0, 1.0)
    return np.hypot(x - (px + t * dx), y - (py + t * dy))


def _line_color_over(look: Look) -> tuple[int, int, int]:
    return look.line_color


def _shade_and_pyramid(tex: np.ndarray, height: np.ndarray, look: Look, s: float,
                       rng: np.random.Generator) -> tuple[list[np.ndarray], np.ndarray]:
    """Bake ambient occlusion and the shadows of the rails into the texture; build the pyramid."""
    # Ambient occlusion: texels lower than their neighbourhood (ditch corners, pit floors).
    sig = max(1.0, 6.0 / s)
    blurred = cv2.GaussianBlur(height, (0, 0), sig)
    ao = 1.0 - 0.5 * np.clip((blurred - height) / 10.0, 0.0, 1.0)
    # Cast shadows of the rails (height-map shadow test along the light, in texel steps).
    az = math.radians(look.light_azimuth)
    tan_el = math.tan(math.radians(max(look.light_elevation, 10.0)))
    lit = np.ones_like(height)
    n = height.shape[0]
    max_rise = float(height.max() - height.min())
    steps = int(min(60, max(1, max_rise / tan_el / s)))
    for k in range(1, steps + 1, max(1, steps // 12)):
        dx = int(round(math.cos(az) * k))
        dy = int(round(-math.sin(az) * k))
        shifted = np.full_like(height, -1e9)
        ys0, ys1 = max(0, -dy), min(n, n - dy)
        xs0, xs1 = max(0, -dx), min(n, n - dx)
        shifted[ys0:ys1, xs0:xs1] = height[ys0 + dy:ys1 + dy, xs0 + dx:xs1 + dx]
        lit = np.minimum(lit, np.where(shifted > height + k * s * tan_el, 0.0, 1.0))
    lit = cv2.GaussianBlur(lit.astype(np.float32), (0, 0), max(1.0, 2.0 / s))
    shade = ao * (1.0 - look.shadow_strength * 0.9 * (1.0 - lit))
    tex = tex * shade[..., None]
    base = np.clip(tex, 0, 255).astype(np.uint8)
    levels = [base]
    while levels[-1].shape[0] > 64:
        levels.append(cv2.pyrDown(levels[-1]))
    # Walls: lit when they face the light.
    gy, gx = np.gradient(cv2.GaussianBlur(height, (0, 0), 1.0))
    # a wall faces downhill: normal = -grad (in board axes: x right, y up => rows are -y)
    nx, ny = -gx, gy
    norm = np.hypot(nx, ny) + 1e-6
    facing = (nx * math.cos(az) + ny * math.sin(az)) / norm
    wall_shade = (0.55 + 0.35 * np.clip(facing, -1.0, 1.0)).astype(np.float32)
    return levels, wall_shade


def _environment(look: Look, extent: float, rng: np.random.Generator
                 ) -> tuple[np.ndarray, float, float, float]:
    """Table (a square under the board) and floor texture: (img, mm_per_px, half, table_half)."""
    env_half = 3000.0
    s = 6.0
    n = int(2 * env_half / s)
    table_half = extent + float(rng.uniform(40.0, 420.0))
    x, y = _grid(n, s, env_half)
    table = textures.paint((n, n), s, rng, look.table_color, unevenness=0.06, grain_through=0.0)
    floor = textures.paint((n, n), s, rng, look.floor_color, unevenness=0.04, grain_through=0.0)
    # floor tiles: a slightly different shade per tile, dark seams
    tile = float(rng.uniform(300.0, 600.0))
    ti, tj = np.floor(x / tile).astype(np.int64), np.floor(y / tile).astype(np.int64)
    shade = 0.92 + 0.08 * (((ti * 73856093) ^ (tj * 19349663)) % 97 / 97.0)
    seam = np.minimum(np.abs(((x / tile) % 1.0) - 0.5), np.abs(((y / tile) % 1.0) - 0.5)) > 0.49
    floor *= (shade * np.where(seam, 0.75, 1.0))[..., None].astype(np.float32)
    inside = (np.maximum(np.abs(x), np.abs(y)) <= table_half).astype(np.float32)
    inside = cv2.GaussianBlur(inside, (0, 0), 1.0)[..., None]
    img = table * inside + floor * (1.0 - inside)
    return np.clip(img, 0, 255).astype(np.uint8), s, env_half, table_half


def _table(look: Look, table_half: float, extent: float, s: float,
           rng: np.random.Generator) -> np.ndarray:
    """The table top at ``s`` mm per texel, with clutter beside the board: score sheets with
    ruled lines, a pencil, cups or coasters (rings that a disc detector must not take for
    discs)."""
    n = int(math.ceil(2 * table_half / s))
    tex = textures.paint((n, n), s, rng, look.table_color, unevenness=0.05, grain_through=0.0,
                         detail_mm=max(s, 2.0))
    img = np.clip(tex, 0, 255).astype(np.uint8)

    def px(x: float, y: float) -> tuple[int, int]:
        return int(round((x + table_half) / s * 16)), int(round((table_half - y) / s * 16))

    margin = table_half - extent
    for _ in range(int(rng.integers(0, 4))):
        # a sheet of paper in a corner of the table, rotated
        cx = float(rng.choice([-1, 1])) * float(rng.uniform(extent * 0.75, table_half - 60))
        cy = float(rng.choice([-1, 1])) * float(rng.uniform(extent * 0.75, table_half - 60))
        ang = float(rng.uniform(0, math.pi))
        rect = cv2.boxPoints(((cx, cy), (216.0, 279.0), math.degrees(ang)))
        poly = np.array([px(float(a), float(b)) for a, b in rect], np.int32)
        paper = tuple(int(v) for v in rng.integers(225, 250, 3))
        cv2.fillPoly(img, [poly], paper, cv2.LINE_AA, 4)
        ux, uy = math.cos(ang), math.sin(ang)
        for k in range(12):
            off = -110.0 + 20.0 * k
            ax, ay = cx - uy * off + ux * -90, cy + ux * off + uy * -90
            bx, by = cx - uy * off + ux * 90, cy + ux * off + uy * 90
            cv2.line(img, px(ax, ay), px(bx, by), (150, 140, 130), 1, cv2.LINE_AA, 4)
    if margin > 80 and rng.uniform() < 0.6:
        # a cup or coaster: a ring
        r = float(rng.uniform(35, 50))
        cx = float(rng.choice([-1, 1])) * float(rng.uniform(extent, table_half - r))
        cy = float(rng.uniform(-table_half + r, table_half - r))
        col = tuple(int(v) for v in rng.integers(20, 230, 3))
        cv2.circle(img, px(cx, cy), int(r / s * 16), col, -1, cv2.LINE_AA, 4)
        cv2.circle(img, px(cx, cy), int((r - 5) / s * 16), tuple(int(c * 0.6) for c in col), -1,
                   cv2.LINE_AA, 4)
    if rng.uniform() < 0.5:
        cx = float(rng.choice([-1, 1])) * float(rng.uniform(extent * 0.8, table_half - 80))
        cy = float(rng.uniform(-table_half + 80, table_half - 80))
        ang = float(rng.uniform(0, 180))
        rect = cv2.boxPoints(((cx, cy), (150.0, 7.0), ang))
        poly = np.array([px(float(a), float(b)) for a, b in rect], np.int32)
        cv2.fillPoly(img, [poly], (40, 190, 230), cv2.LINE_AA, 4)
    return img


def build_art(board: CrokinoleBoard | KoronaBoard, look: Look, mm_per_px: float,
              rng: np.random.Generator) -> BoardArt:
    """Draw the board's texture, height map and surroundings."""
    if isinstance(board, CrokinoleBoard):
        extent = board.outer_radius / math.cos(math.pi / 8) + 10.0
        tex, height, z_top, z_table = _crokinole(board, look, mm_per_px, extent, rng)
    else:
        extent = board.outer_size / 2.0 * math.sqrt(2.0) * 0.75 + 10.0
        extent = max(extent, board.outer_size / 2.0 + 10.0)
        tex, height, z_top, z_table = _korona(board, look, mm_per_px, extent, rng)
    levels, wall_shade = _shade_and_pyramid(tex, height, look, mm_per_px, rng)
    env, env_s, env_half, table_half = _environment(look, extent, rng)
    table_s = max(1.5, 2.0 * mm_per_px)
    table = _table(look, table_half, extent, table_s, rng)
    return BoardArt(mm_per_px=mm_per_px, half_extent=extent, levels=levels, height=height,
                    wall_shade=wall_shade, z_top=z_top, z_table=z_table, env=env,
                    env_mm_per_px=env_s, env_half=env_half, table_half=table_half,
                    table=table, table_mm_per_px=table_s,
                    z_floor=z_table - 700.0)


def _crokinole(b: CrokinoleBoard, look: Look, s: float, extent: float,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, float, float]:
    n = int(math.ceil(2 * extent / s))
    x, y = _grid(n, s, extent)
    rho = np.hypot(x, y)
    shape = (n, n)
    surf = textures.finish(shape, s, rng, look.surface)
    ditch_tex = textures.finish(shape, s, rng, look.ditch, detail_mm=2.0)
    rail_tex = textures.finish(shape, s, rng, look.rail, detail_mm=1.5)
    lw = look.line_width
    lc = _line_color_over(look)
    tex = surf
    # rings and quadrant lines, at the model's radii
    for R in b.line_radii:
        _over(tex, _line_alpha(np.abs(rho - R), lw, s), lc)
    for ang in b.quadrant_angles_deg:
        a = math.radians(ang)
        p = (b.ten_line_radius * math.cos(a), b.ten_line_radius * math.sin(a))
        q = (b.shooting_line_radius * math.cos(a), b.shooting_line_radius * math.sin(a))
        _over(tex, _line_alpha(_segment_dist(x, y, p, q), lw, s), lc)
    if look.extras.get("numbers", 0.0) > 0.5:
        _numbers(tex, b, look, s, extent)
    # the 20-hole: its floor
    hole_a = _line_alpha(rho, 2 * b.hole_radius, s)
    _over(tex, hole_a, look.hole_color)
    # ditch and rail
    outer_rho = _octagon_rho(x, y) if look.outer_shape == "octagon" else rho
    ditch_a = np.clip((rho - b.surface_radius) / s + 0.5, 0.0, 1.0)
    _over(tex, ditch_a, ditch_tex)
    rail_a = np.clip((outer_rho - b.ditch_outer_radius) / s + 0.5, 0.0, 1.0)
    _over(tex, rail_a, rail_tex)
    # a rounded rail edge catches the light
    edge = _line_alpha(np.abs(outer_rho - b.ditch_outer_radius - 2.0), 3.0, s) * 0.25
    _over(tex, edge, (230, 235, 240))
    depth = ditch_depth(b)
    z_table = -(depth + 15.0)
    height = np.zeros(shape, np.float32)
    height[rho > b.surface_radius] = -depth
    height[rho < b.hole_radius] = -(b.disc_thickness + 1.0)
    height[outer_rho > b.ditch_outer_radius] = b.rail_height
    height[outer_rho > b.outer_radius] = z_table
    return tex, height, float(b.rail_height), z_table


def _numbers(tex: np.ndarray, b: CrokinoleBoard, look: Look, s: float, extent: float) -> None:
    """Zone numbers painted on some boards (5, 10, 15, 20) along the seat axes."""
    canvas = np.zeros(tex.shape[:2], np.uint8)
    zones = ((b.shooting_line_radius + b.ten_line_radius) / 2, "5"), \
        ((b.ten_line_radius + b.fifteen_line_radius) / 2, "10"), \
        ((b.fifteen_line_radius + b.hole_radius) / 2 + 10, "15")
    scale = 14.0 / s / 22.0
    for r, label in zones:
        for a in (0.0, 90.0, 180.0, 270.0):
            xm = r * math.cos(math.radians(a))
            ym = r * math.sin(math.radians(a))
            (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
            col = (xm + extent) / s - tw / 2
            row = (extent - ym) / s + th / 2
            cv2.putText(canvas, label, (int(col), int(row)), cv2.FONT_HERSHEY_SIMPLEX, scale, 255,
                        max(1, int(round(0.8 / s))), cv2.LINE_AA)
    _over(tex, canvas.astype(np.float32) / 255.0 * 0.8, look.line_color)


BASE_CIRCLE_RED = (40, 40, 185)  # BGR of a carrom board's painted base circles


def _korona(b: KoronaBoard, look: Look, s: float, extent: float,
            rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, float, float]:
    n = int(math.ceil(2 * extent / s))
    x, y = _grid(n, s, extent)
    shape = (n, n)
    cheb = np.maximum(np.abs(x), np.abs(y))
    tex = textures.finish(shape, s, rng, look.surface, figure=0.6)
    rim_tex = textures.finish(shape, s, rng, look.rail, detail_mm=1.5)
    lw = look.line_width
    lc = look.line_color
    for seat in ("south", "north", "west", "east"):
        p, q = b.striking_line(seat)  # type: ignore[arg-type]
        _over(tex, _line_alpha(_segment_dist(x, y, p, q), lw, s), lc)
    rho = np.hypot(x, y)
    _over(tex, _line_alpha(np.abs(rho - b.centre_circle_radius), lw, s), lc)
    _over(tex, _line_alpha(rho, 2 * b.centre_mark_radius, s), lc)
    # base circles (carrom boards): filled red, outlined in the line colour
    for cx, cy in b.base_circles():
        d = np.hypot(x - cx, y - cy)
        _over(tex, np.clip((b.base_circle_radius - d) / s + 0.5, 0.0, 1.0), BASE_CIRCLE_RED)
        _over(tex, _line_alpha(np.abs(d - b.base_circle_radius + lw / 2.0), lw, s), lc)
    # pockets
    pocket = np.zeros(shape, bool)
    for px, py in b.pocket_centres().values():
        d = np.hypot(x - px, y - py)
        _over(tex, np.clip((b.pocket_radius - d) / s + 0.5, 0.0, 1.0),
              np.asarray(look.hole_color, np.float32) * 0.45)  # a deep hole with a net: dark
        pocket |= d < b.pocket_radius
    # rims, with a mark halfway along each
    rim_a = np.clip((cheb - b.half) / s + 0.5, 0.0, 1.0) * (~pocket)
    _over(tex, rim_a, rim_tex)
    mark_col = (225, 230, 235) if look.rail in ("dark", "black", "blue", "red") else lc
    for seat in ("south", "north", "west", "east"):
        mx, my = b.rim_mark(seat)  # type: ignore[arg-type]
        ux, uy = (mx / b.half, my / b.half)
        q = (mx + ux * b.rim_mark_length, my + uy * b.rim_mark_length)
        _over(tex, _line_alpha(_segment_dist(x, y, (mx, my), q), max(lw, 2.0) * 1.5, s), mark_col)
    z_table = -25.0
    height = np.zeros(shape, np.float32)
    height[cheb > b.half] = b.rim_height
    height[pocket] = z_table + 1.0
    height[cheb > b.outer_size / 2.0] = z_table
    return tex, height, float(b.rim_height), z_table
