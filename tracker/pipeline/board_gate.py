"""The stillness gate's board test: the board alone, averaged over disc-sized cells.

The gate's thumbnail (``stillness.py``) looks at the whole picture, 16 sparse samples a pixel.
On the renderer's hard preset it almost never calls a frame still: the sensor noise is 3-8 grey
levels a frame, so the largest of its ~2300 pixel differences is 7-11 levels on a still board,
and players' hands move beside the board on most frames. What matters to the detector is the
board: a disc moving, set down or lifted, or a hand over the board.

So this test averages the board's part of the picture (its outline seen through the calibration,
``BoardCells.of``) over square cells about a disc's radius wide (``CELL_OF_RADIUS``; at 1280x720
7-9 image pixels, each cell the mean of ~64 pixels: the noise down some 8 times, a cut of
OpenCV's area shrink), in grey, and compares every cell with the same cell of the last frame the
detector processed (so a slow creep adds up until it trips the test). The frame is still when no
cell on the board changed beyond the threshold. A disc moving by a pixel changes the cells on its
edge by its contrast over the cell's width (a dark disc on a light board: ~5-10 levels); a hand
or a disc set down or sliding, by tens.

The threshold follows the picture's noise: the median cell difference of each test (a hand over
part of the board leaves the median to the rest), as a running median of the last
``NOISE_TESTS`` tests, times ``NOISE_TO_MAX`` (the largest of a few thousand Gaussian
differences is ~4 standard deviations, the median absolute 0.67 of one), held between
``MIN_LEVEL`` (a clean picture's rounding and compression) and ``MAX_LEVEL`` (a picture so noisy
that a disc moving by a pixel would hide in it gets no still frames from the raise).

Opt-in (``Pipeline.board_gate``, ``pipeline.BOARD_GATE``, off for both games). It calls about
half the frames still where the thumbnail called none on a noisy camera (c4h_9503: 342 of 715,
0 without; c2e_9501 358 of 759, 305 without; k2e_9505 405 of 1227, 315 without; k4h_9506 369
of 1141, 0 without), but the
detector's work is mostly deferred, not saved: the chamfer and creep refits of kept discs come
on its next call (``deferred.py``), and the changes of the skipped frames add up into one
search. Review CPU a frame (``bench_speed.py``, run back to back): c4h_9503 35.4 -> 27.9 ms,
c2e_9501 14.6 -> 14.5, k2e_9505 25.4 -> 25.5, k4h_9506 76.9 -> 53.2 (korona's noisy camera
searches the whole view on every call: there a skipped call is saved). And which frames the detector sees moves the
reviews (``stillness.py``, ``change_noise.py``): full reviews against main, k4h_9506 shots
100%/100% -> 50%/80% and pockets 67% -> 33%; c2h_9802 a shot lost (12.5 switches a 100 shots);
crokinole_4p_part its exact round (a false shot and removal); c2h_9932 a false 20; c4h_9921
positions' p95 3.89 -> 5.41 mm (one false 20 fewer); c2e_9501 as main; korona's positions at rest better (k2e_9505 1.50/3.30 -> 0.42/0.98 mm, k2e_9935 0.98/2.27 ->
0.29/0.82) with pockets' precision down on korona_2p_game and korona_4p_part. With the full
passes counted in frames too (``Pipeline.frame_passes``) c2h_9802 got no better.
"""

from __future__ import annotations

import numpy as np

from tracker.calibration.datatypes import Calibration

CELL_OF_RADIUS = 2.0  # a cell's width, in discs' radii (image pixels at the board's centre)
NOISE_TO_MAX = 7.0
NOISE_TESTS = 31  # the running median's length (about a second at 30 fps)
MIN_LEVEL = 3.0  # grey levels
MAX_LEVEL = 8.0


