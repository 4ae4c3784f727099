"""Values of the simulation: discs on the table, contacts, a simulated shot.

Everything is in board millimetres and seconds (SPEC section 1 frame). Physics, players and the
match script exchange these small values; nothing here knows about pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

Kind = Literal["disc", "striker"]
# Where a disc is: on the playing surface, in the 20-hole, in the crokinole ditch, in a korona
# pocket, off the board (removed / not yet in play), held up by a hand, or "flown": a korona disc
# that jumped a rim and flew off the board (in the air, then lying on the table beside the
# board, in view). "flown" is off the board for the rules and the truth files (``"off"``).
State = Literal["surface", "hole", "ditch", "pocket", "off", "lifted", "flown"]


@dataclass
class SimDisc:
    """A disc (or korona striker) as the physics sees it."""

    id: str
    seat: str  # owner's seat
    side: int  # colour index for the renderer's palette
    radius: float
    thickness: float
    x: float = 0.0
    y: float = 0.0
    state: State = "surface"
    kind: Kind = "disc"
    pocket: str | None = None  # korona pocket name when state == "pocket"

    @property
    def xy(self) -> tuple[float, float]:
        return (self.x, self.y)


@dataclass(frozen=True)
class Contact:
    """A contact that began at time ``t`` (seconds from the shot's start): two disc ids, or a
    disc id and ``"peg"`` (crokinole) / ``"rim:<seat>"`` (korona: the rim on that seat's side,
    SPEC 4b). Crokinole's ditch rail is never a contact: a disc there is out of play."""

    t: float
    a: str
    b: str

    def pair(self) -> tuple[str, str]:
        return (self.a, self.b)


@dataclass(frozen=True)
class Transition:
    """A disc changed state during a shot (fell in the hole, into the ditch or a pocket)."""

    t: float
    disc: str
    state: State
    pocket: str | None = None


@dataclass(frozen=True)
class Flight:
    """A korona disc jumping a rim: it leaves the surface at ``t`` (seconds from the shot's
    start) from ``start`` with upward speed ``vz`` (mm/s), flies in a straight line over the rim
    and lands at ``land`` on the table, ``z_land`` mm below the playing surface."""

    t: float
    start: tuple[float, float]
    land: tuple[float, float]
    vz: float
    z_land: float
    g: float = 9810.0

    @property
    def duration(self) -> float:
        """Time from leaving the surface to touching the table (the root of z(tau) = z_land)."""
        return (self.vz + (self.vz**2 - 2.0 * self.g * self.z_land) ** 0.5) / self.g

    def at(self, t: float) -> tuple[float, float, float]:
        """(x, y, z) at time ``t`` of the shot (z: height of the disc's bottom above the surface)."""
        tau = min(max(t - self.t, 0.0), self.duration)
        w = tau / self.duration
        x = self.start[0] + (self.land[0] - self.start[0]) * w
        y = self.start[1] + (self.land[1] - self.start[1]) * w
        z = max(self.z_land, self.vz * tau - 0.5 * self.g * tau * tau)
        return (x, y, z)


@dataclass
class ShotResult:
    """One simulated shot: a finely sampled trajectory of every disc, contacts and transitions.

    ``xy[k, i]`` is the position of ``ids[i]`` at ``times[k]`` (seconds from the shot's start);
    the sampling step is the physics step (1 ms by default), fine enough for any sub-frame.
    """

    ids: tuple[str, ...]
    times: np.ndarray  # (T,)
    xy: np.ndarray  # (T, N, 2)
    contacts: list[Contact] = field(default_factory=list)
    transitions: list[Transition] = field(default_factory=list)
    final: dict[str, SimDisc] = field(default_factory=dict)
    flights: dict[str, Flight] = field(default_factory=dict)  # korona discs that jumped a rim

    @property
    def duration(self) -> float:
        return float(self.times[-1]) if len(self.times) else 0.0

    def moved(self, tol: float = 0.05) -> list[str]:
        """Ids of the discs that moved (or changed state) during the shot."""
        out = []
        changed = {tr.disc for tr in self.transitions}
        for i, did in enumerate(self.ids):
            d = np.max(np.hypot(*(self.xy[:, i, :] - self.xy[0, i, :]).T)) if len(self.times) else 0.0
            if d > tol or did in changed:
                out.append(did)
        return out

    def position_at(self, t: float) -> np.ndarray:
        """(N, 2) positions at time ``t`` by linear interpolation (clamped to the shot)."""
        if t <= self.times[0]:
            return np.asarray(self.xy[0].copy())
        if t >= self.times[-1]:
            return np.asarray(self.xy[-1].copy())
        k = int(np.searchsorted(self.times, t)) - 1
        t0, t1 = self.times[k], self.times[k + 1]
        w = (t - t0) / (t1 - t0)
        return np.asarray(self.xy[k] * (1 - w) + self.xy[k + 1] * w)
