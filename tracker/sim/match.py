"""The match script: whole rounds and games play out on a timeline, refereed by the rules engine.

One loop for both games: the engine says whose turn it is; that player plans a shot
(``tracker.sim.players``) or a script supplies it (``tracker.sim.scripted``); a hand places
the disc and flicks it (crokinole) or a cue strikes the striker (korona); the physics plays the
shot; the shot becomes a shot-log entry (SPEC 4b: seat, disc, start, contacts in time order,
end); the engine rules on it; the hands carry out its actions (lift a removed disc out, set a
20 aside, put a disc back). So the truth is by construction ``rules(true shot log)``.

Events (SPEC 4) are collected with their time; the writer (``tracker.sim.output``) gives them
frame numbers once the frame rate is known.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tracker import events as ev
from tracker.boards import CrokinoleBoard, KoronaBoard, board_for
from tracker.render.scene import Camera, Look
from tracker.rules.datatypes import Outcome, RulesEngine
from tracker.seats import seats_for, team_of
from tracker.shotlog import Announced, Entry, Setup, Shot
from tracker.sim import choreography as ch
from tracker.sim.datatypes import ShotResult, SimDisc
from tracker.sim.physics import PhysicsParams, Table
from tracker.sim.players import ShotPlan, Skill
from tracker.sim.timeline import Timeline

PRESETS = ("easy", "hard")
# Skill per preset: the hard preset also has sloppier players (more fouls, ricochets, ditches).
SKILLS = {"easy": Skill(0.6, 0.04), "hard": Skill(1.2, 0.07)}
# Chance that the camera gets bumped part way through the match.
BUMP_CHANCE = {"easy": 0.25, "hard": 0.7}
# Chance, per shot, that a waiting player's hand rests on the board's edge meanwhile.
IDLE_HAND_CHANCE = {"easy": 0.0, "hard": 0.35}

Planner = Callable[["Match", str, str], ShotPlan | None]


@dataclass(frozen=True)
class MatchConfig:
    game: str
    players: int = 2
    seed: int = 0
    preset: str = "easy"
    rounds: int = 1  # crokinole rounds / korona games
    discs_per_player: int | None = None  # korona: 8 (default) or 16; crokinole: the rulebook's
    max_shots: int | None = None  # stop after this many shots (a clip of part of a round)
    camera_bump: bool | None = None  # None: by chance, per preset
    size: tuple[int, int] = (1280, 720)
    variant: str | None = None  # korona rules: "fi" (Finnish rulebook, default) or "ru" (Russian)


@dataclass
class Match:
    """Everything a synthetic match produced: the timeline and the truth."""

    config: MatchConfig
    board: CrokinoleBoard | KoronaBoard
    look: Look
    timeline: Timeline
    engine: RulesEngine
    entries: list[Entry] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    events: list[ev.Event] = field(default_factory=list)  # frame numbers filled in by the writer
    table: Table | None = None
    owner: dict[str, str] = field(default_factory=dict)  # disc id -> seat

    def summary(self) -> dict[str, Any]:
        return self.engine.summary()


def _sample_view(cfg: MatchConfig, rng: np.random.Generator) -> tuple[Look, Camera]:
    """Look and camera from the renderer's samplers (its presets), or plain defaults."""
    try:
        from tracker.render import sample_camera, sample_look  # type: ignore[attr-defined]
    except ImportError:
        return Look(), Camera()
    look = sample_look(cfg.preset, rng, cfg.game)
    for _ in range(50):
        camera = south_at_bottom(sample_camera(cfg.preset, rng, cfg.size, cfg.game))
        if camera is not None:
            break
    else:
        camera = Camera()
    return _enough_colours(look, cfg), camera


def south_at_bottom(camera: Camera, margin: float = 35.0) -> Camera | None:
    """The camera turned by whole quarter turns round the board centre so the south seat is the
    one nearest the bottom of the image, as SPEC section 1 names seats when the user says
    nothing (a match is reviewed without ``--south``, so its truth must name seats the same
    way). Both boards are the same a quarter turn round, so the picture keeps its framing; only
    which player is called south changes. None when the view is within ``45 - margin`` degrees
    of a diagonal, where the bottom seat would be a coin toss (the caller draws another)."""
    a = (camera.azimuth + 45.0) % 90.0 - 45.0
    if abs(a) > margin:
        return None
    turn = math.radians(a - camera.azimuth)
    c, s = math.cos(turn), math.sin(turn)
    tx, ty = camera.target
    return replace(camera, azimuth=a, target=(c * tx - s * ty, s * tx + c * ty))


# Extra disc colours (BGR) for a side the look has no colour for (3-player crokinole).
_EXTRA_COLOURS = ((45, 45, 175), (170, 100, 40), (60, 140, 60), (40, 170, 200))


