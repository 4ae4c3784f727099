"""Golden korona shot logs: each file's name states the outcome; the test replays it through the
rules (no physics, no video) and checks the outcome, plus the scores we verified by hand.

Name: ``korona_<variant>_<players>p_<seat>_wins_...`` or ``korona_<variant>_<players>p_draw_...``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.rules.korona import KoronaEngine
from tracker.shotlog import parse_shot_log

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("korona_*.jsonl"))

# Scores read off the logs by hand (pocketed and fouls per seat in the last game).
CHECKED = {
    "korona_fi_2p_south_wins_after_failed_equalising_turn": (
        {"south": 8, "north": 5}, {"south": 1, "north": 0}),
    "korona_fi_2p_draw_by_equalising_turn": ({"south": 8, "north": 8}, {"south": 0, "north": 0}),
    "korona_ru_2p_north_wins_with_penalty_pawns": ({"south": 1, "north": 8}, {"south": 1, "north": 2}),
    "korona_fi_3p_west_wins_after_equalising_turn": (
        {"south": 3, "west": 8, "north": 6}, {"south": 0, "west": 0, "north": 1}),
}


def test_golden_files_exist() -> None:
    assert {f.stem for f in FILES} >= set(CHECKED)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_log(path: Path) -> None:
    parts = path.stem.split("_")
    variant, players = parts[1], int(parts[2].rstrip("p"))
    winner = None if parts[3] == "draw" else parts[3]
    engine = KoronaEngine(players=players, variant=variant)
    outcomes = [engine.apply(e) for e in parse_shot_log(path.read_text().splitlines())]
    assert outcomes[-1].round_over
    summary = engine.summary()
    last = summary["rounds"][-1]
    assert last["over"] and last["winner"] == winner
    if path.stem in CHECKED:
        pocketed, fouls = CHECKED[path.stem]
        assert last["pocketed"] == pocketed
        assert last["fouls"] == fouls
    # Every decision has a reason a player can read.
    assert all(d.reason for o in outcomes for d in o.decisions)
