"""Camera geometry: pose, intrinsics, projection with lens distortion, and the true homography.

Conventions are OpenCV's: the camera frame has x to the right of the image, y down, z forward
(along the optical axis); pixel centres sit at integer coordinates, so the principal point of a
W x H image is ((W - 1) / 2, (H - 1) / 2). Distortion is radial only (k1, k2).

The pose follows the docstring of :class:`tracker.render.scene.Camera`: the camera stands
``height`` mm above the playing surface, displaced horizontally from ``target`` toward the
azimuth direction by ``height * tan(tilt)``, and looks at ``target``. Azimuth counts
counter-clockwise seen from above, like every angle in the board frame: 0 puts the camera south
of the target (south at the bottom of the image), 90 east, 180 north, 270 west. ``roll`` turns
the image about the optical axis.

Everything here is pure numpy so the renderer's remap grid and ``project`` agree to rounding.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.render.clipping import Z_NEAR_MM, box_planes, clip_polygon, subdivide
from tracker.render.scene import Camera


def camera_pose(camera: Camera) -> tuple[np.ndarray, np.ndarray]:
    """``(R, C)``: rotation board -> camera frame (rows are the camera axes) and centre in mm."""
    tilt = math.radians(camera.tilt)
    az = math.radians(camera.azimuth)
    a = np.array([math.sin(az), -math.cos(az), 0.0])  # horizontal direction toward the camera
    target = np.array([camera.target[0], camera.target[1], 0.0])
    centre = target + a * camera.height * math.tan(tilt) + np.array([0.0, 0.0, camera.height])
    fwd = target - centre
    fwd /= np.linalg.norm(fwd)
    down = a * math.cos(tilt) - np.array([0.0, 0.0, 1.0]) * math.sin(tilt)
    down -= fwd * float(down @ fwd)
    down /= np.linalg.norm(down)
    right = np.cross(down, fwd)
    r = math.radians(camera.roll)
    right, down = (math.cos(r) * right + math.sin(r) * down,
                   -math.sin(r) * right + math.cos(r) * down)
    R = np.stack([right, down, fwd])
    return R, centre


def intrinsics(camera: Camera, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """``(K, dist)`` in OpenCV conventions for an image of ``size = (width, height)``."""
    w, h = size
    K = np.array([[camera.focal, 0.0, (w - 1) / 2.0],
                  [0.0, camera.focal, (h - 1) / 2.0],
                  [0.0, 0.0, 1.0]])
    dist = np.array([camera.k1, camera.k2, 0.0, 0.0, 0.0])
    return K, dist


def distort_normalized(xy: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Apply radial distortion to normalized image coordinates (..., 2)."""
    r2 = xy[..., 0] ** 2 + xy[..., 1] ** 2
    f = 1.0 + k1 * r2 + k2 * r2 * r2
    return xy * f[..., None]


def monotonic_radius(k1: float, k2: float) -> float:
    """The undistorted radius up to which the lens model is one-to-one (inf if everywhere).

    r_d = r (1 + k1 r^2 + k2 r^4) turns back where its derivative 1 + 3 k1 r^2 + 5 k2 r^4 = 0;
    beyond that a real lens shows nothing, so cameras are sampled to stay inside it.
    """
    roots = np.roots([5.0 * k2, 3.0 * k1, 1.0]) if k2 != 0.0 else (
        np.array([-1.0 / (3.0 * k1)]) if k1 != 0.0 else np.array([]))
    pos = [float(x.real) for x in np.atleast_1d(roots) if abs(x.imag) < 1e-12 and x.real > 0]
    return math.sqrt(min(pos)) if pos else math.inf


