"""The Finnish rulebook (Korona Rulebook, sections 2.3-2.6): predicates and the shot judge.

Each predicate is a pure function returning ``(ok, reason)``; :func:`judge_fi` composes them over
one shot and updates the table. Rulings and the readings we chose where the rulebook is silent:

- 2.4 A turn continues while the shot "succeeds, that is, pockets one or more target discs". The
  object of the game (2.1) is to pocket one's own discs, so success means pocketing at least one
  of the shooter's *own* discs legally. Pocketing an opponent's disc is not forbidden; the rulebook
  says pocketed discs are not returned and that an opponent's disc off the board is "legally
  pocketed", so an opponent's disc in a pocket stays there and counts for its owner.
- 2.6 Direct/indirect from the chain: the striker's first contact is an own disc -> direct; the
  rim or any other disc first, and an own disc touched later in the chain -> indirect (must be
  announced, else a foul ending the turn; pocketed discs stay pocketed, "discs that have gone into
  a pocket are not returned"). A striker that touches no own disc at all is simply unsuccessful.
- 2.6 Overshot: any target disc pocketed uncalled into a pocket behind the shooter's striking line
  is lifted back onto the table. The rulebook does not say where; the only other "lifted back onto
  the board" in it (discs off the board) has the opponent place them in the centre circle, so we
  do the same: an Action for the opponent, defaulting to the centre point or the nearest free spot.
- 2.6 Striker off the board or in a pocket: the opponent may lift one already pocketed disc of the
  shooter into the centre circle. We assume he does (it is in his interest) and take the latest
  pocketed one; the shot is not a success, so the turn passes (the rulebook is silent on the turn).
- Pushing shot and deliberate foul are referee inputs (``Shot.referee``): fouls ending the turn.
  ``flagrant_foul`` (2.5) ends the game with the opponent the winner; ``resign`` (3.5) too.
- Shots must start from the own striking line: checked on ``Shot.start`` when given, reported as
  a warning only (a referee stops such a shot before it is played; vision noise must not foul it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from tracker.boards.korona import KoronaBoard
from tracker.rules.datatypes import Action, Decision
from tracker.rules.korona.chain import describe, striker_touches, touched_by_anything
from tracker.rules.korona.datatypes import Context, Observation, Verdict
from tracker.rules.korona.table import Point, Table
from tracker.shotlog import Announced, Shot

Check = tuple[bool, str]
REFEREE_FI = ("pushing", "deliberate_foul", "flagrant_foul", "resign")


# ---------------------------------------------------------------------- predicates
def shot_kind(touches: list[str], own: set[str], own_moved: bool) -> tuple[str, str | None]:
    """("direct" | "indirect" | "none", the striker's first contact)."""
    if not touches:
        return ("none", None)
    first = touches[0]
    if first in own:
        return ("direct", first)
    if own_moved:
        return ("indirect", first)
    return ("none", first)


def indirect_announced(kind: str, first: str | None, announced: bool, owners: Mapping[str, str]) -> Check:
    if kind != "indirect" or announced:
        return (True, "")
    return (False, f"indirect shot not announced (striker hit {describe(first or 'rim', owners)} first)")


def not_pushing(referee: tuple[str, ...]) -> Check:
    if "pushing" in referee:
        return (False, "pushing shot (the cue touched the striker more than once)")
    return (True, "")


def not_deliberate(referee: tuple[str, ...]) -> Check:
    if "deliberate_foul" in referee:
        return (False, "deliberate foul (ruled by the referee)")
    return (True, "")


def overshot_called(did: str, pocket: str, seat: str, announced: Announced, board: KoronaBoard) -> Check:
    """A disc in a pocket behind the shooter's own striking line must have been called there."""
    if pocket not in board.pockets_behind(seat):  # type: ignore[arg-type]
        return (True, "")
    if announced.pocket == pocket and announced.disc in (None, did):
        return (True, "")
    return (False, f"overshot: {did} pocketed uncalled in {pocket} behind {seat}'s line")


def striker_kept(obs: Observation) -> Check:
    e = obs.striker_end
    if e == "off":
        return (False, "striker flew off the board")
    if isinstance(e, str) and e.startswith("pocket:"):
        return (False, f"striker went into pocket {e[7:]}")
    return (True, "")


def started_on_line(start: Point | None, seat: str, board: KoronaBoard) -> Check:
    if start is None:
        return (True, "")
    (x0, y0), (x1, y1) = board.striking_line(seat)  # type: ignore[arg-type]
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((start[0] - x0) * dx + (start[1] - y0) * dy) / (dx * dx + dy * dy)))
    d = math.hypot(start[0] - (x0 + t * dx), start[1] - (y0 + t * dy))
    if d <= board.striker_radius:
        return (True, "")
    return (False, f"the striker did not start on {seat}'s striking line ({d:.0f} mm away)")


