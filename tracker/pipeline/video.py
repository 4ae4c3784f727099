"""Reading a video file frame by frame, and saying where a damaged one stopped."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tracker.errors import InputError


@dataclass
class VideoInfo:
    path: Path
    fps: float
    frames: int  # as the container claims (0 when unknown)
    width: int
    height: int


class VideoSource:
    """``for index, t, frame in VideoSource(path)``; after the loop, ``stopped_early`` tells
    whether the file ended before the frame count its container claims (a truncated file)."""

    def __init__(self, path: str | Path) -> None:
        import os

        os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # our one-line errors, not FFmpeg's
        import cv2

        p = Path(path)
        if not p.exists():
            raise InputError(f"video {p} does not exist")
        if not p.is_file():
            raise InputError(f"video {p} is not a file")
        self._cap = cv2.VideoCapture(str(p))
        if not self._cap.isOpened():
            raise InputError(f"video {p}: cannot be read (not a video, a damaged or truncated file, or a codec OpenCV lacks)")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        if not (1.0 <= fps <= 1000.0):
            fps = 30.0
        self.info = VideoInfo(
            path=p,
            fps=fps,
            frames=max(int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0), 0),
            width=int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0),
            height=int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0),
        )
        self.read_frames = 0
        self.error: str | None = None

    def __iter__(self) -> Iterator[tuple[int, float, np.ndarray]]:
        i = 0
        while True:
            try:
                ok, frame = self._cap.read()
            except Exception as e:  # a decoder error mid-file
                self.error = str(e)
                break
            if not ok or frame is None:
                break
            yield i, i / self.info.fps, frame
            i += 1
            self.read_frames = i
        self._cap.release()

    @property
    def stopped_early(self) -> bool:
        """True when fewer frames were decoded than the container claims (allowing 2 of slack)."""
        return self.error is not None or (self.info.frames > 0 and self.read_frames < self.info.frames - 2)

    def where_stopped(self) -> str:
        t = self.read_frames / self.info.fps
        claim = f" of {self.info.frames}" if self.info.frames else ""
        return f"frame {self.read_frames}{claim} (t = {t:.2f} s)"

