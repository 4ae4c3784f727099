"""Detections: the one columnar type passed through the vision stages (supervision-style).

All positions are in board millimetres (SPEC section 1). Arrays share their first dimension N;
construction validates shapes with messages that name the field; boolean masks index.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Where a detected disc lies.
ON_SURFACE, IN_HOLE, IN_DITCH, IN_POCKET = 0, 1, 2, 3
# What kind of disc it is.
DISC, STRIKER = 0, 1


def _arr(value: object, dtype: type, shape_tail: tuple[int, ...], n: int | None, name: str) -> np.ndarray:
    a: np.ndarray = np.asarray(value, dtype=dtype)
    if n is None:
        n = a.shape[0] if a.ndim else 0
    want = (n, *shape_tail)
    if a.size == 0:
        a = a.reshape(want)
    if a.shape != want:
        raise ValueError(f"Detections.{name} must have shape {want}, got {a.shape}")
    return a


@dataclass
class Detections:
    xy: np.ndarray  # (N, 2) centre in mm, where the disc touches the board
    radius: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (N,) mm
    color: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # (N, 3) top-face CIE Lab
    cls: np.ndarray = field(default_factory=lambda: np.zeros(0, int))  # (N,) colour class, -1 unknown
    confidence: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (N,) 0..1
    kind: np.ndarray = field(default_factory=lambda: np.zeros(0, int))  # (N,) DISC | STRIKER
    where: np.ndarray = field(default_factory=lambda: np.zeros(0, int))  # (N,) ON_SURFACE | ...
    streak: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))  # (N, 2) blur vector mm
    track_id: np.ndarray = field(default_factory=lambda: np.zeros(0, int))  # (N,) -1 untracked
    surround: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # (N, 3) CIE Lab of the board around

    def __post_init__(self) -> None:
        self.xy = _arr(self.xy, float, (2,), None, "xy")
        n = len(self.xy)

        def fill(name: str, dtype: type, tail: tuple[int, ...], default: float) -> None:
            v = getattr(self, name)
            if np.asarray(v).size == 0 and n:
                v = np.full((n, *tail), default, dtype=dtype)
            setattr(self, name, _arr(v, dtype, tail, n, name))

        fill("radius", float, (), 0.0)
        fill("color", float, (3,), 0.0)
        fill("cls", int, (), -1)
        fill("confidence", float, (), 1.0)
        fill("kind", int, (), DISC)
        fill("where", int, (), ON_SURFACE)
        fill("streak", float, (2,), 0.0)
        fill("track_id", int, (), -1)
        fill("surround", float, (3,), 0.0)

    def __len__(self) -> int:
        return len(self.xy)

    def __getitem__(self, index: np.ndarray | slice | int) -> Detections:
        if isinstance(index, int):
            index = np.array([index])
        return Detections(
            xy=self.xy[index],
            radius=self.radius[index],
            color=self.color[index],
            cls=self.cls[index],
            confidence=self.confidence[index],
            kind=self.kind[index],
            where=self.where[index],
            streak=self.streak[index],
            track_id=self.track_id[index],
            surround=self.surround[index],
        )

    @staticmethod
    def empty() -> Detections:
        return Detections(xy=np.zeros((0, 2)))

    @staticmethod
    def merge(parts: list[Detections]) -> Detections:
        if not parts:
            return Detections.empty()
        return Detections(
            xy=np.concatenate([p.xy for p in parts]),
            radius=np.concatenate([p.radius for p in parts]),
            color=np.concatenate([p.color for p in parts]),
            cls=np.concatenate([p.cls for p in parts]),
            confidence=np.concatenate([p.confidence for p in parts]),
            kind=np.concatenate([p.kind for p in parts]),
            where=np.concatenate([p.where for p in parts]),
            streak=np.concatenate([p.streak for p in parts]),
            track_id=np.concatenate([p.track_id for p in parts]),
            surround=np.concatenate([p.surround for p in parts]),
        )
