"""A cheap test that a frame shows the same picture as the last frame the detector saw.

Most of a match is discs at rest between shots; re-detecting them on every frame is most of the
cost of a review. A 64-pixel-wide grey thumbnail is compared with the one of the last detected
frame: when no thumbnail pixel changed by more than ``threshold`` grey levels, nothing on the
board moved by more than a fraction of a disc and the last detections still hold. A hand entering,
a disc starting to slide or a camera bump each change many thumbnail pixels by far more. The gate
also forces a fresh detection every ``max_skip`` frames so slow drifts are never missed.

Cost matters here more than anywhere: the gate runs on every frame, and at 1280x720 a plain
area-resize of the whole frame costs as much as decoding it. So the thumbnail is an average of a
sparse grid of pixels: a nearest-neighbour shrink to four times the thumbnail size (16 samples per
thumbnail pixel, enough to average sensor noise and compression speckle down by four), then an
area shrink. The thumbnail of the frame just tested is kept until the next call, so ``remember``
after ``still`` on the same frame costs nothing.

With ``adaptive`` (opt-in, ``Pipeline.adaptive_gate``), the threshold follows the picture's own
noise. Between two frames of a still board every thumbnail pixel differs a little (sensor
noise, compression); the largest of those differences is what the fixed threshold is compared with, and on a noisy camera (the renderer's hard preset)
it is 7-11 grey levels, so a fixed 6 called almost no frame still (the detector ran on 733 of
735 frames of a 1280x720 match, some 285 of them on a still board). The noise is measured as
the mean absolute difference of the thumbnail's pixels, on tests where nothing moved much (the
largest difference within twice the threshold), as a running median of the last
``NOISE_TESTS`` (a hand or a disc moving changes few thumbnail pixels' mean, and is left out);
the threshold is ``NOISE_TO_MAX`` times that, never above ``MAX_RAISE`` times the given
``threshold`` (a disc starting to slide, or a hand coming in, changes a thumbnail pixel by tens
of grey levels). It is raised only when the noise would defeat the given one outright (its
expected largest difference beyond ``RAISE_FROM`` times it); a picture whose noise only
sometimes reaches the given threshold keeps it: korona's hard preset (largest noise difference
4-5, estimate 5-6) works with 6, and a raise there changed which frames the detector saw and
with it the rim rows it completed (k4h_8806: pockets 80%/67% -> 80%/50%). It is off for
both games (``pipeline.ADAPTIVE_GATE``: on crokinole it lost a hard round, c4h_9303). Korona's
reviews still move with the detector's schedule (with the gate and the passes counted in frames, ``FullPasses``,
k4h_8806's pockets went 60%/100% -> 40%/67%).

The block test (``blocks``, opt-in: ``pipeline.BLOCK_GATE``, off; why there) is a second opinion
on a frame the thumbnail calls changed, but not by much (its largest difference within
``BLOCK_ASK_BELOW`` times the threshold): a plain area shrink of the whole frame to
``BLOCKS_WIDE`` pixels wide (16x16-pixel blocks at 1280x720, 0.7 ms against the thumbnail's
0.2, so only asked when the thumbnail failed), compared with the same shrink of the last frame
the detector processed. Averaging every pixel of a block takes sensor noise down ~16 times
(the sparse thumbnail's 16 samples: 4 times): on the hard preset's 1280x720 crokinole the
largest block difference on a still board is 4-6 grey levels (the thumbnail's 7-11), while a
disc moving by a pixel changes the blocks on its edge by ~7 and a slide or a hand by tens. Its
threshold is the given one, raised to ``NOISE_TO_MAX`` times the running median of its own mean
difference on quiet tests, at most ``BLOCK_MAX_RAISE`` times the given one (1: not raised; 2
lost more rounds, ``pipeline.BLOCK_GATE``). Compared with the
last detected frame, not the previous one, a slow creep adds up until it trips the test (a
quarter pixel a frame: after 0.75-1 px, test_stillness). c4h_9503, the gate alone on every
frame the detector would see: 0 of 715 frames still; with the block test 244 (277 with the raise;
c2h_9502 261 -> 294 of 717, c2e_9501 347 -> 353 of 759).

The board test (``board``, opt-in: ``pipeline.BOARD_GATE``, off; ``board_gate.py``) replaces the
thumbnail's verdict: the board alone, averaged over disc-sized cells, against its own noise.
"""

