"""The shot log (SPEC section 4b): what the vision side observed, one shot a line.

Pure Python. ``parse_shot_log`` reads ``shots.jsonl`` text into typed values and refuses a
malformed line with an error naming the line number and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from tracker.errors import InputError

SEATS = ("south", "west", "north", "east")
POCKET_ENDS = ("pocket:ne", "pocket:nw", "pocket:se", "pocket:sw")

# Where a disc came to rest: a point in mm, or "hole", "off", "pocket:xx".
End = tuple[float, float] | str


@dataclass(frozen=True)
class Announced:
    indirect: bool = False
    pocket: str | None = None
    # Korona: the target disc called into ``pocket`` (None: any of the shooter's discs).
    disc: str | None = None


@dataclass(frozen=True)
class Shot:
    seat: str
    disc: str
    start: tuple[float, float] | None = None
    contacts: tuple[tuple[str, str], ...] = ()
    end: dict[str, End] = field(default_factory=dict)
    announced: Announced = Announced()
    # Referee inputs (korona): a pushing shot, a deliberate foul.
    referee: tuple[str, ...] = ()
    line: int = 0
    # Korona: discs put back on the board by hand before this shot (carrying out the rules
    # engine's actions: centre circle, penalty pawn), with where they were put.
    placed: dict[str, tuple[float, float]] = field(default_factory=dict)
    # Crokinole: a shot the vision side did not see, logged from where its disc was later found
    # at rest (it struck nothing the log knows; the rules do not judge its must-hit).
    unseen: bool = False

    def to_json(self) -> dict:
        out: dict = {"seat": self.seat, "disc": self.disc}
        if self.start is not None:
            out["start"] = [self.start[0], self.start[1]]
        out["contacts"] = [list(c) for c in self.contacts]
        out["end"] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.end.items()}
        if self.announced != Announced():
            out["announced"] = {"indirect": self.announced.indirect, "pocket": self.announced.pocket}
            if self.announced.disc is not None:
                out["announced"]["disc"] = self.announced.disc
        if self.referee:
            out["referee"] = list(self.referee)
        if self.placed:
            out["placed"] = {k: [v[0], v[1]] for k, v in self.placed.items()}
        if self.unseen:
            out["unseen"] = True
        return out


@dataclass(frozen=True)
class RoundEnd:
    line: int = 0

    def to_json(self) -> dict:
        return {"round_end": True}


@dataclass(frozen=True)
class Setup:
    """Korona setup line: target discs with owner and position, and each seat's striker id."""

    discs: dict[str, tuple[str, tuple[float, float]]]
    strikers: dict[str, str]
    line: int = 0
    # Korona, optional: the line shot deciding the starter (where each seat's striker stopped)
    # and the starter chosen by its winner.
    line_shot: dict[str, tuple[float, float]] = field(default_factory=dict)
    starter: str | None = None

    def to_json(self) -> dict:
        setup: dict = {
            "discs": {k: {"owner": o, "at": [p[0], p[1]]} for k, (o, p) in self.discs.items()},
            "strikers": dict(self.strikers),
        }
        if self.line_shot:
            setup["line_shot"] = {k: [v[0], v[1]] for k, v in self.line_shot.items()}
        if self.starter is not None:
            setup["starter"] = self.starter
        return {"setup": setup}


Entry = Shot | RoundEnd | Setup


def _fail(line: int, what: str) -> InputError:
    return InputError(f"shot log line {line}: {what}")


def _point(value: object, line: int, name: str) -> tuple[float, float]:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    ):
        return (float(value[0]), float(value[1]))  # type: ignore[index]
    raise _fail(line, f"field '{name}' must be [x, y] in mm, got {json.dumps(value)}")


def _end(value: object, line: int, name: str) -> End:
    if isinstance(value, str):
        if value in ("hole", "off") or value in POCKET_ENDS:
            return value
        raise _fail(line, f"field '{name}' must be [x, y], 'hole', 'off' or 'pocket:ne|nw|se|sw', got {value!r}")
    return _point(value, line, name)


