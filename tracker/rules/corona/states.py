"""Exact best plan by dynamic programming over game states: works for any points table.

A plan is an assignment of the dice to the carriers plus an order: 6! x 6! = 518,400 plans when
every die and every field differ. This search does not enumerate them; it memoises on *states*.
After some moves, everything the future depends on is

* which carriers have not moved yet (a bit mask),
* which dice are left (a multiset: counts per face),
* how many carriers stand on the fields the unmoved carriers can still reach.

The order of the earlier moves no longer matters, so the 518,400 orderings collapse to at most a
few thousand states (the ways to pick ``k`` carriers and give them ``k`` of the dice, summed over
``k``), each with at most 36 successors. Equal dice are one choice (the multiset); carriers on the
same field are interchangeable, so only the lowest-numbered unmoved carrier of a field moves next
(which keeps the mask canonical). The state is packed into one integer (3 bits per field count and
per die face, 1 bit per carrier) so hashing is cheap; the last move is computed, not memoised.

It is the general method (no assumption on the points table) and the cross-check of the faster
branch and bound in :mod:`tracker.rules.corona.solver`. Measured (benchmarks/bench_corona.py, CPU
time): about 5 ms median on random positions, 40-52 ms with six different fields and dice - ten to
twenty times slower than the branch and bound, hence only the fallback.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.rules.corona.model import FIELDS

_BITS = 3  # counts up to 7 per field / per die face
_MASK3 = (1 << _BITS) - 1


def solve_states(
    origins: Sequence[int], dice: Sequence[int], table: Sequence[int], fields: int = FIELDS
) -> tuple[int, list[tuple[int, int]]]:
    """Best total and one best list of moves ``(carrier, die)`` for any small position.

    ``origins[i]`` is the field of carrier ``i``; ``len(dice) == len(origins) <= 7``;
    ``table[k]`` is the points for landing where ``k`` carriers stand. Pure and exact.
    """
    n = len(origins)
    if len(dice) != n:
        raise ValueError("one die per carrier")
    if n == 0:
        return 0, []
    if n > 7 or fields * _BITS > 60:
        raise ValueError("solver packs counts in 3 bits: at most 7 carriers")
    faces = sorted(set(dice))
    face_shift = {v: i * _BITS for i, v in enumerate(faces)}
    occ0 = 0
    for f in origins:
        occ0 += 1 << (f * _BITS)
    dice0 = 0
    for v in dice:
        dice0 += 1 << face_shift[v]
    occ_bits = fields * _BITS
    mask_shift = occ_bits
    dice_shift = occ_bits + n

    # Carriers grouped by field; within a group the lowest unmoved index moves first.
    groups: dict[int, list[int]] = {}
    for c, f in enumerate(origins):
        groups.setdefault(f, []).append(c)
    group_list = [(f, tuple(cs)) for f, cs in sorted(groups.items())]
    # For each face and origin field: (destination shift, occupancy delta).
    moves_of: list[list[tuple[int, int, int, int, int]]] = []
    for f, _cs in group_list:
        row = []
        for v in faces:
            to = (f + v) % fields
            row.append((v, face_shift[v], to * _BITS, (1 << (to * _BITS)) - (1 << (f * _BITS)), to))
        moves_of.append(row)
    pts = tuple(table) + (table[-1],) * 8  # guard: counts never exceed n-1, but stay in range

    # Only the counts on fields the unmoved carriers can still reach matter for the future.
    reach_of = [0] * n
    for c, f in enumerate(origins):
        for v in faces:
            reach_of[c] |= _MASK3 << (((f + v) % fields) * _BITS)
    relevant = [0] * (1 << n)
    for m in range(1, 1 << n):
        low = (m & -m).bit_length() - 1
        relevant[m] = relevant[m & (m - 1)] | reach_of[low]
    last_face = {1 << face_shift[v]: v for v in faces}

    memo: dict[int, int] = {}

    def best(occ: int, mask: int, dcount: int) -> int:
        if mask & (mask - 1) == 0:  # one carrier and one die left: no choice
            if mask == 0:
                return 0
            to = (origins[mask.bit_length() - 1] + last_face[dcount]) % fields
            return pts[(occ >> (to * _BITS)) & _MASK3]
        key = (occ & relevant[mask]) | (mask << mask_shift) | (dcount << dice_shift)
        hit = memo.get(key)
        if hit is not None:
            return hit
        top = -1
        for gi, (_f, cs) in enumerate(group_list):
            mover = -1
            for c in cs:
                if mask >> c & 1:
                    mover = c
                    break
            if mover < 0:
                continue
            rest = mask & ~(1 << mover)
            for _v, fsh, tsh, delta, _to in moves_of[gi]:
                if not (dcount >> fsh) & _MASK3:
                    continue
                gain = pts[(occ >> tsh) & _MASK3]
                total = gain + best(occ + delta, rest, dcount - (1 << fsh))
                if total > top:
                    top = total
        memo[key] = top
        return top

    full = (1 << n) - 1
    score = best(occ0, full, dice0)

    # Walk the memo back down to recover one optimal plan.
    plan: list[tuple[int, int]] = []
    occ, mask, dcount, need = occ0, full, dice0, score
    while mask:
        found = False
        for gi, (_f, cs) in enumerate(group_list):
            mover = next((c for c in cs if mask >> c & 1), -1)
            if mover < 0:
                continue
            rest = mask & ~(1 << mover)
            for v, fsh, tsh, delta, _to in moves_of[gi]:
                if not (dcount >> fsh) & _MASK3:
                    continue
                gain = pts[(occ >> tsh) & _MASK3]
                if gain + best(occ + delta, rest, dcount - (1 << fsh)) == need:
                    plan.append((mover, v))
                    occ, mask, dcount, need = occ + delta, rest, dcount - (1 << fsh), need - gain
                    found = True
                    break
            if found:
                break
        assert found, "memo walk lost the optimum"
    return score, plan
