"""Scripted clips: short matches whose shots are arranged so that one known event happens.

A script is a list of *wishes*, one per shot: a set of candidate plans (start, velocity) and a
predicate on the simulated result ("the disc drops in the hole", "the shot touches a peg and
then north's disc"). The first candidate whose simulation satisfies the predicate is played;
because the physics is deterministic, the played shot is exactly the one that was checked.
Candidates are generated from the live table, so a script adapts to where earlier shots left
the discs. Players make no error here: the clip is arranged, not sampled.

The clips (``CLIPS``) are the single-event fixtures: a 20, a must-hit foul with removals, a
ricochet off a peg, a disc off the board, a korona pocket, a korona overshot.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.shotlog import Setup
from tracker.sim.datatypes import ShotResult, SimDisc
from tracker.sim.match import Match, MatchConfig, run_match
from tracker.sim.physics import launch_speed, simulate
from tracker.sim.players import KoronaPlayer, ShotPlan, Skill, path_clearance

Wish = Callable[[Match, str, str], tuple[Iterable[ShotPlan], Callable[[ShotResult], bool]]]


class ScriptError(RuntimeError):
    """No candidate made the wished-for event happen."""


def _velocity(start: tuple[float, float], toward: tuple[float, float], speed: float) -> tuple[float, float]:
    dx, dy = toward[0] - start[0], toward[1] - start[1]
    n = math.hypot(dx, dy) or 1.0
    return (speed * dx / n, speed * dy / n)


def trial(m: Match, disc_id: str, plan: ShotPlan) -> ShotResult:
    """Simulate ``plan`` on a copy of the match's table, exactly as the Director will."""
    assert m.table is not None
    discs = [SimDisc(**vars(d)) for d in m.table.discs.values()]
    for d in discs:
        if d.id == disc_id:
            d.x, d.y, d.state = plan.start[0], plan.start[1], "surface"
    return simulate(m.board, discs, disc_id, plan.velocity, m.table.params)


def scripted_planner(wishes: list[Wish]) -> Callable[[Match, str, str], ShotPlan | None]:
    queue = list(wishes)

    def planner(m: Match, seat: str, disc_id: str) -> ShotPlan | None:
        if not queue:
            return None
        wish = queue.pop(0)
        candidates, ok = wish(m, seat, disc_id)
        for plan in candidates:
            if ok(trial(m, disc_id, plan)):
                return plan
        raise ScriptError(f"no shot of {seat} with {disc_id} does what shot {len(m.entries) + 1} wants")

    return planner


# ------------------------------------------------------------------ crokinole wishes
def _starts(board: CrokinoleBoard, seat: str, step: float = 3.0) -> list[tuple[float, float]]:
    half = 40.0
    offs = sorted(np.arange(-half, half + 0.01, step), key=abs)
    return [board.shooting_position(seat, float(o)) for o in offs]  # type: ignore[arg-type]


def draw_to(target: tuple[float, float], final: Callable[[ShotResult, str], bool] | None = None) -> Wish:
    """Slide the disc to rest near ``target`` (within 15 mm), touching nothing."""

    def wish(m: Match, seat: str, did: str) -> tuple[Iterable[ShotPlan], Callable[[ShotResult], bool]]:
        b = m.board
        assert isinstance(b, CrokinoleBoard)
        plans = (ShotPlan(s, _velocity(s, target, launch_speed(math.dist(s, target), m.table.params)), "scripted")  # type: ignore[union-attr]
                 for s in _starts(b, seat))

        def ok(r: ShotResult) -> bool:
            f = r.final[did]
            good = not r.contacts and f.state == "surface" and math.dist(f.xy, target) < 15.0
            return good and (final is None or final(r, did))

        return plans, ok

    return wish


def twenty() -> Wish:
    def wish(m: Match, seat: str, did: str) -> tuple[Iterable[ShotPlan], Callable[[ShotResult], bool]]:
        b = m.board
        assert isinstance(b, CrokinoleBoard)
        plans = (ShotPlan(s, _velocity(s, (0.0, 0.0), launch_speed(math.hypot(*s) + extra, m.table.params)), "scripted")  # type: ignore[union-attr]
                 for extra in (4.0, 10.0, 0.0, 20.0) for s in _starts(b, seat, 5.0))
        return plans, lambda r: r.final[did].state == "hole" and not r.contacts

    return wish


