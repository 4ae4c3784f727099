"""A resting disc last seen blended with the unseen disc that struck it (hand-made detections,
board mm): ``merge.left_its_place`` judges from its last sighting at its place."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker, merge

FPS = 30.0


def dets(*xy: tuple[float, float]) -> Detections:
    return Detections(xy=np.array(xy, float).reshape(-1, 2), radius=np.full(len(xy), 16.0))


def _flight() -> list[tuple[float, float]]:
    """North's n1 knocked from (-57, -15) towards the west line, slowing (c4h_9945 at 12.1 s)."""
    return [(-89.0, 4.0), (-107.0, 14.0), (-127.0, 24.0), (-148.0, 38.0), (-163.0, 47.0), (-179.0, 56.0),
            (-194.0, 64.0), (-208.0, 72.0), (-220.0, 80.0), (-233.0, 85.0), (-242.0, 92.0), (-252.0, 97.0),
            (-260.0, 101.0), (-266.0, 105.0), (-272.0, 109.0), (-278.0, 111.0), (-280.0, 113.0), (-283.0, 115.0)]


def _run() -> tuple[Tracker, list[int]]:
    n1 = (-57.0, -15.0)
    flight = _flight()
    tk = Tracker(CrokinoleBoard())
    for k in range(40):
        tk.update(dets(n1), k / FPS)
    first = [tr.id for tr in tk.tracks]
    tk.update(dets((-49.0, -21.0)), 40 / FPS)  # n1 and east's dark e1 (never found) as one blob
    for k, q in enumerate(flight + [flight[-1]] * 20):
        tk.update(dets(q), (41 + k) / FPS)
    return tk, first


@pytest.mark.parametrize("at_place", [True, False])
def test_a_disc_last_seen_blended_with_its_striker_is_the_disc_found_flying_off(at_place: bool,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """North's n1 rests at (-57, -15). East's dark e1, never found by the detector, strikes it;
    the frame before n1 flies off it is found once 10 mm towards e1 (the two as one blob), and
    then flying west at 600 mm/s. From its place (not from that blob) it could get to its first
    sighting in flight in the two frames between: the flying disc is n1, and nothing rests at
    its place. Judged from the blob (off: ``merge.AT_PLACE``) it seemed too slow for n1: n1 stayed,
    covered, and the flying disc was a new one."""
    monkeypatch.setattr(merge, "AT_PLACE", at_place)
    tk, first = _run()
    n1 = next(tr for tr in tk.tracks if tr.id == first[0])
    moved = n1.state == "rest" and np.hypot(*(np.array(n1.position()) - (-283.0, 115.0))) < 3.0
    assert moved == at_place, [(tr.id, tr.state, tr.position()) for tr in tk.tracks]
    assert (len(tk.tracks) == 1) == at_place, [(tr.id, tr.state, tr.position()) for tr in tk.tracks]
