"""The bundled fixture videos: their truth is the rules over their shot log, and files agree.

Skipped when fixtures/videos/ is absent. If a rules engine changes its summary, regenerate the
fixtures with ``scripts/make_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.rules import engine_for, replay
from tracker.shotlog import parse_shot_log

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "videos"
FOLDERS = sorted(p for p in ROOT.iterdir() if (p / "truth.json").exists()) if ROOT.is_dir() else []


@pytest.mark.skipif(not FOLDERS, reason="no fixtures")
@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_fixture_truth_is_rules_of_its_shot_log(folder: Path) -> None:
    truth = json.loads((folder / "truth.json").read_text())
    entries = parse_shot_log((folder / "shots.jsonl").read_text().splitlines())
    engine = engine_for(truth["game"], truth["players"], truth.get("variant"))
    replay(engine, entries)
    assert json.loads(json.dumps(engine.summary())) == truth, (
        f"{folder.name}: truth.json is stale; run scripts/make_fixtures.py {folder.name}")


@pytest.mark.skipif(not FOLDERS, reason="no fixtures")
@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_fixture_files_agree(folder: Path) -> None:
    assert (folder / "video.mp4").stat().st_size <= 5 * 1024 * 1024
    lines = (folder / "frames.jsonl").read_text().splitlines()
    first, last = json.loads(lines[0]), json.loads(lines[-1])
    assert first["frame"] == 0 and last["frame"] == len(lines) - 1
    events = [json.loads(x) for x in (folder / "events.jsonl").read_text().splitlines()]
    assert events[0]["type"] == "calibrated" and events[0]["homography"] == first["homography"]
    assert all(0 <= e["frame"] < len(lines) for e in events)
    shots = [e for e in events if e["type"] == "shot"]
    logged = [json.loads(x) for x in (folder / "shots.jsonl").read_text().splitlines()]
    assert len(shots) == sum(1 for x in logged if "seat" in x)


@pytest.mark.skipif(not FOLDERS, reason="no fixtures")
def test_fixtures_within_budget() -> None:
    total = sum(p.stat().st_size for p in ROOT.rglob("*") if p.is_file())
    assert total <= 30 * 1024 * 1024
    assert all(p.stat().st_size <= 5 * 1024 * 1024 for p in ROOT.rglob("*") if p.is_file())
