"""A shot whose disc is first seen on the very frame its blow sets the struck disc off is read
from the disc it struck (``unseen.arrived_unseen``), not taken for a shot by the struck disc
(hand-made detections, board mm, 30 fps).

c4h_9963 at 23.37 s: east's e2, hidden on its shooting line (and blurred in flight), struck s2,
resting 58 mm inside that line, and bounced back to rest 31 mm inside it. The detector found the
two discs as one blurred find between them on the frame of the blow, so e2's track was born on
the episode's first frame and its first find was noted as a rest place it left: it was no "disc
first seen during the episode" for ``arrived_unseen``, and the motion was judged as s2's shot
(s2, a disc shot before, the only candidate) hitting nothing of east's opponents: a false foul."""

from __future__ import annotations

import math

from tests.infer.scenes import discs_at, shots
from tracker.boards import CrokinoleBoard
from tracker.pipeline import Pipeline

FPS = 30.0
BOARD = CrokinoleBoard()
DECEL = 1500.0


def _slide(start: tuple[float, float], v0: float, u: tuple[float, float], tau: float) -> tuple[float, float]:
    s = min(tau, v0 / DECEL)
    d = v0 * s - 0.5 * DECEL * s * s
    return (start[0] + u[0] * d, start[1] + u[1] * d)


def test_the_struck_disc_shot_before_is_not_the_shot_disc() -> None:
    line = BOARD.shooting_line_radius
    s1_rest = (14.0, line - 58.0)
    # (no opponent disc is on the board for s1's shot: the no-opponent rule, off, would remove it)
    p = Pipeline("crokinole", 2, rules={"no_opponent_rule": False})
    p.start_tracking(BOARD)
    k = 0
    # south's s1, on its line, then flicked north to rest 58 mm inside north's line
    v0 = math.sqrt(2 * DECEL * (s1_rest[1] + line))
    while k < 150:
        tau = (k - 30) / FPS
        at = (14.0, -line) if tau <= 0 else _slide((14.0, -line), v0, (0.0, 1.0), tau)
        p.process_detections(discs_at(at), k / FPS, k)
        k += 1
    # north's disc, never seen on its line, strikes s1: one blurred find between them on the
    # blow's frame, then s1 driven south and north's disc back to rest 31 mm inside its line
    blow = k
    n1_rest = (16.0, line - 31.0)
    while k < blow + 150:
        tau = (k - blow) / FPS
        if k == blow:
            rows = [(15.0, line - 36.0)]
        else:
            rows = [_slide(s1_rest, 1200.0, (0.0, -1.0), tau),
                    n1_rest if k > blow + 2 else (16.0, line - 29.0)]
        p.process_detections(discs_at(*rows), k / FPS, k)
        k += 1
    p.finish()
    log = shots(p)
    assert [s.seat for s in log] == ["south", "north"], [(s.seat, s.disc) for s in log]
    north = log[1]
    assert north.disc.startswith("n") and (north.disc, "s1") in north.contacts, north
    assert not [e for e in p.sorted_events() if e.to_json()["type"] == "removed"]
