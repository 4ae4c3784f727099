"""A moving disc unseen as it strikes a resting one (known-truth physics of
``tracker.track.synthetic``): its coast strikes the resting disc instead of running on through
it (``hidden_blows.coast_into_disc``)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker
from tracker.track.synthetic import World

BOARD = CrokinoleBoard()


def test_a_shooter_unseen_as_it_strikes_keeps_its_name() -> None:
    """South's s1 strikes north's n1 (resting at (-150, -100)) a glancing blow at 1100 mm/s, and is
    not seen in the three frames around the blow (as e2 at c4h_9203 23.0 s). Before, its coast ran on
    through n1's place and took n1's next detection: the two discs swapped tracks."""
    w = World(BOARD, fps=30, seed=5, noise_mm=0.3)
    w.place("n1", -150, -100, cls=0)
    w.place("s1", -120, -280, cls=0)  # the same colour: only the motion tells them apart
    w.run(0.5)
    d = np.array([-30.0, 180.0]) / np.hypot(-30.0, 180.0)  # from s1 to n1
    aim = np.array([-150.0, -100.0]) + 29.0 * np.array([d[1], -d[0]])  # 29 mm off: a glancing blow
    v = aim - np.array([-120.0, -280.0])
    w.shoot("s1", *(v / np.hypot(*v) * 1100))
    w.settle(0.6)
    hit = next(t for t, a, b in w.contacts if {a, b} == {"s1", "n1"})
    frames = []
    for t, det in w.frames:  # s1's detections dropped around the blow
        if hit - 1.2 / w.fps <= t <= hit + 2.0 / w.fps:
            s1 = np.array(w.truth_at[t]["s1"])
            keep = np.hypot(*(det.xy - s1).T) > 6.0
            det = Detections(xy=det.xy[keep], radius=det.radius[keep], cls=det.cls[keep], kind=det.kind[keep],
                             where=det.where[keep], streak=det.streak[keep], color=det.color[keep])
        frames.append((t, det))
    tk = Tracker(BOARD)
    start: dict[str, int] = {}
    for t, det in frames:
        tk.update(det, t)
        if not start and len(tk.tracks) == 2:
            start = {name: min(tk.tracks, key=lambda tr: np.hypot(*(tr.xy - xy))).id
                     for name, xy in w.truth_at[t].items()}
    end = w.truth_end()
    for name, tid in start.items():
        tr = tk.get(tid)
        assert tr is not None and isinstance(end[name], tuple)
        assert np.hypot(*(np.array(tr.position()) - end[name])) < 3.0, (name, tr.position(), end)
