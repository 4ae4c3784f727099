"""Per-camera static view: march every pixel's ray through the board's height map, once.

The result is the picture of the empty board (rails, ditch, pit walls, table and floor included)
seen through the lens, plus the distance along each ray to what it hits (for depth tests of discs
that sink into the 20-hole, the ditch or a pocket) and the ray directions themselves.

Method: rays start above the highest point of the board (the rail top) and step down in height
(``dz_step`` mm); the first step that ends below the height map brackets the hit, a few bisection
steps refine it. If the height under the hit equals the height just before it, the ray met a flat
level and the exact plane intersection is used (so points on the playing surface land exactly
where the homography says); otherwise it met a wall, which is shaded by its orientation to the
light. Texture lookups pick between mip levels per pixel from the footprint of the pixel on the
board, so thin lines neither alias nor blur needlessly. Rays that miss the board hit the table
(z = table level) or beyond its edge the floor.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tracker.render.board_art import BoardArt
from tracker.render.camera import pixel_rays
from tracker.render.scene import Camera


@dataclass
class StaticView:
    image: np.ndarray  # uint8 BGR, H x W: the empty board through the lens
    depth: np.ndarray  # float32 H x W: distance (mm) along each ray to the static hit
    rays: np.ndarray  # float32 H x W x 3 unit ray directions (board frame)
    centre: np.ndarray  # camera centre (3,) mm
    surface: np.ndarray  # float32 H x W, 1 where the ray meets the glossy playing surface
    hit_xy: np.ndarray  # float32 H x W x 2: board point (mm) each pixel sees (table/floor too)
    hit_z: np.ndarray  # float32 H x W: height (mm) of that point; walls give their hit height


def _sample_height(art: BoardArt, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    s = art.mm_per_px
    n = art.height.shape[0]
    col = np.floor((x + art.half_extent) / s).astype(np.int64)
    row = np.floor((art.half_extent - y) / s).astype(np.int64)
    inside = (col >= 0) & (col < n) & (row >= 0) & (row < n)
    out = np.full(x.shape, art.z_table, np.float32)
    out[inside] = art.height[row[inside], col[inside]]
    return out


def _march(art: BoardArt, C: np.ndarray, d: np.ndarray, dz_step: float
           ) -> tuple[np.ndarray, np.ndarray]:
    """For rays ``d`` (N, 3) from ``C``: the distance to the hit and a wall flag."""
    n = d.shape[0]
    dz = np.minimum(d[:, 2], -1e-6)
    z0 = art.z_top + 0.5
    steps = int(np.ceil((z0 - art.z_table) / dz_step)) + 1
    t_lo = np.zeros(n)
    t_hi = np.zeros(n)
    active = np.arange(n)
    t_prev = (C[2] - z0) / -dz
    for k in range(1, steps + 1):
        if active.size == 0:
            break
        z = max(z0 - k * dz_step, art.z_table - 0.01)
        t = (C[2] - z) / -dz[active]
        px = C[0] + t * d[active, 0]
        py = C[1] + t * d[active, 1]
        h = _sample_height(art, px, py)
        hit = z <= h
        idx = active[hit]
        t_lo[idx] = t_prev[hit]
        t_hi[idx] = t[hit]
        active = active[~hit]
        t_prev = t[~hit]
    if active.size:  # numerically never below the table: end there
        t_lo[active] = t_hi[active] = (C[2] - art.z_table) / -dz[active]
    for _ in range(5):
        tm = 0.5 * (t_lo + t_hi)
        zm = C[2] + tm * d[:, 2]
        below = zm <= _sample_height(art, C[0] + tm * d[:, 0], C[1] + tm * d[:, 1])
        t_hi = np.where(below, tm, t_hi)
        t_lo = np.where(below, t_lo, tm)
    h_hi = _sample_height(art, C[0] + t_hi * d[:, 0], C[1] + t_hi * d[:, 1])
    h_lo = _sample_height(art, C[0] + t_lo * d[:, 0], C[1] + t_lo * d[:, 1])
    wall = h_lo < h_hi - 0.25
    # flat hits: exact plane intersection at the level found
    t_flat = (C[2] - h_hi) / -dz
    t_hit = np.where(wall, t_hi, t_flat)
    return t_hit, wall


def _mip_lookup(art: BoardArt, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Trilinear-ish texture lookup: blend of the two pyramid levels around each pixel's footprint."""
    gx_c, gx_r = np.gradient(x)
    gy_c, gy_r = np.gradient(y)
    foot = np.maximum(np.hypot(gx_c, gy_c), np.hypot(gx_r, gy_r))
    nlev = len(art.levels)
    lod = np.log2(np.maximum(foot, 1e-6) / art.mm_per_px) - 0.3
    lod = np.clip(np.nan_to_num(lod, nan=0.0), 0.0, nlev - 1).astype(np.float32)
    lo = int(np.floor(np.percentile(lod, 1)))
    hi = int(np.ceil(np.percentile(lod, 99)))
    out = np.zeros(x.shape + (3,), np.float32)
    wsum = np.zeros(x.shape, np.float32)
    for lev in range(lo, hi + 1):
        w = np.clip(1.0 - np.abs(lod - lev), 0.0, 1.0)
        if lev == lo:
            w = np.where(lod <= lo, 1.0, w)
        if lev == hi:
            w = np.where(lod >= hi, 1.0, w)
        if not np.any(w > 0):
            continue
        # cv2.pyrDown centres texel j of a level on texel 2j of the level below (not between
        # 2j and 2j+1), so level-k coordinates are level-0 coordinates / 2**k; BoardArt.texel's
        # per-level formula would shift coarse levels by (2**k - 1) / 2 level-0 texels.
        mx, my = art.texel(x, y, 0)
        mx, my = mx / (2**lev), my / (2**lev)
        img = cv2.remap(art.levels[lev], mx.astype(np.float32), my.astype(np.float32),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        out += img.astype(np.float32) * w[..., None]
        wsum += w
    return out / np.maximum(wsum, 1e-6)[..., None]


def render_static(art: BoardArt, camera: Camera, size: tuple[int, int],
                  dz_step: float = 2.0) -> StaticView:
    """Ray-cast the empty board for one camera."""
    w, h = size
    rays, C = pixel_rays(camera, size)
    d = rays.reshape(-1, 3)
    dz = np.minimum(d[:, 2], -1e-6)
    # which rays can meet the board at all (their path between rail top and table crosses it)
    E = art.half_extent
    cand = np.zeros(d.shape[0], bool)
    for z in (art.z_top, art.z_table):
        t = (C[2] - z) / -dz
        px, py = C[0] + t * d[:, 0], C[1] + t * d[:, 1]
        cand |= (np.abs(px) <= E) & (np.abs(py) <= E)
    t_all = np.empty(d.shape[0])
    wall_all = np.zeros(d.shape[0], bool)
    idx = np.nonzero(cand)[0]
    if idx.size:
        # Fast path: a ray that is over the flat playing surface both at the rail-top height and
        # at z = 0 meets the surface at z = 0 (the flat region is convex but for pits, which lie
        # below it), so only the rays near rails, walls and pits are marched.
        di = d[idx]
        t0 = C[2] / -dz[idx]
        tt = (C[2] - art.z_top - 0.5) / -dz[idx]
        flat = (_sample_height(art, C[0] + t0 * di[:, 0], C[1] + t0 * di[:, 1]) == 0.0) & (
            _sample_height(art, C[0] + tt * di[:, 0], C[1] + tt * di[:, 1]) == 0.0)
        t_all[idx[flat]] = t0[flat]
        rest = idx[~flat]
        if rest.size:
            t_hit, wall = _march(art, C, d[rest], dz_step)
            t_all[rest] = t_hit
            wall_all[rest] = wall
    hx = C[0] + t_all * d[:, 0]
    hy = C[1] + t_all * d[:, 1]
    hz = C[2] + t_all * d[:, 2]
    on_board = cand & (hz > art.z_table + 0.25)
    # environment: table, else floor (darker under the table)
    t_tab = (C[2] - art.z_table) / -dz
    ex, ey = C[0] + t_tab * d[:, 0], C[1] + t_tab * d[:, 1]
    on_table = np.maximum(np.abs(ex), np.abs(ey)) <= art.table_half
    t_floor = (C[2] - art.z_floor) / -dz
    fx, fy = C[0] + t_floor * d[:, 0], C[1] + t_floor * d[:, 1]
    ex = np.where(on_table, ex, fx)
    ey = np.where(on_table, ey, fy)
    under = ~on_table & (np.maximum(np.abs(fx), np.abs(fy)) <= art.table_half)
    env_t = np.where(on_table, t_tab, t_floor)
    t_all = np.where(on_board, t_all, env_t)

    bx = np.where(on_board, hx, ex).reshape(h, w)
    by = np.where(on_board, hy, ey).reshape(h, w)
    board_col = _mip_lookup(art, bx, by)
    s = art.mm_per_px
    n = art.height.shape[0]
    col = np.clip(((hx + art.half_extent) / s).astype(np.int64), 0, n - 1)
    row = np.clip(((art.half_extent - hy) / s).astype(np.int64), 0, n - 1)
    shade = np.where(wall_all, art.wall_shade[row, col], 1.0).reshape(h, w, 1)
    em_x = ((ex + art.env_half) / art.env_mm_per_px - 0.5).reshape(h, w).astype(np.float32)
    em_y = ((art.env_half - ey) / art.env_mm_per_px - 0.5).reshape(h, w).astype(np.float32)
    env_col = cv2.remap(art.env, em_x, em_y, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    env_col *= np.where(under, 0.35, 1.0).reshape(h, w, 1).astype(np.float32)
    tx = ((ex + art.table_half) / art.table_mm_per_px - 0.5).reshape(h, w).astype(np.float32)
    ty = ((art.table_half - ey) / art.table_mm_per_px - 0.5).reshape(h, w).astype(np.float32)
    table_col = cv2.remap(art.table, tx, ty, cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    env_col = np.where(on_table.reshape(h, w, 1), table_col, env_col)
    ob = on_board.reshape(h, w, 1)
    img = np.where(ob, board_col * shade, env_col)
    surface = (on_board & ~wall_all & (np.abs(hz) < 0.5)).reshape(h, w).astype(np.float32)
    return StaticView(image=np.clip(img, 0, 255).astype(np.uint8),
                      depth=t_all.reshape(h, w).astype(np.float32),
                      rays=rays.astype(np.float32), centre=C, surface=surface,
                      hit_xy=np.stack([bx, by], axis=-1).astype(np.float32),
                      hit_z=np.where(on_board, hz, art.z_table).reshape(h, w).astype(np.float32))
