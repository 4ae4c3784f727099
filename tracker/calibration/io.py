"""Reading the calibration source: one image, or a clean frame from the start of a video.

Every failure (missing path, truncated or unreadable file (``imagefile``), blank frame, video
without frames) is a :class:`tracker.errors.InputError` with one line naming the file, never an
OpenCV traceback.
A video gives the per-pixel median of a few frames spread over its first seconds: hands and discs
moving over the board vanish from the median while the board, which does not move, stays sharp.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tracker.errors import InputError

VIDEO_SUFFIXES = {".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg"}


def check_frame(image: np.ndarray | None, where: str) -> np.ndarray:
    """Refuse a missing, empty, tiny or featureless (blank/black) frame."""
    if image is None or not isinstance(image, np.ndarray) or image.size == 0:
        raise InputError(f"{where}: not a readable image")
    if image.ndim == 2:
        import cv2

        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise InputError(f"{where}: expected a colour or grey image, got shape {image.shape}")
    if image.shape[2] == 4:
        image = image[:, :, :3]
    h, w = image.shape[:2]
    if min(h, w) < 64:
        raise InputError(f"{where}: image is too small ({w}x{h}) to find a board")
    if float(image.std()) < 2.0:
        raise InputError(f"{where}: the frame is blank (no contrast): no board to find")
    return np.ascontiguousarray(image)


def existing_file(path: str | Path) -> Path:
    """``path`` as a Path; InputError when it does not exist or is not a file."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p} does not exist")
    if not p.is_file():
        raise InputError(f"{p} is not a file")
    return p


def open_video(p: Path) -> Any:
    """An open ``cv2.VideoCapture`` of ``p`` (the caller releases it); InputError when OpenCV
    cannot open it."""
    import cv2

    cap = cv2.VideoCapture(str(p))
    if not cap.isOpened():
        cap.release()
        raise InputError(f"{p}: not a readable video")
    return cap


def read_image(path: str | Path) -> np.ndarray:
    """The image in ``path`` as a calibration source: read by the one image reader
    (``imagefile.read_image_file``: a truncated JPEG or PNG is refused, not decoded with grey
    rows), then checked as a frame (``check_frame``)."""
    from tracker.calibration.imagefile import read_image_file

    p = existing_file(path)
    return check_frame(read_image_file(p), str(p))


def read_video_frames(path: str | Path, count: int = 7, span_s: float = 1.5) -> list[np.ndarray]:
    """Up to ``count`` frames spread over the first ``span_s`` seconds of a video."""
    import cv2

    p = existing_file(path)
    cap = open_video(p)
    try:
        fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
        if not np.isfinite(fps) or fps <= 0 or fps > 1000:
            fps = 25.0
        step = max(1, int(round(span_s * fps / max(1, count - 1))))
        frames: list[np.ndarray] = []
        index = 0
        while len(frames) < count:
            ok, frame = cap.read()
            if not ok or frame is None:
                break
            if index % step == 0:
                frames.append(frame)
            index += 1
    finally:
        cap.release()
    if not frames:
        raise InputError(f"{p}: the video has no frames")
    return frames


REVIEW_WINDOW = 9  # frames the review pipeline holds back to calibrate on (Pipeline.calib_frames)


def calibration_windows(path: str | Path, window: int = REVIEW_WINDOW, max_windows: int = 4
                        ) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """The frames ``tracker review`` calibrates on, in the order it tries them: windows of
    ``window`` consecutive frames from the start, each giving (index of its first frame, the
    per-pixel median of the window, its last frame); a window that fails slides on by half its
    length (``Pipeline.process``). ``tracker calibrate VIDEO`` tries the same frames in the same
    order, so the two agree on the calibration of a video (they disagreed when calibrate took a
    median of frames spread over 1.5 s: other frames, another fit or none).

    Raises InputError when the video cannot be read or has no frames; a video shorter than one
    window gives one window of what it has."""

    p = existing_file(path)
    cap = open_video(p)
    try:
        buf: list[np.ndarray] = []
        start = 0
        done = 0
        ended = False
        while done < max_windows and not ended:
            new = 0
            while len(buf) < window:
                ok, frame = cap.read()
                if not ok or frame is None:
                    ended = True
                    break
                buf.append(frame)
                new += 1
            if not buf:
                raise InputError(f"{p}: the video has no frames")
            if new == 0:
                return  # nothing past the previous window
            sel = buf[:: max(1, len(buf) // 5)]  # what Pipeline._try_calibrate takes the median of
            yield start, median_frame(sel), buf[-1]
            done += 1
            drop = len(buf) // 2
            buf = buf[drop:]
            start += drop
    finally:
        cap.release()


def median_frame(frames: Sequence[np.ndarray]) -> np.ndarray:
    """Per-pixel median: moving hands and discs drop out, the still board stays. Frames of
    another size than the first are left out.

    Equal to ``np.median(..., axis=0)`` cast to uint8 (the two middle values averaged and
    floored for an even count), by a min/max sorting network: some fifteen times faster than
    ``np.median`` (which works in float64) on 720p frames.
    """
    import cv2

    if not len(frames):
        raise ValueError("median_frame: no frames")
    shape = frames[0].shape
    s = [np.ascontiguousarray(f) for f in frames if f.shape == shape]
    k = len(s)
    for i in range(k // 2 + 1):  # bubble the largest values up: the middle is settled after k/2+1 passes
        for j in range(k - 1 - i):
            s[j], s[j + 1] = cv2.min(s[j], s[j + 1]), cv2.max(s[j], s[j + 1])
    if k % 2:
        return s[k // 2]
    return ((s[k // 2 - 1].astype(np.uint16) + s[k // 2]) // 2).astype(np.uint8)


def is_video(path: str | Path) -> bool:
    return Path(path).suffix.lower() in VIDEO_SUFFIXES


def read_source(path: str | Path) -> np.ndarray:
    """An image file, or for a video the median of its first frames: the first frame
    ``tracker review`` calibrates on (:func:`calibration_windows`)."""
    if is_video(path):
        for _start, med, _last in calibration_windows(path, max_windows=1):
            return check_frame(med, str(path))
        raise InputError(f"{path}: the video has no frames")
    return read_image(path)
