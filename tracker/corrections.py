"""Referee corrections: small patches on the shot log, replayed through the rules engine.

A correction never edits what the camera saw; it is stored beside it and applied when the log is
replayed, so every score can be explained as "observed log + these corrections". Pure Python.

Patch forms (one or more keys in one patch object):
- ``{"end": {"n2": [x, y] | "hole" | "off" | "pocket:ne"}}``: where a disc really came to rest
  (a disc's zone, a 20 that was missed, a disc to place back: give its position);
- ``{"add_contacts": [["s1", "n2"]]}``: a hit the camera missed (appended in order);
- ``{"remove_contacts": [["s1", "n2"]]}``: a hit that did not happen;
- ``{"announced": {"indirect": true, "pocket": "ne"}}``: what the shooter declared;
- ``{"seat": "north"}``, ``{"disc": "n7"}``: who shot, which disc;
- ``{"referee": ["pushing"]}``: a referee input (korona fouls);
- ``{"delete": true}``: a shot that was not a shot;
- ``{"insert_before": {...shot line...}}``: a shot the camera missed, inserted before this one
  (use index == len(log) to append).
"""

from __future__ import annotations

import copy
from typing import Any

from tracker.errors import InputError
from tracker.shotlog import parse_entry

PATCH_KEYS = ("end", "add_contacts", "remove_contacts", "announced", "seat", "disc", "referee",
              "delete", "insert_before")


def validate_patch(patch: dict[str, Any]) -> None:
    """Refuse unknown keys and bad shapes with a message naming the field."""
    if not isinstance(patch, dict) or not patch:
        raise InputError("correction: patch must be a non-empty object")
    for key in patch:
        if key not in PATCH_KEYS:
            raise InputError(f"correction: unknown field {key!r} (known: {', '.join(PATCH_KEYS)})")
    if "end" in patch and not isinstance(patch["end"], dict):
        raise InputError("correction: field 'end' must map disc ids to positions")
    for key in ("add_contacts", "remove_contacts"):
        if key in patch:
            pairs = patch[key]
            if not isinstance(pairs, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) for s in p) for p in pairs
            ):
                raise InputError(f"correction: field {key!r} must be a list of [id, id] pairs")
    if "delete" in patch and patch["delete"] is not True:
        raise InputError("correction: field 'delete' must be true")
    if "insert_before" in patch:
        parse_entry(patch["insert_before"], 0)  # raises a clear error when malformed


def apply_corrections(log: list[dict[str, Any]], corrections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The shot log with every correction applied, in the order they were made.

    ``corrections`` are ``{"shot": index, "patch": {...}}``; indices refer to the log as it
    stands when that correction is applied (so an insert shifts later indices, as a referee sees).
    """
    out = copy.deepcopy(log)
    for c in corrections:
        i = int(c["shot"])
        patch = c["patch"]
        validate_patch(patch)
        if "insert_before" in patch:
            if not 0 <= i <= len(out):
                raise InputError(f"correction: shot {i} is outside the log (0..{len(out)})")
            out.insert(i, copy.deepcopy(patch["insert_before"]))
            continue
        if not 0 <= i < len(out):
            raise InputError(f"correction: shot {i} is outside the log (0..{len(out) - 1})")
        if patch.get("delete"):
            del out[i]
            continue
        line = out[i]
        if "end" in patch:
            line.setdefault("end", {}).update(copy.deepcopy(patch["end"]))
        if "add_contacts" in patch:
            line.setdefault("contacts", []).extend(copy.deepcopy(patch["add_contacts"]))
        if "remove_contacts" in patch:
            drop = [list(p) for p in patch["remove_contacts"]]
            line["contacts"] = [c2 for c2 in line.get("contacts", [])
                                if list(c2) not in drop and list(reversed(c2)) not in drop]
        if "announced" in patch:
            line.setdefault("announced", {}).update(patch["announced"])
        for key in ("seat", "disc", "referee"):
            if key in patch:
                line[key] = copy.deepcopy(patch[key])
        parse_entry(line, i + 1)  # the corrected line must still be a valid shot
    return out


def line_origins(raw_len: int, corrections: list[dict[str, Any]]) -> list[int | None]:
    """For each line of the corrected log, the index of the stored (as seen) line it comes from,
    or ``None`` for a line a referee inserted. ``raw_len`` is the stored log's length.

    The pipeline numbers lines as it logs them; a referee's deletion or insertion before a line
    moves it in the corrected log, and a later correction of that line must name where it stands
    now (:func:`apply_corrections` applies corrections in order)."""
    out: list[int | None] = list(range(raw_len))
    for c in corrections:
        i = int(c["shot"])
        patch = c["patch"]
        if "insert_before" in patch and 0 <= i <= len(out):
            out.insert(i, None)
        elif patch.get("delete") and 0 <= i < len(out):
            del out[i]
    return out

