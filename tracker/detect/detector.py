"""``DiscDetector``: every disc in a frame, in board millimetres.

Pipeline per frame (each stage cheap, the expensive one only where a disc is likely):

1. Rectify the board region to a top-down view at a modest scale (``mm_per_px``, default 2), with
   remap tables computed once per calibration.
2. Coarse candidates: the fixed-radius radial-flux filter of ``candidates.py`` (one radius per disc
   kind), peaks above a coherence and flux floor.
3. Refine each candidate in the original image (``refine.py``): edge points on rays, cylinder
   silhouette fit, so the centre is where the disc touches the board.
4. Verify: enough of the outline found (coverage), a small residual, the right radius. A hand, an
   arm, a cue or a shadow does not close a disc-sized circle with edges all round, so it fails here.
   The empty 20-hole is a circle too, but larger than a disc: rejected by its fitted radius.
5. Optional background frame (an empty board): discs must differ from it, and a disc-wide,
   elongated difference blob that no disc explains is reported as a motion-blurred streak
   (``streaks.py``).
6. Label ``where`` (surface / hole / ditch / pocket) from the board model.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.candidates import RingFilter, peaks, ring_response
from tracker.detect.datatypes import (
    DISC,
    IN_DITCH,
    IN_HOLE,
    IN_POCKET,
    ON_SURFACE,
    STRIKER,
    Detections,
)
from tracker.detect.geometry import BoardView, camera_pose
from tracker.detect.refine import Fit, Refiner
from tracker.errors import InputError


@dataclass(frozen=True)
class DetectorSettings:
    mm_per_px: float = 2.0
    min_coherence: float = 0.30  # coarse candidate: ring flux / ring gradient magnitude
    min_flux: float = 0.6  # coarse candidate: Lab units per px (noise floor)
    min_coverage: float = 0.6  # refined: fraction of rays with a consistent edge
    min_quarter_coverage: float = 0.25  # ... and in the worst quarter of the outline
    max_residual: float = 1.2  # refined: RMS edge residual, mm
    radius_tolerance: float = 0.15  # refined radius within +-15% of the nominal one
    max_candidates: int = 120


class DiscDetector:
    """Finds discs (and korona strikers) in BGR frames of one calibrated camera."""

    def __init__(self, calib: Calibration, game: str | None = None, *,
                 settings: DetectorSettings | None = None,
                 background: np.ndarray | None = None) -> None:
        self.calib = calib
        self.board = calib.board
        self.game = game or self.board.game
        if self.game != self.board.game:
            raise InputError(f"detector: game {self.game!r} does not match the calibrated {self.board.game} board")
        self.settings = settings or DetectorSettings()
        self.pose = camera_pose(calib)
        self.kinds: list[tuple[int, float]] = [(DISC, self.board.disc_radius)]
        if isinstance(self.board, KoronaBoard):
            self.kinds.append((STRIKER, self.board.striker_radius))
            half = self.board.half + 5.0
        else:
            half = self.board.ditch_outer_radius + 5.0
        self.view = BoardView.around(half, self.settings.mm_per_px)
        self._maps = self.view.maps(calib)
        self.thickness = float(self.board.disc_thickness)
        self.refiner = Refiner(calib, self.pose, self.thickness)
        self.flat_refiner = Refiner(calib, self.pose, 0.0)  # circles painted or cut in the surface
        self._valid = self._region_mask()
        self._filters: dict[int, RingFilter] = {}
        # Widen the ring outward by the largest apparent top-face shift over the board.
        corners = np.array([[0.0, 0.0], [half, half], [-half, half], [half, -half], [-half, -half]])
        s, k = self.pose.top_shift(corners, self.thickness)
        for kind, r in self.kinds:
            extra = 0.5 * float(np.linalg.norm(s, axis=1).max()) + (float(k.max()) - 1.0) * r
            self._filters[kind] = RingFilter.build((self.view.height, self.view.width),
                                                   r / self.settings.mm_per_px, 1.5,
                                                   extra / self.settings.mm_per_px)
        self.background_lab: np.ndarray | None = None
        if background is not None:
            self.set_background(background)

    # ------------------------------------------------------------------ helpers
    def _region_mask(self) -> np.ndarray:
        v = self.view
        u, w = np.meshgrid(np.arange(v.width), np.arange(v.height))
        xy = v.to_mm(np.stack([u.ravel(), w.ravel()], 1))
        if isinstance(self.board, CrokinoleBoard):
            ok = np.hypot(xy[:, 0], xy[:, 1]) <= self.board.ditch_outer_radius
        else:
            ok = (np.abs(xy[:, 0]) <= self.board.half) & (np.abs(xy[:, 1]) <= self.board.half)
        return ok.reshape(v.height, v.width)

    def rectify(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The coarse top-down view (BGR uint8)."""
        self._check(frame_bgr)
        return cv2.remap(frame_bgr, self._maps[0], self._maps[1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT)

    def _check(self, frame: np.ndarray) -> None:
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
            raise InputError("detector: expected a BGR image (H, W, 3)")
        w, h = self.calib.image_size
        if frame.shape[1] != w or frame.shape[0] != h:
            raise InputError(f"detector: frame is {frame.shape[1]}x{frame.shape[0]}, calibration is for {w}x{h}")

    @staticmethod
    def _lab(bgr: np.ndarray) -> np.ndarray:
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)
        return lab.astype(np.float32)

    def set_background(self, frame_bgr: np.ndarray) -> None:
        """An empty-board frame: discs must differ from it; streaks are found against it."""
        self.background_lab = cv2.GaussianBlur(self._lab(self.rectify(frame_bgr)), (0, 0), 1.0)

    def where_of(self, x: float, y: float, r: float) -> int:
        b = self.board
        if isinstance(b, CrokinoleBoard):
            if b.in_hole(x, y, r):
                return IN_HOLE
            return ON_SURFACE if b.on_surface(x, y) else IN_DITCH
        return IN_POCKET if b.pocket_of(x, y, r) is not None else ON_SURFACE

    # ------------------------------------------------------------------ detection
    def candidates(self, lab: np.ndarray, kind: int, radius: float) -> tuple[np.ndarray, np.ndarray]:
        """Coarse centres (N, 2) in mm and their coherence (N,)."""
        st = self.settings
        rr = ring_response(lab, self._filters[kind])
        valid = self._valid & (rr.coherence >= st.min_coherence) & (rr.score >= st.min_flux)
        uv = peaks(rr.score, 0.9 * radius / st.mm_per_px, 0.0, valid, st.max_candidates)
        coh = rr.coherence[np.clip(np.round(uv[:, 1]).astype(int), 0, lab.shape[0] - 1),
                           np.clip(np.round(uv[:, 0]).astype(int), 0, lab.shape[1] - 1)]
        return self.view.to_mm(uv), coh

    def _is_empty_hole(self, frame: np.ndarray, guess: np.ndarray, fit: Fit, radius: float) -> bool:
        """The empty 20-hole is a circle whose rim lies on the surface, a little larger than a disc:
        fit it as a flat circle and compare."""
        if not isinstance(self.board, CrokinoleBoard):
            return False
        hole = self.board.hole_radius
        if np.hypot(*guess) > hole + 12.0:
            return False
        flat = self.flat_refiner.refine(frame, guess, hole)
        return bool(np.hypot(*flat.centre) < 5.0 and flat.radius > 0.5 * (hole + radius)
                    and flat.coverage >= 0.6 and flat.residual <= fit.residual + 0.15)

    def _accept(self, fit: Fit, radius: float) -> bool:
        st = self.settings
        if fit.coverage < st.min_coverage or fit.quarter_coverage < st.min_quarter_coverage:
            return False
        if fit.residual > st.max_residual:
            return False
        if abs(fit.radius / radius - 1.0) > st.radius_tolerance:
            return False
        if isinstance(self.board, CrokinoleBoard):
            # The empty 20-hole: a dark circle, centred, larger than a disc.
            # Its rim lies on the surface (z = 0), so test the fitted circle as seen, not the
            # contact circle derived from it for a disc's height.
            hole = self.board.hole_radius
            T = fit.top_centre if fit.top_centre is not None else fit.centre
            if np.hypot(*T) < 5.0 and fit.top_radius > 0.5 * (hole + radius):
                return False
        return True

    def detect(self, frame_bgr: np.ndarray) -> Detections:
        """All discs in the frame (see the module docstring for the stages)."""
        view = self.rectify(frame_bgr)
        lab = self._lab(view)
        parts: list[Detections] = []
        taken: list[tuple[np.ndarray, float]] = []
        for kind, radius in sorted(self.kinds, key=lambda kr: -kr[1]):
            centres, coh = self.candidates(lab, kind, radius)
            fits: list[tuple[Fit, float]] = []
            for c, q in zip(centres, coh, strict=True):
                fit = self.refiner.refine(frame_bgr, c, radius)
                if self._accept(fit, radius) and not self._is_empty_hole(frame_bgr, c, fit, radius):
                    fits.append((fit, float(q)))
            fits.sort(key=lambda fq: -(fq[0].coverage + fq[1]))
            xy, rad, col, conf, wh, sur = [], [], [], [], [], []
            for fit, q in fits:
                if any(np.hypot(*(fit.centre - p)) < 0.8 * (radius + pr) for p, pr in taken):
                    continue
                taken.append((fit.centre, radius))
                xy.append(fit.centre)
                rad.append(fit.radius)
                col.append(_cie(fit.color))
                sur.append(_cie(fit.surround if fit.surround is not None else fit.color))
                conf.append(float(np.clip(0.5 * fit.coverage + 0.5 * min(q / 0.6, 1.0), 0, 1)))
                wh.append(self.where_of(float(fit.centre[0]), float(fit.centre[1]), radius))
            if xy:
                parts.append(Detections(xy=np.array(xy), radius=np.array(rad), color=np.array(col),
                                        confidence=np.array(conf), kind=np.full(len(xy), kind),
                                        where=np.array(wh), surround=np.array(sur)))
        dets = Detections.merge(parts)
        if self.background_lab is not None:
            from tracker.detect.streaks import find_streaks

            dets = find_streaks(self, lab, dets)
        return dets


def _cie(lab8: np.ndarray) -> np.ndarray:
    """OpenCV 8-bit-scale Lab -> CIE Lab."""
    return np.asarray(lab8, float) * np.array([100 / 255, 1, 1]) - np.array([0, 128, 128])
