"""With ``Pipeline.frame_passes`` the periodic full detector pass is counted in frames of the
video, not in detector calls (``stillness.FullPasses``): a gate that lets still frames go without
the detector does not make full passes rarer (korona's rows against the rim are found on full
passes only)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import Detections
from tracker.pipeline import Pipeline
from tracker.pipeline.stillness import FullPasses

SIZE = 240


class CountingDetector:
    """Stands in for ``DiscDetector``: which frames it saw, and which of them as full passes."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.full: list[int] = []
        self.changed = False
        self._asked = False
        self.frame = 0

    def refresh(self) -> None:
        self._asked = True

    def detect(self, frame: np.ndarray) -> Detections:
        self.calls.append(self.frame)
        if self._asked:
            self.full.append(self.frame)
        self._asked = False
        return Detections.empty()


def pipeline(board: CrokinoleBoard | KoronaBoard, frame_passes: bool = False) -> Pipeline:
    half = board.half if isinstance(board, KoronaBoard) else board.ditch_outer_radius + 10.0
    mpp = 2 * half / SIZE
    c = SIZE / 2
    H = np.array([[mpp, 0, -c * mpp], [0, -mpp, c * mpp], [0, 0, 1.0]])
    Pipeline.frame_passes = frame_passes
    try:
        return Pipeline(board.game, 2, calib=Calibration(homography=H, image_size=(SIZE, SIZE), rms_mm=0.0,
                                                         board=board), fps=30.0)
    finally:
        Pipeline.frame_passes = False


def test_a_full_pass_every_50_frames_though_the_gate_skips_most() -> None:
    p = pipeline(CrokinoleBoard(), frame_passes=True)  # (the adaptive gate's game)
    det = CountingDetector()
    p.detector = det  # type: ignore[assignment]
    rng = np.random.default_rng(0)
    still = np.full((SIZE, SIZE, 3), (120, 170, 215), np.uint8)
    for i in range(121):
        det.frame = i
        frame = np.clip(still + rng.normal(0.0, 1.0, still.shape), 0, 255).astype(np.uint8)
        p.process(frame, i / 30.0, i)
    assert len(det.calls) < 30  # the gate let most still frames go
    # due at 50 and 100, made on the next frames the gate sends (every max_skip + 1 = 11th);
    # counted in detector calls, the first would come after 50 calls
    assert det.full == [55, 110]


def test_due_counts_frames_from_the_last_periodic_pass() -> None:
    f = FullPasses(5)
    assert not f.due(0)  # nothing detected yet: the first call is a full pass anyway
    f.detected(3, periodic=False)
    assert not f.due(7) and f.due(8)
    f.detected(6, periodic=False)  # another (incremental or settling) pass does not move it
    assert f.due(8)
    f.detected(9, periodic=True)
    assert not f.due(13) and f.due(14)


def test_by_default_the_detector_counts_its_calls_and_the_gate_is_fixed() -> None:
    boards: list[tuple[CrokinoleBoard | KoronaBoard, bool]] = [(KoronaBoard(), False), (CrokinoleBoard(), False)]
    for board, adaptive in boards:
        p = pipeline(board)
        assert p.gate.adaptive == adaptive and p.detector.periodic
        p.passes.detected(0, periodic=False)
        assert not p.passes.due(10_000)
