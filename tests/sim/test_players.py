"""Simulated players choose legal, sensible shots; an error-free plan does what it intends."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.sim.datatypes import SimDisc
from tracker.sim.physics import PhysicsParams, simulate
from tracker.sim.players import CrokinolePlayer, KoronaPlayer, Skill, perturb

CB, KB = CrokinoleBoard(), KoronaBoard()
P = PhysicsParams()
EXACT = Skill(0.0, 0.0)


def _quadrant_ok(seat: str, x: float, y: float) -> bool:
    return CB.seat_of(x, y) == seat and math.hypot(x, y) == pytest.approx(CB.shooting_line_radius)


@pytest.mark.parametrize("seat", ["south", "west", "north", "east"])
def test_crokinole_open_board_aims_for_the_twenty(seat: str) -> None:
    p = CrokinolePlayer(seat, CB, P, EXACT, np.random.default_rng(1))
    plan = p.plan([], set())
    assert plan.intent == "twenty"
    assert _quadrant_ok(seat, *plan.start)
    d = SimDisc("x", seat, 0, CB.disc_radius, CB.disc_thickness, *plan.start)
    res = simulate(CB, [d], "x", plan.velocity, P)
    assert res.final["x"].state == "hole"


def test_crokinole_takes_out_an_opponent_disc_from_own_quadrant() -> None:
    n1 = SimDisc("n1", "north", 1, CB.disc_radius, CB.disc_thickness, 60.0, -160.0)
    p = CrokinolePlayer("south", CB, P, EXACT, np.random.default_rng(2))
    plan = p.plan([n1], {"n1"})
    assert plan.intent == "takeout:n1"
    assert _quadrant_ok("south", *plan.start)
    s1 = SimDisc("s1", "south", 0, CB.disc_radius, CB.disc_thickness, *plan.start)
    res = simulate(CB, [n1, s1], "s1", plan.velocity, P)
    assert res.contacts[0].pair() == ("s1", "n1")
    assert res.final["n1"].state == "ditch"  # knocked off the surface


def test_human_error_is_seeded_and_small() -> None:
    p = CrokinolePlayer("south", CB, P, EXACT, np.random.default_rng(3))
    plan = p.plan([], set())
    skill = Skill(1.0, 0.05)
    a = [perturb(plan, skill, np.random.default_rng(9)) for _ in range(2)]
    assert a[0] == a[1]
    many = [perturb(plan, skill, np.random.default_rng(k)) for k in range(200)]
    angles = np.degrees([math.atan2(q.velocity[1], q.velocity[0]) - math.atan2(plan.velocity[1], plan.velocity[0])
                         for q in many])
    speeds = np.array([math.hypot(*q.velocity) / math.hypot(*plan.velocity) for q in many])
    assert 0.7 < angles.std() < 1.3 and 0.035 < speeds.std() < 0.065


@pytest.mark.parametrize("seat", ["south", "north", "west", "east"])
def test_korona_pots_an_own_disc_from_own_striking_line_forwards(seat: str) -> None:
    # One own disc in the middle of the board, one opponent disc out of the way.
    own = SimDisc("o1", seat, 0, KB.disc_radius, KB.disc_thickness, 60.0, 40.0)
    other = SimDisc("x1", "other", 1, KB.disc_radius, KB.disc_thickness, -200.0, 180.0)
    p = KoronaPlayer(seat, KB, P, EXACT, np.random.default_rng(4))
    plan = p.plan([own, other], {"o1"})
    (x0, y0), (x1, y1) = KB.striking_line(seat)  # type: ignore[arg-type]
    sx, sy = plan.start
    assert min(x0, x1) - 1e-6 <= sx <= max(x0, x1) + 1e-6 and min(y0, y1) - 1e-6 <= sy <= max(y0, y1) + 1e-6
    fx, fy = p.forward()
    assert plan.direction[0] * fx + plan.direction[1] * fy > 0.0
    assert plan.intent.startswith("pocket:o1:")
    striker = SimDisc("S", seat, 0, KB.striker_radius, KB.disc_thickness, sx, sy, kind="striker")
    res = simulate(KB, [own, other, striker], "S", plan.velocity, P)
    assert res.contacts[0].pair() == ("S", "o1")
    assert res.final["o1"].state == "pocket"
    called = plan.announced_pocket
    behind = set(KB.pockets_behind(seat))  # type: ignore[arg-type]
    assert (called is not None) == (res.final["o1"].pocket in behind)


def _korona_ruling(variant: str, discs: list[SimDisc], plan, res):  # type: ignore[no-untyped-def]
    """The rules engine's decisions on one simulated south shot from this position."""
    from tracker.rules import engine_for
    from tracker.shotlog import Announced, Setup, Shot

    engine = engine_for("korona", 2, variant)
    engine.apply(Setup(discs={d.id: (d.seat, (d.x, d.y)) for d in discs}, strikers={"south": "S", "north": "N"},
                       starter="south"))
    end: dict = {}
    for did in res.moved():
        f = res.final[did]
        end[did] = f"pocket:{f.pocket}" if f.state == "pocket" else (f.x, f.y)
    shot = Shot("south", "S", plan.start, tuple(c.pair() for c in res.contacts), end,
                Announced(indirect=plan.announced_indirect, pocket=plan.announced_pocket))
    return engine.apply(shot)