from __future__ import annotations

import numpy as np

from tracker.pipeline.board_gate import BoardGate

SAMPLES = 4  # grid samples per thumbnail pixel, along each axis
# The largest of a still board's ~1000-2300 thumbnail differences against their mean: about 4.4
# for Gaussian noise (3.5 sigma against 0.8 sigma), 5 measured on the hard preset (c4h_8803,
# median of 370 quiet frames); the margin keeps 99% of quiet frames under it.
NOISE_TO_MAX = 6.5
NOISE_TESTS = 31  # the running median's length (about a second at 30 fps)
MAX_RAISE = 3.0  # the noise raises the threshold at most this many times
RAISE_FROM = 1.5  # ... and only when it would put it beyond this many times
# The block test (``blocks``): the width of its area-shrunk thumbnail (16x16-pixel blocks at
# 1280x720), how far its noise may raise the threshold, and the largest thumbnail difference
# beyond which the frame is moving without asking it (a hand or a sliding disc: tens of levels).
BLOCKS_WIDE = 80
BLOCK_MAX_RAISE = 1.0
BLOCK_ASK_BELOW = 4.0


class StillnessGate:
    def __init__(self, width: int = 64, threshold: float = 6.0, max_skip: int = 10,
                 adaptive: bool = False, blocks: bool = False, board: BoardGate | None = None) -> None:
        self.width = width
        # the board test (``board_gate.py``): when given, it alone says whether the picture changed
        self.board = board
        # a frame the thumbnail calls changed is asked again on a full area shrink (module docstring)
        self.blocks = blocks
        self._block_ref: np.ndarray | None = None
        self._block_noise: list[float] = []
        self.block_threshold = threshold
        self.adaptive = adaptive  # the threshold follows the measured noise (module docstring)
        self.base = threshold  # the threshold on a clean picture
        self.threshold = threshold  # in use: raised by the measured noise
        self._noise: list[float] = []  # mean differences of quiet tests, the latest last
        self.max_skip = max_skip
        self._ref: np.ndarray | None = None
        self._skipped = 0
        self.changed = 0.0
        # the frame ``still`` last tested (held, so it is that very object) and its thumbnail,
        # for the ``remember`` that follows on the same frame (then dropped: a camera source may
        # read the next picture into the same buffer)
        self._last: tuple[np.ndarray, np.ndarray] | None = None

    def _thumb(self, frame: np.ndarray) -> np.ndarray:
        import cv2

        h, w = frame.shape[:2]
        size = (self.width, max(1, round(self.width * h / w)))
        grid = (size[0] * SAMPLES, size[1] * SAMPLES)
        if grid[0] < w and grid[1] < h:
            frame = cv2.resize(frame, grid, interpolation=cv2.INTER_NEAREST)
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        grey: np.ndarray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.int16)
        return grey

    def still(self, frame: np.ndarray) -> bool:
        """True when ``frame`` may reuse the last detections."""
        self.changed = 0.0
        thumb = self._thumb(frame)
        self._last = (frame, thumb)
        board_still = self.board is not None and self.board.still(frame)
        if self._ref is None:
            return False
        diff = np.abs(thumb - self._ref)
        # share of the picture that changed a lot: near 1 on a cut or a camera bump
        self.changed = float((diff > 4 * self.base).mean())
        largest = int(diff.max())
        if self.adaptive and largest <= 2 * self.threshold:
            self._learn_noise(float(diff.mean()))
        if self._skipped >= self.max_skip:
            return False
        if self.board is not None:
            if not board_still:
                return False
        elif largest > self.threshold and not (
                self.blocks and largest <= BLOCK_ASK_BELOW * self.threshold and self._blocks_still(frame)):
            return False
        self._skipped += 1
        return True

    def _block_thumb(self, frame: np.ndarray) -> np.ndarray:
        import cv2

        h, w = frame.shape[:2]
        size = (BLOCKS_WIDE, max(1, round(BLOCKS_WIDE * h / w)))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        grey: np.ndarray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.int16)
        return grey

    def _blocks_still(self, frame: np.ndarray) -> bool:
        """The block test: no block of the frame's area shrink changed beyond its noise since
        the last detected frame."""
        if self._block_ref is None:
            return False
        diff = np.abs(self._block_thumb(frame) - self._block_ref)
        largest = int(diff.max())
        if largest <= 2 * self.block_threshold:
            self._block_noise.append(float(diff.mean()))
            del self._block_noise[:-NOISE_TESTS]
            wanted = NOISE_TO_MAX * float(np.median(self._block_noise))
            self.block_threshold = min(BLOCK_MAX_RAISE * self.base, max(self.base, wanted))
        return largest <= self.block_threshold

    def _learn_noise(self, mean_diff: float) -> None:
        self._noise.append(mean_diff)
        del self._noise[:-NOISE_TESTS]
        wanted = NOISE_TO_MAX * float(np.median(self._noise))
        self.threshold = min(MAX_RAISE * self.base, wanted) if wanted > RAISE_FROM * self.base else self.base

    def remember(self, frame: np.ndarray) -> None:
        """Call after detecting on ``frame``."""
        last, self._last = self._last, None
        self._ref = last[1] if last is not None and last[0] is frame else self._thumb(frame)
        if self.board is not None:
            self.board.remember(frame)
        if self.blocks:
            self._block_ref = self._block_thumb(frame)
        self._skipped = 0


