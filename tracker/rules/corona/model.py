"""Corona (the dice-and-carriers game): the board, a position, and the scoring of a plan.

Everything here follows ``shared/rules/corona-dice-game.txt``; section names below refer to it.

* **Play material**: a play plan of 12 fields, 6 carrier stones, 6 dice. The fields lie on a ring
  (the plan is the rear side of *Orbit*) and carriers move "in the clockwise direction", so a move
  from field ``f`` by ``d`` pips lands on ``(f + d) % 12``. Fields are numbered 0..11 clockwise.
  Because a die shows 1..6 < 12, a carrier can never land on the field it left.
* **Flow of a play round**: "each carrier stone will carry one die" - a *plan* gives every carrier
  exactly one of the six dice (a one-to-one assignment) and an order in which the carriers move.
  All six carriers move, once each.
* **Points**, "after each movement of a carrier stone": landing on an empty field scores 1, on a
  field with one other carrier 2, with two others 3, "etc."; "each movement is analyzed
  individually and the points are added". "Other carriers" are whatever stands on the field at that
  moment: carriers that have not moved yet and carriers that already arrived - hence the rulebook's
  warning not to move pieces away from a field before the others arrive there.
* **Variant** (translator's note): "some Corona versions say empty fields are worth 0 points". Read
  literally only the empty case changes (``empty-zero``: 0, 2, 3, ...). A second reading - every
  carrier already there adds 1 on top of 0 (``others``: 0, 1, 2, ...) - is offered too; it is the
  standard score minus 6 for every plan, so its best plan is the standard one.

The scoring is kept as a table ``points[k]`` (``k`` = carriers already on the landing field) so the
solver is one algorithm for every variant.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tracker.errors import InputError

FIELDS = 12
CARRIERS = 6
DICE = 6
PIPS = (1, 2, 3, 4, 5, 6)

Variant = Literal["standard", "empty-zero", "others"]
VARIANTS: tuple[Variant, ...] = ("standard", "empty-zero", "others")


def points_table(variant: str) -> tuple[int, ...]:
    """Points for landing on a field that already holds ``k`` carriers, for k = 0..CARRIERS-1."""
    ks = range(CARRIERS)
    if variant == "standard":
        return tuple(k + 1 for k in ks)
    if variant == "empty-zero":
        return tuple(0 if k == 0 else k + 1 for k in ks)
    if variant == "others":
        return tuple(ks)
    raise InputError(f"unknown variant {variant!r}: expected one of {', '.join(VARIANTS)}")


def destination(field: int, die: int) -> int:
    """The field a carrier on ``field`` reaches with ``die`` pips, moving clockwise on the ring."""
    return (field + die) % FIELDS


@dataclass(frozen=True)
class Position:
    """What the master set up: ``carriers[i]`` is the field of carrier ``i``; ``dice`` the throw.

    Build it with :meth:`of` to have the counts and ranges checked with a clear message.
    """

    carriers: tuple[int, ...]
    dice: tuple[int, ...]

    @staticmethod
    def of(carriers: Iterable[int], dice: Iterable[int]) -> Position:
        cs, ds = tuple(carriers), tuple(dice)
        if len(cs) != CARRIERS:
            raise InputError(f"carriers: expected {CARRIERS} fields, got {len(cs)}")
        if len(ds) != DICE:
            raise InputError(f"dice: expected {DICE} values, got {len(ds)}")
        for i, f in enumerate(cs):
            if isinstance(f, bool) or not isinstance(f, int) or not 0 <= f < FIELDS:
                raise InputError(f"carriers: field of carrier {i} must be 0..{FIELDS - 1}, not {f!r}")
        for i, d in enumerate(ds):
            if isinstance(d, bool) or not isinstance(d, int) or d not in PIPS:
                raise InputError(f"dice: die {i} must show 1..6, not {d!r}")
        return Position(cs, ds)

    def occupancy(self) -> list[int]:
        """Number of carriers on each field."""
        occ = [0] * FIELDS
        for f in self.carriers:
            occ[f] += 1
        return occ


@dataclass(frozen=True)
class Step:
    """One movement: ``carrier`` carries ``die`` from field ``start`` to field ``end``."""

    carrier: int
    die: int
    start: int
    end: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"carrier": self.carrier, "die": self.die, "from": self.start, "to": self.end,
                "points": self.points}


@dataclass(frozen=True)
class Plan:
    """A played (or proposed) plan with the points of every step."""

    steps: tuple[Step, ...]
    variant: str = "standard"

    @property
    def score(self) -> int:
        return sum(s.points for s in self.steps)

    @property
    def moves(self) -> tuple[tuple[int, int], ...]:
        return tuple((s.carrier, s.die) for s in self.steps)

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "score": self.score,
                "plan": [{"step": i + 1, **s.to_json()} for i, s in enumerate(self.steps)]}


def check_moves(position: Position, moves: Sequence[tuple[int, int]]) -> None:
    """Raise InputError unless ``moves`` gives every carrier exactly one of the thrown dice."""
    if len(moves) != len(position.carriers):
        raise InputError(f"plan: expected {len(position.carriers)} moves (one per carrier), got {len(moves)}")
    seen: set[int] = set()
    for c, _ in moves:
        if not 0 <= c < len(position.carriers):
            raise InputError(f"plan: carrier {c} does not exist (carriers are 0..{len(position.carriers) - 1})")
        if c in seen:
            raise InputError(f"plan: carrier {c} moves twice; each carrier carries one die")
        seen.add(c)
    used, thrown = Counter(d for _, d in moves), Counter(position.dice)
    if used != thrown:
        raise InputError(
            f"plan: dice used {sorted(used.elements())} are not the dice thrown {sorted(thrown.elements())}"
        )


def score_plan(position: Position, moves: Sequence[tuple[int, int]], variant: str = "standard") -> Plan:
    """Play ``moves`` (carrier, die) in order on ``position`` and score each step (rulebook points)."""
    table = points_table(variant)
    check_moves(position, moves)
    occ = position.occupancy()
    steps = []
    for c, d in moves:
        start = position.carriers[c]
        end = destination(start, d)
        pts = table[occ[end]]  # the carriers standing there when it lands
        occ[start] -= 1
        occ[end] += 1
        steps.append(Step(c, d, start, end, pts))
    return Plan(tuple(steps), variant)