def parse_entry(obj: object, line: int) -> Entry:
    """One decoded JSON object of the log into a typed entry."""
    if not isinstance(obj, dict):
        raise _fail(line, "expected a JSON object")
    if obj.get("round_end") is True:
        return RoundEnd(line=line)
    if "setup" in obj:
        setup = obj["setup"]
        if not isinstance(setup, dict):
            raise _fail(line, "field 'setup' must be an object")
        discs_raw = setup.get("discs")
        if not isinstance(discs_raw, dict):
            raise _fail(line, "field 'setup.discs' must be an object of disc id -> {owner, at}")
        discs: dict[str, tuple[str, tuple[float, float]]] = {}
        for did, d in discs_raw.items():
            if not isinstance(d, dict) or d.get("owner") not in SEATS:
                raise _fail(line, f"field 'setup.discs.{did}.owner' must be a seat")
            discs[str(did)] = (d["owner"], _point(d.get("at"), line, f"setup.discs.{did}.at"))
        strikers = setup.get("strikers", {})
        if not isinstance(strikers, dict) or any(k not in SEATS for k in strikers):
            raise _fail(line, "field 'setup.strikers' must map seats to striker ids")
        line_shot_raw = setup.get("line_shot", {})
        if not isinstance(line_shot_raw, dict) or any(k not in SEATS for k in line_shot_raw):
            raise _fail(line, "field 'setup.line_shot' must map seats to [x, y] where each striker stopped")
        line_shot = {k: _point(v, line, f"setup.line_shot.{k}") for k, v in line_shot_raw.items()}
        starter = setup.get("starter")
        if starter is not None and starter not in SEATS:
            raise _fail(line, f"field 'setup.starter' must be a seat, got {json.dumps(starter)}")
        return Setup(
            discs=discs,
            strikers={k: str(v) for k, v in strikers.items()},
            line=line,
            line_shot=line_shot,
            starter=starter,
        )
    seat = obj.get("seat")
    if seat not in SEATS:
        raise _fail(line, f"field 'seat' must be one of {', '.join(SEATS)}, got {json.dumps(seat)}")
    disc = obj.get("disc")
    if not isinstance(disc, str) or not disc:
        raise _fail(line, f"field 'disc' must be a non-empty string, got {json.dumps(disc)}")
    start = None if obj.get("start") is None else _point(obj["start"], line, "start")
    contacts_raw = obj.get("contacts", [])
    if not isinstance(contacts_raw, list):
        raise _fail(line, "field 'contacts' must be a list of [a, b] pairs")
    contacts = []
    for i, c in enumerate(contacts_raw):
        if not (isinstance(c, list) and len(c) == 2 and all(isinstance(v, str) for v in c)):
            raise _fail(line, f"field 'contacts[{i}]' must be two ids, got {json.dumps(c)}")
        contacts.append((c[0], c[1]))
    end_raw = obj.get("end", {})
    if not isinstance(end_raw, dict):
        raise _fail(line, "field 'end' must be an object of disc id -> position")
    end = {str(k): _end(v, line, f"end.{k}") for k, v in end_raw.items()}
    ann_raw = obj.get("announced") or {}
    if not isinstance(ann_raw, dict):
        raise _fail(line, "field 'announced' must be an object")
    indirect = ann_raw.get("indirect", False)
    if not isinstance(indirect, bool):
        raise _fail(line, "field 'announced.indirect' must be true or false")
    pocket = ann_raw.get("pocket")
    if pocket is not None and pocket not in ("ne", "nw", "se", "sw"):
        raise _fail(line, f"field 'announced.pocket' must be ne, nw, se, sw or null, got {json.dumps(pocket)}")
    called = ann_raw.get("disc")
    if called is not None and not isinstance(called, str):
        raise _fail(line, f"field 'announced.disc' must be a disc id or null, got {json.dumps(called)}")
    placed_raw = obj.get("placed", {})
    if not isinstance(placed_raw, dict):
        raise _fail(line, "field 'placed' must be an object of disc id -> [x, y]")
    placed = {str(k): _point(v, line, f"placed.{k}") for k, v in placed_raw.items()}
    referee_raw = obj.get("referee", [])
    if not isinstance(referee_raw, list) or not all(isinstance(r, str) for r in referee_raw):
        raise _fail(line, "field 'referee' must be a list of strings")
    unseen = obj.get("unseen", False)
    if not isinstance(unseen, bool):
        raise _fail(line, "field 'unseen' must be true or false")
    return Shot(
        seat=seat,
        disc=disc,
        start=start,
        contacts=tuple(contacts),
        end=end,
        announced=Announced(indirect=indirect, pocket=pocket, disc=called),
        referee=tuple(referee_raw),
        line=line,
        placed=placed,
        unseen=unseen,
    )


def parse_shot_log(lines: Iterable[str]) -> list[Entry]:
    """Parse ``shots.jsonl`` text lines (blank lines skipped) into entries."""
    out: list[Entry] = []
    for n, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise _fail(n, f"not valid JSON ({e.msg} at column {e.colno})") from None
        out.append(parse_entry(obj, n))
    return out


def dump_shot_log(entries: Iterable[Entry]) -> str:
    return "".join(json.dumps(e.to_json()) + "\n" for e in entries)