def strike(target: str, extras: tuple[float, ...], ok: Callable[[ShotResult, str], bool],
           aims: tuple[float, ...] = (0.0,)) -> Wish:
    """Shoot at disc ``target`` (aim offsets across it in mm, speed to carry ``extra`` mm past it)."""

    def wish(m: Match, seat: str, did: str) -> tuple[Iterable[ShotPlan], Callable[[ShotResult], bool]]:
        b = m.board
        assert isinstance(b, CrokinoleBoard) and m.table is not None
        t = m.table.discs[target]

        others = [(px, py, b.peg_diameter / 2.0) for px, py in b.peg_positions()]
        others += [(o.x, o.y, o.radius) for o in m.table.discs.values()
                   if o.state == "surface" and o.id not in (target, did)]

        def gen() -> Iterable[ShotPlan]:
            for extra in extras:
                for s in _starts(b, seat):
                    for a in aims:
                        dx, dy = t.x - s[0], t.y - s[1]
                        n = math.hypot(dx, dy)
                        aim = (t.x - dy / n * a, t.y + dx / n * a)
                        # Cheap pre-check: the straight path to the target must be clear.
                        if path_clearance(s, (t.x, t.y), b.disc_radius, others) < 0.5:
                            continue
                        v = launch_speed(n + extra, m.table.params)  # type: ignore[union-attr]
                        yield ShotPlan(s, _velocity(s, aim, v), "scripted")

        return gen(), lambda r: ok(r, did)

    return wish


def off_peg(ok: Callable[[ShotResult, str], bool]) -> Wish:
    """Aim at the pegs: candidates graze each peg from every start, at a range of speeds."""

    def wish(m: Match, seat: str, did: str) -> tuple[Iterable[ShotPlan], Callable[[ShotResult], bool]]:
        b = m.board
        assert isinstance(b, CrokinoleBoard)

        def gen() -> Iterable[ShotPlan]:
            for extra in (150.0, 250.0, 350.0):
                for s in _starts(b, seat, 4.0):
                    for px, py in b.peg_positions():
                        for a in (-12.0, -6.0, 6.0, 12.0):
                            dx, dy = px - s[0], py - s[1]
                            n = math.hypot(dx, dy)
                            aim = (px - dy / n * a, py + dx / n * a)
                            yield ShotPlan(s, _velocity(s, aim, launch_speed(n + extra, m.table.params)), "scripted")  # type: ignore[union-attr]

        return gen(), lambda r: ok(r, did)

    return wish


def _contacts(r: ShotResult) -> list[tuple[str, str]]:
    return [c.pair() for c in r.contacts]


# ------------------------------------------------------------------ korona wishes
def korona_pot(behind: bool) -> Wish:
    """Pocket an own disc: into a pocket in front (``behind=False``), or, uncalled, into one of
    the pockets behind the own striking line (an overshot)."""

    def wish(m: Match, seat: str, did: str) -> tuple[Iterable[ShotPlan], Callable[[ShotResult], bool]]:
        b = m.board
        assert isinstance(b, KoronaBoard) and m.table is not None
        rng = np.random.default_rng(0)
        p = KoronaPlayer(seat, b, m.table.params, Skill(0.0, 0.0), rng)
        own = {k for k, v in m.owner.items() if v == seat}
        back = set(b.pockets_behind(seat))  # type: ignore[arg-type]
        cands = sorted(p.candidates(list(m.table.discs.values()), own, call_overshots=False), key=lambda c: c[0])
        plans = [pl for _, pl in cands if (pl.intent.split(":")[2] in back) == behind]

        def ok(r: ShotResult) -> bool:
            pocketed = [(d, f.pocket) for d, f in r.final.items() if f.state == "pocket"]
            striker_ok = r.final[did].state == "surface"
            return striker_ok and len(pocketed) == 1 and pocketed[0][0] in own and (pocketed[0][1] in back) == behind

        return plans, ok

    return wish


