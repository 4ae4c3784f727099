"""Synthetic detection sequences with known truth, for tests and benchmarks of tracking and events.

A deliberately small physics (fixed 1 ms steps, Coulomb friction, equal-mass disc collisions with
restitution, pegs, korona rims and pockets, the 20-hole and the ditch) moves discs; a "camera"
samples them at a frame rate into :class:`Detections` with Gaussian noise, random drop-outs,
motion streaks and hands that hide everything in a circle for a while. It knows every contact and
every final position, so the tracker and the event inference can be scored exactly without
pixels. The real simulation (``tracker.sim``) and renderer are used for end-to-end figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import (
    DISC,
    IN_DITCH,
    IN_HOLE,
    IN_POCKET,
    ON_SURFACE,
    STRIKER,
    Detections,
)


@dataclass
class Body:
    id: str
    x: float
    y: float
    cls: int = 0
    kind: int = DISC
    radius: float = 15.875
    vx: float = 0.0
    vy: float = 0.0
    where: int = ON_SURFACE
    present: bool = True  # on the board (False once lifted away)


@dataclass
class Hand:
    x: float
    y: float
    radius: float
    t0: float
    t1: float


@dataclass
class World:
    board: CrokinoleBoard | KoronaBoard
    fps: float = 30.0
    noise_mm: float = 0.3
    dropout: float = 0.0
    seed: int = 0
    decel: float = 1500.0
    restitution: float = 0.9
    bodies: dict[str, Body] = field(default_factory=dict)
    hands: list[Hand] = field(default_factory=list)
    contacts: list[tuple[float, str, str]] = field(default_factory=list)
    t: float = 0.0
    frame: int = 0

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.frames: list[tuple[float, Detections]] = []
        # true positions of the bodies on the board at each frame time
        self.truth_at: dict[float, dict[str, tuple[float, float]]] = {}

    # -------------------------------------------------------------- scripting
    def place(self, id: str, x: float, y: float, cls: int = 0, kind: int = DISC) -> Body:
        r = self.board.disc_radius
        if kind == STRIKER and isinstance(self.board, KoronaBoard):
            r = self.board.striker_radius
        b = Body(id, x, y, cls, kind, r)
        self.bodies[id] = b
        return b

    def shoot(self, id: str, vx: float, vy: float) -> None:
        b = self.bodies[id]
        b.vx, b.vy = vx, vy

    def lift(self, id: str) -> None:
        self.bodies[id].present = False

    def hand(self, x: float, y: float, radius: float, duration: float) -> None:
        self.hands.append(Hand(x, y, radius, self.t, self.t + duration))

    def moving(self) -> bool:
        return any(b.present and b.where == ON_SURFACE and (b.vx or b.vy) for b in self.bodies.values())

    def run(self, seconds: float) -> None:
        """Advance, recording a frame every 1/fps seconds."""
        end = self.t + seconds
        while self.t < end - 1e-9:
            self._frame()
            nxt = (self.frame) / self.fps
            while self.t < nxt - 1e-9:
                self._step(min(1e-3, nxt - self.t))

    def settle(self, extra: float = 0.5) -> None:
        while self.moving():
            self.run(0.1)
        self.run(extra)

    # -------------------------------------------------------------- physics
    def _step(self, h: float) -> None:
        bs = [b for b in self.bodies.values() if b.present and b.where == ON_SURFACE]
        for b in bs:
            sp = np.hypot(b.vx, b.vy)
            if sp > 0:
                nsp = max(sp - self.decel * h, 0.0)
                b.vx, b.vy = b.vx * nsp / sp, b.vy * nsp / sp
                b.x += b.vx * h
                b.y += b.vy * h
        for i, a in enumerate(bs):
            for b in bs[i + 1:]:
                dx, dy = b.x - a.x, b.y - a.y
                d = np.hypot(dx, dy)
                if 0 < d < a.radius + b.radius:
                    nx, ny = dx / d, dy / d
                    rel = (a.vx - b.vx) * nx + (a.vy - b.vy) * ny
                    if rel > 0:
                        m1, m2 = a.radius ** 2, b.radius ** 2
                        j = (1 + self.restitution) * rel / (1 / m1 + 1 / m2)
                        a.vx -= j / m1 * nx
                        a.vy -= j / m1 * ny
                        b.vx += j / m2 * nx
                        b.vy += j / m2 * ny
                        first, second = (a, b) if np.hypot(a.vx, a.vy) + rel > np.hypot(b.vx, b.vy) else (b, a)
                        self.contacts.append((self.t, first.id, second.id))
        for b in bs:
            self._boundaries(b)
        self.t += h

    def _boundaries(self, b: Body) -> None:
        bd = self.board
        if isinstance(bd, CrokinoleBoard):
            for px, py in bd.peg_positions():
                dx, dy = b.x - px, b.y - py
                d = np.hypot(dx, dy)
                reach = b.radius + bd.peg_diameter / 2
                if d < reach:
                    nx, ny = dx / d, dy / d
                    vn = b.vx * nx + b.vy * ny
                    if vn < 0:
                        b.vx -= (1 + self.restitution) * vn * nx
                        b.vy -= (1 + self.restitution) * vn * ny
                        self.contacts.append((self.t, b.id, "peg"))
            sp = np.hypot(b.vx, b.vy)
            if np.hypot(b.x, b.y) + b.radius <= bd.hole_radius + bd.hole_tolerance + 6 and sp < 900:
                b.x, b.y, b.vx, b.vy, b.where = 0.0, 0.0, 0.0, 0.0, IN_HOLE
            elif np.hypot(b.x, b.y) > bd.surface_radius:
                d = np.hypot(b.x, b.y)
                k = (bd.surface_radius + 20) / d
                b.x, b.y, b.vx, b.vy, b.where = b.x * k, b.y * k, 0.0, 0.0, IN_DITCH
        else:
            for px, py in bd.pocket_centres().values():
                if np.hypot(b.x - px, b.y - py) < bd.pocket_radius * 0.8:
                    b.x, b.y, b.vx, b.vy, b.where = px, py, 0.0, 0.0, IN_POCKET
                    return
            lim = bd.half - b.radius
            for axis in ("x", "y"):
                p, v = getattr(b, axis), getattr(b, "v" + axis)
                if abs(p) > lim and p * v > 0:
                    setattr(b, "v" + axis, -self.restitution * v)
                    setattr(b, axis, np.sign(p) * lim)
                    self.contacts.append((self.t, b.id, "rim"))

    # -------------------------------------------------------------- camera
    def _frame(self) -> None:
        self.truth_at[self.t] = {b.id: (b.x, b.y) for b in self.bodies.values() if b.present}
        rows = []
        for b in self.bodies.values():
            if not b.present:
                continue
            if any(h.t0 <= self.t < h.t1 and np.hypot(b.x - h.x, b.y - h.y) < h.radius for h in self.hands):
                continue
            if self.dropout and self.rng.random() < self.dropout:
                continue
            sp = np.hypot(b.vx, b.vy)
            noise = self.noise_mm * (1 + sp / 500.0)
            rows.append((b.x + self.rng.normal(0, noise), b.y + self.rng.normal(0, noise), b.radius, b.cls,
                         b.kind, b.where, b.vx / self.fps, b.vy / self.fps))
        if rows:
            a = np.array(rows, dtype=float)
            order = self.rng.permutation(len(a))
            a = a[order]
            det = Detections(xy=a[:, :2], radius=a[:, 2], cls=a[:, 3].astype(int), kind=a[:, 4].astype(int),
                             where=a[:, 5].astype(int), streak=a[:, 6:8],
                             color=np.repeat(90.0 - a[:, 3:4] * 25.0, 3, axis=1))
        else:
            det = Detections.empty()
        self.frames.append((self.t, det))
        self.frame += 1

    def truth_end(self) -> dict[str, tuple[float, float] | str]:
        out: dict[str, tuple[float, float] | str] = {}
        for b in self.bodies.values():
            if not b.present:
                out[b.id] = "lifted"
            elif b.where == IN_HOLE:
                out[b.id] = "hole"
            elif b.where == IN_DITCH:
                out[b.id] = "off"
            elif b.where == IN_POCKET:
                out[b.id] = "pocket"
            else:
                out[b.id] = (b.x, b.y)
        return out


_WHERE = {"surface": ON_SURFACE, "hole": IN_HOLE, "ditch": IN_DITCH, "pocket": IN_POCKET}


def detections_from_truth(rows: list[dict], noise_mm: float = 0.3, dropout: float = 0.0,
                          seed: int = 0) -> list[tuple[float, Detections]]:
    """Detections from a rendered match's per-frame truth (``frames.jsonl`` rows of ``tracker
    synth``): every disc on the board, in the hole, ditch or a pocket mouth, with noise; discs
    lifted by a hand or gone are not seen. Streaks are the motion to the next frame.

    This isolates tracking, events and rules from the detector: a benchmark of the downstream
    stages on the simulation's real choreography (hands, lifts, bumps).
    """
    rng = np.random.default_rng(seed)
    out: list[tuple[float, Detections]] = []
    for k, row in enumerate(rows):
        nxt = {d["id"]: d for d in rows[k + 1]["discs"]} if k + 1 < len(rows) else {}
        items = []
        for d in row["discs"]:
            if d.get("state") not in _WHERE:
                continue
            if dropout and rng.random() < dropout:
                continue
            n = nxt.get(d["id"])
            sx, sy = (n["x_mm"] - d["x_mm"], n["y_mm"] - d["y_mm"]) if n and d.get("moving") else (0.0, 0.0)
            sigma = noise_mm * (1.0 + 0.05 * float(np.hypot(sx, sy)))
            kind = STRIKER if d.get("kind") == "striker" else DISC
            items.append((d["x_mm"] + rng.normal(0, sigma), d["y_mm"] + rng.normal(0, sigma), kind,
                          _WHERE[d["state"]], sx, sy, _side(d)))
        if items:
            a = np.array(items, dtype=float)
            det = Detections(xy=a[:, :2], kind=a[:, 2].astype(int), where=a[:, 3].astype(int),
                             streak=a[:, 4:6], cls=a[:, 6].astype(int),
                             color=np.repeat(90.0 - a[:, 6:7] * 25.0, 3, axis=1))
        else:
            det = Detections.empty()
        out.append((float(row["t"]), det))
    return out


def _side(d: dict) -> int:
    seat = d.get("seat") or d.get("owner") or ""
    return {"south": 0, "north": 1, "west": 2, "east": 3}.get(seat, -1)
