"""A shot whose flight nobody saw knocks a disc away unseen (hand-made detections, board mm).

South's disc leaves the shooting line unseen (a sleeve over it), strikes north's disc near the
centre and stops 18 mm from where that disc lay; north's disc, unseen on its way, is seen again
half a second later sliding into the ditch. The geometry is c4h_9903's east shot at 11.2 s,
turned to the south seat: there the slow shooter, first seen beside the struck disc's place,
was taken for the struck disc knocked 18 mm, the struck disc seen again was a new disc, and the
shot was logged before it was seen (the struck disc still on the board)."""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import IN_DITCH, ON_SURFACE, Detections
from tracker.pipeline import Pipeline
from tracker.shotlog import Shot

TURN = math.radians(-90.0 - math.degrees(math.atan2(-183.6, 260.8)))  # east's start -> south's


def at(x: float, y: float) -> tuple[float, float]:
    c, s = math.cos(TURN), math.sin(TURN)
    return (c * x - s * y, s * x + c * y)


def dets(*rows: tuple[tuple[float, float], int]) -> Detections:
    return Detections(xy=np.array([xy for xy, _ in rows], float).reshape(-1, 2),
                      where=np.array([w for _, w in rows], int), radius=np.full(len(rows), 16.0))


def test_a_disc_knocked_away_unseen_keeps_its_name_and_goes_off() -> None:
    shooter_rest, struck_rest, other = at(260.8, -183.6), at(-21.9, -28.7), at(-23.7, 13.4)
    shooter_after: list[tuple[float, float] | None] = [at(-4.7, -34.5), None, at(2.6, -45.8), at(0.5, -48.7)] + [at(-0.4, -49.5)] * 60
    struck_after: list[tuple[tuple[float, float], int] | None] = [None] * 14 + [(at(-296.1, 80.3), ON_SURFACE), None, (at(-316.2, 89.9), ON_SURFACE), None,
                                  (at(-329.0, 94.2), IN_DITCH)] + [(at(-331.9, 94.8), IN_DITCH)] * 60
    p = Pipeline("crokinole", 2)
    p.start_tracking(CrokinoleBoard())
    fps, k = 30.0, 0
    for k in range(36):  # all at rest (the struck disc and the other one north's, put down earlier)
        rows = [(struck_rest, ON_SURFACE), (other, ON_SURFACE)] + ([(shooter_rest, ON_SURFACE)] if k >= 6 else [])
        p.process_detections(dets(*rows), k / fps, k)
    for n in range(60):  # the flight unseen; the struck disc last seen the frame before the hit
        k += 1
        rows = [(other, ON_SURFACE)]
        if n < 6:
            rows.append((struck_rest, ON_SURFACE))
        seen = shooter_after[n - 6] if n >= 6 else None
        if seen is not None:
            rows.append((seen, ON_SURFACE))
        hit = struck_after[n - 6] if n >= 6 else None
        if hit is not None:
            rows.append(hit)
        p.process_detections(dets(*rows), k / fps, k)
    p.finish()
    shots = [e for e in p.entries if isinstance(e, Shot)]
    assert len(shots) == 1
    shot = shots[0]
    assert shot.seat == "south"
    end = shot.end[shot.disc]
    assert isinstance(end, tuple) and math.dist(end, at(-0.4, -49.5)) < 3.0, shot.end
    struck = [name for name, e in shot.end.items() if name != shot.disc]
    assert [shot.end[name] for name in struck] == ["off"], shot.end
