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
# pocket, off the board (removed / not yet in play), or held up by a hand.
State = Literal["surface", "hole", "ditch", "pocket", "off", "lifted"]


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
    disc id and ``"peg"`` / ``"rim"``."""

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