def _enough_colours(look: Look, cfg: MatchConfig) -> Look:
    """Give every side its own colour: the renderer's crokinole looks have a pair, but three
    players each play their own colour."""
    sides = cfg.players if (cfg.game == "korona" or cfg.players == 3) else 2
    colours = list(look.disc_colors)
    for c in _EXTRA_COLOURS:
        if len(colours) >= sides:
            break
        if all(sum(abs(a - b) for a, b in zip(c, o, strict=True)) > 150 for o in colours):
            colours.append(c)
    return replace(look, disc_colors=tuple(colours))


def bumped(camera: Camera, rng: np.random.Generator) -> Camera:
    """The camera after somebody knocks the tripod: a few degrees and a few centimetres off."""
    tx, ty = camera.target
    return replace(
        camera,
        azimuth=camera.azimuth + float(rng.uniform(-4.0, 4.0)),
        tilt=max(0.0, camera.tilt + float(rng.uniform(-3.0, 3.0))),
        roll=camera.roll + float(rng.uniform(-2.0, 2.0)),
        height=camera.height * float(rng.uniform(0.96, 1.04)),
        target=(tx + float(rng.uniform(-25.0, 25.0)), ty + float(rng.uniform(-25.0, 25.0))),
    )


def new_match(cfg: MatchConfig, engine: RulesEngine | None = None) -> Match:
    if cfg.game not in ("crokinole", "korona"):
        raise ValueError(f"unknown game {cfg.game!r}")
    if cfg.preset not in PRESETS:
        raise ValueError(f"unknown preset {cfg.preset!r}: expected easy or hard")
    board = board_for(cfg.game)
    rng = np.random.default_rng([cfg.seed, 1])
    look, camera = _sample_view(cfg, rng)
    if engine is None:
        from tracker.rules import engine_for

        opts: dict[str, Any] = {}
        if cfg.game == "korona" and cfg.discs_per_player:
            opts["discs_per_player"] = cfg.discs_per_player
        engine = engine_for(cfg.game, cfg.players, cfg.variant, **opts)
    tl = Timeline(cameras=[(0.0, camera)])
    return Match(cfg, board, look, tl, engine)


