"""The score table ``tracker review`` prints: korona games won, drawn, or still in play."""

from __future__ import annotations

from tracker.pipeline.review import score_table


def korona_summary(**game: object) -> dict[str, object]:
    base = {"index": 0, "pocketed": {"south": 2, "north": 0}, "fouls": {"south": 0, "north": 0}}
    return {"game": "korona", "players": 2, "rounds": [{**base, **game}],
            "totals": {"south": 0, "north": 0}, "winner": None}


def test_a_korona_game_cut_off_by_the_end_of_the_video_is_in_play_not_a_draw() -> None:
    line = score_table(korona_summary(winner=None, over=False)).splitlines()[1]
    assert line.split()[:3] == ["game", "1", "2"] and line.rstrip().endswith("in play")
    assert "draw" not in line


def test_a_finished_korona_game_shows_its_winner_or_a_draw() -> None:
    assert "won by north" in score_table(korona_summary(winner="north", over=True))
    assert score_table(korona_summary(winner=None, over=True)).splitlines()[1].rstrip().endswith("draw")