class Settling:
    """When the board has settled after motion, so that one full detector pass is due.

    The detector's passes during motion search only where the picture changed between two
    detected frames, and the gate skips frames it calls still, so a disc set down while nothing
    seemed to move (korona_pocket: a north disc laid in its row during the setup) is never
    searched for. One full pass once the board has settled finds it. Settled means
    ``frames`` frames in a row with a still picture and nothing moving, after motion: the
    first still frame is often a hand's pause before the flick at 10 fps, and a pass there
    found patches of board framed by the hand's shadow and painted lines. A frame the gate
    re-detects only because it skipped many (``max_skip``) is not motion: only a view that
    changed (``changed``) or a moving track is.
    """

    def __init__(self, frames: int) -> None:
        self.frames = max(2, frames)
        self.unsettled = False  # something moved since the last full pass
        self.calm = 0  # still frames in a row with nothing moving

    def step(self, still: bool, moving: bool) -> tuple[bool, bool]:
        """For one frame: (detect on it, as a full pass)."""
        calm = still and not moving
        self.calm = self.calm + 1 if calm else 0
        settled = self.unsettled and self.calm >= self.frames
        return (not calm or settled), settled

    def detected(self, full: bool, moving: bool, changed: bool) -> None:
        """After a detection: ``changed``, the detector saw the view change since its last call."""
        self.unsettled = not full and (self.unsettled or moving or changed)


class FullPasses:
    """The periodic full detector pass, every ``frames`` frames of the video, counted in frames
    seen (time), not in detector calls.

    Between full passes the detector searches only where its view changed, and some finds are
    made on full passes only (korona's rows against the rim, ``rows.py``). Counted in calls
    (``DetectorSettings.refresh_frames`` alone), a gate that lets more still frames go without
    the detector (``StillnessGate(adaptive=True)``) made full passes rarer, and with them the rows
    found (k4h_9906: shots 75% -> 50%). Counted in frames, a pass is due as often whatever the
    gate does; it is made on the next frame the detector runs on anyway (at the latest the
    gate's ``max_skip``-th). The passes after the board settles (``Settling``) come besides these
    and do not move them. Opt-in (``Pipeline.frame_passes``): with the adaptive gate,
    crokinole_4p_part went from exact to 0/1 (a phantom north disc took west's shot, A 30 -> 40)
    whether a due pass waited for the next detected frame or was forced onto the very frame,
    looking still or not (with the fixed gate too), where the detector's own count keeps it
    exact: reviews still move with the frames full passes fall on.
    """

    def __init__(self, frames: int = 50) -> None:
        self.frames = frames  # 0: none (the detector counts its calls)
        self.last: int | None = None  # the frame of the last periodic pass (or the first detection)

    def due(self, index: int) -> bool:
        """A periodic full pass is due on frame ``index``."""
        return self.frames > 0 and self.last is not None and index - self.last >= self.frames

    def detected(self, index: int, periodic: bool) -> None:
        """After a detection on frame ``index`` (``periodic``: the pass that was due)."""
        if periodic or self.last is None:
            self.last = index
