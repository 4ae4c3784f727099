"""The chamfer refit waits until a disc holds still: a sliding disc is never refitted, a disc kept
unchanged is refitted once (on the call that keeps it) and reported at the refit from then on, and
a disc settling where one lay on the last call is refitted at once."""

from __future__ import annotations

import numpy as np

from tracker.detect.chamfer import ChamferCorrection
from tracker.detect.datatypes import Detections
from tracker.detect.deferred import SETTLED_MM, DeferredChamfer
from tracker.detect.refine import Fit

REFIT = np.array([0.0, 0.5])  # where the recorder's "refit" puts a disc, from its square centre
FIRST_ORDER = np.array([0.0, 1.0])  # and its first-order shift


class Recorder(ChamferCorrection):
    """A ``ChamferCorrection`` whose refit and shift are known offsets (``apply`` is the real one)."""

    def __init__(self) -> None:  # (no refiner: nothing is fitted)
        self._of = {}
        self.noted: list[tuple[float, float]] = []

    def note(self, frame: np.ndarray, fit: Fit, radius: float) -> None:
        self.noted.append((float(fit.centre[0]), float(fit.centre[1])))
        self._of[np.asarray(fit.centre, float).tobytes()] = fit.centre + REFIT

    def shifted(self, P: np.ndarray) -> np.ndarray:
        return np.asarray(P, float) + FIRST_ORDER


def fit_at(x: float, y: float) -> Fit:
    return Fit(centre=np.array([x, y]), radius=15.9, coverage=0.9, quarter_coverage=0.8, residual=0.2,
               contrast=10.0, mm_per_px=1.0, color=None)


def call(d: DeferredChamfer, fits: list[Fit], kept: Detections, last: Detections | None) -> Detections:
    """One detector call as ``DiscDetector.detect`` makes it: kept discs first, then the new fits."""
    frame = np.zeros((4, 4, 3), np.uint8)
    d.begin(frame, kept, last)
    for f in fits:
        d.accepted(f, 15.9)
    dets = Detections.merge([kept, Detections(xy=np.array([f.centre for f in fits]).reshape(-1, 2))])
    return d.apply(dets, len(dets))


def test_a_sliding_disc_is_never_refitted_and_a_resting_one_once() -> None:
    rec = Recorder()
    d = DeferredChamfer(rec)
    last = Detections.empty()  # (a call before, with no disc: ``None`` is a first call)
    for x in (0.0, 20.0, 40.0, 60.0):  # sliding 20 mm a call
        out = call(d, [fit_at(x, 100.0)], Detections.empty(), last)
        assert np.allclose(out.xy[0], [x + 0.0, 101.0])  # the first-order shift
        last = Detections(xy=np.array([[x, 100.0]]))
    assert rec.noted == []
    # it stops at 60 and is kept unchanged by the next calls: refitted once, on the first of them
    for _ in range(3):
        out = call(d, [], last, last)
        assert np.allclose(out.xy[0], [60.0, 100.5])
    assert rec.noted == [(60.0, 100.0)] and d.refits == 1


def test_a_disc_settling_where_one_lay_is_refitted_at_once() -> None:
    rec = Recorder()
    d = DeferredChamfer(rec)
    last = Detections(xy=np.array([[10.0, 10.0]]))
    near = 10.0 + 0.5 * SETTLED_MM
    out = call(d, [fit_at(near, 10.0)], Detections.empty(), last)
    assert rec.noted == [(near, 10.0)] and np.allclose(out.xy[0], [near, 10.5])
    far = 10.0 + 3.0 * SETTLED_MM
    out = call(d, [fit_at(far, 10.0)], Detections.empty(), Detections(xy=np.array([[near, 10.0]])))
    assert len(rec.noted) == 1 and np.allclose(out.xy[0], [far, 11.0])


def test_a_pending_disc_that_moves_on_is_forgotten() -> None:
    rec = Recorder()
    d = DeferredChamfer(rec)
    call(d, [fit_at(0.0, 0.0)], Detections.empty(), Detections.empty())
    call(d, [fit_at(30.0, 0.0)], Detections.empty(), Detections(xy=np.array([[0.0, 0.0]])))
    # a disc later kept at the first place is not the pending one any more: nothing to refit
    out = call(d, [], Detections(xy=np.array([[0.0, 0.0]])), Detections(xy=np.array([[30.0, 0.0]])))
    assert rec.noted == [] and np.allclose(out.xy[0], [0.0, 0.0])


def test_the_first_call_refits_every_disc_at_once() -> None:
    """A single frame (or the first of a video, or the first after a reset) has nothing to wait for."""
    rec = Recorder()
    d = DeferredChamfer(rec)
    out = call(d, [fit_at(0.0, 0.0), fit_at(80.0, 0.0)], Detections.empty(), None)
    assert rec.noted == [(0.0, 0.0), (80.0, 0.0)] and np.allclose(out.xy, [[0.0, 0.5], [80.0, 0.5]])
