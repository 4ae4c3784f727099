"""Drift: a cheap check, run every few seconds of video, that the camera has not moved.

At start the monitor samples short intensity profiles across the board's lines (crokinole: the
rings; korona: the rim and the striking lines) in the reference frame, along the image normal of
each line. A check samples the same profiles in a new frame (one ``cv2.remap`` of a few thousand
pixels, no full-frame work) and finds, per profile, the shift that best re-aligns it with the
reference (normalised cross-correlation over +-``search_px``). Hands and discs spoil a few
profiles, so the figure reported is the median shift, in mm on the board. When the median exceeds
``threshold_mm`` over enough valid profiles the camera was bumped: the pipeline re-calibrates and
emits the event.

The median of the shifts' sizes misses a korona camera knocked along a board axis: the lines
parallel to the move do not shift along their normals, and they are half the profiles (a camera
rendered knocked 10.5 mm east read 0.0 mm, and every disc was placed 10 mm off for the rest of the
match). So the profiles are also grouped by the side their board-frame normal faces (quarters
centred on the board's axes; korona's rim and striking lines fall one side to a quarter), and each
side's median *signed* shift is taken: a move of the view shifts every line of a side the same way,
while a hand or a disc over a few lines does not move the side's median. The largest side figure
(``side_mm``) is a bump too when it exceeds the threshold.

A side's median alone is not a move of the view, though: korona discs come to rest in rows
against the rim, and each one over a rim profile shifts it by most of a disc (the disc's edge
passes for the rim's), the same way for every disc of the row. k4h_9606 at 12.7 s (a review with
korona's change filter on, ``detect/change_noise.py``, whose checks fell on other frames): W's
discs lay along the east rim over 8 of the side's 18 profiles (-8 to -16 mm), the striker flying
past covered a ninth, the median of 9 shifted and 9 not was -3.8 mm, and the check called a
camera bump that dropped W's shot in the making. A move of the view shifts every line of the
side, so a side is judged only when most of its profiles (``SIDE_AGREE``) are shifted its
median's way: in that match's real bump (20.0 s) 11 of 11 and 14 of 14 were. On the frames where
main's reviews noticed a bump (all 45 cached dev matches and the 11 fixtures) the rule decides as
before, and on every frame of the 11 fixtures and 5 c2e matches too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration

# A side's median signed shift is read from this many valid profiles or more (a korona striking
# line alone has 12; a side with fewer left, under hands, is not judged on its own).
MIN_SIDE_PROFILES = 5
# ... and only when this share of them, or more, is shifted its median's way (see above).
SIDE_AGREE = 2.0 / 3.0


@dataclass(frozen=True)
class DriftReport:
    misalignment_mm: float  # median |shift| of the valid profiles, board mm
    valid_fraction: float  # share of profiles that still looked like a line
    bumped: bool
    side_mm: float = 0.0  # the largest |median signed shift| of one side's profiles, board mm


def model_curves(calib: Calibration, n: int = 96) -> tuple[np.ndarray, np.ndarray]:
    """Points on the board's lines and their unit normals, both (N, 2) board mm."""
    b = calib.board
    pts: list[np.ndarray] = []
    nrm: list[np.ndarray] = []
    if isinstance(b, CrokinoleBoard):
        for r, k in ((b.shooting_line_radius, n), (b.ten_line_radius, n * 2 // 3),
                     (b.fifteen_line_radius, n // 3), (b.surface_radius, n)):
            a = np.linspace(0, 2 * math.pi, k, endpoint=False) + 0.05
            u = np.stack([np.cos(a), np.sin(a)], axis=1)
            pts.append(r * u)
            nrm.append(u)
    else:
        h = b.half
        t = np.linspace(-h * 0.8, h * 0.8, n // 4)
        d = h - b.striking_line_offset
        s = np.linspace(-b.striking_line_half_length * 0.9, b.striking_line_half_length * 0.9, n // 8)
        for edge, ts in ((h, t), (d, s)):
            for sx, sy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if sx:
                    p = np.stack([np.full_like(ts, sx * edge), ts], axis=1)
                else:
                    p = np.stack([ts, np.full_like(ts, sy * edge)], axis=1)
                pts.append(p)
                nrm.append(np.tile([sx, sy], (len(ts), 1)).astype(np.float64))
    return np.concatenate(pts), np.concatenate(nrm)


class DriftMonitor:
    """Compare new frames against the calibrated reference frame.

    ``check(frame)`` costs well under a millisecond at 1280x720: it touches only the profile pixels.
    """

    def __init__(self, calib: Calibration, reference: np.ndarray, threshold_mm: float = 3.0,
                 search_px: int = 6, half_len_px: int = 8, min_valid: float = 0.3) -> None:
        self.calib = calib
        self.threshold_mm = threshold_mm
        self.search_px = int(search_px)
        self.half_len = int(half_len_px)
        self.min_valid = min_valid
        pts, nrm = model_curves(calib)
        img = calib.to_image(pts)
        img2 = calib.to_image(pts + nrm * 2.0)
        d = img2 - img
        px_per_2mm = np.linalg.norm(d, axis=1)
        ok = px_per_2mm > 1e-6
        h, w = reference.shape[:2]
        inside = (img[:, 0] > 20) & (img[:, 1] > 20) & (img[:, 0] < w - 20) & (img[:, 1] < h - 20)
        keep = ok & inside
        self.points_px = img[keep]
        # the side each profile's board normal faces: 0 east, 1 north, 2 west, 3 south
        side = np.round(np.arctan2(nrm[keep, 1], nrm[keep, 0]) / (math.pi / 2)).astype(int) % 4
        self.normals_px = d[keep] / px_per_2mm[keep, None]
        self.mm_per_px = 2.0 / px_per_2mm[keep]
        L = self.half_len + self.search_px
        self.offsets = np.arange(-L, L + 1, dtype=np.float64)
        ref = self._profiles(reference)
        contrast = ref.std(axis=1) if len(ref) else np.zeros(0)
        # keep the profiles that show a clear line or edge in the reference
        good = contrast > max(4.0, float(np.percentile(contrast, 40)) if len(contrast) else 0.0)
        self.points_px = self.points_px[good]
        self.normals_px = self.normals_px[good]
        self.mm_per_px = self.mm_per_px[good]
        self.sides = side[good]
        self.reference = ref[good]
        s = self.search_px
        core = self.reference[:, s:len(self.offsets) - s]
        self._ref_core = core - core.mean(axis=1, keepdims=True)
        self._ref_norm = np.linalg.norm(self._ref_core, axis=1) + 1e-9

    @property
    def n_profiles(self) -> int:
        return len(self.reference)

    def _profiles(self, frame: np.ndarray) -> np.ndarray:
        import cv2

        if len(self.points_px) == 0:
            return np.zeros((0, len(self.offsets)))
        mx = (self.points_px[:, 0, None] + self.offsets[None, :] * self.normals_px[:, 0, None]).astype(np.float32)
        my = (self.points_px[:, 1, None] + self.offsets[None, :] * self.normals_px[:, 1, None]).astype(np.float32)
        samp = cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        samp = samp.astype(np.float32)
        if samp.ndim == 3:
            samp = samp.mean(axis=2)
        return samp.astype(np.float64)

    def check(self, frame: np.ndarray) -> DriftReport:
        if self.n_profiles == 0:
            return DriftReport(math.inf, 0.0, True)
        prof = self._profiles(frame)
        s = self.search_px
        m = len(self.offsets) - 2 * s
        # every shift's window at once ((N, 2s+1, m) views of the profiles): the first best shift
        # of each profile, as the loop over shifts this replaced found it (a quarter of the time)
        win = np.lib.stride_tricks.sliding_window_view(prof, m, axis=1)
        win = win - win.mean(axis=2, keepdims=True)
        ncc = (np.einsum("nkm,nm->nk", win, self._ref_core)
               / (np.sqrt(np.einsum("nkm,nkm->nk", win, win)) + 1e-9) / self._ref_norm[:, None])
        j = np.argmax(ncc, axis=1)
        best = np.maximum(ncc[np.arange(len(ncc)), j], -2.0)
        shift = (j - s).astype(np.float64)
        valid = best > 0.6
        frac = float(valid.mean())
        if valid.sum() < 5:
            return DriftReport(math.inf, frac, True)
        mm = shift * self.mm_per_px
        mis = float(np.median(np.abs(mm[valid])))
        side = 0.0
        for k in range(4):
            on = valid & (self.sides == k)
            if on.sum() >= MIN_SIDE_PROFILES:
                med = float(np.median(mm[on]))
                if np.mean(np.sign(mm[on]) == np.sign(med)) >= SIDE_AGREE:
                    side = max(side, abs(med))
        bumped = frac < self.min_valid or max(mis, side) > self.threshold_mm
        return DriftReport(mis, frac, bumped, side)
