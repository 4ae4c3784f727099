"""A disc's colour is known from its pixels, so a track never takes over a disc of the other
colour. Hand-made detections in board mm, with the positions and colours (CIE Lab) measured on
c2e_9943 at 7.7-8.1 s: south's light s2, hidden on its line by the hand, was flicked unseen
into north's dark n1 near the centre; s2 was first seen stopped beside n1's place, and n1,
knocked away, first seen 38 mm from where it lay. The track born moving there was joined to
s2's (the light disc vanished last), and n1's later 20 was logged as s2's."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker, TrackerConfig, merge

BOARD = CrokinoleBoard()
LIGHT, DARK = (87.0, 4.0, 33.0), (38.0, 14.0, 24.0)
S2, N1 = (-175.3, -250.3), (-4.8, 16.6)
# after the blow: s2 stopped beside n1's place, n1 knocked north-east off a peg
S2_AFTER = [(-23.5, -6.7), (-24.5, -5.3), (-24.5, -4.9), (-24.6, -5.0), (-24.6, -5.1), (-24.5, -5.1)]
N1_AFTER = [(4.7, 28.6), (25.8, 60.0), (45.4, 73.2), (62.5, 56.0), (75.1, 42.2), (61.0, 28.9)]


def _dets(*finds: tuple[tuple[float, float], tuple[float, float, float]]) -> Detections:
    return Detections(xy=np.array([f[0] for f in finds], float).reshape(-1, 2), radius=np.full(len(finds), 15.9),
                      color=np.array([f[1] for f in finds], float).reshape(-1, 3))


def _run(config: TrackerConfig | None = None) -> tuple[Tracker, int, int, list[int]]:
    """Both discs rest 0.7 s; s2 is hidden 0.27 s, then the blow. Returns the tracker, s2's and
    n1's tracks, and the track given n1's detection on each frame after the blow."""
    fps = 30.0
    tk = Tracker(BOARD, config)
    ids: dict[str, int] = {}
    n1_to: list[int] = []
    for k in range(60):
        t = k / fps
        if k < 20:
            tk.update(_dets((S2, LIGHT), (N1, DARK)), t)
            if k == 5:
                ids = {"s2": int(tk.det_track[0]), "n1": int(tk.det_track[1])}
        elif k < 28:
            tk.update(_dets((N1, DARK)), t)
        elif k - 28 < len(N1_AFTER):
            i = k - 28
            tk.update(_dets((S2_AFTER[i], LIGHT), (N1_AFTER[i], DARK)), t)
            n1_to.append(int(tk.det_track[1]))
        else:
            tk.update(_dets((S2_AFTER[-1], LIGHT)), t)
    return tk, ids["s2"], ids["n1"], n1_to


def test_the_light_shot_disc_does_not_take_the_dark_disc_it_struck() -> None:
    tk, s2, n1, n1_to = _run()
    assert s2 > 0 and n1 > 0
    assert s2 not in n1_to
    tr = tk.get(s2)
    assert tr is not None and np.linalg.norm(np.asarray(tr.color) - LIGHT) < 10.0


def test_without_the_gate_it_did(monkeypatch: pytest.MonkeyPatch) -> None:
    """The setting off (``TrackerConfig.colour_gate = None``): the light track took the dark
    disc's run, as before (``merge.AT_PLACE`` off too: judged from its last sighting at its
    place, n1, whose track took s2's first find beside it, is found to be the disc knocked away)."""
    monkeypatch.setattr(merge, "AT_PLACE", False)
    _, s2, _, n1_to = _run(TrackerConfig(colour_gate=None))
    assert s2 in n1_to


def test_the_colour_gate_is_crokinoles() -> None:
    """Korona's tracker takes no colour gate (it lost a struck disc's run on k2e_9505)."""
    from tracker.boards import CrokinoleBoard, KoronaBoard
    from tracker.track import Tracker

    assert Tracker(CrokinoleBoard()).cfg.colour_gate == 45.0
    assert Tracker(KoronaBoard()).cfg.colour_gate is None