def korona_clip_setup(board: KoronaBoard, seed: int) -> Setup:
    """A mid-game position: each player's eight discs scattered over the middle of the board."""
    rng = np.random.default_rng(seed)
    discs: dict[str, tuple[str, tuple[float, float]]] = {}
    placed: list[tuple[float, float]] = []
    lim = board.half - board.striking_line_offset - board.disc_radius - 10.0
    for seat in ("south", "north"):
        for k in range(1, 9):
            while True:
                x, y = (float(v) for v in rng.uniform(-lim, lim, 2))
                if all(math.dist((x, y), q) > 3.5 * board.disc_radius for q in placed):
                    break
            placed.append((x, y))
            discs[f"{seat[0]}{k}"] = (seat, (round(x, 1), round(y, 1)))
    return Setup(discs=discs, strikers={"south": "S", "north": "N"})


# ------------------------------------------------------------------ the clips
@dataclass(frozen=True)
class Clip:
    name: str
    game: str
    description: str
    wishes: tuple[Wish, ...]
    setup_seed: int | None = None  # korona: a scattered mid-game setup


def _in_15(r: ShotResult, did: str) -> bool:
    f = r.final[did]
    return f.state == "surface" and math.hypot(f.x, f.y) < 90.0


CLIPS: dict[str, Clip] = {
    c.name: c
    for c in (
        Clip("crokinole_twenty", "crokinole", "south's first shot drops in the 20-hole", (twenty(),)),
        Clip(
            "crokinole_foul",
            "crokinole",
            "north's disc is on the board; south hits only its own disc: foul, both south discs removed",
            (
                draw_to((-45.0, -70.0), _in_15),
                strike("s1", (5.0, 15.0, 30.0), lambda r, d: _contacts(r)[:1] == [(d, "s1")]
                       and _in_15(r, d) and _in_15(r, "s1"), aims=(0.0, 8.0, -8.0, 16.0, -16.0)),
                strike("s1", (40.0, 100.0, 200.0), lambda r, d: _contacts(r)[:1] == [(d, "s1")]
                       and all(not b.startswith("n") and not a.startswith("n") for a, b in _contacts(r)),
                       aims=(0.0, 10.0, -10.0, 20.0, -20.0, 26.0, -26.0)),
            ),
        ),
        Clip(
            "crokinole_peg_ricochet",
            "crokinole",
            "north's disc glances off a peg and then strikes south's disc (a legal hit)",
            (
                draw_to((-30.0, -75.0), _in_15),
                off_peg(lambda r, d: len(_contacts(r)) >= 2 and _contacts(r)[0] == (d, "peg")
                        and _contacts(r)[1] == (d, "s1")),
            ),
        ),
        Clip(
            "crokinole_off_board",
            "crokinole",
            "north knocks south's disc off the playing surface into the ditch and stays on",
            (
                draw_to((-20.0, -70.0), _in_15),
                strike("s1", (400.0, 550.0, 700.0),
                       lambda r, d: r.final["s1"].state == "ditch" and r.final[d].state == "surface"
                       and math.hypot(*r.final[d].xy) < 290.0, aims=(0.0, 6.0, -6.0, 12.0, -12.0)),
            ),
        ),
        Clip("korona_pocket", "korona", "south pockets an own disc in a pocket ahead", (korona_pot(False),),
             setup_seed=3),
        Clip("korona_overshot", "korona",
             "south pockets an own disc, uncalled, behind the own striking line: it is put back",
             (korona_pot(True),), setup_seed=5),
    )
}


def run_clip(name: str, size: tuple[int, int] = (640, 360), seed: int = 0, preset: str = "easy") -> Match:
    """Play a scripted clip (its shots only) and return the match."""
    clip = CLIPS[name]
    cfg = MatchConfig(clip.game, 2, seed=seed, preset=preset, max_shots=len(clip.wishes),
                      camera_bump=False, size=size)
    setup = None
    if clip.setup_seed is not None:
        from tracker.boards import KoronaBoard

        setup = korona_clip_setup(KoronaBoard(), clip.setup_seed)
    return run_match(cfg, planner=scripted_planner(list(clip.wishes)), setup=setup)
