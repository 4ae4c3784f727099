"""A resting disc struck by a shot disc first seen in flight (a tentative track, not yet a mover)
keeps its identity: hand-made detections from a real 25 fps clip (a north flick into three red
discs that all flew off)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

BOARD = CrokinoleBoard()
FPS = 25.0
RED1, RED2, RED3 = (-89.0, -120.0), (3.0, -155.0), (-32.0, -241.0)
OTHERS = [(53.0, 111.0), (41.0, 242.0)]  # two black discs at rest, far away


def dets(items: list[tuple[float, float, float]]) -> Detections:
    """(x, y, streak length along y) per detection."""
    a = np.array(items, float).reshape(-1, 3)
    return Detections(xy=a[:, :2], streak=np.stack([np.zeros(len(a)), a[:, 2]], axis=1))


def _feed(tk: Tracker, t: float, items: list[tuple[float, float, float]]) -> Detections:
    d = dets(items)
    tk.update(d, t)
    return d


def _track_at(tk: Tracker, d: Detections, xy: tuple[float, float]) -> int:
    """The track given this frame's detection nearest ``xy``."""
    j = int(np.argmin(np.hypot(d.xy[:, 0] - xy[0], d.xy[:, 1] - xy[1])))
    return int(tk.det_track[j])


def test_first_struck_disc_keeps_its_track_when_the_shot_disc_was_first_seen_in_flight() -> None:
    """The shot disc is first found in flight two frames before the row (tentative), then beside
    the first red, whose detection that frame is 37 mm from its rest place; a frame later the
    first red and the second (struck by the first) are both away from their places. Before,
    the first red's moved detection became a new track, the first red took the second red's
    detection (122 mm from its place) and the second red stayed "at rest" where it no longer
    was."""
    rest = [(x, y, 0.0) for x, y in (RED1, RED2, RED3, *OTHERS)]
    tk = Tracker(BOARD)
    t = 0.0
    for _ in range(10):
        d = _feed(tk, t, rest)
        t += 1 / FPS
    ids = {name: _track_at(tk, d, xy) for name, xy in (("red1", RED1), ("red2", RED2), ("red3", RED3))}
    assert len(set(ids.values())) == 3 and min(ids.values()) > 0
    others = [(x, y, 0.0) for x, y in (RED3, *OTHERS)]
    _feed(tk, t, [(x, y, 0.0) for x, y in (RED1, RED2, RED3, *OTHERS)] + [(-149.0, 6.0, 60.0)])  # shot disc, blurred
    t += 1 / FPS
    _feed(tk, t, [(x, y, 0.0) for x, y in (RED2,)] + others + [(-127.0, -103.0, 60.0), (-59.0, -141.0, 20.0)])
    t += 1 / FPS
    d = _feed(tk, t, others + [(-150.0, -189.0, 60.0), (-28.0, -175.0, 30.0), (30.0, -146.0, 30.0)])
    assert _track_at(tk, d, (-28.0, -175.0)) == ids["red1"]
    assert _track_at(tk, d, (30.0, -146.0)) == ids["red2"]
    red2 = next(tr for tr in tk.tracks if tr.id == ids["red2"])
    assert red2.state == "moving"


def test_the_shot_disc_leaving_its_place_makes_no_neighbour_jump() -> None:
    """A disc first seen in flight moving *away* from a resting disc beside it (the shot disc
    leaving its place next to another) lets no resting disc take a far detection."""
    tk = Tracker(BOARD)
    t = 0.0
    rest = [(184.0, 242.0, 0.0), (-100.0, 0.0, 0.0)]
    for _ in range(10):
        d = _feed(tk, t, rest)
        t += 1 / FPS
    keep = _track_at(tk, d, (184.0, 242.0))
    _feed(tk, t, rest + [(175.0, 228.0, 30.0)])
    t += 1 / FPS
    d = _feed(tk, t, [(-100.0, 0.0, 0.0), (155.0, 198.0, 30.0), (179.0, 293.0, 0.0)])
    assert _track_at(tk, d, (179.0, 293.0)) != keep