def test_korona_banks_off_a_rim_when_direct_paths_are_blocked_and_announces_it() -> None:
    own = SimDisc("s1", "south", 0, KB.disc_radius, KB.disc_thickness, 0.0, 250.0)
    # A wall across the board, north's discs and south's (the engine wants equal numbers).
    wall = [SimDisc(f"{'n' if k % 2 else 's'}{k + 2}", "north" if k % 2 else "south", k % 2, KB.disc_radius,
                    KB.disc_thickness, float(x), -40.0) for k, x in enumerate(np.arange(-275.0, 276.0, 25.0))]
    wall += [SimDisc(f"n9{k}", "north", 1, KB.disc_radius, KB.disc_thickness, x, 410.0)
             for k, x in enumerate((-150.0, 150.0))]
    p = KoronaPlayer("south", KB, P, EXACT, np.random.default_rng(4))
    assert p.candidates([own, *wall], {"s1"}) == []
    plan = p.plan([own, *wall], {"s1"})
    assert plan.intent.startswith("bank:s1:") and plan.announced_indirect
    side = plan.intent.split(":")[3]
    striker = SimDisc("S", "south", 0, KB.striker_radius, KB.disc_thickness, *plan.start, kind="striker")
    res = simulate(KB, [own, *wall, striker], "S", plan.velocity, P)
    assert [c.pair() for c in res.contacts][:2] == [("S", f"rim:{side}"), ("S", "s1")]
    assert res.final["s1"].state == "pocket"
    out = _korona_ruling("fi", [own, *wall], plan, res)
    assert not any(d.kind == "foul" for d in out.decisions)
    assert out.next_seat == "south"  # a legal pot: south shoots again
    # The same shot unannounced is a foul (rule 2.6): what the announcement is for.
    from dataclasses import replace

    out2 = _korona_ruling("fi", [own, *wall], replace(plan, announced_indirect=False), res)
    assert any(d.kind == "foul" and "not announced" in d.reason for d in out2.decisions)


def test_korona_open_direct_shot_announces_nothing() -> None:
    own = SimDisc("s1", "south", 0, KB.disc_radius, KB.disc_thickness, 60.0, 40.0)
    p = KoronaPlayer("south", KB, P, EXACT, np.random.default_rng(4))
    plan = p.plan([own], {"s1"})
    assert plan.intent.startswith("pocket:") and not plan.announced_indirect


def test_russian_player_never_plays_a_restricted_pawn_directly() -> None:
    # South's pawn in the centre circle: the Finnish player pots it directly; the Russian player
    # may only bank it off the opposite (north) rim, and the Russian rules accept that.
    pawn = SimDisc("s1", "south", 0, KB.disc_radius, KB.disc_thickness, 20.0, 30.0)
    other = SimDisc("n1", "north", 1, KB.disc_radius, KB.disc_thickness, -300.0, 100.0)
    fi = KoronaPlayer("south", KB, P, EXACT, np.random.default_rng(4), "fi").plan([pawn, other], {"s1"})
    assert fi.intent.startswith("pocket:s1:")
    ru_player = KoronaPlayer("south", KB, P, EXACT, np.random.default_rng(4), "ru")
    assert ru_player.restricted(pawn) and not ru_player.restricted(other)
    ru = ru_player.plan([pawn, other], {"s1"})
    assert ru.intent.startswith("bank:s1:") and ru.intent.endswith(":north")
    striker = SimDisc("S", "south", 0, KB.striker_radius, KB.disc_thickness, *ru.start, kind="striker")
    res = simulate(KB, [pawn, other, striker], "S", ru.velocity, P)
    assert res.contacts[0].pair() == ("S", "rim:north") and res.final["s1"].state == "pocket"
    out = _korona_ruling("ru", [pawn, other], ru, res)
    assert not any(d.kind == "foul" for d in out.decisions)
    assert any(d.kind == "pocketed" and d.discs == ("s1",) and d.seat == "south" for d in out.decisions)
