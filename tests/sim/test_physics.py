"""Physics sanity against closed-form answers: friction, momentum, the hole, pegs, ditch, pockets."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.sim.datatypes import SimDisc
from tracker.sim.physics import PhysicsParams, Table, launch_speed, stopping_distance

CB = CrokinoleBoard()
KB = KoronaBoard()


def disc(did: str, x: float, y: float, board: CrokinoleBoard | KoronaBoard = CB) -> SimDisc:
    r = board.disc_radius
    return SimDisc(did, "south", 0, r, board.disc_thickness, x, y)


@pytest.mark.parametrize("speed", [300.0, 600.0, 900.0])
def test_stopping_distance_matches_coulomb_friction(speed: float) -> None:
    # A free disc in the empty 5 zone, sliding east along y = -250 (clear of the pegs).
    t = Table(CB)
    t.add(disc("s1", -200.0, -250.0))
    res = t.shoot("s1", (speed, 0.0))
    p = PhysicsParams()
    expected = speed**2 / (2 * p.mu * 9810.0)
    assert expected == pytest.approx(stopping_distance(speed))
    travelled = t.discs["s1"].x + 200.0
    assert travelled == pytest.approx(expected, abs=1.0)
    assert res.contacts == []
    # It stops after v / a seconds.
    assert res.duration == pytest.approx(speed / p.deceleration, abs=0.01)


def test_momentum_conserved_in_disc_disc_collision() -> None:
    p = PhysicsParams(mu=0.0, max_time=0.3)
    t = Table(CB, p)
    t.add(disc("s1", -200.0, -250.0))
    t.add(disc("n1", -100.0, -240.0))  # off-centre hit
    v0 = 800.0
    res = t.shoot("s1", (v0, 0.0))
    assert [c.pair() for c in res.contacts] == [("s1", "n1")]
    # Momentum: equal masses, so the sum of the displacement rates after the impact.
    xy = res.xy
    v_after = (xy[-1] - xy[-11]) / (res.times[-1] - res.times[-11])  # (2, 2) mm/s
    total = v_after.sum(axis=0)
    assert total[0] == pytest.approx(v0, rel=1e-3)
    assert total[1] == pytest.approx(0.0, abs=0.5)
    # Restitution 0.9: kinetic energy falls, but not below the inelastic limit.
    ke_ratio = float((v_after**2).sum()) / v0**2
    assert 0.5 < ke_ratio < 1.0


def test_slow_centred_disc_drops_in_hole_fast_one_passes_over() -> None:
    start_y = -CB.shooting_line_radius
    slow = Table(CB)
    slow.add(disc("s1", 0.0, start_y))
    slow.shoot("s1", (0.0, launch_speed(CB.shooting_line_radius + 3.0)))
    assert slow.discs["s1"].state == "hole"
    assert CB.in_hole(slow.discs["s1"].x, slow.discs["s1"].y)

    fast = Table(CB)
    fast.add(disc("s1", 0.0, start_y))
    fast.shoot("s1", (0.0, launch_speed(CB.shooting_line_radius + 250.0)))
    assert fast.discs["s1"].state == "surface"
    assert fast.discs["s1"].y > 150.0


def test_off_centre_slow_disc_stays_on_surface() -> None:
    t = Table(CB)
    t.add(disc("s1", 12.0, -CB.shooting_line_radius))
    t.shoot("s1", (0.0, launch_speed(CB.shooting_line_radius)))
    assert t.discs["s1"].state == "surface"
    assert t.discs["s1"].x == pytest.approx(12.0)
    assert not CB.in_hole(t.discs["s1"].x, t.discs["s1"].y)


def test_peg_contact_recorded_and_deflects() -> None:
    px, py = CB.peg_positions()[5]  # (38.9, -93.9)
    t = Table(CB)
    t.add(disc("s1", px, -CB.shooting_line_radius))
    res = t.shoot("s1", (0.0, 900.0))
    assert [c.pair() for c in res.contacts] == [("s1", "peg")]
    assert t.discs["s1"].y < py  # bounced back off the peg


def test_fast_disc_leaves_surface_into_ditch_and_stops_at_rail() -> None:
    t = Table(CB)
    t.add(disc("s1", -200.0, -250.0))
    res = t.shoot("s1", (2000.0, 0.0))
    d = t.discs["s1"]
    assert d.state == "ditch"
    assert [tr.state for tr in res.transitions] == ["ditch"]
    r = math.hypot(d.x, d.y)
    assert CB.surface_radius + CB.disc_radius - 0.01 <= r <= CB.ditch_outer_radius - CB.disc_radius + 0.01


def test_korona_disc_bounces_off_rim_and_into_pocket() -> None:
    t = Table(KB)
    t.add(disc("s1", 0.0, 0.0, KB))
    res = t.shoot("s1", (0.0, 3000.0))
    assert res.contacts and res.contacts[0].pair() == ("s1", "rim:north")
    assert t.discs["s1"].y < KB.half

    cx, cy = KB.pocket_centres()["ne"]
    t2 = Table(KB)
    t2.add(disc("s2", cx - 300.0, cy - 300.0, KB))
    res2 = t2.shoot("s2", (launch_speed(300 * math.sqrt(2) + 40) / math.sqrt(2),) * 2)
    assert t2.discs["s2"].state == "pocket"
    assert t2.discs["s2"].pocket == "ne"
    assert res2.transitions[-1].pocket == "ne"


def test_trajectory_is_finely_sampled() -> None:
    t = Table(CB)
    t.add(disc("s1", -200.0, -250.0))
    res = t.shoot("s1", (1000.0, 0.0))
    steps = np.diff(res.times)
    assert steps.max() <= 0.0011
    moves = np.hypot(*np.diff(res.xy[:, 0, :], axis=0).T)
    assert moves.max() < 1.5  # mm per sample: motion blur sub-frames interpolate smoothly


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(offset=st.floats(-28.0, 28.0), speed=st.floats(200.0, 3000.0), big=st.booleans())
def test_momentum_conserved_for_any_impact(offset: float, speed: float, big: bool) -> None:
    """Any disc-disc impact (oblique, fast or slow, equal or unequal masses) conserves momentum
    and does not create kinetic energy."""
    r2 = KB.striker_radius if big else KB.disc_radius
    p = PhysicsParams(mu=0.0, max_time=(150.0 - KB.disc_radius - r2) / speed + 0.1)
    a = SimDisc("a", "south", 0, KB.disc_radius, KB.disc_thickness, -150.0, 0.0)
    b = SimDisc("b", "north", 1, r2, KB.disc_thickness, 0.0, offset * (KB.disc_radius + r2) / 31.75)
    res = Table(KB, p)
    res.add(a)
    res.add(b)
    out = res.shoot("a", (speed, 0.0))
    assert [c.pair() for c in out.contacts] == [("a", "b")]
    ma, mb = KB.disc_radius**2, r2**2
    v = (out.xy[-1] - out.xy[-6]) / (out.times[-1] - out.times[-6])
    px = ma * v[0, 0] + mb * v[1, 0]
    py = ma * v[0, 1] + mb * v[1, 1]
    assert px == pytest.approx(ma * speed, rel=2e-3)
    assert py == pytest.approx(0.0, abs=2e-3 * ma * speed)
    ke = ma * float(v[0] @ v[0]) + mb * float(v[1] @ v[1])
    assert ke <= ma * speed**2 * 1.001


@pytest.mark.parametrize("side, velocity", [("north", (0.0, 2500.0)), ("south", (0.0, -2500.0)),
                                            ("east", (2500.0, 0.0)), ("west", (-2500.0, 0.0))])
def test_korona_rim_contact_names_the_side_hit(side: str, velocity: tuple[float, float]) -> None:
    t = Table(KB)
    t.add(disc("s1", 30.0, -20.0, KB))
    res = t.shoot("s1", velocity)
    assert res.contacts[0].pair() == ("s1", f"rim:{side}")


def test_jump_chance_grows_with_the_speed_into_the_rim() -> None:
    p = PhysicsParams()
    assert p.jump_chance(0.0) == 0.0 and p.jump_chance(p.jump_speed) == 0.0
    assert 0.0 < p.jump_chance((p.jump_speed + p.jump_full_speed) / 2) < p.jump_max_chance
    assert p.jump_chance(p.jump_full_speed) == p.jump_max_chance == p.jump_chance(10 * p.jump_full_speed)


def test_hard_rim_hit_can_fly_over_the_rim_onto_the_table() -> None:
    from tracker.sim.rim_jump import TABLE_Z

    sure = PhysicsParams(jump_max_chance=1.0, jump_full_speed=PhysicsParams().jump_speed + 1.0)
    t = Table(KB, sure, np.random.default_rng(0))
    t.add(disc("s1", 100.0, 0.0, KB))
    res = t.shoot("s1", (600.0, 3000.0))
    d = t.discs["s1"]
    assert d.state == "flown"
    assert res.contacts[0].pair() == ("s1", "rim:north")
    assert [(tr.disc, tr.state) for tr in res.transitions] == [("s1", "flown")]
    # It lies on the table beyond the north rim's outer edge (clear of the board) ...
    edge = KB.outer_size / 2.0
    assert edge + d.radius <= d.y <= edge + d.radius + 45.0
    assert abs(d.x) <= edge + 45.0
    # ... moved on along the rim by its speed along it, and got there through the air.
    assert d.x > 100.0 + 30.0
    f = res.flights["s1"]
    assert f.at(f.t + f.duration / 2)[2] > KB.rim_height
    assert f.at(f.t + f.duration + 1.0) == pytest.approx((d.x, d.y, TABLE_Z))
    assert res.duration >= f.t + f.duration
    # The recorded trajectory ends where it landed.
    assert tuple(res.xy[-1, 0]) == pytest.approx((d.x, d.y))


def test_soft_rim_hit_never_jumps_and_no_generator_never_jumps() -> None:
    sure = PhysicsParams(jump_max_chance=1.0, jump_full_speed=PhysicsParams().jump_speed + 1.0)
    t = Table(KB, sure, np.random.default_rng(0))
    t.add(disc("s1", 0.0, 300.0, KB))
    t.shoot("s1", (0.0, 1000.0))  # meets the rim at well under jump_speed
    assert t.discs["s1"].state == "surface"
    t2 = Table(KB, sure)
    t2.add(disc("s2", 0.0, 0.0, KB))
    t2.shoot("s2", (0.0, 4000.0))
    assert t2.discs["s2"].state == "surface"


def test_discs_touching_at_rest_are_no_contact_of_the_shot() -> None:
    # A korona setup row: discs touching each other; a shot elsewhere records nothing of them.
    t = Table(KB)
    for k in range(3):
        t.add(disc(f"s{k}", -100.0 + k * KB.disc_diameter, 412.5 - 0.0, KB))
    t.add(disc("x", 200.0, -200.0, KB))
    res = t.shoot("x", (0.0, 500.0))
    assert res.contacts == []
    # Struck, the row still reports the striker's contact first.
    res2 = t.shoot("x", _aim((t.discs["x"].x, t.discs["x"].y), (-100.0, 412.5 - 26.0), 2000.0))
    assert res2.contacts[0].pair() == ("x", "s0")


def _aim(a: tuple[float, float], b: tuple[float, float], speed: float) -> tuple[float, float]:
    d = math.hypot(b[0] - a[0], b[1] - a[1])
    return (speed * (b[0] - a[0]) / d, speed * (b[1] - a[1]) / d)
