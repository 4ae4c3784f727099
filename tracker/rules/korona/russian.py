"""The Russian variant (korona-rules-ru): predicates and the shot judge.

Each predicate is pure and returns ``(ok, reason)``; :func:`judge_ru` composes them over one shot
and updates the table. Zones are judged on the positions *before* the shot: an own pawn whose
centre lies in the centre circle or in the shooter's own rim zone is "restricted".

Readings we chose where the text is open:
- A miss ("the striker, after a direct shot, touches none of your own pawns") is any shot in which
  the striker touched no own pawn, except when only restricted pawns remain and the striker
  touched the opposite rim (the text's own exemption).
- A restricted pawn knocked in by a route the rules do not allow (see
  :func:`tracker.rules.korona.chain.legal_carriers`) does not count: it is put back in its former
  place, like the pawn of the "direct hit on a restricted pawn" violation. No penalty pawn unless
  a listed violation applies.
- One penalty pawn per shot, however many violations it has (all are named in the reason).
- An opponent's pawn knocked over the rim goes to the centre circle like one's own ("a pawn over
  the rim goes to the centre"); with a direct shot it is also a violation.
- An opponent's pawn knocked into a pocket stays pocketed and counts for its owner; pocketing it
  together with an own pawn passes the turn.
- The penalty pawn is the offender's most recently pocketed pawn, placed at
  :meth:`Table.penalty_spot`; with none pocketed it becomes a debt, paid as soon as he has one.
"""

from __future__ import annotations

from collections.abc import Mapping

from tracker.rules.datatypes import Action, Decision
from tracker.rules.korona.chain import describe, first_of, legal_carriers, rim_side, striker_touches
from tracker.rules.korona.datatypes import Context, Observation, Verdict
from tracker.rules.korona.table import Point, Table
from tracker.seats import opposite
from tracker.shotlog import Shot

Check = tuple[bool, str]
REFEREE_RU = ("penalty", "resign")


# ---------------------------------------------------------------------- predicates
def restricted(t: Table, seat: str, did: str, at: Point) -> str | None:
    """Why an own pawn may not be knocked in directly, or None."""
    if t.in_centre_circle(at):
        return "in the centre circle"
    if t.in_rim_zone(seat, at):
        return f"in {seat}'s own rim zone"
    return None


def shot_kind(touches: list[str], own: set[str]) -> str:
    """"direct" (first contact an own pawn), "ricochet" (an own pawn after a rim or another pawn),
    or "miss" (no own pawn touched)."""
    i = first_of(touches, own)
    if i is None:
        return "miss"
    return "direct" if i == 0 else "ricochet"


def touched_opposite_rim(touches: list[str], own: set[str], seat: str) -> bool:
    """The striker touched the opposite rim before its first own pawn (or at all, on a miss)."""
    i = first_of(touches, own)
    path = touches if i is None else touches[:i]
    return any(rim_side(x) == opposite(seat) for x in path)  # type: ignore[arg-type]


def hit_own_first(touches: list[str], pawns: set[str], own: set[str], owners: Mapping[str, str]) -> Check:
    i = first_of(touches, pawns)
    if i is None or touches[i] in own:
        return (True, "")
    return (False, f"the striker first touched {describe(touches[i], owners, 'pawn')}")


def not_a_miss(kind: str, only_restricted: bool, opp_rim: bool) -> Check:
    if kind != "miss" or (only_restricted and opp_rim):
        return (True, "")
    return (False, "the striker touched none of the shooter's own pawns")


def direct_not_restricted(kind: str, first_own: str | None, why: str | None) -> Check:
    if kind == "direct" and why is not None:
        return (False, f"direct shot on {first_own}, which lies {why} (it goes back to its former place)")
    return (True, "")


def ricochet_off_opposite(kind: str, only_restricted: bool, opp_rim: bool, seat: str) -> Check:
    if kind == "ricochet" and only_restricted and not opp_rim:
        return (False, f"only pawns in the centre circle and {seat}'s rim zone remain and the ricochet "
                       f"did not touch the {opposite(seat)} rim")  # type: ignore[arg-type]
    return (True, "")


def striker_kept(obs: Observation) -> Check:
    e = obs.striker_end
    if e == "off":
        return (False, "the striker flew over the rim")
    if isinstance(e, str) and e.startswith("pocket:"):
        return (False, f"the striker went into pocket {e[7:]}")
    return (True, "")


def started_in_rim_zone(t: Table, start: Point | None, seat: str) -> Check:
    if start is None:
        return (True, "")
    d = t.board.half - t.board.striking_line_offset - 2.0  # 2 mm of measurement slack
    x, y = start
    inside = {"south": y <= -d, "north": y >= d, "west": x <= -d, "east": x >= d}[seat]
    if inside:
        return (True, "")
    return (False, f"the striker's centre was not in {seat}'s rim zone")


