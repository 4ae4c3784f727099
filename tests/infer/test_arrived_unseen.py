"""A shot whose disc nobody saw waiting or flying, read from the disc it struck (hand-made
detections, board mm): ``tracker.infer.unseen.arrived_unseen``."""

from __future__ import annotations

import math

from tests.infer.scenes import discs_at, south_shot
from tracker.boards import CrokinoleBoard
from tracker.pipeline import Pipeline


def test_a_shot_seen_only_in_the_disc_it_struck_is_logged() -> None:
    """North's n1 rests at (80, 60). South's disc is hidden under the hand and sleeve until
    flicked and flies blurred: the first sign of the shot is n1 driven north at 600 mm/s; south's
    disc is first seen at rest 31 mm behind where n1 lay (it stopped where it struck). That is
    south's shot, from the south shooting line, striking n1 (c4h_9903 at 17.9 s: the motion was
    judged as the struck discs' own and rejected, "not where a shot starts")."""
    fps, struck, shooter = 30.0, (80.0, 60.0), (80.0, 29.0)
    p = Pipeline("crokinole", 2)
    p.start_tracking(CrokinoleBoard())
    for k in range(150):
        tau = (k - 60) / fps
        if tau <= 0:
            n1 = struck
        else:
            s = min(tau, 0.4)
            n1 = (80.0, 60.0 + 600.0 * s - 750.0 * s * s)
        rows = [n1] + ([shooter] if k >= 75 else [])
        p.process_detections(discs_at(*rows), k / fps, k)
    p.finish()
    shot, end = south_shot(p)
    assert math.dist(end, shooter) < 2.0
    others = [n for n in shot.end if n != shot.disc]
    assert len(others) == 1 and math.dist(shot.end[others[0]], (80.0, 180.0)) < 2.0  # type: ignore[arg-type]
    assert (shot.disc, others[0]) in shot.contacts
    assert shot.start is not None and abs(math.hypot(*shot.start) - CrokinoleBoard().shooting_line_radius) < 1.0
