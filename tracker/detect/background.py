"""The empty board's appearance in the detector's coarse view, learned and kept up to date.

Fast discs are found as what differs from the empty board (``streaks.py``), so the difference
needs a good picture of the empty board at every moment of a match, not a single frame taken at
the start (often with discs on it already, always with the light of that moment).

Design decisions:

* One image, in the coarse top-down view: blurred 8-bit-scale Lab (float32), as the streak
  finder compares it. A ``known`` mask says where the empty board has actually been seen: pixels
  under the discs at rest when the model started (and never uncovered since) hold no board, and
  never count as different.
* Learned from still frames only. The detector calls ``update`` on a call where nothing changed
  since the previous one (the pipeline's stillness gate still hands it one frame in ten, so this
  is a steady trickle). Moving frames never teach the model: a hand or a streak cannot leak into
  it, and a moving frame costs nothing here. On a still frame every pixel that no resting disc
  covers (the disc's silhouette, top face and a margin for its shadow) is:
  - blended in at ``rate`` when it is close to the model (lighting drift, compression flicker);
  - taken as it is when the model had never seen the board there (a disc that lay there at the
    start has gone), or when it has differed, unchanged, for ``absorb_after`` still updates in a
    row (something that stays and that no detection explains: a disc the detector misses, a
    shifted object, a hand resting on the rail is absorbed only after that long).
  Pixels under resting discs keep what the board looked like before the disc came, so when the
  disc is knocked away the board it uncovers matches at once.
* Exposure and white-balance drift shift the whole picture at once; a per-channel offset between
  the frame and the model, the median over a sparse grid of known pixels, is taken out before
  differencing, so a drift between updates does not light up the whole board.
* The noise level (the typical weighted difference of board pixels on still frames) is kept as a
  running figure and sets the streak threshold; nothing per frame scans the whole image for it.
"""

from __future__ import annotations

import cv2
import numpy as np

from tracker.detect.lab_weights import WEIGHTS32 as WEIGHTS

# Weights of the L, a and b channels in the difference (a and b carry hue: wooden discs).
GRID = 4  # sparse grid step (view pixels) for the exposure offset and the noise figure


