"""Board profiles: JSON files that override any figure of a board model."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from tracker.boards.crokinole import CrokinoleBoard
from tracker.boards.korona import KoronaBoard
from tracker.errors import InputError

# Profiles shipped with the package, by name (``--board carrom``): boards people own that differ
# from the defaults. A path to a file always wins over a name.
BUILTIN = Path(__file__).resolve().parent / "profiles"


def builtin_profiles() -> list[str]:
    return sorted(f.stem for f in BUILTIN.glob("*.json"))


def load_profile(path: str | Path) -> CrokinoleBoard | KoronaBoard:
    """Load ``{"game": "crokinole", "shooting_line_radius": 300, ...}`` into a board model.

    ``path`` is a JSON file, or the name of a built-in profile (``carrom``). Unknown keys and
    non-numeric values are refused with a message naming the key.
    """
    p = Path(path)
    if not p.exists() and str(path) in builtin_profiles():
        p = BUILTIN / f"{path}.json"
    try:
        data = json.loads(p.read_text())
    except FileNotFoundError:
        names = ", ".join(builtin_profiles())
        raise InputError(f"board profile {p}: no such file (built-in profiles: {names})") from None
    except json.JSONDecodeError as e:
        raise InputError(f"board profile {p}: not JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict):
        raise InputError(f"board profile {p}: expected a JSON object")
    return profile_from_dict(data, source=str(p))


def profile_from_dict(data: dict, source: str = "profile") -> CrokinoleBoard | KoronaBoard:
    game = data.get("game", "crokinole")
    cls: type[CrokinoleBoard] | type[KoronaBoard]
    if game == "crokinole":
        cls = CrokinoleBoard
    elif game == "korona":
        cls = KoronaBoard
    else:
        raise InputError(f"{source}: unknown game {game!r}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs = {}
    for key, value in data.items():
        if key == "game":
            continue
        if key not in fields:
            raise InputError(f"{source}: unknown board figure {key!r}")
        default = getattr(cls(), key)
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise InputError(f"{source}: {key} must be a number, got {value!r}")
        elif isinstance(default, tuple):
            value = tuple(value)
        kwargs[key] = value
    return cls(**kwargs)