# ---------------------------------------------------------------------- judge
def judge_ru(t: Table, shot: Shot, obs: Observation, ctx: Context) -> Verdict:
    seat, opp = ctx.seat, ctx.opponent
    owners = {did: d.owner for did, d in t.discs.items()}
    pawns = set(obs.before)
    own = {did for did in pawns if owners[did] == seat}
    zone = {did: w for did in own if (w := restricted(t, seat, did, obs.before[did])) is not None}
    only_restricted = bool(own) and set(zone) == own
    touches = striker_touches(shot.contacts, ctx.striker)
    kind = shot_kind(touches, own)
    opp_rim = touched_opposite_rim(touches, own, seat)
    first_own = touches[first_of(touches, own) or 0] if kind != "miss" else None
    carriers = legal_carriers(shot.contacts, ctx.striker, own - set(zone), opposite(seat))
    dec: list[Decision] = []
    act: list[Action] = []
    violations: list[str] = []

    ok, why = started_in_rim_zone(t, shot.start, seat)
    if not ok:
        dec.append(Decision("warning", f"warning: {why}", seat=seat))
    if "resign" in shot.referee:
        return Verdict((Decision("resign", f"{seat} resigns: {opp} wins the game", seat=seat),),
                       (), False, False, ends_game=True, winner=opp)
    if "penalty" in shot.referee:
        violations.append("violation ruled by the referee")
    for check in (
        hit_own_first(touches, pawns, own, owners),
        not_a_miss(kind, only_restricted, opp_rim),
        striker_kept(obs),
        direct_not_restricted(kind, first_own, zone.get(first_own or "")),
        ricochet_off_opposite(kind, only_restricted, opp_rim, seat),
    ):
        if not check[0]:
            violations.append(check[1])

    for did, at in obs.moved.items():
        t.move(did, at)
    put_back: list[str] = []
    if kind == "direct" and first_own in zone and (
        first_own in obs.moved or first_own in obs.pocketed or first_own in obs.off
    ):
        put_back.append(first_own)  # type: ignore[arg-type]
    scored: list[str] = []
    opp_scored = False
    for did, pocket in obs.pocketed.items():
        if did in put_back:
            continue
        if owners[did] != seat:
            t.pocket(did, pocket)
            opp_scored = True
            dec.append(Decision("pocketed", f"{did} ({owners[did]}'s pawn) pocketed in {pocket}: it counts for "
                                f"{owners[did]} and the turn passes", discs=(did,), seat=owners[did]))
        elif did in zone and did not in carriers:
            put_back.append(did)
            dec.append(Decision("returned", f"{did} lay {zone[did]}: it may go in only by a ricochet off the "
                                f"{opposite(seat)} rim or via a pawn outside those zones; "  # type: ignore[arg-type]
                                "it goes back to its place", discs=(did,), seat=seat))
        else:
            t.pocket(did, pocket)
            scored.append(did)
            dec.append(Decision("pocketed", f"{seat} pocketed {did} in {pocket}", discs=(did,), seat=seat))
    for did in put_back:
        at = t.spot_near(obs.before[did], ignore=did)
        t.put_back(did, at)
        act.append(Action("place_back", did, f"{did} goes back to its former place", at=at, by=seat))
    own_off = False
    for did in obs.off:
        if did in put_back:
            continue
        at = t.centre_spot(ignore=did)
        t.put_back(did, at)
        act.append(Action("place_in_centre_circle", did, f"{did} flew over the rim", at=at, by=seat))
        if owners[did] == seat:
            own_off = True
            violations.append(f"own pawn {did} flew over the rim (it goes to the centre)")
        elif kind == "direct":
            violations.append(f"a direct shot knocked {owners[did]}'s pawn {did} over the rim (it goes to the centre)")
        else:
            dec.append(Decision("off_board", f"{did} flew over the rim: it goes to the centre circle",
                                discs=(did,), seat=owners[did]))

    debt = 0
    if violations:
        mine = t.pocketed(seat)
        if mine:
            did = mine[-1]
            at = t.penalty_spot(seat)
            t.put_back(did, at)
            if did in scored:
                scored.remove(did)
            act.append(Action("place_penalty", did, f"penalty pawn for {seat}", at=at, by=seat))
            tail = f"penalty pawn {did} on {opposite(seat)}'s rim zone"  # type: ignore[arg-type]
        else:
            debt = 1
            tail = f"all {seat}'s pawns are on the table: the penalty pawn is owed as a debt"
        dec.append(Decision("foul", f"violation: {'; '.join(violations)}; {tail}", seat=seat))
    success = bool(scored) and not violations and not opp_scored and not own_off
    if not scored and not violations:
        dec.append(Decision("unsuccessful", "no own pawn pocketed", seat=seat))
    return Verdict(tuple(dec), tuple(act), success, bool(violations), debt=debt)