class Director:
    """Runs the match loop over a :class:`Match` (see the module docstring)."""

    def __init__(self, match: Match, planner: Planner | None = None):
        self.m = match
        cfg = match.config
        self.cfg = cfg
        self.board = match.board
        self.params = PhysicsParams()
        self.rng = np.random.default_rng([cfg.seed, 2])
        self.seats = seats_for(cfg.game, cfg.players)
        self.hands = ch.Hands(self.seats, self.rng, len(match.look.skin_tones), len(match.look.sleeve_colors))
        # Korona rim jumps draw from their own generator, so they do not shift the players' draws.
        jump_rng = np.random.default_rng([cfg.seed, 3]) if cfg.game == "korona" else None
        self.table = Table(self.board, self.params, jump_rng)
        match.table = self.table
        self.planner = planner
        self.skill = SKILLS[cfg.preset]
        self.t = 0.6  # a still moment first: the board alone
        self.shots = 0
        self.bump_at: float | None = None
        want_bump = cfg.camera_bump if cfg.camera_bump is not None else (
            self.rng.random() < BUMP_CHANCE[cfg.preset])
        self.want_bump = bool(want_bump)

    # ---------------------------------------------------------------- helpers
    def side(self, seat: str) -> int:
        if self.cfg.game == "crokinole":
            team = team_of(seat, "crokinole", self.cfg.players)  # type: ignore[arg-type]
            return {"A": 0, "B": 1}.get(team, self.seats.index(seat))  # type: ignore[arg-type]
        return self.seats.index(seat)

    def new_disc(self, did: str, seat: str, kind: str = "disc") -> SimDisc:
        b = self.board
        if kind == "striker":
            assert isinstance(b, KoronaBoard)
            r = b.striker_radius
        else:
            r = b.disc_radius
        d = SimDisc(did, seat, self.side(seat), r, b.disc_thickness, 0.0, 0.0, "off", kind)  # type: ignore[arg-type]
        self.table.add(d)
        self.m.timeline.track(d)
        self.m.owner[did] = seat
        return d

    def apply(self, entry: Entry) -> Outcome:
        out = self.m.engine.apply(entry)
        self.m.entries.append(entry)
        self.m.outcomes.append(out)
        return out

    def event(self, e: ev.Event) -> None:
        self.m.events.append(e)

    def maybe_bump(self, expected_shots: int) -> None:
        if self.want_bump and self.bump_at is None and self.shots >= max(1, expected_shots // 2):
            tl = self.m.timeline
            self.bump_at = self.t
            tl.cameras.append((self.t, bumped(tl.cameras[-1][1], self.rng)))
            self.t += 0.4

    def opponents_of(self, seat: str) -> set[str]:
        mine = team_of(seat, self.cfg.game, self.cfg.players)  # type: ignore[arg-type]
        return {did for did, s in self.m.owner.items()
                if team_of(s, self.cfg.game, self.cfg.players) != mine}  # type: ignore[arg-type]

    # ---------------------------------------------------------------- a shot
    def shoot(self, seat: str, disc_id: str, plan: ShotPlan, place: str = "flick") -> tuple[ShotResult, Shot, float, float]:
        """Place, execute and simulate one shot; returns the result, its log entry, start and
        end times."""
        d = self.table.discs[disc_id]
        tl = self.m.timeline
        direction = plan.direction
        chance = IDLE_HAND_CHANCE[self.cfg.preset]
        if chance > 0 and self.rng.random() < chance:
            others = [s for s in self.seats if s != seat]
            waiting = others[int(self.rng.integers(len(others)))]
            ch.idle_hand(tl, self.board, self.hands, waiting, self.t, float(self.rng.uniform(1.0, 3.0)))
        if place == "flick":
            t_shot = ch.place_and_flick(tl, self.board, self.hands, seat, disc_id, plan.start, direction, self.t)
        else:
            assert isinstance(self.board, KoronaBoard)
            t_shot = ch.place_and_cue(tl, self.board, self.hands, seat, disc_id, plan.start, direction, self.t)
        d.x, d.y, d.state = plan.start[0], plan.start[1], "surface"
        in_ditch = {k for k, v in self.table.discs.items() if v.state == "ditch"}
        result = self.table.shoot(disc_id, plan.velocity)
        t_end = ch.play_shot(tl, self.board, result, t_shot)
        for c in result.contacts:
            self.event(ev.collision(t_shot + c.t, -1, c.a, c.b))
        for tr in result.transitions:
            if tr.state in ("ditch", "flown"):
                self.event(ev.off_board(t_shot + tr.t, -1, tr.disc))
            elif tr.state == "pocket" and tr.pocket:
                self.event(ev.pocketed(t_shot + tr.t, -1, tr.disc, self.m.owner[tr.disc], tr.pocket))
        end: dict[str, tuple[float, float] | str] = {}
        for did in result.moved():
            if did in in_ditch:
                continue  # already out of play: a disc shuffled along the ditch is no news
            f = result.final[did]
            if f.state == "hole":
                end[did] = "hole"
            elif f.state == "pocket":
                end[did] = f"pocket:{f.pocket}"
            elif f.state in ("ditch", "off", "flown"):
                end[did] = "off"
            else:
                end[did] = (round(f.x, 2), round(f.y, 2))
        entry = Shot(
            seat=seat,
            disc=disc_id,
            start=(round(plan.start[0], 2), round(plan.start[1], 2)),
            contacts=tuple(c.pair() for c in result.contacts),
            end=end,
            announced=Announced(indirect=plan.announced_indirect, pocket=plan.announced_pocket),
            line=len(self.m.entries) + 1,
        )
        self.shots += 1
        return result, entry, t_shot, t_end

    def after_outcome(self, out: Outcome, seat: str, t_shot: float, t_end: float, entry: Shot,
                      foul: str | None, hit: bool | None) -> None:
        """Events of the shot and its ruling; hands carry out the actions."""
        self.event(ev.shot(t_end, -1, seat, entry.disc, round(t_shot, 4), round(t_end, 4),
                           hit_opponent=hit, foul=foul))
        from tracker.rules import outcome_events

        for e in outcome_events(out, t_end, -1):
            self.event(e)
        self.t = t_end + 0.5
        for a in out.actions:
            disc = a.disc
            if disc not in self.m.timeline.discs:
                continue
            who = a.by if a.by in self.seats else seat
            if a.kind in ("lift_out", "set_aside"):
                self.t = ch.lift_out(self.m.timeline, self.board, self.hands, who, disc, self.t)
                self.table.discs[disc].state = "off"
            elif "place" in a.kind or a.kind == "put_back":
                at = a.at if a.at is not None else (0.0, 0.0)
                self.t = ch.place_at(self.m.timeline, self.board, self.hands, who, disc, at, self.t)
                dd = self.table.discs[disc]
                dd.x, dd.y, dd.state, dd.pocket = at[0], at[1], "surface", None
        self.t += 0.3


def foul_and_hit(out: Outcome) -> tuple[str | None, bool | None]:
    foul = None
    hit: bool | None = None
    for d in out.decisions:
        if d.kind == "hit":
            hit = True
        if d.kind == "removed" and getattr(d, "cause", None) == "foul":
            foul, hit = "no_opponent_hit", False
        if d.kind == "foul":
            foul = d.reason
    return foul, hit


def run_match(cfg: MatchConfig, planner: Planner | None = None, engine: RulesEngine | None = None,
              setup: Setup | None = None) -> Match:
    """Play a whole match (``cfg.rounds`` rounds / games, or ``cfg.max_shots`` shots)."""
    m = new_match(cfg, engine)
    d = Director(m, planner)
    if cfg.game == "crokinole":
        from tracker.sim.crokinole_match import play_crokinole

        play_crokinole(d)
    else:
        from tracker.sim.korona_match import play_korona

        play_korona(d, setup)
    m.timeline.end = d.t + 0.6
    return m
