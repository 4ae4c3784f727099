"""The pipeline's camera: fitting the board from the first frames, and watching for bumps.

Split out of ``pipeline.py`` (behaviour unchanged): the functions take the :class:`Pipeline`
whose state they read and set (its calibration buffer, drift monitor and bump state), so the
per-frame code there stays about frames, detections and the referee.

* ``try_calibrate``: the board is fitted on the median of the buffered first frames (hands move,
  the board does not), or on the last of them; the detector's empty-board model starts from
  that frame.
* ``check_drift``: every ``drift_every`` seconds between shots (or at once when most of the
  picture changed) the board is checked; once it moved, tracking holds still and the board is
  fitted again every few frames on the median of the recent ones, giving up after 5 s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.calibration import DriftMonitor
from tracker.calibration.io import median_frame
from tracker.errors import TrackerError

if TYPE_CHECKING:
    from tracker.pipeline.pipeline import Pipeline


def try_calibrate(p: Pipeline) -> bool:
    from tracker.calibration import calibrate_image

    frames = [f for _, _, f in p._buffer]
    median = median_frame(frames[:: max(1, len(frames) // 5)])
    idx, t = p._buffer[0][0], p._buffer[0][1]
    for img in (median, frames[-1]):
        try:
            calib = calibrate_image(img, p.game, board=p.board_hint, south=p.south)
        except TrackerError as e:  # CalibrationError, or InputError for a blank frame
            p.calibration_error = str(e)
            continue
        p._start(calib, t, idx)
        p._reference = img
        set_drift(p, img)
        # The empty-board model starts from the calibration frame (the discs already on it
        # mark where the board is unseen) and then learns from still frames.
        p.detector.set_background(img, p.detector.detect(img))
        return True
    return False


def set_drift(p: Pipeline, img: np.ndarray) -> None:
    assert p.calib is not None
    try:
        p.drift = DriftMonitor(p.calib, img)
    except Exception:  # a monitor is a nicety; never fail the review for it
        p.drift = None


def check_drift(p: Pipeline, frame: np.ndarray, t: float, index: int) -> None:
    """Every ``drift_every`` seconds (between shots) check the board has not moved; once it
    has, hold tracking still and try to fit the board again every few frames."""
    if p.drift is None:
        return
    if not p._bumped:
        cut = p.gate.changed > 0.4  # most of the picture changed at once: look now
        if not cut and (t - p._last_drift_t < p.drift_every or p.segmenter.in_shot):
            return
        p._last_drift_t = t
        if not p.drift.check(frame).bumped:
            return
        p._bumped = True
        p._bump_t = t
        p._recent = []
        p.warnings.append(f"camera moved at t = {t:.2f} s")
    p._recent = (p._recent + [frame])[-9:]
    if (index - p._bump_tries) % 5:
        return
    from tracker.calibration import calibrate_image

    median = median_frame(p._recent)
    calib = None
    for img in (median, frame):  # the median drops moving hands
        try:
            calib = calibrate_image(img, p.game, board=p.board_hint, south=p.south)
            break
        except TrackerError:
            continue
    if calib is None:
        if t - p._bump_t > 5.0:  # give up: carry on with the old fit rather than stop
            p._bumped = False
            p._last_drift_t = t
            p.warnings.append(f"board not found again after the camera moved; kept the old fit from t = {t:.2f} s")
        return
    p._start(calib, t, index)
    set_drift(p, frame)
    p._bumped = False
    p.warnings.append(f"board fitted again at t = {t:.2f} s")
