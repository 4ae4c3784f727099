"""The stages after the detector on the rendered fixtures: detections made from each fixture's
per-frame truth (noise, no detector) go through tracking, shot inference and the rules; the
summary must equal the fixture's truth.json, round by round. The full video review of a small
fixture is in test_review_video.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.boards import board_for
from tracker.pipeline import Pipeline
from tracker.pipeline.compare import round_rows
from tracker.shotlog import Shot
from tracker.track.synthetic import detections_from_truth

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "videos"
INDEX = json.loads((FIXTURES / "index.json").read_text()) if (FIXTURES / "index.json").exists() else {}
NAMES = sorted(n for n in INDEX if (FIXTURES / n / "frames.jsonl").exists())


# Fixtures whose downstream stages are known to go wrong, with why (none at present: the korona
# row shuffles, the rim bounce between frames and the called pocket behind the line are handled).
KNOWN: dict[str, str] = {}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN[n], strict=False)) if n in KNOWN else n
             for n in NAMES])
def test_summary_from_truth_detections_equals_truth(name: str) -> None:
    meta = INDEX[name]
    folder = FIXTURES / name
    rows = [json.loads(line) for line in (folder / "frames.jsonl").read_text().splitlines() if line.strip()]
    truth = json.loads((folder / "truth.json").read_text())
    p = Pipeline(meta["game"], meta["players"], rules={"variant": meta["variant"]} if "variant" in meta else None)
    p.start_tracking(board_for(meta["game"]))
    for i, (t, det) in enumerate(detections_from_truth(rows, noise_mm=0.3, seed=i_seed(name))):
        p.process_detections(det, t, i)
    true_shots = sum(1 for line in (folder / "shots.jsonl").read_text().splitlines() if '"seat"' in line)
    assert len([e for e in p.entries if isinstance(e, Shot)]) == true_shots
    assert round_rows(p.summary()) == round_rows(truth)


def i_seed(name: str) -> int:
    return sum(map(ord, name))
