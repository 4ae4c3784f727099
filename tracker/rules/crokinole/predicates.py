"""The crokinole rules as small pure predicates, each returning ``(ok, reason)``.

The engine composes these (pooltool style): it never decides a rule inline, so every ruling has
one place in the code and one sentence a player accepts. Positions are board millimetres
(``tracker.boards.CrokinoleBoard``); line touching and the 20-hole use the board's own geometry, so
a measured board (calibration) changes the calls exactly as the real lines would.

Rulebook sources: ``crokinole-rules-nl.en.md`` (NL) and ``crokinole-rules.txt`` (EN).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from tracker.boards.crokinole import CrokinoleBoard
from tracker.shotlog import End, Shot

# An opponent disc that the log reports at a new position, but in no contact, counts as struck
# when it moved more than this (vision may miss a contact; it will not invent a 3 mm move).
MOVE_TOLERANCE_MM = 3.0

NOT_DISCS = ("peg", "rim")

Verdict = tuple[bool, str]


def set_in_motion(shot_disc: str, contacts: Iterable[tuple[str, str]]) -> list[str]:
    """Discs the shot set moving, in the order they were first struck (shot disc excluded).

    A contact moves a resting disc only when its other party is already moving, so a chain
    ``s1 -> s3 -> n2`` (a carom off one's own disc) reaches n2, and contacts between two resting
    discs (an observation glitch) are ignored.
    """
    moving = {shot_disc}
    order: list[str] = []
    for a, b in contacts:
        for mover, other in ((a, b), (b, a)):
            if mover in moving and other not in moving and other not in NOT_DISCS:
                moving.add(other)
                order.append(other)
    return order


def moved(before: tuple[float, float], end: End) -> bool:
    """True when a disc's reported resting place differs from where it lay."""
    if isinstance(end, str):
        return True
    return math.hypot(end[0] - before[0], end[1] - before[1]) > MOVE_TOLERANCE_MM


def opponent_hit(
    shot: Shot,
    is_own: Callable[[str], bool],
    positions_before: dict[str, tuple[float, float]],
    seat_of: Callable[[str], str | None] | None = None,
) -> Verdict:
    """NL "Shooting with one or more of the opponent's discs on the board"; EN chapter 4 and 8.

    The shot is valid when any disc of the shooter's side, set moving by the shot, strikes an
    opponent disc: directly, off a peg or another disc, or by knocking an own (or partner's) disc
    into it. ``is_own`` tells whether a disc belongs to the shooter's side; ``positions_before``
    holds every disc on the board before the shot; ``seat_of`` (optional) names a partner's disc
    in the reason.
    """
    moving = {shot.disc}
    off_peg = False
    for a, b in shot.contacts:
        for mover, other in ((a, b), (b, a)):
            if mover not in moving:
                continue
            if other in NOT_DISCS:
                if mover == shot.disc:
                    off_peg = True
                continue
            if other in positions_before and not is_own(other) and is_own(mover):
                if mover != shot.disc:
                    whose = "own"
                    if seat_of is not None and seat_of(mover) not in (None, shot.seat):
                        whose = "partner's"
                    return True, f"{shot.disc} hit {other} by carom off {whose} disc {mover}"
                how = "off a peg" if off_peg else "directly"
                return True, f"{shot.disc} hit {other} {how}"
            if other not in moving:
                moving.add(other)
    # Fallback when the contacts were not all seen: an opponent disc that moved was struck.
    for disc, end in shot.end.items():
        if disc in positions_before and not is_own(disc) and moved(positions_before[disc], end):
            return True, f"{shot.disc} hit {disc} (it moved)"
    return False, "no opponent disc hit"


def judged_on_must_hit(shot: Shot) -> Verdict:
    """A line marked ``unseen`` is a shot the vision side missed, logged from where its disc
    was later found at rest (a later shot struck it): nothing of its motion was seen, so the
    must-hit rule has nothing to judge, and the disc is played where it lies."""
    if shot.unseen:
        return False, f"shot of {shot.disc} not seen, only where it rests: must-hit not judged"
    return True, "shot seen"


def fouled_discs(
    shot: Shot,
    is_own: Callable[[str], bool],
    positions_before: dict[str, tuple[float, float]],
) -> list[str]:
    """NL: on a miss the shot disc and every own or partner disc it struck go to the ditch.

    EN chapter 8 adds "including any 20's": an own disc knocked into the hole by a foul shot is
    lifted out and does not count. Struck means set moving by the shot (contact chain), or seen to
    move when the contact was missed.
    """
    out = [shot.disc]
    for disc in set_in_motion(shot.disc, shot.contacts):
        if disc in positions_before and is_own(disc) and disc not in out:
            out.append(disc)
    for disc, end in shot.end.items():
        if (
            disc in positions_before
            and is_own(disc)
            and disc not in out
            and moved(positions_before[disc], end)
        ):
            out.append(disc)
    return out


def in_hole(end: End, board: CrokinoleBoard) -> bool:
    """NL "Miscellaneous": only a disc that went into the hole is a 20; a leaning disc stays."""
    if isinstance(end, str):
        return end == "hole"
    return board.in_hole(end[0], end[1])


def on_playing_surface(end: End, board: CrokinoleBoard) -> Verdict:
    """EN chapter 4: a disc leaving the playing area is out of the game (and worth 0)."""
    if isinstance(end, str):
        if end == "hole":
            return True, "in the 20 hole"
        return False, "left the playing surface"
    if not board.on_surface(end[0], end[1]):
        return False, "left the playing surface"
    return True, "on the playing surface"


def clear_of_shooting_line(
    disc: str, at: tuple[float, float], board: CrokinoleBoard, untouched_shot: bool = False
) -> Verdict:
    """NL "Miscellaneous": after a shot every disc touching the shooting line goes to the ditch.

    EN chapter 4: only discs that *stop* touching it are out, so a disc that crossed the line in
    motion and came to rest clear of it stays. A shot disc that struck nothing and rests with its
    centre outside the line never entered play ("did not cross the shooting line"); it is removed
    all the same.
    """
    x, y = at
    if not board.touches_shooting_line(x, y):
        return True, f"{disc} is clear of the shooting line"
    if math.hypot(x, y) >= board.shooting_line_radius:
        if untouched_shot:
            return False, f"disc {disc} removed: did not cross the shooting line"
        return False, f"disc {disc} removed: stopped outside the shooting line"
    return False, f"disc {disc} removed: touched the shooting line"


def zone_name(at: tuple[float, float], board: CrokinoleBoard) -> str:
    z = board.zone(at[0], at[1])
    if z == 20:
        return "the 20 hole"
    if z == 0:
        return "on the shooting line"
    return f"the {z} zone"


def satisfies_no_opponent_rule(disc: str, at: tuple[float, float], board: CrokinoleBoard) -> Verdict:
    """NL "Shooting with no opponent's discs on the board" (used at the World Championship).

    The shot disc stays only if it is in the 15 zone or at least touches the 15 line; in the 10 or
    5 zone it is removed. A disc leaning over the hole lies in the 15 zone and stays.
    """
    x, y = at
    if board.touches_fifteen_line_or_inside(x, y):
        where = "in the 15 zone" if board.zone(x, y) >= 15 else "touching the 15 line"
        return True, f"{disc} stays: {where}"
    return False, (
        f"disc {disc} removed: no opponent disc on the board and it stopped in "
        f"{zone_name(at, board)}, outside the 15 line"
    )


def started_in_own_quadrant(
    disc: str, seat: str, start: tuple[float, float] | None, board: CrokinoleBoard
) -> Verdict:
    """NL "Play": the disc is placed on the shooting line at least 50 percent within the
    shooter's quadrant. The centre on the shooter's side of a quadrant line means more than half
    of the disc is. The rulebooks give no penalty, so the engine only notes a breach."""
    if start is None:
        return True, "start not observed"
    x, y = start
    if board.seat_of(x, y) != seat:
        return False, f"{disc} was shot from {board.seat_of(x, y)}'s quadrant, not {seat}'s"
    return True, f"{disc} was shot from {seat}'s quadrant"
