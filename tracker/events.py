"""The event log (SPEC section 4): everything the vision side learns becomes an event.

Events are made only by the factory functions below, written as JSON lines in time order, and
queried with small composable filters. Pure Python.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Event:
    type: str
    t: float
    frame: int
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "t": round(self.t, 4), "frame": self.frame, **self.data}

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Event:
        rest = {k: v for k, v in obj.items() if k not in ("type", "t", "frame")}
        return Event(type=str(obj["type"]), t=float(obj["t"]), frame=int(obj["frame"]), data=rest)


def calibrated(t: float, frame: int, homography: list[list[float]], rms_mm: float, **extra: Any) -> Event:
    return Event("calibrated", t, frame, {"homography": homography, "rms_mm": rms_mm, **extra})


def shot(
    t: float,
    frame: int,
    seat: str,
    disc: str,
    t_start: float,
    t_end: float,
    hit_opponent: bool | None = None,
    foul: str | None = None,
    **extra: Any,
) -> Event:
    return Event(
        "shot",
        t,
        frame,
        {"seat": seat, "disc": disc, "t_start": t_start, "t_end": t_end,
         "hit_opponent": hit_opponent, "foul": foul, **extra},
    )


def collision(t: float, frame: int, a: str, b: str) -> Event:
    return Event("collision", t, frame, {"discs": [a, b]})


def twenty(t: float, frame: int, seat: str, disc: str) -> Event:
    return Event("twenty", t, frame, {"seat": seat, "disc": disc})


def pocketed(t: float, frame: int, disc: str, owner: str, pocket: str) -> Event:
    return Event("pocketed", t, frame, {"disc": disc, "owner": owner, "pocket": pocket})


def off_board(t: float, frame: int, disc: str) -> Event:
    return Event("off_board", t, frame, {"disc": disc})


def removed(t: float, frame: int, disc: str, reason: str, **extra: Any) -> Event:
    return Event("removed", t, frame, {"disc": disc, "reason": reason, **extra})


def round_end(t: float, frame: int, points: dict[str, int], awarded: dict[str, int], **extra: Any) -> Event:
    return Event("round_end", t, frame, {"points": points, "awarded": awarded, **extra})


def game_end(t: float, frame: int, winner: str | None, **extra: Any) -> Event:
    return Event("game_end", t, frame, {"winner": winner, **extra})


# ---------------------------------------------------------------------- filters
Filter = Callable[[Event], bool]


def by_type(*types: str) -> Filter:
    return lambda e: e.type in types


def by_disc(disc: str) -> Filter:
    def f(e: Event) -> bool:
        return e.data.get("disc") == disc or disc in e.data.get("discs", ())

    return f


def by_time(start: float, end: float) -> Filter:
    return lambda e: start <= e.t <= end


def filter_events(events: Iterable[Event], *filters: Filter) -> list[Event]:
    """Events passing every filter; the input must be in time order."""
    out: list[Event] = []
    last = float("-inf")
    for e in events:
        if e.t < last - 1e-9:
            raise ValueError(f"events out of time order at t={e.t} (after t={last})")
        last = e.t
        if all(f(e) for f in filters):
            out.append(e)
    return out


# ---------------------------------------------------------------------- files
def write_events(path: str | Path, events: Iterable[Event]) -> None:
    with open(path, "w") as fh:
        for e in events:
            fh.write(json.dumps(e.to_json()) + "\n")


def read_events(path: str | Path) -> Iterator[Event]:
    with open(path) as fh:
        for line in fh:
            if line.strip():
                yield Event.from_json(json.loads(line))