class BackgroundModel:
    """The empty board in a coarse view of shape ``valid.shape`` (``valid``: the board region)."""

    def __init__(self, valid: np.ndarray, *, rate: float = 0.3, absorb_after: int = 20,
                 close: float = 3.0) -> None:
        self.valid = valid
        # the board's edge band (two view pixels wide): what reaches in from outside crosses it
        self.rim = valid & ~cv2.erode(valid.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        self.rate = rate
        self.absorb_after = absorb_after
        self.close = close  # "close to the model": below this many noise levels
        self.lab: np.ndarray | None = None
        # Start from the first still frame when no ``reset`` came first (the video pipeline turns
        # this on: after a camera bump its new detector has no empty-board frame). Off, a detector
        # used on its own reports no streaks unless it was given a background.
        self.auto_start = False
        self.known = np.zeros(valid.shape, bool)
        self.noise = 2.0  # weighted Lab units, running
        self._stale = np.zeros(valid.shape, np.uint8)  # still updates in a row a pixel has differed
        self.offset = np.zeros(3, np.float32)
        self.updates = 0
        # Where the sharp discs of the previous call lay (mm): the streak finder tells discs that
        # moved from discs at rest by it.
        self.previous_xy = np.zeros((0, 2))
        # and the disc-wide capsules it saw then (centre, blur vector; mm): a streak that stays
        # where it was is no disc in flight
        self.previous_streaks: list[tuple[np.ndarray, np.ndarray]] = []

    @staticmethod
    def _on_grid(a: np.ndarray) -> np.ndarray:
        """The pixels of the sparse grid (every ``GRID``-th row and column), row by row: (N,) or
        (N, channels)."""
        g = a[::GRID, ::GRID]
        return g.reshape(-1, *a.shape[2:])

    @property
    def ready(self) -> bool:
        return self.lab is not None

    @staticmethod
    def prepare(lab: np.ndarray) -> np.ndarray:
        """The form the model and the streak finder compare: Lab blurred by one view pixel."""
        return cv2.GaussianBlur(lab, (0, 0), 1.0)

    def reset(self, blurred: np.ndarray, covered: np.ndarray | None = None) -> None:
        """Start from one (blurred) view; ``covered`` marks where discs lie (board unseen)."""
        self.lab = blurred.astype(np.float32, copy=True)
        self.known = self.valid.copy() if covered is None else self.valid & ~covered
        self._stale[:] = 0
        self.offset[:] = 0
        self.updates = 0

    # ------------------------------------------------------------------ per frame
    def exposure_offset(self, blurred: np.ndarray) -> np.ndarray:
        """Per-channel median of (frame - model) on the sparse grid of known pixels."""
        assert self.lab is not None
        k = self._on_grid(self.known)
        if int(k.sum()) < 20:
            return np.zeros(3, np.float32)
        d = self._on_grid(blurred)[k] - self._on_grid(self.lab)[k]
        return _median_rows(d).astype(np.float32)

    def difference(self, blurred: np.ndarray, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """Weighted absolute Lab difference from the model (exposure drift taken out), 0 where
        the board was never seen. ``box`` = (y0, y1, x0, x1) limits the work to a window; the
        result then has the window's shape."""
        assert self.lab is not None
        y0, y1, x0, x1 = box if box is not None else (0, self.lab.shape[0], 0, self.lab.shape[1])
        cur = blurred[y0:y1, x0:x1] if blurred.shape[:2] != (y1 - y0, x1 - x0) else blurred
        model = self.lab[y0:y1, x0:x1]
        # (The offset is zero but between ``update``'s steps; adding a zero per channel is a
        # whole-view broadcast that cost more than the rest of this together.)
        d = cv2.absdiff(cur, model + self.offset if self.offset.any() else model)
        diff = cv2.transform(d, WEIGHTS.reshape(1, 3))
        # 0 where never seen (a difference is never negative: times 0 or 1 is the same as
        # setting those pixels to 0, without the masked copy)
        np.multiply(diff, self.known[y0:y1, x0:x1], out=diff)
        return np.asarray(diff)

    def threshold(self, floor: float) -> float:
        return max(floor, 4.0 * self.noise)

    def update(self, blurred: np.ndarray, covered: np.ndarray) -> None:
        """Learn from a still frame (see the module docstring); ``covered``: resting discs."""
        if self.lab is None:
            if self.auto_start:
                self.reset(blurred, covered)
            return
        # The model follows the exposure: the offset goes into the model, then back to zero.
        off = self.exposure_offset(blurred)
        if off.any():  # (per channel in OpenCV: the same float32 sums as ``self.lab += off``,
            # without numpy's broadcast of 3 values over the whole view, 0.8 ms at 1280x720)
            cv2.add(self.lab, (float(off[0]), float(off[1]), float(off[2]), 0.0), dst=self.lab)
        self.offset = np.zeros(3, np.float32)
        diff = cv2.transform(cv2.absdiff(blurred, self.lab), WEIGHTS.reshape(1, 3))
        free = self.valid & ~covered
        near = diff < self.close * max(self.noise, 1.0)
        blend = free & near & self.known
        far = free & ~near
        # still updates in a row each pixel has differed (0 where it matches or is covered)
        stale = np.minimum(self._stale, 254)
        stale += 1
        stale *= far
        self._stale = stale
        absorb = (free & ~self.known) | (far & (self._stale >= self.absorb_after))
        cv2.accumulateWeighted(blurred, self.lab, self.rate, mask=blend.view(np.uint8))
        # (Nothing to absorb on most calls; a masked copy in OpenCV when there is.)
        if absorb.any():
            cv2.copyTo(blurred, absorb.view(np.uint8), self.lab)
            self.known |= absorb
            self._stale[absorb] = 0
        g = self._on_grid(blend)
        if int(g.sum()) >= 20:
            level = float(np.median(self._on_grid(diff)[g]))
            self.noise = level if self.updates == 0 else 0.7 * self.noise + 0.3 * level
        self.updates += 1


def _median_rows(d: np.ndarray) -> np.ndarray:
    """``np.median(d, axis=0)`` of an (N, C) array, the same values, from each channel's
    contiguous copy (the strided median along axis 0 was a quarter of a model update)."""
    return np.median(np.ascontiguousarray(d.T), axis=1)


def silhouettes(shape: tuple[int, int], centres_px: np.ndarray, shifted_px: np.ndarray,
                radii_px: np.ndarray) -> np.ndarray:
    """Boolean mask of discs: for each, the circle at its foot and at its top face's apparent
    place (``shifted_px``) and the band between them."""
    mask = np.zeros(shape, np.uint8)
    for (u, v), (u2, v2), r in zip(centres_px, shifted_px, radii_px, strict=True):
        rr = int(np.ceil(r))
        a, b = (int(round(u)), int(round(v))), (int(round(u2)), int(round(v2)))
        cv2.circle(mask, a, rr, 1, -1)
        cv2.circle(mask, b, rr, 1, -1)
        cv2.line(mask, a, b, 1, 2 * rr)
    return mask.astype(bool)
