"""A crokinole shot whose disc was never seen, read from the disc it struck (hand-made detections,
board mm): ``tracker.infer.never_seen.struck_by_never_seen``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.infer.scenes import discs_at, feed, shots, slide_to
from tracker.boards import CrokinoleBoard
from tracker.pipeline import Pipeline

FPS = 30.0
R = 15.875  # the board's disc radius


@pytest.mark.parametrize(("blend", "refit"), [(False, False), (True, False), (False, True)])
def test_a_disc_struck_by_a_shot_disc_nobody_saw_is_no_shot_of_its_own(blend: bool, refit: bool) -> None:
    """South's s1 rests by the centre; north's n1 drives it back to rest against the south
    shooting line. South's next disc, never found by the detector (a dark disc by the ditch's
    shadow), is flicked from the line into s1 and stops where it struck; s1 flies in over the board
    (c4h_9975 at 10.1 s). It is south's shot by a new disc, s2, that struck s1; before, s1 was taken
    for the shot disc (shot twice in a round) and s2 never came into the log. With ``blend``, s1
    is found once 10 mm towards s2 as it is struck (the two as one blob, c4h_9945 at 12.07 s): its
    way is read from its flight, not from that find. With ``refit``, the board is fitted again (the
    camera moved) while s1 rests by the line, which restarts its path there (c2h_9944 at 12.0 s):
    it still lay there since the last shot."""
    board = CrokinoleBoard()
    x = 60.0
    line = math.sqrt(board.shooting_line_radius ** 2 - x * x)
    south, north = (x, -line), (x, line)
    s1_rest, n1_end = (x, 30.0), (x, 30.0 + 2 * R + 0.5)
    s1_back = (x, -273.5)  # by the south shooting line (not touching it)
    s1_knocked = (-60.0, -120.0)
    frames: list[list[tuple[float, float]]] = []
    frames += [[south]] * 20 + [[q] for q in slide_to(south, s1_rest, 20)] + [[s1_rest]] * 40  # south: s1
    frames += [[s1_rest, north]] * 20 + [[s1_rest, q] for q in slide_to(north, n1_end, 20)]  # north: n1 hits s1
    frames += [[q, n1_end] for q in slide_to(s1_rest, s1_back, 20)] + [[s1_back, n1_end]] * 40
    u = np.subtract(s1_knocked, s1_back) / math.dist(s1_knocked, s1_back)
    if blend:
        frames += [[tuple(np.subtract(s1_back, u * 10.0)), n1_end]]
    frames += [[q, n1_end] for q in slide_to(s1_back, s1_knocked, 15)] + [[s1_knocked, n1_end]] * 40  # south, unseen
    p = Pipeline("crokinole", 2)
    p.start_tracking(board)
    for k, rows in enumerate(frames):
        if refit and k == len(frames) - 75:  # s1 at rest by the line, before the unseen shot
            p.board = p.tracker.board = CrokinoleBoard()
        p.process_detections(discs_at(*rows), k / FPS, k)
    p.finish()
    log = shots(p)
    assert [s.seat for s in log] == ["south", "north", "south"], log
    last = log[-1]
    assert last.disc == "s2" and ("s2", "s1") in last.contacts, last
    end, stop = last.end["s1"], last.end["s2"]
    assert isinstance(end, tuple) and math.dist(end, s1_knocked) < 3.0, last
    assert isinstance(stop, tuple) and math.dist(stop, tuple(np.subtract(s1_back, u * 2 * R))) < 3.0, last


def test_the_disc_nobody_saw_stays_in_play_and_is_met_again() -> None:
    """South's unseen s2 drives north's n1 off the centre and stays where it struck (c4h_9945 at
    11.9 s: east's dark e1 into n1). It is a disc in play, kept unseen at that place: when north's
    n2 strikes it there and it is found flying off, that is s2 (c4h_9945 at 16.3 s: s2 into e1, e1
    flew to (182, 237)). Before, the unseen disc's track, never seen, was forgotten within half a
    second as a false find; the disc found flying was nameless, and n2's shot a foul."""
    board = CrokinoleBoard()
    line = board.shooting_line_radius
    south, north = (60.0, -math.sqrt(line ** 2 - 60.0 ** 2)), (-60.0, math.sqrt(line ** 2 - 60.0 ** 2))
    s1_rest, n1_rest = (60.0, 30.0), (60.0, 30.0 + 2 * R + 0.5)
    s1_off, n1_off = (-150.0, -150.0), (200.0, 180.0)
    u = np.subtract(n1_off, n1_rest) / math.dist(n1_off, n1_rest)
    s2_at = tuple(np.subtract(n1_rest, u * 2 * R))  # where the unseen s2 stopped
    u2 = np.subtract(s2_at, north) / math.dist(s2_at, north)
    n2_end = tuple(np.subtract(s2_at, u2 * (2 * R + 0.5)))
    s2_off = (100.0, -130.0)
    frames: list[list[tuple[float, float]]] = []
    frames += [[south]] * 20 + [[q] for q in slide_to(south, s1_rest, 20)] + [[s1_rest]] * 40  # south: s1
    frames += [[s1_rest, north]] * 20 + [[s1_rest, q] for q in slide_to(north, n1_rest, 20)]  # north: n1 hits s1
    frames += [[q, n1_rest] for q in slide_to(s1_rest, s1_off, 15)] + [[s1_off, n1_rest]] * 40
    frames += [[s1_off, q] for q in slide_to(n1_rest, n1_off, 15)] + [[s1_off, n1_off]] * 40  # south: s2, unseen
    frames += [[s1_off, n1_off, north]] * 20 + [[s1_off, n1_off, q] for q in slide_to(north, n2_end, 20)]  # north: n2
    frames += [[s1_off, n1_off, n2_end, q] for q in slide_to(s2_at, s2_off, 15)] + [[s1_off, n1_off, n2_end, s2_off]] * 40
    p = feed([(k / FPS, discs_at(*rows)) for k, rows in enumerate(frames)])
    log = shots(p)
    assert [s.seat for s in log] == ["south", "north", "south", "north"], log
    assert log[2].disc == "s2" and ("s2", "n1") in log[2].contacts, log[2]
    last = log[-1]
    assert ("n2", "s2") in last.contacts, last
    end = last.end["s2"]
    assert isinstance(end, tuple) and math.dist(end, s2_off) < 3.0, last
    assert not [e for e in p.events if e.type == "removed"], p.events


def test_a_disc_resting_where_the_unseen_disc_stopped_is_that_disc_found_late() -> None:
    """``never_seen.found_late``: north's n2 was seen on the line and then only as it stopped,
    where the disc never seen would have stopped, 5.8 mm from that estimate (c4h_10103 at
    19.0 s). Two discs cannot overlap: that disc is the shot disc, and its own place is its end.
    A disc that lay there before the episode and did not move, one that moved but rests a
    diameter or more away, and the struck disc itself are not."""
    from types import SimpleNamespace

    from tracker.infer.never_seen import found_late
    from tracker.track.datatypes import Track

    def resting(i: int, at: tuple[float, float]) -> Track:
        tr = Track(id=i, kind=0, radius=R, xy=np.array(at), anchor=np.array(at), anchor_n=10)
        tr.state = "rest"
        return tr

    stop = np.array([71.6, 159.5])
    n2 = resting(14, (65.8, 158.1))  # rested on the line before, at (129, 277)
    still = resting(5, (80.0, 150.0))  # lay there before and did not move
    far = resting(7, (71.6 + 2 * R + 1.0, 159.5))  # moved, but rests a diameter away
    struck = resting(9, (72.0, 160.0))
    seg = SimpleNamespace(_before={14: (129.0, 277.1), 5: (80.0, 150.0), 7: (0.0, 0.0), 9: (51.2, 133.4)})
    assert found_late(seg, [n2, still, far, struck], struck, stop, R) is n2  # type: ignore[arg-type]
    assert found_late(seg, [still, far, struck], struck, stop, R) is None  # type: ignore[arg-type]
