"""Board profiles: files and the built-in named ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.boards import KoronaBoard, load_profile
from tracker.boards.profile import builtin_profiles
from tracker.errors import InputError


def test_builtin_carrom_profile_by_name() -> None:
    board = load_profile("carrom")
    assert isinstance(board, KoronaBoard)
    assert board.outer_size == pytest.approx(860.0)
    assert board.outer_size != KoronaBoard().outer_size
    assert "carrom" in builtin_profiles()


def test_a_file_wins_over_a_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("carrom").write_text(json.dumps({"game": "korona", "outer_size": 800.0}))
    assert load_profile("carrom").outer_size == pytest.approx(800.0)  # type: ignore[union-attr]


def test_unknown_name_lists_the_builtins() -> None:
    with pytest.raises(InputError, match="built-in profiles: .*carrom"):
        load_profile("no-such-board")
