"""Korona rulebook situations with known outcomes (Finnish rulebook "fi", Russian variant "ru").

Each case sets up a small table, plays a few shots and checks the last shot's decisions and the
state after it: whose turn, discs pocketed per seat, where named discs are, fouls, debts, winner.
Board (default profile): playing area +-425 mm, striking lines at +-320 mm, rim zones beyond them,
centre circle radius 80 mm; south's pockets behind its line are sw and se.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tracker.rules.datatypes import Outcome
from tracker.rules.korona import KoronaEngine
from tracker.shotlog import Announced, Setup, Shot

STRIKERS = {"south": "S", "west": "W", "north": "N", "east": "E"}

# Two players, Finnish: every disc in open play.
FI = {
    "s1": ("south", (0.0, 150.0)),
    "s2": ("south", (150.0, 200.0)),
    "n1": ("north", (0.0, -150.0)),
    "n2": ("north", (-150.0, -200.0)),
}
# Two players, Russian: south has two free pawns, one in the centre circle, one in its own rim zone.
RU = {
    "s1": ("south", (0.0, 150.0)),
    "s2": ("south", (150.0, 200.0)),
    "s3": ("south", (0.0, 0.0)),
    "s4": ("south", (200.0, -370.0)),
    "n1": ("north", (0.0, -150.0)),
    "n2": ("north", (-150.0, -200.0)),
    "n3": ("north", (-200.0, 250.0)),
    "n4": ("north", (-150.0, 0.0)),
}
# Russian: south has only restricted pawns left (one in the centre circle, one in its rim zone).
RU_ONLY = {
    "s3": ("south", (0.0, 0.0)),
    "s4": ("south", (200.0, -370.0)),
    "n1": ("north", (0.0, -150.0)),
    "n2": ("north", (-150.0, -200.0)),
}
ONE_EACH = {"s1": ("south", (0.0, 150.0)), "n1": ("north", (0.0, -150.0))}
THREE = {
    "s1": ("south", (0.0, 150.0)),
    "w1": ("west", (150.0, 0.0)),
    "n1": ("north", (0.0, -150.0)),
}
FOUR = {**THREE, "e1": ("east", (-150.0, 0.0))}


def sh(seat: str, *contacts: tuple[str, str], end: dict[str, Any] | None = None, ind: bool = False,
       pocket: str | None = None, called: str | None = None, ref: tuple[str, ...] = (),
       start: tuple[float, float] | None = None, placed: dict[str, tuple[float, float]] | None = None) -> Shot:
    ends = {k: (tuple(v) if isinstance(v, list) else v) for k, v in (end or {}).items()}
    return Shot(seat=seat, disc=STRIKERS[seat], start=start, contacts=tuple(contacts), end=ends,
                announced=Announced(indirect=ind, pocket=pocket, disc=called), referee=ref,
                placed=placed or {})


@dataclass
class Case:
    id: str
    rule: str  # the rulebook section the case tests
    variant: str
    discs: dict[str, tuple[str, tuple[float, float]]]
    shots: list[Shot]
    kinds: tuple[str, ...]  # decision kinds the last shot must produce
    reason: str  # a phrase its reasons must contain
    next_seat: str | None
    pocketed: dict[str, int]
    at: dict[str, tuple[float, float] | None] = field(default_factory=dict)  # None: pocketed
    fouls: dict[str, int] = field(default_factory=dict)
    debts: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    over: bool = False
    players: int = 2
    starter: str = "south"


def run(case: Case) -> tuple[KoronaEngine, Outcome]:
    e = KoronaEngine(players=case.players, variant=case.variant, starter=case.starter)
    out = e.apply(Setup(discs=case.discs, strikers=STRIKERS))
    for s in case.shots:
        out = e.apply(s)
    return e, out


P = "pocket:"
C = [
    # ------------------------------------------------------------ Finnish rulebook
    Case("fi-direct-pocket-continues", "fi 2.4", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"})],
         ("pocketed", "turn"), "shoots again", "south", {"south": 1, "north": 0}, {"s1": None}),
    Case("fi-hit-no-pocket-passes", "fi 2.4", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": (10.0, 300.0)})],
         ("unsuccessful",), "no own disc pocketed; turn passes to north", "north", {"south": 0, "north": 0},
         {"s1": (10.0, 300.0)}),
    Case("fi-miss-passes", "fi 2.4", "fi", FI,
         [sh("south")], ("unsuccessful",), "did not hit an own disc", "north", {"south": 0, "north": 0}),
    Case("fi-indirect-announced-ok", "fi 2.6", "fi", FI,
         [sh("south", ("S", "rim:east"), ("S", "s2"), end={"s2": P + "ne"}, ind=True)],
         ("pocketed", "turn"), "shoots again", "south", {"south": 1, "north": 0}),
    Case("fi-indirect-rim-unannounced-foul", "fi 2.6", "fi", FI,
         [sh("south", ("S", "rim"), ("S", "s2"), end={"s2": P + "ne"})],
         ("foul",), "foul: indirect shot not announced (striker hit the rim first); turn passes to north",
         "north", {"south": 1, "north": 0}, {"s2": None}, fouls={"south": 1}),
    Case("fi-indirect-via-opponent-unannounced-foul", "fi 2.6", "fi", FI,
         [sh("south", ("S", "n1"), ("S", "s1"), end={"s1": P + "nw"})],
         ("foul",), "striker hit north's disc n1 first", "north", {"south": 1, "north": 0}, fouls={"south": 1}),
    Case("fi-announced-indirect-but-direct-ok", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}, ind=True)],
         ("pocketed", "turn"), "shoots again", "south", {"south": 1, "north": 0}, fouls={"south": 0}),
    Case("fi-overshot-uncalled-lifted-back", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": P + "sw"})],
         ("overshot",), "overshot: s1 pocketed uncalled in sw behind south's line; lift it back onto the table",
         "north", {"south": 0, "north": 0}, {"s1": (0.0, 0.0)}),
    Case("fi-overshot-called-counts", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": P + "sw"}, pocket="sw", called="s1")],
         ("pocketed", "turn"), "south pocketed s1 in sw", "south", {"south": 1, "north": 0}, {"s1": None}),
    Case("fi-overshot-called-pocket-any-disc", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": P + "se"}, pocket="se")],
         ("pocketed",), "south pocketed s1 in se", "south", {"south": 1, "north": 0}),
    Case("fi-overshot-wrong-disc-called", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), ("s1", "s2"), end={"s2": P + "sw"}, pocket="sw", called="s1")],
         ("overshot",), "s2 pocketed uncalled in sw", "north", {"south": 0, "north": 0}, {"s2": (0.0, 0.0)}),
    Case("fi-overshot-wrong-pocket", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": P + "sw"}, pocket="se", called="s1")],
         ("overshot",), "uncalled in sw", "north", {"south": 0, "north": 0}, {"s1": (0.0, 0.0)}),
    Case("fi-overshot-opponent-disc-lifted", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), ("s1", "n1"), end={"n1": P + "se", "s1": (0.0, 40.0)})],
         ("overshot",), "n1 pocketed uncalled in se", "north", {"south": 0, "north": 0}, {"n1": (0.0, 0.0)}),
    Case("fi-own-off-to-centre-by-opponent", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": "off"})],
         ("off_board",), "s1 flew off the board: north places it in the centre circle", "north",
         {"south": 0, "north": 0}, {"s1": (0.0, 0.0)}),
    Case("fi-own-off-centre-taken", "fi 2.6", "fi", {**FI, "n3": ("north", (0.0, 0.0)), "s3": ("south", (300.0, 0.0))},
         [sh("south", ("S", "s1"), end={"s1": "off"})],
         ("off_board",), "centre circle", "north", {"south": 0, "north": 0}, {"s1": (25.0, 0.0)}),
    Case("fi-opponent-off-counts-pocketed", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), ("s1", "n1"), end={"n1": "off", "s1": (0.0, 20.0)})],
         ("pocketed", "unsuccessful"), "counts as legally pocketed for north", "north",
         {"south": 0, "north": 1}, {"n1": None}),
    Case("fi-striker-off-returns-pocketed", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}),
          sh("south", ("S", "s2"), end={"s2": (100.0, 300.0), "S": "off"})],
         ("striker_lost",), "north lifts south's pocketed s1 back into the centre circle", "north",
         {"south": 0, "north": 0}, {"s1": (0.0, 0.0)}),
    Case("fi-striker-pocketed-nothing-to-return", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": (0.0, 200.0), "S": P + "nw"})],
         ("striker_lost",), "south has no pocketed disc to put back", "north", {"south": 0, "north": 0}),
    Case("fi-pocket-opponent-only-passes", "fi 2.4", "fi", FI,
         [sh("south", ("S", "s1"), ("s1", "n2"), end={"n2": P + "nw", "s1": (-100.0, 200.0)})],
         ("pocketed", "unsuccessful"), "n2 (north's disc) pocketed in nw: it stays pocketed and counts for north",
         "north", {"south": 0, "north": 1}),
    Case("fi-pocket-own-and-opponent-continues", "fi 2.4", "fi", FI,
         [sh("south", ("S", "s1"), ("s1", "n2"), end={"n2": P + "nw", "s1": P + "ne"})],
         ("pocketed", "turn"), "shoots again", "south", {"south": 1, "north": 1}),
    Case("fi-pushing-foul", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}, ref=("pushing",))],
         ("foul",), "foul: pushing shot", "north", {"south": 1, "north": 0}, fouls={"south": 1}),
    Case("fi-deliberate-foul", "fi 2.6", "fi", FI,
         [sh("south", ("S", "rim"), ref=("deliberate_foul",), ind=True)],
         ("foul",), "deliberate foul (ruled by the referee); turn passes to north", "north",
         {"south": 0, "north": 0}, fouls={"south": 1}),
    Case("fi-flagrant-foul-loses-game", "fi 2.5", "fi", FI,
         [sh("south", ref=("flagrant_foul",))],
         ("foul", "game_over"), "north is declared the winner", None, {"south": 0, "north": 0},
         winner="north", over=True),
    Case("fi-resign", "fi 3.5", "fi", FI,
         [sh("south", ref=("resign",))], ("resign", "game_over"), "south resigns", None,
         {"south": 0, "north": 0}, winner="north", over=True),
    Case("fi-starter-finishes-equalising-turn", "fi 2.5", "fi", ONE_EACH,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"})],
         ("finished", "turn"), "turn passes to north for an equalising turn", "north", {"south": 1, "north": 0}),
    Case("fi-equalising-turn-draw", "fi 2.5", "fi", ONE_EACH,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}), sh("north", ("N", "n1"), end={"n1": P + "se"})],
         ("finished", "game_over"), "a draw", None, {"south": 1, "north": 1}, winner=None, over=True),
    Case("fi-equalising-turn-continues-while-pocketing", "fi 2.4 2.5", "fi", FI,
         [sh("south", ("S", "s1"), ("s1", "s2"), end={"s1": P + "nw", "s2": P + "ne"}),
          sh("north", ("N", "n1"), end={"n1": P + "se"})],
         ("pocketed", "turn"), "north pocketed an own disc and shoots again", "north", {"south": 2, "north": 1}),
    Case("fi-equalising-turn-fails", "fi 2.5", "fi", ONE_EACH,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}), sh("north", ("N", "n1"), end={"n1": (0.0, -50.0)})],
         ("game_over",), "game 1 over: south wins", None, {"south": 1, "north": 0}, winner="south", over=True),
    Case("fi-non-starter-finishes-wins-at-once", "fi 2.5", "fi", ONE_EACH,
         [sh("south"), sh("north", ("N", "n1"), end={"n1": P + "se"})],
         ("finished", "game_over"), "north wins", None, {"south": 0, "north": 1}, winner="north", over=True),
    Case("fi-3p-clockwise", "fi 2.9", "fi", THREE,
         [sh("south", ("S", "s1"), end={"s1": (0.0, 200.0)})],
         ("unsuccessful",), "turn passes to west", "west", {"south": 0, "west": 0, "north": 0}, players=3),
    Case("fi-3p-opponent-is-next-in-turn", "fi 2.9", "fi", THREE,
         [sh("south", ("S", "s1"), end={"s1": "off"})],
         ("off_board",), "west places it in the centre circle", "west", {"south": 0, "west": 0, "north": 0},
         players=3),
    Case("fi-3p-third-players-disc-off-counts-for-owner", "fi 2.6 2.9", "fi", THREE,
         [sh("south", ("S", "s1"), ("s1", "n1"), end={"n1": "off", "s1": (0.0, 100.0)})],
         ("pocketed",), "counts as legally pocketed for north", "west", {"south": 0, "west": 0, "north": 1},
         {"n1": None}, players=3),
    Case("fi-4p-starter-finishes-all-equalise", "fi 2.5 2.9", "fi", FOUR,
         [sh("south", ("S", "s1"), end={"s1": P + "ne"})],
         ("finished", "turn"), "turn passes to west for an equalising turn", "west",
         {"south": 1, "west": 0, "north": 0, "east": 0}, players=4),
    Case("fi-4p-last-seat-finishes-ends", "fi 2.5 2.9", "fi", FOUR,
         [sh("south"), sh("west"), sh("north"), sh("east", ("E", "e1"), end={"e1": P + "nw"})],
         ("game_over",), "east wins", None, {"south": 0, "west": 0, "north": 0, "east": 1},
         players=4, winner="east", over=True),
    Case("fi-start-off-line-warning", "fi 2.6", "fi", FI,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}, start=(0.0, -200.0))],
         ("warning", "pocketed"), "did not start on south's striking line", "south", {"south": 1, "north": 0}),
    # ------------------------------------------------------------ Russian variant
    Case("ru-direct-pocket-continues", "ru General", "ru", RU,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"})],
         ("pocketed", "turn"), "shoots again", "south", {"south": 1, "north": 0}),
    Case("ru-hit-no-pocket-passes", "ru Turn passes 1", "ru", RU,
         [sh("south", ("S", "s1"), end={"s1": (0.0, 250.0)})],
         ("unsuccessful",), "no own pawn pocketed; turn passes to north", "north", {"south": 0, "north": 0}),
    Case("ru-miss-penalty-debt", "ru Penalty 1", "ru", RU,
         [sh("south", ("S", "rim:west"))],
         ("foul",), "the penalty pawn is owed as a debt; turn passes to north", "north",
         {"south": 0, "north": 0}, debts={"south": 1}, fouls={"south": 1}),
    Case("ru-miss-penalty-pawn-placed", "ru Penalty 1", "ru", RU,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}), sh("south")],
         ("foul",), "penalty pawn s1 on north's rim zone", "north", {"south": 0, "north": 0},
         {"s1": (0.0, 372.5)}),
    Case("ru-striker-in-pocket", "ru Penalty 2", "ru", RU,
         [sh("south", ("S", "s1"), end={"s1": (0.0, 250.0), "S": P + "ne"})],
         ("foul",), "the striker went into pocket ne", "north", {"south": 0, "north": 0}, debts={"south": 1}),
    Case("ru-striker-over-rim", "ru Penalty 3", "ru", RU,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}), sh("south", ("S", "s2"), end={"S": "off"})],
         ("foul",), "the striker flew over the rim", "north", {"south": 0, "north": 0}, {"s1": (0.0, 372.5)}),
    Case("ru-direct-on-centre-pawn-penalty-back", "ru Direct/ricochet; Penalty 4", "ru", RU,
         [sh("south", ("S", "s3"), end={"s3": P + "ne"})],
         ("foul",), "direct shot on s3, which lies in the centre circle", "north", {"south": 0, "north": 0},
         {"s3": (0.0, 0.0)}, debts={"south": 1}),
    Case("ru-direct-on-own-rim-zone-pawn", "ru Direct/ricochet; Penalty 4", "ru", RU,
         [sh("south", ("S", "s4"), end={"s4": (300.0, -300.0)})],
         ("foul",), "lies in south's own rim zone", "north", {"south": 0, "north": 0}, {"s4": (200.0, -370.0)}),
    Case("ru-ricochet-opposite-rim-pockets-centre-pawn", "ru Direct/ricochet route 1", "ru", RU,
         [sh("south", ("S", "rim:north"), ("S", "s3"), end={"s3": P + "sw"})],
         ("pocketed", "turn"), "south pocketed s3", "south", {"south": 1, "north": 0}, {"s3": None}),
    Case("ru-ricochet-side-rim-centre-pawn-returned", "ru Direct/ricochet", "ru", RU,
         [sh("south", ("S", "rim:east"), ("S", "s3"), end={"s3": P + "nw"})],
         ("returned",), "s3 lay in the centre circle: it may go in only by a ricochet off the north rim", "north",
         {"south": 0, "north": 0}, {"s3": (0.0, 0.0)}, fouls={"south": 0}),
    Case("ru-route-striker-after-free-pawn", "ru Direct/ricochet route 2", "ru", RU,
         [sh("south", ("S", "s1"), ("S", "s3"), end={"s3": P + "nw", "s1": (50.0, 300.0)})],
         ("pocketed", "turn"), "south pocketed s3", "south", {"south": 1, "north": 0}),
    Case("ru-route-free-pawn-knocks-centre-pawn", "ru Direct/ricochet route 3", "ru", RU,
         [sh("south", ("S", "s1"), ("s1", "s3"), end={"s3": P + "ne", "s1": (20.0, 60.0)})],
         ("pocketed", "turn"), "south pocketed s3", "south", {"south": 1, "north": 0}),
    Case("ru-only-restricted-ricochet-without-opposite-rim", "ru Penalty 6", "ru", RU_ONLY,
         [sh("south", ("S", "rim:east"), ("S", "s3"), end={"s3": (30.0, 30.0)})],
         ("foul",), "did not touch the north rim", "north", {"south": 0, "north": 0}, debts={"south": 1}),
    Case("ru-only-restricted-opposite-rim-miss-no-penalty", "ru Penalty 6 (exemption)", "ru", RU_ONLY,
         [sh("south", ("S", "rim:north"))],
         ("unsuccessful",), "no own pawn pocketed", "north", {"south": 0, "north": 0}, debts={"south": 0},
         fouls={"south": 0}),
    Case("ru-striker-first-touches-opponent", "ru Penalty 7", "ru", RU,
         [sh("south", ("S", "n4"), ("S", "s1"), end={"s1": P + "nw"})],
         ("foul",), "the striker first touched north's pawn n4; penalty pawn s1", "north",
         {"south": 0, "north": 0}, debts={"south": 0}, at={"s1": (0.0, 372.5)}),
    Case("ru-own-pawn-over-rim", "ru Turn passes 3; Penalty 8", "ru", RU,
         [sh("south", ("S", "s1"), end={"s1": "off"})],
         ("foul",), "own pawn s1 flew over the rim", "north", {"south": 0, "north": 0}, {"s1": (25.0, 0.0)},
         debts={"south": 1}),
    Case("ru-direct-knocks-opponent-over-rim", "ru Penalty 5", "ru", RU,
         [sh("south", ("S", "s1"), ("s1", "n3"), end={"n3": "off", "s1": (-100.0, 300.0)})],
         ("foul",), "a direct shot knocked north's pawn n3 over the rim", "north", {"south": 0, "north": 0},
         {"n3": (25.0, 0.0)}),
    Case("ru-ricochet-knocks-opponent-over-rim", "ru (pawn over the rim to the centre)", "ru", RU,
         [sh("south", ("S", "rim:west"), ("S", "s1"), ("s1", "n3"), end={"n3": "off", "s1": (-100.0, 300.0)})],
         ("off_board",), "n3 flew over the rim: it goes to the centre circle", "north", {"south": 0, "north": 0},
         {"n3": (25.0, 0.0)}, debts={"south": 0}),
    Case("ru-own-and-opponent-pocketed-passes", "ru Turn passes 2", "ru", RU,
         [sh("south", ("S", "s1"), ("s1", "n3"), end={"s1": P + "nw", "n3": P + "nw"})],
         ("pocketed", "turn"), "turn passes to north", "north", {"south": 1, "north": 1}),
    Case("ru-debt-paid-on-next-pocket", "ru Penalty pawn (debt)", "ru", RU,
         [sh("south", ("S", "rim:west")), sh("north", ("N", "n1"), end={"n1": (0.0, -100.0)}),
          sh("south", ("S", "s1"), end={"s1": P + "nw"})],
         ("pocketed", "debt_paid"), "owed penalty pawn s1 goes on north's rim zone", "south", {"south": 0, "north": 0},
         {"s1": (0.0, 372.5)}, debts={"south": 0}),
    Case("ru-penalty-spot-taken-moves-toward-centre", "ru Penalty pawn (spot taken)", "ru",
         {**RU, "n4": ("north", (0.0, 372.5))},
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}), sh("south")],
         ("foul",), "penalty pawn s1", "north", {"south": 0, "north": 0}, {"s1": (0.0, 347.5)}),
    Case("ru-3p-penalty-pawn-on-far-rim-zone", "ru Penalty pawn; fi 2.9 (3 players)", "ru",
         {**THREE, "s2": ("south", (0.0, 250.0)), "w2": ("west", (250.0, 0.0)), "n2": ("north", (0.0, -250.0))},
         [sh("south"), sh("west", ("W", "w1"), end={"w1": P + "ne"}), sh("west")],
         ("foul",), "penalty pawn w1 on east's rim zone; turn passes to north", "north",
         {"south": 0, "west": 0, "north": 0}, {"w1": (372.5, 0.0)}, players=3, fouls={"south": 1, "west": 1}),
    Case("ru-referee-rules-violation", "ru Penalty pawn (referee)", "ru", RU,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"}, ref=("penalty",))],
         ("foul",), "violation ruled by the referee; penalty pawn s1", "north", {"south": 0, "north": 0},
         {"s1": (0.0, 372.5)}),
    Case("ru-first-to-finish-wins", "ru Idea", "ru", ONE_EACH,
         [sh("south", ("S", "s1"), end={"s1": P + "nw"})],
         ("finished", "game_over"), "south wins", None, {"south": 1, "north": 0}, winner="south", over=True),
    Case("ru-no-announcement-needed", "ru Direct/ricochet", "ru", RU,
         [sh("south", ("S", "rim:east"), ("S", "s2"), end={"s2": P + "ne"})],
         ("pocketed", "turn"), "shoots again", "south", {"south": 1, "north": 0}, fouls={"south": 0}),
]


def test_table_is_large_enough() -> None:
    assert len(C) >= 40
    assert len({c.id for c in C}) == len(C)


@pytest.mark.parametrize("case", C, ids=[c.id for c in C])
def test_situation(case: Case) -> None:
    e, out = run(case)
    kinds = [d.kind for d in out.decisions]
    reasons = " | ".join(d.reason for d in out.decisions)
    for k in case.kinds:
        assert k in kinds, f"{case.rule}: expected a {k!r} decision, got {reasons}"
    assert case.reason in reasons, f"{case.rule}: {reasons}"
    assert out.next_seat == case.next_seat, reasons
    assert e.pocketed() == case.pocketed, reasons
    assert e.table is not None
    for did, where in case.at.items():
        assert e.table.discs[did].at == where, f"{did}: {reasons}"
    g = e.game
    assert g is not None
    for seat, n in case.fouls.items():
        assert g.fouls.get(seat, 0) == n, reasons
    for seat, n in case.debts.items():
        assert e.debts[seat] == n, reasons
    assert g.over == case.over
    assert g.winner == case.winner
