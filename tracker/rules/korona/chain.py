"""Reading a shot's contacts chain (SPEC 4b ``contacts``, in time order). Pure functions.

A contact names two things: two disc ids, or a disc id and ``"rim"``. Korona needs to know *which*
rim for the Russian ricochet rules ("the striker touched the opposite rim"), so a rim contact may
also be written ``"rim:north"`` (the rim on north's side); a bare ``"rim"`` is a rim of unknown
side, which never counts as the opposite rim.

Everything here answers a question about the striker's path or about which discs were set moving
by what, so the variant judges can state their reasons from the chain ("the striker hit the rim
first").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

Contact = tuple[str, str]


def is_rim(token: str) -> bool:
    return token == "rim" or token.startswith("rim:")


def rim_side(token: str) -> str | None:
    """``"rim:north"`` -> ``"north"``; a bare ``"rim"`` (or anything else) -> None."""
    return token[4:] if token.startswith("rim:") else None


def striker_touches(contacts: Sequence[Contact], striker: str) -> list[str]:
    """What the striker touched, in order (the other party of each of its contacts)."""
    out: list[str] = []
    for a, b in contacts:
        if a == striker:
            out.append(b)
        elif b == striker:
            out.append(a)
    return out


def touched_by_anything(contacts: Iterable[Contact]) -> set[str]:
    return {x for c in contacts for x in c}


def first_of(touches: Sequence[str], wanted: set[str]) -> int | None:
    """Index of the first touch that is in ``wanted``."""
    for i, t in enumerate(touches):
        if t in wanted:
            return i
    return None


def describe(token: str, owner_of: Mapping[str, str], noun: str = "disc") -> str:
    """A contact party in words: "the rim", "the north rim", "north's disc n2"."""
    if token == "rim":
        return "the rim"
    side = rim_side(token)
    if side is not None:
        return f"the {side} rim"
    if token in owner_of:
        return f"{owner_of[token]}'s {noun} {token}"
    return f"striker {token}"


def legal_carriers(
    contacts: Sequence[Contact], striker: str, free_own: set[str], opposite_rim: str
) -> set[str]:
    """Russian variant: the discs that may legally knock in a pawn lying in a restricted zone.

    The rulebook allows three routes: a ricochet in which the striker touched the opposite rim;
    the striker after it first touched a pawn lying outside the zones; an own pawn lying outside
    the zones that the striker set moving. We follow the chain in time order: the striker becomes
    a carrier once it touched the opposite rim or an own pawn outside the zones; that pawn becomes
    a carrier as the striker sets it moving; any disc a carrier strikes becomes a carrier too (a
    legal chain stays legal). A restricted pawn knocked in is legal if it became a carrier.
    """
    striker_ok = False
    carriers: set[str] = set()
    for a, b in contacts:
        for x, y in ((a, b), (b, a)):
            if x != striker:
                continue
            if rim_side(y) == opposite_rim:
                striker_ok = True
            elif y in free_own:
                carriers.add(y)
                striker_ok = True
            elif striker_ok and not is_rim(y):
                carriers.add(y)
        if striker not in (a, b) and not is_rim(a) and not is_rim(b):
            if a in carriers:
                carriers.add(b)
            elif b in carriers:
                carriers.add(a)
    return carriers
