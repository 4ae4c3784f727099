"""Helpers for live-session tests: a server on a loopback port in a thread, a tiny video file."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import uvicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerThread:
    def __init__(self, app, port: int):  # type: ignore[no-untyped-def]
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{port}"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def write_video(path: Path, frames: int = 60, size: tuple[int, int] = (160, 120), fps: float = 30.0) -> Path:
    w = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, size)
    for i in range(frames):
        img = np.full((size[1], size[0], 3), 40, np.uint8)
        cv2.circle(img, (10 + i, 60), 8, (255, 255, 255), -1)
        w.write(img)
    w.release()
    return path
