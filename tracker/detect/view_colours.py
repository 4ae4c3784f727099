"""One call's coarse view in colour: its Lab (8-bit scale, float32) and that Lab blurred as the
edge field and the streak finder blur it, each made at most once a call and read by the search,
the second pass, the fingertip check and the streaks (``DiscDetector.colours``)."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.detect.background import BackgroundModel


def lab_of(bgr: np.ndarray) -> np.ndarray:
    """``bgr`` (uint8) in 8-bit-scale Lab, as float32."""
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)


class ViewColours:
    """The Lab of the view last asked for, and its blur; a new view makes them anew."""

    def __init__(self) -> None:
        self._lab: tuple[np.ndarray, np.ndarray] | None = None
        self._blurred: tuple[np.ndarray, np.ndarray] | None = None

    def lab(self, view: np.ndarray, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """``lab_of`` this call's coarse ``view``, or of its ``box`` (y0, y1, x0, x1), read only.
        The whole view's is made at most once a call (asked for whole, or for a box of half the
        view or more: the search, the second pass and the streaks each read part of it) and
        boxes are cut from it; a smaller box before that is converted alone. The same numbers
        either way (the conversion is per pixel)."""
        H, W = view.shape[:2]
        y0, y1, x0, x1 = box if box is not None else (0, H, 0, W)
        if self._lab is None or self._lab[0] is not view:
            if (y1 - y0) * (x1 - x0) < 0.5 * H * W:
                return lab_of(view[y0:y1, x0:x1])
            self._lab = (view, lab_of(view))
        lab = self._lab[1]
        return lab if box is None else lab[y0:y1, x0:x1]

    def is_whole(self, view: np.ndarray, lab: np.ndarray) -> bool:
        """Whether ``lab`` is this call's whole-view Lab (``lab``) of ``view``."""
        return self._lab is not None and self._lab[0] is view and self._lab[1] is lab

    def blurred(self, view: np.ndarray) -> np.ndarray:
        """The whole view's Lab (``lab``) blurred by one view pixel, read only: what the edge
        field of a whole-view search (``candidates.edge_field``) and the streak finder over the
        whole view (``BackgroundModel.prepare``) both blur it to, made at most once a call (the
        same call, so the same numbers)."""
        if self._blurred is None or self._blurred[0] is not view:
            self._blurred = (view, BackgroundModel.prepare(self.lab(view)))
        return self._blurred[1]
