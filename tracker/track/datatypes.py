"""What the tracker hands downstream: one :class:`Track` per physical disc.

A track is a live object owned by the :class:`tracker.track.Tracker` (norfair-style tracked
objects): the event inference reads its state and its recent path after every ``update``. Tracks
are never deleted while the tracker lives; a disc that left the game keeps its identity with a
terminal state (``hole``, ``pocket``, ``off``, ``lifted``) so a disc put back can be recognised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

# rest: at rest on the playing surface; moving: sliding; hole: in the crokinole 20-hole;
# pocket: in a korona pocket; off: in the ditch / off the board; lifted: taken away by a hand.
TrackState = Literal["rest", "moving", "hole", "pocket", "off", "lifted"]
TERMINAL: tuple[str, ...] = ("hole", "pocket", "off", "lifted")


@dataclass(frozen=True)
class Sample:
    """One point of a track's path. ``measured`` is False for a predicted (missed) frame."""

    t: float
    x: float
    y: float
    measured: bool = True


@dataclass(eq=False)
class Track:
    id: int
    kind: int  # tracker.detect.datatypes.DISC | STRIKER
    radius: float  # mm
    xy: np.ndarray  # best current position estimate, mm
    v: np.ndarray = field(default_factory=lambda: np.zeros(2))  # mm/s
    state: TrackState = "rest"
    cls: int = -1  # colour class (majority vote of the detections)
    # Rest anchor: running mean of the detections since the disc came to rest (sub-mm at rest).
    anchor: np.ndarray = field(default_factory=lambda: np.zeros(2))
    anchor_n: int = 0
    occluded: bool = False  # at rest but not seen (a hand over it)
    last_seen: float = 0.0
    born: float = 0.0
    pocket: str | None = None  # korona pocket name when state == "pocket"
    path: list[Sample] = field(default_factory=list)
    # Internal bookkeeping of the debouncers.
    displaced_frames: int = 0
    where_votes: dict[int, int] = field(default_factory=dict)
    cls_votes: dict[int, int] = field(default_factory=dict)
    hits: int = 1  # detections so far (a track is confirmed after a few)
    rest_since: float = 0.0
    rest_xy: tuple[float, float] | None = None  # where it rested before it last started moving
    first_streak: float = 0.0
    color: np.ndarray = field(default_factory=lambda: np.zeros(3))  # mean Lab colour when sharp
    color_n: int = 0  # blur length of the first detection (born moving?)
    # mean Lab colour of the board around the disc when sharp (the detector's ``surround``): a
    # "disc" that looks like the board around it is a false find (``Namer.looks_like_board``)
    surround: np.ndarray = field(default_factory=lambda: np.zeros(3))
    surround_n: int = 0
    leaving: bool = False  # the rules said it must be lifted out (``Tracker.leaving``): never shot

    @property
    def alive(self) -> bool:
        """On the playing surface (at rest or moving)."""
        return self.state in ("rest", "moving")

    @property
    def speed(self) -> float:
        return float(np.hypot(self.v[0], self.v[1]))

    def last_sighting(self) -> Sample | None:
        """The latest sample measured from a detection (not forecast), or None."""
        return next((s for s in reversed(self.path) if s.measured), None)

    def sightings(self, n: int) -> list[Sample]:
        """The last ``n`` samples measured from detections among the recent path (its last 64
        samples), oldest first; fewer when it has fewer."""
        return [s for s in self.path[-64:] if s.measured][-n:]

    def seen_near(self, xy: Sequence[float] | np.ndarray, within: float) -> list[Sample]:
        """The samples measured from detections within ``within`` mm of ``xy`` (a place it rests or
        rested at), oldest first."""
        x, y = float(xy[0]), float(xy[1])
        return [s for s in self.path if s.measured and float(np.hypot(s.x - x, s.y - y)) <= within]

    @property
    def settled_xy(self) -> np.ndarray:
        """The rest anchor (the mean of its sightings at rest) when it has one, else the latest
        estimate: where a disc lies for tests of what might strike it or take its place."""
        return self.anchor if self.anchor_n else self.xy

    def position(self) -> tuple[float, float]:
        """Where the disc is: the rest anchor at rest, the latest estimate otherwise."""
        p = self.anchor if self.state == "rest" and self.anchor_n else self.xy
        return (float(p[0]), float(p[1]))

    def vote_cls(self, c: int) -> None:
        if c < 0:
            return
        self.cls_votes[c] = self.cls_votes.get(c, 0) + 1
        self.cls = max(self.cls_votes, key=lambda k: self.cls_votes[k])