class BoardCells:
    """The board's cells in one camera's picture: the image box they tile and which lie on the board."""

    def __init__(self, box: tuple[int, int, int, int], cell: int, on_board: np.ndarray) -> None:
        self.box = box  # x0, y0, x1, y1 (image pixels; x1 - x0 and y1 - y0 multiples of ``cell``)
        self.cell = cell
        self.on_board = on_board  # (rows, cols) bool

    @classmethod
    def of(cls, calib: Calibration, outline_mm: np.ndarray, disc_radius: float) -> BoardCells | None:
        """The cells over the board whose outline (N, 2) board mm encloses the board (a polygon);
        None when the board is not in the picture."""
        import cv2

        w, h = calib.image_size
        px = np.asarray(calib.to_image(np.asarray(outline_mm, float)), float)
        centre = np.asarray(calib.to_image(np.zeros((1, 2))), float)[0]
        step = np.asarray(calib.to_image(np.array([[disc_radius, 0.0], [0.0, disc_radius]])), float) - centre
        cell = max(1, int(round(CELL_OF_RADIUS * float(np.sqrt(abs(np.linalg.det(step)))))))
        x0, y0 = (max(0, int(np.floor(v))) for v in px.min(axis=0))
        x1, y1 = min(w, int(np.ceil(px[:, 0].max()))), min(h, int(np.ceil(px[:, 1].max())))
        cols, rows = (x1 - x0) // cell, (y1 - y0) // cell
        if cols < 2 or rows < 2:
            return None
        x1, y1 = x0 + cols * cell, y0 + rows * cell
        poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(poly, [np.round(px - (x0, y0)).astype(np.int32)], 1)
        on = cv2.resize(poly, (cols, rows), interpolation=cv2.INTER_AREA) > 0
        return cls((x0, y0, x1, y1), cell, on)

    def grey(self, frame: np.ndarray) -> np.ndarray:
        """Each cell's mean grey level (float32, rows x cols)."""
        import cv2

        x0, y0, x1, y1 = self.box
        rows, cols = self.on_board.shape
        small = cv2.resize(frame[y0:y1, x0:x1], (cols, rows), interpolation=cv2.INTER_AREA)
        grey: np.ndarray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
        return grey


def board_outline(board: object, points: int = 64) -> np.ndarray:
    """The outline of a board's playing area with its ditch or pockets (board mm, a polygon)."""
    from tracker.boards import CrokinoleBoard

    if isinstance(board, CrokinoleBoard):
        a = np.linspace(0.0, 2 * np.pi, points, endpoint=False)
        r = float(board.ditch_outer_radius)
        return np.stack([r * np.cos(a), r * np.sin(a)], 1)
    half = float(board.half)  # type: ignore[attr-defined]
    return np.array([[-half, -half], [half, -half], [half, half], [-half, half]])


class BoardGate:
    """The board test (module docstring): ``still`` after ``remember`` on the last detected frame."""

    def __init__(self, cells: BoardCells) -> None:
        self.cells = cells
        self._ref: np.ndarray | None = None
        self._noise: list[float] = []
        self.threshold = MIN_LEVEL
        self.largest = 0.0  # the last test's largest cell difference on the board
        self._last: tuple[np.ndarray, np.ndarray] | None = None

    def still(self, frame: np.ndarray) -> bool:
        grey = self.cells.grey(frame)
        self._last = (frame, grey)
        if self._ref is None:
            return False
        signed = (grey - self._ref)[self.cells.on_board]
        # (less the board's median change: the camera's exposure and white balance drift slowly
        # and evenly, and the reference may be some frames old)
        diff = np.abs(signed - float(np.median(signed)))
        self.largest = float(diff.max())
        self._noise.append(float(np.median(diff)))
        del self._noise[:-NOISE_TESTS]
        self.threshold = min(MAX_LEVEL, max(MIN_LEVEL, NOISE_TO_MAX * float(np.median(self._noise))))
        return self.largest <= self.threshold

    def remember(self, frame: np.ndarray) -> None:
        last, self._last = self._last, None
        self._ref = last[1] if last is not None and last[0] is frame else self.cells.grey(frame)


def board_test(calib: Calibration, on: bool) -> BoardGate | None:
    """The gate's board test for a calibrated camera, when ``on`` (and the board is in view)."""
    if not on:
        return None
    board = calib.board
    cells = BoardCells.of(calib, board_outline(board), float(board.disc_radius))
    return BoardGate(cells) if cells is not None else None
