"""Rulebook situations with known outcomes, one row each, citing the section they test.

Sources: NL = /work/shared/rules/crokinole-rules-nl.en.md (section names in quotes),
EN = /work/shared/rules/crokinole-rules.txt (chapter numbers as the text refers to them).

Geometry used below (tournament board, disc radius 15.875, line width 2):
15 zone (0, 50); touching the 15 line from outside (0, 110) -> 10 points; 10 zone (0, 150);
touching the 10 line (0, 200) -> 5 points; 5 zone (0, 250); touching the shooting line (0, 295);
outside the shooting line (0, 310); leaning over the hole (0, 5); in the hole (0, 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tracker.boards.crokinole import CrokinoleBoard
from tracker.rules.crokinole import CrokinoleEngine
from tracker.rules.datatypes import Outcome
from tracker.shotlog import parse_entry

Z15, T15, Z10, T10, Z5 = (0.0, 50.0), (0.0, 110.0), (0.0, 150.0), (0.0, 200.0), (0.0, 250.0)
ON_LINE, OUTSIDE, LEAN, HOLE = (0.0, 295.0), (0.0, 310.0), (0.0, 5.0), (0.0, 0.0)


def _p(x: float, y: float) -> list[float]:
    return [x, y]


@dataclass
class Case:
    id: str
    board: dict[str, tuple[str, tuple[float, float]]]  # discs at rest before the shots
    shots: list[dict[str, Any]]
    removed: dict[str, str] = field(default_factory=dict)  # disc -> cause, over all shots
    twenties: dict[str, int] = field(default_factory=dict)  # side -> 20s this round
    points: dict[str, int] | None = None  # round points after the shots (or of the ended round)
    awarded: dict[str, int] | None = None  # of the ended round
    reason: str | None = None  # a phrase that must appear in some decision's reason
    players: int = 2
    opts: dict[str, Any] = field(default_factory=dict)


def shot(seat: str, disc: str, end: dict[str, Any], contacts: list[list[str]] | None = None) -> dict:
    return {"seat": seat, "disc": disc, "contacts": contacts or [],
            "end": {k: (list(v) if isinstance(v, tuple) else v) for k, v in end.items()}}


RE = {"round_end": True}

CASES = [
    # ---------------------------------------------------------------- must-hit rule
    Case("NL-opponent-on-board/direct-hit-valid", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": Z15, "n1": (60.0, 250.0)}, [["s1", "n1"]])],
         points={"A": 15, "B": 5}, reason="s1 hit n1 directly"),
    Case("NL-opponent-on-board/off-a-peg-valid", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": Z15, "n1": Z5}, [["s1", "peg"], ["s1", "n1"]])],
         points={"A": 15, "B": 5}, reason="s1 hit n1 off a peg"),
    Case("NL-opponent-on-board/carom-off-own-disc-valid",
         {"n1": ("north", Z10), "s0": ("south", (0.0, -150.0))},
         [shot("south", "s1", {"s1": (0.0, -150.0), "s0": (0.0, 140.0), "n1": ON_LINE},
               [["s1", "s0"], ["s0", "n1"]])],
         removed={"n1": "shooting_line"}, points={"A": 20, "B": 0}, reason="carom off own disc s0"),
    Case("NL-opponent-on-board/carom-off-partner-disc-valid-4p",
         {"w1": ("west", Z10), "n1": ("north", (-50.0, 0.0))},
         [shot("south", "s1", {"s1": (0.0, -60.0), "n1": (-60.0, 40.0), "w1": "off"},
               [["s1", "n1"], ["n1", "w1"]])],
         removed={"w1": "off_board"}, points={"A": 30, "B": 0}, players=4,
         reason="s1 hit w1 by carom off partner's disc n1"),
    # a shot the vision side missed, logged from where its disc was later found (``unseen``):
    # nothing of it was seen to judge, so the disc is played where it lies (c2h_9202)
    Case("unseen-shot/must-hit-not-judged", {"n1": ("north", Z10)},
         [{**shot("south", "s1", {"s1": Z15}), "unseen": True},
          shot("north", "n2", {"n2": Z5, "s1": "off"}, [["n2", "s1"]])],
         removed={"s1": "off_board"}, points={"A": 0, "B": 15}, reason="must-hit not judged"),
    # ... nor on the no-opponent rule: the disc was found lying outside the 15 zone, so nobody
    # removed it (triple.mp4 begins with reds and blacks in the 10 and 5 zones)
    Case("unseen-shot/no-opponent-rule-not-judged", {},
         [{**shot("south", "s1", {"s1": Z10}), "unseen": True},
          {**shot("north", "n1", {"n1": Z5}), "unseen": True}],
         points={"A": 10, "B": 5}),
    Case("NL-opponent-on-board/contact-listed-opponent-first", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": Z15}, [["n1", "s1"]])], points={"A": 15, "B": 10}),
    Case("NL-opponent-on-board/chain-opponent-knocks-opponent",
         {"n1": ("north", Z10), "n2": ("north", (100.0, 150.0))},
         [shot("south", "s1", {"s1": Z15, "n1": "off", "n2": "off"}, [["s1", "n1"], ["n1", "n2"]])],
         removed={"n1": "off_board", "n2": "off_board"}, points={"A": 15, "B": 0}),
    Case("NL-opponent-on-board/miss-shot-disc-to-ditch", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": Z15})],
         removed={"s1": "foul"}, points={"A": 0, "B": 10},
         reason="foul: no opponent disc hit; s1 to the ditch"),
    Case("NL-opponent-on-board/miss-peg-only-is-foul", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": Z15}, [["s1", "peg"]])],
         removed={"s1": "foul"}, points={"A": 0, "B": 10}),
    Case("NL-opponent-on-board/miss-own-struck-disc-to-ditch",
         {"n1": ("north", Z10), "s0": ("south", Z15)},
         [shot("south", "s1", {"s1": (30.0, 30.0), "s0": (-20.0, 60.0)}, [["s1", "s0"]])],
         removed={"s1": "foul", "s0": "foul"}, points={"A": 0, "B": 10},
         reason="foul: no opponent disc hit; s1 and s0 to the ditch"),
    Case("NL-opponent-on-board/miss-partner-struck-disc-to-ditch-4p",
         {"w1": ("west", Z10), "n1": ("north", Z15)},
         [shot("south", "s1", {"s1": Z5, "n1": (0.0, -20.0)}, [["s1", "n1"]])],
         removed={"s1": "foul", "n1": "foul"}, points={"A": 0, "B": 10}, players=4),
    Case("NL-opponent-on-board/miss-unstruck-own-disc-stays",
         {"n1": ("north", Z10), "s0": ("south", (0.0, -50.0))},
         [shot("south", "s1", {"s1": Z15})],
         removed={"s1": "foul"}, points={"A": 15, "B": 10}),
    Case("EN-8/foul-shot-disc-in-hole-no-20", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": "hole"})],
         removed={"s1": "foul"}, twenties={"A": 0}, points={"A": 0, "B": 10}, reason="no 20"),
    Case("EN-8/foul-own-disc-knocked-in-hole-no-20",
         {"n1": ("north", Z10), "s0": ("south", LEAN)},
         [shot("south", "s1", {"s1": Z15, "s0": "hole"}, [["s1", "s0"]])],
         removed={"s1": "foul", "s0": "foul"}, twenties={"A": 0}, points={"A": 0, "B": 10}),
    Case("EN-8/foul-contact-missed-own-disc-moved", {"n1": ("north", Z10), "s0": ("south", Z15)},
         [shot("south", "s1", {"s1": Z15, "s0": Z10})],
         removed={"s1": "foul", "s0": "foul"}, points={"A": 0, "B": 10}),
    Case("NL-opponent-on-board/hit-then-hole-is-20", {"n1": ("north", LEAN)},
         [shot("south", "s1", {"s1": "hole", "n1": Z10}, [["s1", "n1"]])],
         twenties={"A": 1, "B": 0}, points={"A": 20, "B": 10}),
    Case("NL-Miscellaneous/opponent-knocked-in-hole-counts-for-opponent", {"n1": ("north", LEAN)},
         [shot("south", "s1", {"s1": Z15, "n1": "hole"}, [["s1", "n1"]])],
         twenties={"A": 0, "B": 1}, points={"A": 15, "B": 20}, reason="20 for north (n1)"),
    Case("EN-8/valid-carom-own-disc-in-hole-counts",
         {"n1": ("north", Z10), "s0": ("south", LEAN)},
         [shot("south", "s1", {"s1": Z15, "s0": "hole", "n1": Z5}, [["s1", "n1"], ["s1", "s0"]])],
         twenties={"A": 1}, points={"A": 35, "B": 5}),
    Case("NL-opponent-on-board/contact-missed-opponent-moved-counts-as-hit",
         {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": Z15, "n1": Z5})], points={"A": 15, "B": 5}),
    Case("NL-opponent-on-board/opponent-jitter-1mm-is-not-a-hit", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": Z15, "n1": (1.0, 150.0)})],
         removed={"s1": "foul"}, points={"A": 0, "B": 10}),
    Case("3p/must-hit-any-other-player", {"w1": ("west", Z10)},
         [shot("south", "s1", {"s1": Z15, "w1": Z5}, [["s1", "w1"]])],
         points={"south": 15, "west": 5, "north": 0}, players=3),
    Case("3p/miss-other-players-disc-foul", {"n1": ("north", Z10)},
         [shot("west", "w1", {"w1": Z15})],
         removed={"w1": "foul"}, points={"south": 0, "west": 0, "north": 10}, players=3),
    Case("NL-opponent-on-board/opponent-disc-removed-earlier-no-must-hit", {},
         [shot("south", "s1", {"s1": Z15}), shot("north", "n1", {"n1": "off", "s1": "off"}, [["n1", "s1"]]),
          shot("south", "s2", {"s2": Z15})],
         removed={"n1": "off_board", "s1": "off_board"}, points={"A": 15, "B": 0}),
    # ---------------------------------------------------------------- no-opponent rule
    Case("NL-no-opponent/first-shot-15-zone-stays", {}, [shot("south", "s1", {"s1": Z15})],
         points={"A": 15, "B": 0}, reason="s1 stays: in the 15 zone"),
    Case("NL-no-opponent/touching-15-line-stays-counts-10", {}, [shot("south", "s1", {"s1": T15})],
         points={"A": 10, "B": 0}, reason="touching the 15 line"),
    Case("NL-no-opponent/10-zone-removed", {}, [shot("south", "s1", {"s1": Z10})],
         removed={"s1": "no_opponent_rule"}, points={"A": 0, "B": 0}, reason="outside the 15 line"),
    Case("NL-no-opponent/5-zone-removed", {}, [shot("south", "s1", {"s1": Z5})],
         removed={"s1": "no_opponent_rule"}, points={"A": 0, "B": 0}),
    Case("NL-no-opponent/hole-is-20", {}, [shot("south", "s1", {"s1": "hole"})],
         twenties={"A": 1}, points={"A": 20, "B": 0}),
    Case("NL-no-opponent/rule-off-10-zone-stays", {}, [shot("south", "s1", {"s1": Z10})],
         points={"A": 10, "B": 0}, opts={"no_opponent_rule": False}),
    Case("NL-no-opponent/only-own-discs-on-board", {"s0": ("south", Z15)},
         [shot("south", "s1", {"s1": Z10})],
         removed={"s1": "no_opponent_rule"}, points={"A": 15, "B": 0}),
    Case("NL-no-opponent/only-partner-discs-on-board-4p", {"n0": ("north", Z15)},
         [shot("south", "s1", {"s1": Z5})],
         removed={"s1": "no_opponent_rule"}, points={"A": 15, "B": 0}, players=4),
    Case("EN-8/no-opponent-carom-own-disc-into-hole", {"s0": ("south", LEAN)},
         [shot("south", "s1", {"s1": Z10, "s0": "hole"}, [["s1", "s0"]])],
         removed={"s1": "no_opponent_rule"}, twenties={"A": 1}, points={"A": 20, "B": 0}),
    Case("NL-no-opponent/struck-own-disc-stays-only-shot-disc-removed", {"s0": ("south", Z15)},
         [shot("south", "s1", {"s1": Z5, "s0": T15}, [["s1", "s0"]])],
         removed={"s1": "no_opponent_rule"}, points={"A": 10, "B": 0}),
    Case("NL-no-opponent/leaning-over-hole-stays", {}, [shot("south", "s1", {"s1": LEAN})],
         twenties={"A": 0}, points={"A": 15, "B": 0}),
    Case("3p/no-opponent-rule-with-no-other-player-disc", {}, [shot("west", "w1", {"w1": Z10})],
         removed={"w1": "no_opponent_rule"}, points={"south": 0, "west": 0, "north": 0}, players=3),
    # ---------------------------------------------------------------- shooting line, ditch, hole
    Case("NL-Miscellaneous/shot-disc-touching-shooting-line", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": ON_LINE, "n1": Z5}, [["s1", "n1"]])],
         removed={"s1": "shooting_line"}, points={"A": 0, "B": 5},
         reason="disc s1 removed: touched the shooting line"),
    Case("EN-4/shot-disc-did-not-cross-shooting-line", {}, [shot("south", "s1", {"s1": OUTSIDE})],
         removed={"s1": "shooting_line"}, reason="did not cross the shooting line"),
    Case("NL-Miscellaneous/opponent-knocked-onto-shooting-line", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": Z15, "n1": (0.0, -295.0)}, [["s1", "n1"]])],
         removed={"n1": "shooting_line"}, points={"A": 15, "B": 0},
         reason="disc n1 removed: touched the shooting line"),
    Case("NL-Miscellaneous/own-disc-knocked-onto-shooting-line", {"n1": ("north", Z10), "s0": ("south", Z5)},
         [shot("south", "s1", {"s1": Z15, "s0": (295.0, 0.0), "n1": (0.0, 180.0)}, [["s1", "s0"], ["s1", "n1"]])],
         removed={"s0": "shooting_line"}, points={"A": 15, "B": 10}),
    Case("NL-Scoring/5-zone-near-shooting-line-stays", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": (0.0, -285.0), "n1": "off"}, [["s1", "n1"]])],
         removed={"n1": "off_board"}, points={"A": 5, "B": 0}),
    Case("EN-4/disc-leaving-playing-area-removed", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": "off", "n1": "off"}, [["s1", "n1"]])],
         removed={"s1": "off_board", "n1": "off_board"}, points={"A": 0, "B": 0}),
    Case("EN-4/disc-reported-in-ditch-position-removed", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": Z15, "n1": (0.0, 350.0)}, [["s1", "n1"]])],
         removed={"n1": "off_board"}, points={"A": 15, "B": 0}, reason="left the playing surface"),
    Case("SPEC-2/measured-board-smaller-shooting-line", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": (0.0, -268.0), "n1": Z5}, [["s1", "n1"]])],
         removed={"s1": "shooting_line"}, points={"A": 0, "B": 5},
         opts={"board": CrokinoleBoard(shooting_line_radius=280.0)}),
    Case("SPEC-2/default-board-same-position-stays", {"n1": ("north", Z10)},
         [shot("south", "s1", {"s1": (0.0, -268.0), "n1": Z5}, [["s1", "n1"]])],
         points={"A": 5, "B": 5}),
    Case("SPEC-2/position-inside-hole-is-20", {}, [shot("south", "s1", {"s1": HOLE})],
         twenties={"A": 1}, points={"A": 20, "B": 0}),
    # ---------------------------------------------------------------- scoring
    Case("NL-Scoring/touching-15-line-counts-10", {"s0": ("south", T15), "n0": ("north", Z5)}, [RE],
         points={"A": 10, "B": 5}, awarded={"A": 5, "B": 0}),
    Case("NL-Scoring/touching-10-line-counts-5", {"s0": ("south", T10), "n0": ("north", Z10)}, [RE],
         points={"A": 5, "B": 10}, awarded={"A": 0, "B": 5}),
    Case("NL-Scoring/twenty-plus-discs-60-v-20",
         {"s0": ("south", Z15), "s2": ("south", (40.0, 40.0)), "s3": ("south", Z10),
          "n0": ("north", (0.0, -150.0)), "n1": ("north", (0.0, -250.0)), "n2": ("north", (250.0, 0.0))},
         [shot("south", "s1", {"s1": "hole", "n2": (0.0, 260.0)}, [["s1", "n2"]]), RE],
         twenties={"A": 1}, points={"A": 60, "B": 20}, awarded={"A": 40, "B": 0}),
    Case("NL-Scoring/example-tan-60-red-35-tan-gets-25",
         {"s0": ("south", Z15), "s1": ("south", (40.0, 40.0)), "s3": ("south", Z10), "s4": ("south", T15),
          "s5": ("south", (-150.0, 0.0)),
          "n0": ("north", (0.0, -150.0)), "n1": ("north", (0.0, -250.0)), "n2": ("north", (-40.0, -40.0)),
          "n3": ("north", (200.0, 0.0))},
         [RE], points={"A": 60, "B": 35}, awarded={"A": 25, "B": 0}),
    Case("EN-7/differential-tie-both-0", {"s0": ("south", Z10), "n0": ("north", (150.0, 0.0))}, [RE],
         points={"A": 10, "B": 10}, awarded={"A": 0, "B": 0}),
    Case("EN-7/simple-scoring-both-keep-points", {"s0": ("south", Z15), "n0": ("north", Z10)}, [RE],
         points={"A": 15, "B": 10}, awarded={"A": 15, "B": 10}, opts={"scoring": "simple"}),
    Case("EN-7/championship-round-winner-2-loser-0", {"s0": ("south", Z15), "n0": ("north", Z10)}, [RE],
         points={"A": 15, "B": 10}, awarded={"A": 2, "B": 0}, opts={"rounds": 4}),
    Case("EN-7/championship-tie-1-each", {"s0": ("south", Z10), "n0": ("north", (150.0, 0.0))}, [RE],
         points={"A": 10, "B": 10}, awarded={"A": 1, "B": 1}, opts={"rounds": 4}),
    Case("NL-Scoring/twenties-add-20-each", {"n0": ("north", Z15)},
         [shot("south", "s1", {"s1": "hole", "n0": (0.0, 120.0)}, [["s1", "n0"]]),
          shot("north", "n1", {"n1": Z5, "s1": "hole"}), RE],
         removed={"n1": "no_opponent_rule"}, twenties={"A": 1}, points={"A": 20, "B": 10},
         awarded={"A": 10, "B": 0}),
    Case("4p/partnership-discs-count-for-team",
         {"s0": ("south", Z15), "n0": ("north", Z10), "w0": ("west", Z5), "e0": ("east", T10)}, [RE],
         points={"A": 25, "B": 10}, awarded={"A": 15, "B": 0}, players=4),
    Case("3p/differential-top-side-gets-lead-over-runner-up",
         {"s0": ("south", Z15), "w0": ("west", Z10), "n0": ("north", Z5)}, [RE],
         points={"south": 15, "west": 10, "north": 5}, awarded={"south": 5, "west": 0, "north": 0},
         players=3),
]


def run_case(case: Case) -> tuple[CrokinoleEngine, list[Outcome]]:
    engine = CrokinoleEngine(case.players, **case.opts)
    for disc, (seat, at) in case.board.items():
        engine.place(disc, seat, at)
    outcomes = [engine.apply(parse_entry(s, i + 1)) for i, s in enumerate(case.shots)]
    return engine, outcomes


def removed_by(outcomes: list[Outcome]) -> dict[str, str]:
    out: dict[str, str] = {}
    for o in outcomes:
        for d in o.decisions:
            if d.kind == "removed":
                for disc in d.discs:
                    out[disc] = d.cause  # type: ignore[attr-defined]
    return out


def test_table_is_large_enough() -> None:
    assert len(CASES) >= 45
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_situation(case: Case) -> None:
    engine, outcomes = run_case(case)
    assert removed_by(outcomes) == case.removed
    round_over = any(o.round_over for o in outcomes)
    if round_over:
        rec = engine.rounds[-1]
        twenties, points = rec.twenties, rec.points
    else:
        twenties = {s: len(v) for s, v in engine.twenties.items()}
        points = engine.round_points()
    for side, n in case.twenties.items():
        assert twenties[side] == n, f"twenties of {side}"
    if case.points is not None:
        assert points == case.points
    if case.awarded is not None:
        assert round_over and engine.rounds[-1].awarded == case.awarded
    if case.reason is not None:
        reasons = [d.reason for o in outcomes for d in o.decisions]
        assert any(case.reason in r for r in reasons), reasons
    # Every removed disc is out of play, and nothing left on the board touches the shooting line.
    for disc in case.removed:
        assert disc not in engine.on_board
    for d in engine.on_board.values():
        assert not engine.board.touches_shooting_line(d.x, d.y)
