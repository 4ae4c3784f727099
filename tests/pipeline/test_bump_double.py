"""A disc the tracker holds at rest unseen, found through the old fit while the camera moved
unnoticed, is not a second disc (``tracker.track.bump_doubles``; hand-made detections, board mm,
after c4h_9945 at 14.5-14.9 s: east's grey e1, never found at rest, kept at (-32, -32) from its
blow; the bump's stale fit found it at (-30, -16), a double was born there, and the new fit's first
frame saw nothing: the double took s2's blow on e1 and was named w2)."""

from __future__ import annotations

import numpy as np

from tests.infer.scenes import discs_at
from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.pipeline import Pipeline

FPS = 30.0
E1 = (-32.0, -32.0)  # where the tracker holds e1, unseen (truly there: the board frame is the board's)
STALE = (-30.0, -16.0)  # where the old fit puts e1 once the camera moved
OTHER = (120.0, 40.0)  # a disc put down meanwhile elsewhere: a disc of its own


def bumped(put_down: bool = False) -> tuple[Pipeline, int]:
    """e1 held unseen at ``E1`` from 0.5 s; the camera moves at 2.0 s and the detector finds e1
    at ``STALE`` (and, with ``put_down``, a disc at ``OTHER``) for 6 frames; the board is fitted
    again at 2.4 s, on a frame that shows neither; then 1 s of stillness, e1 unseen again.
    Returns the pipeline and e1's track id."""
    b = CrokinoleBoard()
    p = Pipeline("crokinole", 4)
    p.start_tracking(b)
    e1 = -1
    for k in range(int(3.4 * FPS)):
        t = k / FPS
        if k == int(0.5 * FPS):
            e1 = p.tracker.add_unseen(E1, (240.0, -187.0), t, b.disc_radius)
        if k == int(2.4 * FPS):  # what ``Pipeline._start`` does on a new fit (a new board object)
            p.board = p.tracker.board = CrokinoleBoard()
        seen = int(2.0 * FPS) <= k < int(2.4 * FPS)
        rows = ([STALE] if seen else []) + ([OTHER] if put_down and k >= int(2.0 * FPS) else [])
        det = discs_at(*rows) if rows else Detections.empty()
        p.process_detections(det, t, k)
    return p, e1


def in_play(p: Pipeline) -> list[tuple[int, tuple[float, float]]]:
    return [(tr.id, tr.position()) for tr in p.tracker.tracks if tr.state in ("rest", "moving")]


def test_the_stale_fits_find_of_a_disc_held_unseen_is_no_second_disc() -> None:
    p, e1 = bumped()
    play = in_play(p)
    assert [i for i, _ in play] == [e1], play
    assert np.allclose(play[0][1], E1)


def test_a_disc_put_down_elsewhere_meanwhile_is_kept() -> None:
    p, e1 = bumped(put_down=True)
    play = dict(in_play(p))
    assert set(play) - {e1} and e1 in play
    assert any(np.hypot(*np.subtract(xy, OTHER)) < 3.0 for i, xy in play.items() if i != e1)


def test_without_the_check_the_double_stays() -> None:
    """The ground the check stands on: off, the stale find stays a track of its own beside e1."""
    from tracker.track import bump_doubles

    was, bump_doubles.ON = bump_doubles.ON, False
    try:
        p, e1 = bumped()
    finally:
        bump_doubles.ON = was
    assert len(in_play(p)) == 2 and e1 in dict(in_play(p))
