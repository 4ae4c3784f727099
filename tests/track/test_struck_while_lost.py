"""A disc the detector lost at rest, struck, and found flying on (hand-made detections after
c4h_9951 at 21.0 s: west's w2, black on a dark board, was not found at rest for seconds; north's
n2 struck it, and it was first found again 210 mm on, 0.27 s later): ``merge.unseen_since``."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker

BOARD = CrokinoleBoard()
FPS = 30.0
W2 = (-223.4, 127.9)


def dets(items: list[tuple[float, float]]) -> Detections:
    return Detections(xy=np.array(items, float).reshape(-1, 2), cls=np.zeros(len(items), int))


def test_a_disc_lost_at_rest_keeps_its_name_when_struck_and_found_flying() -> None:
    tk = Tracker(BOARD)
    k = 0
    for _ in range(30):  # w2 at rest, seen
        tk.update(dets([W2]), k / FPS)
        k += 1
    w2 = next(tr.id for tr in tk.tracks if tr.state == "rest")
    for _ in range(60):  # lost at rest for 2 s (held where it lay)
        tk.update(dets([]), k / FPS)
        k += 1
    # n2 comes down from the north line and stops against it, pushing it south
    n2_rest = (-224.8, 157.8)
    run = [(-195.6 + (n2_rest[0] + 195.6) * f, 232.8 + (n2_rest[1] - 232.8) * f) for f in (0.3, 0.6, 0.85, 1.0)]
    for p in run:
        tk.update(dets([p]), k / FPS)
        k += 1
    way = np.array([-0.15, -0.99]) / np.hypot(-0.15, -0.99)
    for _ in range(4):  # w2 unseen in flight
        tk.update(dets([n2_rest]), k / FPS)
        k += 1
    first = np.add(W2, way * 210.0)
    for j in range(8):  # found flying on, slowing
        tk.update(dets([n2_rest, tuple(first + way * 14.0 * j * (1 - j / 16))]), k / FPS)
        k += 1
    for _ in range(30):
        tk.update(dets([n2_rest, tuple(first + way * 14.0 * 7 * (1 - 7 / 16))]), k / FPS)
        k += 1
    tr = tk.get(w2)
    assert tr is not None and tr.state == "rest"
    assert np.hypot(*(np.array(tr.position()) - (first + way * 14.0 * 7 * (1 - 7 / 16)))) < 3.0


def test_a_disc_never_seen_where_it_is_kept_vanished_when_last_seen() -> None:
    """A disc lost on its way (its place an estimate, never a sighting) is not taken to have left
    it when another disc comes to touch that place: a touch there says nothing of it."""
    from tracker.track.merge import unseen_since

    tk = Tracker(BOARD)
    k = 0
    for _ in range(30):  # a disc at rest on the shooting line, seen
        tk.update(dets([(0.0, -183.0)]), k / FPS)
        k += 1
    for j in range(1, 5):  # shot towards the centre, then lost on its way
        tk.update(dets([(0.0, -183.0 + 30.0 * j)]), k / FPS)
        k += 1
    for _ in range(90):
        tk.update(dets([]), k / FPS)
        k += 1
    kept = next(tr for tr in tk.tracks if tr.state == "rest")
    assert kept.anchor_n <= 1 and kept.occluded
    q = np.asarray(kept.settled_xy, float)
    for j in range(6):  # another disc comes to touch its kept place
        tk.update(dets([(q[0] + 120.0 - 18.0 * j, q[1])]), k / FPS)
        k += 1
    assert unseen_since(tk.tracks, kept, k / FPS) == kept.last_seen