# ---------------------------------------------------------------------- judge
def judge_fi(t: Table, shot: Shot, obs: Observation, ctx: Context) -> Verdict:
    seat, opp = ctx.seat, ctx.opponent
    owners = {did: d.owner for did, d in t.discs.items()}
    own = {d.id for d in t.on_table(seat)}
    dec: list[Decision] = []
    act: list[Action] = []
    fouls: list[str] = []

    ok, why = started_on_line(shot.start, seat, t.board)
    if not ok:
        dec.append(Decision("warning", f"warning: {why} (rule 2.6)", seat=seat))
    if "flagrant_foul" in shot.referee:
        return Verdict((Decision("foul", f"flagrant deliberate foul: {opp} is declared the winner (rule 2.5)",
                                 seat=seat),), (), False, True, ends_game=True, winner=opp)
    if "resign" in shot.referee:
        return Verdict((Decision("resign", f"{seat} resigns: {opp} wins the game (rule 3.5)", seat=seat),),
                       (), False, False, ends_game=True, winner=opp)
    for check in (not_pushing(shot.referee), not_deliberate(shot.referee)):
        if not check[0]:
            fouls.append(check[1])

    touches = striker_touches(shot.contacts, ctx.striker)
    own_moved = bool(own & (touched_by_anything(shot.contacts) | set(shot.end)))
    kind, first = shot_kind(touches, own, own_moved)
    ok, why = indirect_announced(kind, first, shot.announced.indirect, owners)
    if not ok:
        fouls.append(why)

    for did, at in obs.moved.items():
        t.move(did, at)

    scored: list[str] = []
    for did, pocket in obs.pocketed.items():
        owner = owners[did]
        ok, why = overshot_called(did, pocket, seat, shot.announced, t.board)
        if not ok:
            at = t.centre_spot(ignore=did)
            t.put_back(did, at)
            dec.append(Decision("overshot", f"{why}; lift it back onto the table: {opp} places it in the "
                                "centre circle (rule 2.6)", discs=(did,), seat=seat))
            act.append(Action("place_in_centre_circle", did, f"overshot: {did} lifted back onto the table",
                              at=at, by=opp))
            continue
        t.pocket(did, pocket)
        if owner == seat:
            scored.append(did)
            dec.append(Decision("pocketed", f"{seat} pocketed {did} in {pocket}", discs=(did,), seat=seat))
        else:
            dec.append(Decision("pocketed", f"{did} ({owner}'s disc) pocketed in {pocket}: it stays pocketed "
                                f"and counts for {owner}", discs=(did,), seat=owner))
    for did in obs.off:
        owner = owners[did]
        if owner == seat:
            at = t.centre_spot(ignore=did)
            t.move(did, at)
            dec.append(Decision("off_board", f"{did} flew off the board: {opp} places it in the centre "
                                "circle (rule 2.6)", discs=(did,), seat=seat))
            act.append(Action("place_in_centre_circle", did, f"{seat}'s disc {did} flew off the board",
                              at=at, by=opp))
        else:
            t.pocket(did, "off")
            dec.append(Decision("pocketed", f"{did} ({owner}'s disc) flew off the board: it counts as legally "
                                f"pocketed for {owner} (rule 2.6)", discs=(did,), seat=owner))

    ok, why = striker_kept(obs)
    if not ok:
        mine = t.pocketed(seat)
        if mine:
            did = mine[-1]
            at = t.centre_spot(ignore=did)
            t.put_back(did, at)
            dec.append(Decision("striker_lost", f"{why}: {opp} lifts {seat}'s pocketed {did} back into the "
                                "centre circle (rule 2.6)", discs=(did,), seat=seat))
            act.append(Action("place_in_centre_circle", did, f"{why}: one of {seat}'s pocketed discs goes back",
                              at=at, by=opp))
            if did in scored:
                scored.remove(did)
        else:
            dec.append(Decision("striker_lost", f"{why}: {seat} has no pocketed disc to put back (rule 2.6)",
                                seat=seat))

    for why in fouls:
        dec.append(Decision("foul", f"foul: {why}", seat=seat))
    success = bool(scored) and not fouls and ok
    if not scored and not fouls and ok:
        reason = "no own disc pocketed" if kind != "none" else "the striker did not hit an own disc"
        dec.append(Decision("unsuccessful", reason, seat=seat))
    return Verdict(tuple(dec), tuple(act), success, bool(fouls))
