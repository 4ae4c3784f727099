"""Bank shots: a striker aimed at the computed bounce point reaches the target after one rim."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.sim.bank import bank_launch_speed, bounce_point
from tracker.sim.datatypes import SimDisc
from tracker.sim.physics import PhysicsParams, Table

KB = KoronaBoard()
P = PhysicsParams()
R = KB.striker_radius
LINE_Y = -KB.half + KB.striking_line_offset  # south's striking line


@pytest.mark.parametrize("start, target, side", [
    ((0.0, LINE_Y), (200.0, 200.0), "east"),
    ((-100.0, LINE_Y), (-150.0, 100.0), "north"),
    ((150.0, LINE_Y), (-200.0, -100.0), "west"),
])
def test_bank_reaches_the_target_at_the_planned_speed(start: tuple[float, float], target: tuple[float, float],
                                                       side: str) -> None:
    bp = bounce_point(start, target, side, KB.half - R, P.restitution_rim)
    assert bp is not None
    v0 = bank_launch_speed(start, bp, target, side, 500.0, P)
    t = Table(KB, P)
    t.add(SimDisc("S", "south", 0, R, KB.disc_thickness, *start, kind="striker"))
    d = math.hypot(bp[0] - start[0], bp[1] - start[1])
    res = t.shoot("S", (v0 * (bp[0] - start[0]) / d, v0 * (bp[1] - start[1]) / d))
    assert [c.pair() for c in res.contacts] == [("S", f"rim:{side}")]
    xy = res.xy[:, 0, :]
    gap = np.hypot(*(xy - np.array(target)).T)
    k = int(gap.argmin())
    assert gap[k] < 3.0
    speed = math.hypot(*(xy[k + 1] - xy[k - 1])) / float(res.times[k + 1] - res.times[k - 1])
    assert speed == pytest.approx(500.0, rel=0.05)


def test_no_bounce_point_for_a_point_beyond_the_line() -> None:
    assert bounce_point((0.0, LINE_Y), (KB.half - 5.0, 0.0), "east", KB.half - R, 0.6) is None
    assert bounce_point((0.0, LINE_Y), (0.0, 0.0), "south", KB.half - R, 0.6) is not None
