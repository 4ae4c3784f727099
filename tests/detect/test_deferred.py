"""The chamfer refit waits until a disc holds still: a sliding disc is never refitted, a disc kept
unchanged is refitted once (on the call that keeps it) and reported at the refit from then on, and
a disc settling where one lay on the last call is refitted at once."""

from __future__ import annotations

import numpy as np

from tracker.detect.chamfer import ChamferCorrection
from tracker.detect.datatypes import Detections
from tracker.detect.deferred import CREEP_CALLS, SETTLED_MM, DeferredChamfer
from tracker.detect.refine import Fit

REFIT = np.array([0.0, 0.5])  # where the recorder's "refit" puts a disc, from its square centre
FIRST_ORDER = np.array([0.0, 1.0])  # and its first-order shift


class Recorder(ChamferCorrection):
    """A ``ChamferCorrection`` whose refit and shift are known offsets (``apply`` is the real one)."""

    def __init__(self) -> None:  # (no refiner: nothing is fitted)
        self._of = {}
        self.noted: list[tuple[float, float]] = []

    def note(self, frame: np.ndarray, fit: Fit, radius: float, key: bytes | None = None) -> None:
        self.noted.append((float(fit.centre[0]), float(fit.centre[1])))
        self._of[np.asarray(fit.centre, float).tobytes() if key is None else key] = fit.centre + REFIT

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


class Creeping:
    """A square-edged refiner standing for the frames: the disc lies at ``at`` (it crept there
    after it was fitted), seen with the outline it was fitted with."""

    def __init__(self, at: tuple[float, float]) -> None:
        self.at = np.array(at, float)
        self.calls = 0

    def refine(self, image: np.ndarray, guess: np.ndarray, radius: float, **kw: object) -> Fit:
        self.calls += 1
        return fit_at(float(self.at[0]), float(self.at[1]))


def test_a_settling_disc_that_creeps_on_unseen_is_reported_where_it_stopped() -> None:
    """c2e_9501 at 14.3 s: s3 was fitted settling 1.9 mm short of where it stopped, and the
    detector, seeing no changed pixel on its silhouette, kept that fit for good. The calls that
    keep it fit it again where it lies; the reported place follows (the detector's own centre,
    the key of its reuse, stays)."""
    rec = Recorder()
    square = Creeping((22.9, 100.0))
    d = DeferredChamfer(rec, square)  # type: ignore[arg-type]
    last = Detections(xy=np.array([[20.0, 100.0]]))
    out = call(d, [fit_at(21.0, 100.0)], Detections.empty(), last)  # settling: within 3 mm
    assert np.allclose(out.xy[0], [21.0, 100.5]) and square.calls == 0
    kept = Detections(xy=np.array([[21.0, 100.0]]))
    for _ in range(CREEP_CALLS + 2):
        out = call(d, [], kept, kept)
        assert np.allclose(out.xy[0], [22.9, 100.5])
    assert square.calls == CREEP_CALLS
    # a disc fitted sliding (not settling) and then kept: the same (c4h_9403 at 14.9 s, 4.2 mm)
    square2 = Creeping((64.0, 100.0))
    d3 = DeferredChamfer(Recorder(), square2)  # type: ignore[arg-type]
    call(d3, [fit_at(60.0, 100.0)], Detections.empty(), Detections(xy=np.array([[40.0, 100.0]])))
    kept3 = Detections(xy=np.array([[60.0, 100.0]]))
    out = call(d3, [], kept3, kept3)
    assert np.allclose(out.xy[0], [64.0, 100.5])
    square.at = np.array([21.0 + 0.5 * 15.9, 100.0])  # something else, a third of a disc off
    d2 = DeferredChamfer(Recorder(), square)  # type: ignore[arg-type]
    call(d2, [fit_at(21.0, 100.0)], Detections.empty(), last)
    out = call(d2, [], kept, kept)
    assert np.allclose(out.xy[0], [21.0, 100.5])
