"""The scripted single-event clips do what they promise, and the rules agree."""

from __future__ import annotations

import pytest

from tracker.sim.scripted import run_clip

SIZE = (320, 180)


def _decisions(m) -> list[str]:  # type: ignore[no-untyped-def]
    return [d.reason for o in m.outcomes for d in o.decisions]


def test_twenty() -> None:
    m = run_clip("crokinole_twenty", size=SIZE)
    assert m.entries[0].end == {"s1": "hole"}  # type: ignore[union-attr]
    assert any(r.startswith("20 for") and "(s1)" in r for r in _decisions(m))
    assert [e.type for e in m.events if e.type in ("twenty", "removed")] == ["twenty"]


def test_must_hit_foul_removes_shot_disc_and_the_own_disc_it_struck() -> None:
    m = run_clip("crokinole_foul", size=SIZE)
    last = m.entries[-1]
    assert last.contacts[0] == ("s2", "s1")  # type: ignore[union-attr]
    removed = sorted(e.data["disc"] for e in m.events if e.type == "removed")
    assert removed == ["s1", "s2"]
    assert all(e.data["reason"] == "foul" for e in m.events if e.type == "removed")
    shot = [e for e in m.events if e.type == "shot"][-1]
    assert shot.data["hit_opponent"] is False and shot.data["foul"]
    # The hands lifted both discs out: they are gone from the scene afterwards.
    end = m.timeline.scene_at(m.timeline.end)
    assert {d.id for d in end.discs} == {"n1"}


def test_ricochet_off_a_peg_is_a_legal_hit() -> None:
    m = run_clip("crokinole_peg_ricochet", size=SIZE)
    contacts = list(m.entries[-1].contacts)  # type: ignore[union-attr]
    assert contacts[:2] == [("n1", "peg"), ("n1", "s1")]
    assert not [e for e in m.events if e.type == "removed"]
    assert any("off a peg" in r for r in _decisions(m))


def test_disc_knocked_off_the_board() -> None:
    m = run_clip("crokinole_off_board", size=SIZE)
    assert m.entries[-1].end["s1"] == "off"  # type: ignore[union-attr]
    assert [e.data["disc"] for e in m.events if e.type == "off_board"] == ["s1"]
    s1 = m.timeline.discs["s1"].last()
    assert s1[3] == "ditch"


@pytest.mark.parametrize("name, behind", [("korona_pocket", False), ("korona_overshot", True)])
def test_korona_pocket_and_overshot(name: str, behind: bool) -> None:
    m = run_clip(name, size=SIZE)
    shot = m.entries[1]
    pockets = {k: v for k, v in shot.end.items() if isinstance(v, str) and v.startswith("pocket:")}  # type: ignore[union-attr]
    assert len(pockets) == 1
    (disc, where), = pockets.items()
    assert disc.startswith("s") and (where[7:] in ("sw", "se")) == behind
    reasons = _decisions(m)
    if behind:
        assert any(r.startswith("overshot") for r in reasons)
        # The disc is put back on the table by hand.
        assert m.timeline.discs[disc].last()[3] == "surface"
    else:
        assert any("pocketed" in r for r in reasons)
        assert m.timeline.discs[disc].last()[3] == "pocket"
