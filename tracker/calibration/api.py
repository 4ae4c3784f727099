"""The automatic entry points: one image or a video in, a :class:`Calibration` out.

Lens distortion: with ``intrinsics`` (from ``tracker calibrate --intrinsics``) the frame is
undistorted before the board is fitted. Without them the fitters estimate a radial lens from the
board itself (rings must be concentric circles, korona lines straight; see ``lens.py``) and
keep it when it moves some pixel by over half a pixel. Either way the Calibration carries the
camera matrix and distortion so that ``to_board``/``to_image`` work on raw pixels, and the
south seat is named from where it lies in the raw picture.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard, board_for
from tracker.calibration.datatypes import Calibration
from tracker.calibration.geometry import orient, unmirror
from tracker.calibration.io import check_frame, median_frame, read_video_frames
from tracker.calibration.lens import LensModel
from tracker.errors import CalibrationError, InputError


def _undistort(image: np.ndarray, intrinsics: dict | None) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    if not intrinsics:
        return image, None, None
    import cv2

    K = np.asarray(intrinsics["camera_matrix"], dtype=np.float64)
    D = np.asarray(intrinsics["dist_coeffs"], dtype=np.float64).ravel()
    return cv2.undistort(image, K, D, None, K), K, D


def _camera(lens: LensModel, H: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The fitted lens as (camera_matrix, dist_coeffs) with a real focal length: solved from the
    homography when the view is tilted enough to show it, else the one that puts the camera at
    the height detection assumes for face-on views (detection reads the camera matrix as the
    camera, for the parallax of disc tops)."""
    from tracker.calibration.korona_fit import camera_centre
    from tracker.calibration.lens import camera_with_focal, solve_focal

    G = np.linalg.inv(H)
    f = solve_focal(G, size)
    if f is None:
        try:
            from tracker.detect.geometry import ASSUMED_HEIGHT_MM as assumed
        except ImportError:  # detection not installed: its documented default
            assumed = 1300.0
        C = camera_centre(G, size, focal=lens.s)
        # face-on, the camera height is proportional to the focal length
        f = lens.s * assumed / float(C[2]) if C is not None and C[2] > 1e-6 else lens.s
    return camera_with_focal(lens, float(f))


MAX_SIDE = 2048  # larger images are fitted at WORK_SIDE: a phone photo at full size takes a minute
WORK_SIDE = 1600


