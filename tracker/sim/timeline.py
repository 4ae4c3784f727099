"""The timeline of a synthetic match: keyframed tracks of discs, hands, cues and the camera.

The match script writes keyframes; the video writer and the ground truth read them back at any
instant (a frame or a motion-blur sub-frame). Every track is piecewise linear between keyframes;
a simulated shot contributes its 1 ms physics samples as keyframes, so blur sub-frames see the
true path, including the kinks of collisions.

A disc's state holds from its keyframe until the next one. A disc has no keyframes before it
enters play (it is still in the player's hand, out of view).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from tracker.render.scene import Camera, CueSprite, DiscSprite, HandSprite, SceneFrame
from tracker.sim.datatypes import SimDisc, State


@dataclass
class DiscTrack:
    disc: SimDisc  # identity and size (id, seat, side, kind, radius, thickness)
    t: list[float] = field(default_factory=list)
    x: list[float] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    z: list[float] = field(default_factory=list)
    state: list[State] = field(default_factory=list)

    def key(self, t: float, x: float, y: float, z: float = 0.0, state: State = "surface") -> None:
        if self.t and t < self.t[-1] - 1e-9:
            raise ValueError(f"keyframe for {self.disc.id} at t={t} before t={self.t[-1]}")
        self.t.append(t)
        self.x.append(x)
        self.y.append(y)
        self.z.append(z)
        self.state.append(state)

    def last(self) -> tuple[float, float, float, State]:
        return self.x[-1], self.y[-1], self.z[-1], self.state[-1]

    def at(self, t: float) -> tuple[float, float, float, State] | None:
        """(x, y, z, state) at ``t``, or None before the disc enters play."""
        if not self.t or t < self.t[0]:
            return None
        k = bisect.bisect_right(self.t, t) - 1
        if k >= len(self.t) - 1:
            return self.x[-1], self.y[-1], self.z[-1], self.state[-1]
        t0, t1 = self.t[k], self.t[k + 1]
        w = 0.0 if t1 <= t0 else (t - t0) / (t1 - t0)
        return (self.x[k] + (self.x[k + 1] - self.x[k]) * w,
                self.y[k] + (self.y[k + 1] - self.y[k]) * w,
                self.z[k] + (self.z[k + 1] - self.z[k]) * w,
                self.state[k])

    def speed(self, t: float, h: float = 0.004) -> float:
        a, b = self.at(t - h), self.at(t + h)
        if a is None or b is None:
            return 0.0
        return math.hypot(b[0] - a[0], b[1] - a[1]) / (2 * h)


@dataclass
class HandTrack:
    """A hand that reaches in from ``from_angle`` (radians, board frame); visible between its
    first and last keyframe."""

    from_angle: float
    skin: int
    sleeve: int
    t: list[float] = field(default_factory=list)
    pts: list[tuple[float, float, float]] = field(default_factory=list)
    pose: list[str] = field(default_factory=list)

    def key(self, t: float, x: float, y: float, z: float, pose: str) -> None:
        if self.t and t < self.t[-1] - 1e-9:
            raise ValueError(f"hand keyframe at t={t} before t={self.t[-1]}")
        self.t.append(t)
        self.pts.append((x, y, z))
        self.pose.append(pose)

    def at(self, t: float) -> HandSprite | None:
        if not self.t or t < self.t[0] or t > self.t[-1]:
            return None
        k = min(bisect.bisect_right(self.t, t) - 1, len(self.t) - 1)
        if k == len(self.t) - 1:
            x, y, z = self.pts[k]
        else:
            t0, t1 = self.t[k], self.t[k + 1]
            w = 0.0 if t1 <= t0 else (t - t0) / (t1 - t0)
            w = w * w * (3 - 2 * w)  # ease in and out, as a real reach does
            p0, p1 = self.pts[k], self.pts[k + 1]
            x, y, z = (p0[i] + (p1[i] - p0[i]) * w for i in range(3))
        return HandSprite(x=x, y=y, from_angle=self.from_angle, skin=self.skin, sleeve=self.sleeve,
                          z=z, pose=self.pose[k])  # type: ignore[arg-type]


@dataclass
class CueTrack:
    """A korona cue: tip position and direction keyframes; visible between first and last."""

    t: list[float] = field(default_factory=list)
    tip: list[tuple[float, float]] = field(default_factory=list)
    direction: tuple[float, float] = (0.0, 1.0)  # unit vector, tip points this way
    length: float = 700.0

    def key(self, t: float, x: float, y: float) -> None:
        self.t.append(t)
        self.tip.append((x, y))

    def at(self, t: float) -> CueSprite | None:
        if not self.t or t < self.t[0] or t > self.t[-1]:
            return None
        k = min(bisect.bisect_right(self.t, t) - 1, len(self.t) - 1)
        if k == len(self.t) - 1:
            x, y = self.tip[k]
        else:
            t0, t1 = self.t[k], self.t[k + 1]
            w = 0.0 if t1 <= t0 else (t - t0) / (t1 - t0)
            x = self.tip[k][0] + (self.tip[k + 1][0] - self.tip[k][0]) * w
            y = self.tip[k][1] + (self.tip[k + 1][1] - self.tip[k][1]) * w
        dx, dy = self.direction
        return CueSprite(x0=x, y0=y, x1=x - dx * self.length, y1=y - dy * self.length)


def lerp_camera(a: Camera, b: Camera, w: float) -> Camera:
    vals: dict[str, Any] = {}
    for f in fields(Camera):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if isinstance(va, tuple):
            vals[f.name] = tuple(p + (q - p) * w for p, q in zip(va, vb, strict=True))
        else:
            vals[f.name] = va + (vb - va) * w
    return replace(a, **vals)


@dataclass
class Timeline:
    discs: dict[str, DiscTrack] = field(default_factory=dict)
    hands: list[HandTrack] = field(default_factory=list)
    cues: list[CueTrack] = field(default_factory=list)
    # Camera keyframes: (t, camera); the camera holds between keys, and moves linearly over
    # ``bump_duration`` into a new key (a bump).
    cameras: list[tuple[float, Camera]] = field(default_factory=list)
    bump_duration: float = 0.12
    end: float = 0.0

    def track(self, disc: SimDisc) -> DiscTrack:
        if disc.id not in self.discs:
            self.discs[disc.id] = DiscTrack(SimDisc(**vars(disc)))
        return self.discs[disc.id]

    def camera_at(self, t: float) -> Camera:
        k = bisect.bisect_right([c[0] for c in self.cameras], t) - 1
        k = max(k, 0)
        t0, cam = self.cameras[k]
        if k > 0 and t - t0 < self.bump_duration:
            return lerp_camera(self.cameras[k - 1][1], cam, (t - t0) / self.bump_duration)
        return cam

    def scene_at(self, t: float) -> SceneFrame:
        sprites = []
        for tr in self.discs.values():
            s = tr.at(t)
            if s is None or s[3] == "off":
                continue
            d = tr.disc
            # A disc that flew off a korona board is in view, in the air or on the table: the
            # renderer draws it as a disc at its height (the scene's "off" is not drawn at all).
            st = "surface" if s[3] == "flown" else s[3]
            sprites.append(DiscSprite(id=d.id, x=s[0], y=s[1], radius=d.radius, thickness=d.thickness,
                                      side=d.side, kind=d.kind, state=st, z=s[2]))
        hands = tuple(h for h in (ht.at(t) for ht in self.hands) if h is not None)
        cues = tuple(c for c in (ct.at(t) for ct in self.cues) if c is not None)
        return SceneFrame(t=t, discs=tuple(sprites), hands=hands, cues=cues)

    def max_speed(self, t0: float, t1: float) -> float:
        """Largest disc speed (mm/s) within [t0, t1] (sampled), for choosing blur sub-frames."""
        best = 0.0
        for tr in self.discs.values():
            if not tr.t or tr.t[-1] < t0 - 0.01 or tr.t[0] > t1:
                continue
            for tt in np.linspace(t0, t1, 3):
                best = max(best, tr.speed(float(tt)))
        return best
