"""The camera is bumped and the board fitted again: resting discs were measured through the old
fit until then (a few mm off), and the first frames of the new fit put them back. That correction
is not motion: the next shot is judged from where its disc really waited, and the discs it never
touched stay out of its record (crokinole_4p_part: the jump back made a resting disc the first to
move, and the real shot was rejected as "not where a shot starts")."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.pipeline import Pipeline
from tracker.track import Tracker
from tracker.track.synthetic import World

from .bumped import assert_south_shot_scored

SHIFT = np.array([12.0, -11.0])  # mm: where the old fit puts everything once the camera moved


def shifted(det: Detections, part: float = 1.0) -> Detections:
    out = det[np.arange(len(det))]
    out.xy = out.xy + part * SHIFT
    return out


def bumped_match() -> tuple[World, list[tuple[float, Detections, bool]]]:
    """A north disc resting inside, south's next disc on the shooting line; the camera is nudged
    from 1.0 s to 1.3 s (the old fit sees the discs creep), the board is fitted again at 2.0 s,
    south shoots at 2.2 s. Frames: (t, dets, refit)."""
    w = World(CrokinoleBoard(), seed=3)
    w.place("n1", -58.0, 86.0, cls=1)
    w.place("s2", 13.0, -303.0, cls=0)
    w.run(2.2)
    w.shoot("s2", -10.0, 1000.0)
    w.settle()
    frames = []
    for t, det in w.frames:
        part = float(np.clip((t - 1.0) / 0.3, 0.0, 1.0)) if t < 2.0 - 1e-9 else 0.0
        frames.append((t, shifted(det, part), abs(t - 2.0) < 1e-6))
    return w, frames


def test_shot_after_a_new_fit_is_judged_from_where_the_disc_waited() -> None:
    w, frames = bumped_match()
    p = Pipeline("crokinole", 2)
    p.start_tracking(w.board)
    for i, (t, det, refit) in enumerate(frames):
        if refit:  # what ``Pipeline._start`` does on a new fit (a new board object)
            p.board = p.tracker.board = CrokinoleBoard()
        p.process_detections(det, t, i)
    p.finish()
    assert_south_shot_scored(p, w.truth_end()["s2"])


def test_rebase_moves_resting_tracks_to_the_new_fit_without_motion() -> None:
    board = CrokinoleBoard()
    tk = Tracker(board)
    still = Detections(xy=np.array([[-58.0, 86.0], [100.0, 0.0]]), cls=np.array([1, 0]))
    for k in range(10):
        tk.update(still, k / 30)
    moved = Detections(xy=still.xy + SHIFT, cls=still.cls)
    only_one = moved[np.array([0])]  # the other disc is not seen in the first frame of the fit
    ids = tk.rebase(only_one, 10 / 30)
    assert len(ids) == 1
    tr = tk.get(ids[0])
    assert tr is not None and np.allclose(tr.position(), moved.xy[0])
    for k in range(11, 20):
        tk.update(only_one, k / 30)
    assert all(tr.state == "rest" for tr in tk.tracks)
    assert np.allclose(tk.get(ids[0]).position(), moved.xy[0], atol=0.01)  # type: ignore[union-attr]
    other = next(tr for tr in tk.tracks if tr.id != ids[0])
    assert np.allclose(other.position(), still.xy[1], atol=0.01)  # no detection near: left alone


def test_without_rebase_the_same_correction_reads_as_motion() -> None:
    """The ground the rebase stands on: the tracker takes such a jump for a move, or for a new
    disc beside a covered one; either way not for the same disc resting where it was."""
    tk = Tracker(CrokinoleBoard())
    still = Detections(xy=np.array([[-58.0, 86.0]]), cls=np.array([1]))
    for k in range(10):
        tk.update(still, k / 30)
    for k in range(10, 20):
        tk.update(Detections(xy=still.xy + SHIFT, cls=still.cls), k / 30)
    first = tk.tracks[0]
    assert len(tk.tracks) > 1 or first.rest_xy is not None