def _shrink(image: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(image to fit, matrix full px -> its px, or None when used as is).

    Pixel centres map as ``p' = (p + 0.5) * s - 0.5`` (what ``cv2.resize`` samples), so the
    lens model, normalised about the image centre by half the long side, keeps its
    coefficients: the fitted ``(k1, k2)`` hold for the full image too.
    """
    h, w = image.shape[:2]
    if max(w, h) <= MAX_SIDE:
        return image, None
    import cv2

    f = WORK_SIDE / max(w, h)
    ws, hs = round(w * f), round(h * f)
    sx, sy = ws / w, hs / h
    S = np.array([[sx, 0, 0.5 * sx - 0.5], [0, sy, 0.5 * sy - 0.5], [0, 0, 1.0]])
    return cv2.resize(image, (ws, hs), interpolation=cv2.INTER_AREA), S


def calibrate_image(image: np.ndarray, game: str, board: CrokinoleBoard | KoronaBoard | None = None,
                    south: str | None = None, intrinsics: dict | None = None) -> Calibration:
    """Find the board in ``image`` (BGR) and fit it. Raises CalibrationError when it cannot."""
    image = check_frame(image, "image")
    h, w = image.shape[:2]
    work, K, D = _undistort(image, intrinsics)
    work, S = _shrink(work)
    if game == "crokinole":
        from tracker.calibration.crokinole import calibrate_crokinole

        b = board if isinstance(board, CrokinoleBoard) else None
        H, cmeasured, residuals, rms, lens = calibrate_crokinole(work, b, fit_lens=K is None)
        measured: CrokinoleBoard | KoronaBoard = cmeasured
    elif game == "korona":
        from tracker.calibration.korona import calibrate_korona

        kb = board if isinstance(board, KoronaBoard) else None
        H, measured, residuals, rms, lens = calibrate_korona(work, kb, fit_lens=K is None)
    else:
        raise InputError(f"unknown game {game!r}: expected crokinole or korona")
    if S is not None:
        H = H @ S
        if lens is not None:
            lens = LensModel((w, h), lens.k1, lens.k2)
    if lens is not None:
        K, D = _camera(lens, H, (w, h))
    to_raw = None
    if K is not None and D is not None:
        Kc, Dc = K, D

        def to_raw(p: np.ndarray) -> np.ndarray:
            import cv2

            n = (p - Kc[:2, 2]) / np.array([Kc[0, 0], Kc[1, 1]])
            pts3 = np.concatenate([n, np.ones((len(n), 1))], axis=1)
            q, _ = cv2.projectPoints(pts3, np.zeros(3), np.zeros(3), Kc, Dc)
            return q.reshape(-1, 2)

    H = orient(unmirror(H, (w, h)), (w, h), south, to_raw=to_raw)
    return Calibration(homography=H, image_size=(w, h), rms_mm=rms, board=measured,
                       camera_matrix=K, dist_coeffs=D, residuals_mm=residuals, method="auto",
                       south=south or "bottom")


def board_fits(image: np.ndarray, game: str) -> bool:
    """Whether a ``game`` board is found in ``image``: the hint for a user who named the other
    game (``tracker review``, ``tracker photo``)."""
    try:
        calibrate_image(image, game)
    except Exception:
        return False
    return True


def calibrate_video(path: str | Path, game: str, board: CrokinoleBoard | KoronaBoard | None = None,
                    south: str | None = None, intrinsics: dict | None = None) -> Calibration:
    """Calibrate a video on the frames ``tracker review`` uses (see :func:`calibrate_video_frame`)."""
    return calibrate_video_frame(path, game, board=board, south=south, intrinsics=intrinsics)[0]


def calibrate_video_frame(path: str | Path, game: str, board: CrokinoleBoard | KoronaBoard | None = None,
                          south: str | None = None, intrinsics: dict | None = None
                          ) -> tuple[Calibration, np.ndarray]:
    """(calibration, the frame it was fitted on).

    First the frames review calibrates on, in its order (``io.calibration_windows``: the median
    of the first 9 frames, then the last of them, then the same 4 frames later ...), so that
    ``tracker calibrate VIDEO`` writes the calibration ``tracker review VIDEO`` would use. Only
    when all of those fail, a median of frames spread over the first 1.5 s (a hand resting for
    a second drops out of it) and single frames from it. The refusal names the first frame's
    reason: the clean median of the start of the video is where the board shows best, and the
    reasons of later single frames (a hand over the board) are less telling."""
    from tracker.calibration.io import calibration_windows

    first: CalibrationError | None = None
    tried = 0

    def attempt(f: np.ndarray) -> Calibration | None:
        nonlocal first, tried
        tried += 1
        try:
            return calibrate_image(f, game, board=board, south=south, intrinsics=intrinsics)
        except CalibrationError as e:
            first = first or e
        except InputError as e:  # a blank frame among others
            first = first or CalibrationError(str(e))
        return None

    for _start, med, last in calibration_windows(path):
        for f in (med, last):
            c = attempt(f)
            if c is not None:
                return c, f
    frames = read_video_frames(path)
    for f in [median_frame(frames)] + frames[:: max(1, len(frames) // 3)]:
        c = attempt(f)
        if c is not None:
            return c, f
    assert first is not None
    raise CalibrationError(f"{path}: {first} (tried {tried} frames from the start of the video)")


__all__ = ["calibrate_image", "calibrate_video", "calibrate_video_frame", "board_for"]
