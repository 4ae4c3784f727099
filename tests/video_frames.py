"""Reading a few frames of a video in tests (fixtures, clips cut from them)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def read_frames(src: Path, n: int, start: int = 0) -> list[np.ndarray]:
    """Up to ``n`` BGR frames of ``src`` from frame ``start`` (fewer where the video ends)."""
    cap = cv2.VideoCapture(str(src))
    if start:
        cap.set(cv2.CAP_PROP_POS_FRAMES, start)
    frames: list[np.ndarray] = []
    while len(frames) < n:
        ok, f = cap.read()
        if not ok:
            break
        frames.append(f)
    cap.release()
    return frames
