"""A shot whose disc was not seen waiting but was seen on its way before it struck a disc off
centre: its start is its own course run back, not the struck disc's push
(``tracker.infer.unseen.own_course``, in ``arrived_unseen``; hand-made detections, board mm)."""

from __future__ import annotations

import math

import numpy as np

from tests.infer.scenes import discs_at, shots, slide_to
from tracker.boards import CrokinoleBoard
from tracker.pipeline import Pipeline

FPS = 30.0
STRUCK = (-49.0, -54.0)  # south's s1 at rest, where its shot left it
W_START = (-249.7, -174.8)  # on west's shooting line, 35 degrees from west: 10 from south's quadrant
W_REST = (-64.0, -83.0)  # where west's disc stopped, having struck s1 off centre
S_DRIVEN = (241.0, 205.0)  # where s1 was driven (its push 13 degrees off west's course)


def west_strikes_off_centre() -> Pipeline:
    """4 players, south leads: south's s1, seen from the south line, comes to rest at ``STRUCK``.
    West's disc is hidden under the hand until flicked; it is seen twice in flight, 0.1 s apart
    (1150 mm/s), then strikes s1 off centre and stops at ``W_REST``; s1 is driven on to ``S_DRIVEN``
    (c4h_9945 at 20.0 s: the push run back from west's rest place put the start over the
    quadrant line, and west's w2 was logged as south's s3)."""
    p = Pipeline("crokinole", 4)
    p.start_tracking(CrokinoleBoard())
    rows: list[list[tuple[float, float]]] = [[(-100.0, -287.9)]] * 30
    rows += [[xy] for xy in slide_to((-100.0, -287.9), STRUCK, 20)] + [[STRUCK]] * 60
    u = np.subtract(W_REST, W_START) / math.dist(W_REST, W_START)
    seen = [tuple(np.add(W_START, u * d)) for d in (38.0, 153.0)]  # two sightings in flight, 0.1 s apart
    rows += [[STRUCK]] * 20 + [[STRUCK, seen[0]], [STRUCK], [STRUCK], [STRUCK, seen[1]], [STRUCK]]
    driven = slide_to(STRUCK, S_DRIVEN, 24)
    rows += [[driven[0]]] + [[xy, W_REST] for xy in driven[1:]] + [[S_DRIVEN, W_REST]] * 60
    p_rows = [discs_at(*r) for r in rows]
    for k, det in enumerate(p_rows):
        p.process_detections(det, k / FPS, k)
    p.finish()
    return p


def test_west_seen_in_flight_then_off_centre_blow_is_west() -> None:
    log = shots(west_strikes_off_centre())
    assert [s.seat for s in log] == ["south", "west"], log
    west = log[1]
    assert west.start is not None and math.dist(west.start, W_START) < 8.0, west.start
    assert west.end[west.disc] is not None and math.dist(west.end[west.disc], W_REST) < 2.0  # type: ignore[arg-type]
    struck = [n for n in west.end if n != west.disc]
    assert struck == [log[0].disc] and (west.disc, struck[0]) in west.contacts


def test_without_own_course_the_push_puts_the_start_in_south() -> None:
    """The ground the fix stands on: run back along s1's push, the start falls in south's quadrant."""
    from tracker.infer import unseen

    was, unseen.OWN_COURSE = unseen.OWN_COURSE, False
    try:
        log = shots(west_strikes_off_centre())
    finally:
        unseen.OWN_COURSE = was
    assert [s.seat for s in log] == ["south", "south"], log
