"""What the event inference learns from the tracks: shots with their contacts and where discs
came to rest, and the hands' work between shots (discs lifted away, discs put down).

Values only; track ids are the tracker's integers. Naming discs for the shot log (``s1``, ``n2``)
is :mod:`tracker.infer.naming`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Where a disc ended a shot: a point in mm, or "hole", "off", "pocket:ne" ... (SPEC 4b), or
# "lifted" (it vanished under a hand during the shot; the rules know nothing of that).
End = tuple[float, float] | str


@dataclass(frozen=True)
class Contact:
    t: float
    a: int  # track id of the disc that moved into the contact
    b: int | str  # track id, or "peg" / "rim"


@dataclass(frozen=True)
class ShotRecord:
    disc: int  # track id of the shot disc (korona: the striker)
    start: tuple[float, float]  # where the shot disc rested before the shot, mm
    t_start: float
    t_end: float
    frame_start: int
    frame_end: int
    contacts: tuple[Contact, ...] = ()
    ends: dict[int, End] = field(default_factory=dict)  # every disc that moved
    before: dict[int, tuple[float, float]] = field(default_factory=dict)  # discs at rest before
    peak_speed: float = 0.0  # mm/s of the shot disc
    # (new track, old track) pairs that are one physical disc: the shot disc left its rest place
    # unseen and turned up again as a new track (``ShotSegmenter`` inferred the shot from rest
    # states); the pipeline hands the old track's name to the new one.
    links: tuple[tuple[int, int], ...] = ()
    inferred: bool = False  # the shot disc was never seen moving: read from the rest states
    # korona: the shot disc's first contact was a rim it met with the disc it struck next already
    # in reach (``contacts.grazed_rim``): a shot at that disc, not a bank shot played off the rim
    grazed: bool = False


@dataclass(frozen=True)
class HandEvent:
    """A disc taken away (``lifted``) or put down (``placed``) between shots; ``lost``: a disc
    counted as lifted that was last seen while a shot was played (no hand takes a disc then:
    the detector lost it, or it was knocked away unseen), reported for the record only."""

    kind: str  # "lifted" | "placed" | "lost"
    t: float
    frame: int
    track: int
    at: tuple[float, float]
    where: str = "surface"  # the disc's state before it was lifted: surface, hole, off, pocket
    fresh: bool = False  # placed: a disc never seen before (not one lifted and put back)
