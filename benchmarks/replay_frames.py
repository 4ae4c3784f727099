"""The frames and the detector a ``bench_review.py --dets`` replay needs to report korona discs at
rest as a review does.

A review reports each korona shot's discs at rest refitted on the frame the shot is judged on
(``pipeline.rest_places``), apart from the detections the tracker follows. A replay of cached
detections had neither that frame nor a detector, so it reported the tracker's rest anchors:
its position errors at rest were not the review's (k2e_9505: replay 1.50/3.30 mm, full review
0.34/1.29; k4h_9506 1.99/3.19 against 0.51/2.43). ``ReplayFrames`` decodes the match's video
alongside the replay and gives the pipeline a detector made from the review's calibration, so
``Pipeline.process_detections`` refits the ends as the review did.

The calibration: caches made from now on keep the review's (``Calibration`` objects, with the
board fitted again after a bump); older caches have only the board fits' homographies, so the
first calibration is made again from the video's first frames as the review made it
(``camera.try_calibrate`` on ``Pipeline.calib_frames`` frames) and a later fit is that camera
with the fit's homography. Crokinole's shots report their anchors but for the discs the detector
lost at rest (``rest_unseen``, fitted on the settled frame), so a crokinole replay decodes the
video too while ``rest_unseen.ON``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from tracker.calibration.datatypes import Calibration
from tracker.pipeline import Pipeline
from tracker.pipeline.video import VideoSource


def first_calibration(video: Path, game: str, players: int) -> Calibration | None:
    """The board fit a review of ``video`` starts from (``Pipeline.process``' calibration buffer)."""
    q = Pipeline(game, players)
    for index, t, frame in VideoSource(video):
        q._buffer.append((index, t, frame))
        if len(q._buffer) < q.calib_frames:
            continue
        if q._try_calibrate():
            return q.calib
        q._buffer = q._buffer[len(q._buffer) // 2:]
    return None


class ReplayFrames:
    """The video's frames, decoded in step with a replay, and the detector ``rest_places`` refits with."""

    def __init__(self, video: Path, game: str, players: int) -> None:
        self.video, self.game, self.players = video, game, players
        self._frames = iter(VideoSource(video))
        self._at: tuple[int, np.ndarray] | None = None
        self._calib: Calibration | None = None
        self._board: Any = None

    def frame(self, index: int) -> np.ndarray | None:
        """The video's frame ``index`` (frames are asked for in increasing order)."""
        while self._at is None or self._at[0] < index:
            got = next(self._frames, None)
            if got is None:
                return None
            self._at = (got[0], got[2])
        return self._at[1] if self._at[0] == index else None

    def before(self, p: Pipeline, index: int, board: Any, fits: list[Any], calib: Calibration | None) -> None:
        """Ready ``p`` to process the cached detections of frame ``index``: its frame, and a
        detector for the board fit (``calib``, the review's own, or made again: module docstring)."""
        if board is not self._board:
            if calib is None and self._calib is None:
                calib = first_calibration(self.video, self.game, self.players)
            elif calib is None and self._calib is not None:
                hom = next((np.asarray(e.data["homography"], float) for e in reversed(fits)
                            if e.type == "calibrated"), self._calib.homography)
                calib = replace(self._calib, homography=hom, board=board)
            if calib is not None:
                from tracker.detect.detector import DiscDetector

                self._calib = calib
                p.detector = DiscDetector(calib, self.game)
            self._board = board
        p._frame = self.frame(index)
