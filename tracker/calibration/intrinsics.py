"""Camera intrinsics from a chessboard: ``tracker calibrate SOURCE --chessboard 9x6``.

SOURCE is a folder of images or a video; every image (every few frames of a video) where
``cv2.findChessboardCorners`` finds the inner-corner grid adds a view, and ``cv2.calibrateCamera``
fits the camera matrix and the distortion (k1, k2, p1, p2, k3). The JSON written is what
``--intrinsics FILE`` reads back: ``{"camera_matrix", "dist_coeffs", "image_size", "rms_px",
"views"}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from tracker.calibration.io import is_video
from tracker.errors import CalibrationError, InputError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


def _frames(source: Path, max_views: int = 40) -> list[np.ndarray]:
    import cv2

    if source.is_dir():
        files = sorted(p for p in source.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise InputError(f"{source}: no images in the folder")
        out = []
        for p in files:
            im = cv2.imread(str(p))
            if im is not None:
                out.append(im)
        return out
    if not source.exists():
        raise InputError(f"{source} does not exist")
    if is_video(source):
        cap = cv2.VideoCapture(str(source))
        n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        step = max(1, n // max_views) if n > 0 else 10
        frames: list[np.ndarray] = []
        i = 0
        while True:
            ok, f = cap.read()
            if not ok:
                break
            if i % step == 0:
                frames.append(f)
            i += 1
        cap.release()
        if not frames:
            raise InputError(f"{source}: the video has no frames")
        return frames
    im = cv2.imread(str(source))
    if im is None:
        raise InputError(f"{source}: not a readable image, folder or video")
    return [im]


def parse_pattern(text: str) -> tuple[int, int]:
    try:
        cols, rows = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise InputError(f"--chessboard: {text!r} should be inner corners like 9x6") from None
    if cols < 3 or rows < 3:
        raise InputError(f"--chessboard: {text!r} needs at least 3x3 inner corners")
    return cols, rows


def calibrate_intrinsics(source: str | Path, pattern: tuple[int, int], square_mm: float = 25.0) -> dict[str, Any]:
    import cv2

    frames = _frames(Path(source))
    cols, rows = pattern
    obj = np.zeros((cols * rows, 3), np.float32)
    obj[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square_mm
    objpoints, imgpoints = [], []
    size: tuple[int, int] | None = None
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-3)
    for f in frames:
        grey = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) if f.ndim == 3 else f
        if size is None:
            size = (grey.shape[1], grey.shape[0])
        elif size != (grey.shape[1], grey.shape[0]):
            continue
        ok, corners = cv2.findChessboardCorners(grey, (cols, rows), None,  # type: ignore[call-overload]
                                                cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE)
        if not ok:
            continue
        corners = cv2.cornerSubPix(grey, corners, (5, 5), (-1, -1), crit)
        objpoints.append(obj)
        imgpoints.append(corners)
    if len(objpoints) < 3 or size is None:
        raise CalibrationError(f"{source}: the {cols}x{rows} chessboard was found in {len(objpoints)} "
                               f"views; need at least 3")
    rms, K, D, _, _ = cv2.calibrateCamera(objpoints, imgpoints, size, None, None)
    return {"camera_matrix": K.tolist(), "dist_coeffs": D.ravel().tolist(), "image_size": list(size),
            "rms_px": float(rms), "views": len(objpoints)}


def load_intrinsics(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except FileNotFoundError:
        raise InputError(f"intrinsics file {p} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError(f"intrinsics file {p}: not readable JSON ({e})") from None
    try:
        K = np.asarray(data["camera_matrix"], dtype=np.float64)
        D = np.asarray(data["dist_coeffs"], dtype=np.float64).ravel()
    except (KeyError, TypeError, ValueError):
        raise InputError(f"intrinsics file {p}: needs camera_matrix (3x3) and dist_coeffs") from None
    if K.shape != (3, 3) or D.size not in (4, 5, 8, 12, 14):
        raise InputError(f"intrinsics file {p}: camera_matrix must be 3x3 and dist_coeffs 4-14 numbers")
    return {"camera_matrix": K, "dist_coeffs": D}