def undistort_normalized(xy: np.ndarray, k1: float, k2: float, iterations: int = 10) -> np.ndarray:
    """Invert :func:`distort_normalized`: Newton's method on the radius.

    Radii beyond the lens model's one-to-one range (see :func:`monotonic_radius`) are clamped
    to its edge instead of folding back.
    """
    if k1 == 0.0 and k2 == 0.0:
        return xy.copy()
    rd = np.hypot(xy[..., 0], xy[..., 1])
    r_max = monotonic_radius(k1, k2)
    r = rd.copy()
    if math.isfinite(r_max):
        r = np.minimum(r, r_max)
    for _ in range(iterations):
        r2 = r * r
        f = r * (1.0 + k1 * r2 + k2 * r2 * r2) - rd
        df = 1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2
        r = r - f / np.where(np.abs(df) < 1e-6, 1e-6, df)
        r = np.maximum(r, 0.0)
        if math.isfinite(r_max):
            r = np.minimum(r, r_max)
        if float(np.abs(f).max()) < 1e-12:
            break
    scale = np.where(rd > 1e-12, r / np.maximum(rd, 1e-12), 1.0)
    return xy * scale[..., None]


def project(camera: Camera, size: tuple[int, int], pts_xyz_mm: np.ndarray) -> np.ndarray:
    """Board points (N, 3) in mm -> raw image pixels (N, 2), lens distortion included.

    Points behind the camera come out as NaN.
    """
    R, C = camera_pose(camera)
    K, _ = intrinsics(camera, size)
    p = (np.asarray(pts_xyz_mm, dtype=np.float64).reshape(-1, 3) - C) @ R.T
    z = p[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        xy = p[:, :2] / z[:, None]
    xy[z <= 1e-6] = np.nan
    xy = distort_normalized(xy, camera.k1, camera.k2)
    return xy * camera.focal + K[:2, 2]


def true_homography(camera: Camera, size: tuple[int, int]) -> np.ndarray:
    """3x3 homography from *undistorted* image pixels to board mm on the surface (z = 0)."""
    R, C = camera_pose(camera)
    K, _ = intrinsics(camera, size)
    t = -R @ C
    H_board_to_img = K @ np.column_stack([R[:, 0], R[:, 1], t])
    H = np.linalg.inv(H_board_to_img)
    return H / H[2, 2]


def pixel_rays(camera: Camera, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Unit ray directions (H, W, 3) in the board frame for every raw pixel, and the centre C.

    Each raw (distorted) pixel is undistorted first, so the rays are what the lens really sees.
    """
    w, h = size
    K, _ = intrinsics(camera, size)
    u = (np.arange(w, dtype=np.float64) - K[0, 2]) / camera.focal
    v = (np.arange(h, dtype=np.float64) - K[1, 2]) / camera.focal
    xy = np.empty((h, w, 2))
    xy[..., 0] = u[None, :]
    xy[..., 1] = v[:, None]
    xy = undistort_normalized(xy, camera.k1, camera.k2)
    R, C = camera_pose(camera)
    d = xy[..., 0:1] * R[0] + xy[..., 1:2] * R[1] + R[2]
    d /= np.linalg.norm(d, axis=-1, keepdims=True)
    return d, C


def mm_per_pixel_at(camera: Camera, size: tuple[int, int], x: float, y: float) -> float:
    """Approximate size in mm of one image pixel on the surface around board point (x, y)."""
    pts = np.array([[x - 5.0, y, 0.0], [x + 5.0, y, 0.0], [x, y - 5.0, 0.0], [x, y + 5.0, 0.0]])
    q = project(camera, size, pts)
    px = 0.5 * (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2]))
    return 10.0 / max(float(px), 1e-9)


# The view volume's margin beyond the image edges, as a fraction of the larger side (held inside
# the lens's one-to-one radius). Wide, so the arms and bodies of ordinary frames (shoulders off
# the picture) are not clipped at all and render exactly as they did before clipping existed;
# what it is for is the near plane and the lens's fold, far outside the image.
PAD_FRACTION = 1.0
LENS_STEP = 0.02  # longest edge (normalized units) of a clipped polygon drawn through a lens


class Projector:
    """``project`` with the pose and intrinsics computed once (hot path of the sprite drawing).

    Points are projected one by one with ``__call__`` (NaN behind the near plane); a filled
    shape goes through :meth:`polygon`, which first clips it to the view volume so a part
    behind or beside the camera cannot be thrown across the picture.
    """

    def __init__(self, camera: Camera, size: tuple[int, int]) -> None:
        self.R, self.C = camera_pose(camera)
        K, _ = intrinsics(camera, size)
        self.f = camera.focal
        self.c = K[:2, 2].copy()
        self.k1, self.k2 = camera.k1, camera.k2
        self.r_max = monotonic_radius(camera.k1, camera.k2)
        self.planes = self._view_planes(size)

    def _view_planes(self, size: tuple[int, int]) -> np.ndarray:
        """The near plane and the sides of the box (undistorted normalized coordinates) that
        holds the whole image plus a margin of ``PAD_FRACTION`` of its larger side (the
        undistortion holds it inside the lens's one-to-one radius)."""
        w, h = size
        pad = PAD_FRACTION * max(w, h)
        xs = np.linspace(-pad, w - 1 + pad, 33)
        ys = np.linspace(-pad, h - 1 + pad, 33)
        edge = np.concatenate([np.column_stack([xs, np.full_like(xs, -pad)]),
                               np.column_stack([xs, np.full_like(xs, h - 1 + pad)]),
                               np.column_stack([np.full_like(ys, -pad), ys]),
                               np.column_stack([np.full_like(ys, w - 1 + pad), ys])])
        xy = undistort_normalized((edge - self.c) / self.f, self.k1, self.k2)
        (x_lo, y_lo), (x_hi, y_hi) = xy.min(axis=0), xy.max(axis=0)
        return box_planes(float(x_lo), float(x_hi), float(y_lo), float(y_hi), Z_NEAR_MM)

    def _to_pixels(self, xy: np.ndarray) -> np.ndarray:
        """Undistorted normalized coordinates (N, 2) -> raw pixels; radii beyond the lens
        model's one-to-one range are held at its edge (a real lens shows nothing there)."""
        if self.k1 or self.k2:
            if math.isfinite(self.r_max):
                r = np.hypot(xy[:, 0], xy[:, 1])
                xy = xy * (np.minimum(r, self.r_max) / np.maximum(r, 1e-12))[:, None]
            xy = distort_normalized(xy, self.k1, self.k2)
        return xy * self.f + self.c

    def __call__(self, pts: np.ndarray) -> np.ndarray:
        p = (pts - self.C) @ self.R.T
        z = p[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            xy = p[:, :2] / z[:, None]
        xy[z < Z_NEAR_MM] = np.nan
        return self._to_pixels(xy)

    def polygon(self, pts: np.ndarray) -> np.ndarray:
        """A closed 3D polygon (N, 3) in board mm -> its visible part in raw pixels (M, 2),
        clipped to the view volume first ((0, 2) when none of it is in view).

        A polygon wholly inside is projected vertex by vertex; a clipped one has its edges
        subdivided under a lens so the bent image of a long straight cut is followed.
        """
        p = (np.asarray(pts, np.float64).reshape(-1, 3) - self.C) @ self.R.T
        inside = (p @ self.planes[:, :3].T - self.planes[:, 3] >= 0.0).all()
        if not inside:
            p = clip_polygon(p, self.planes)
            if len(p) < 3:
                return np.zeros((0, 2))
        xy = p[:, :2] / p[:, 2:3]
        if not inside and (self.k1 or self.k2):
            xy = subdivide(xy, LENS_STEP)
        return self._to_pixels(xy)

    def distance(self, pts: np.ndarray) -> np.ndarray:
        """Distance (mm) from the camera centre to each point."""
        return np.linalg.norm(np.asarray(pts, np.float64).reshape(-1, 3) - self.C, axis=1)
