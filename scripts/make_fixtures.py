"""Regenerate every synthetic fixture video in fixtures/videos/ with its ground truth.

    .venv/bin/python scripts/make_fixtures.py            # all of them
    .venv/bin/python scripts/make_fixtures.py korona_pocket crokinole_twenty   # some

Each fixture is a folder with video.mp4, truth.json, shots.jsonl, events.jsonl and frames.jsonl
(see tracker/sim/output.py), written by the same code as ``tracker synth``. The budget is 30 MB
in all and 5 MB a file: small sizes and frame rates. ``index.json`` lists them with what they
show. Everything is seeded: running this again gives the same truth files (the mp4 encoder may
differ between OpenCV builds).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tracker.sim.match import Match, MatchConfig, run_match  # noqa: E402
from tracker.sim.output import write_match  # noqa: E402
from tracker.sim.scripted import CLIPS, run_clip  # noqa: E402

OUT = ROOT / "fixtures" / "videos"
MAX_FILE = 5 * 1024 * 1024
MAX_TOTAL = 30 * 1024 * 1024


@dataclass(frozen=True)
class Fixture:
    name: str
    description: str
    fps: float
    size: tuple[int, int]
    config: MatchConfig | None = None  # a simulated match ...
    clip: str | None = None  # ... or a scripted clip
    preset: str = "easy"
    seed: int = 0


FIXTURES = [
    Fixture("crokinole_2p_round", "a full 2-player crokinole round (24 shots), easy camera", 10.0, (480, 270),
            MatchConfig("crokinole", 2, seed=101, preset="easy", rounds=1, camera_bump=False,
                        size=(480, 270))),
    Fixture("crokinole_4p_part", "the first 8 shots of a 4-player crokinole round, hard camera, "
            "the camera is bumped part way", 10.0, (480, 270),
            MatchConfig("crokinole", 4, seed=202, preset="hard", max_shots=8, camera_bump=True,
                        size=(480, 270))),
    Fixture("korona_2p_game", "a whole 2-player korona game (8 discs each, north wins 8-7), easy camera; "
            "a disc flies off the board in shot 2, an announced bank shot pockets in shot 8",
            10.0, (480, 270),
            MatchConfig("korona", 2, seed=1, preset="easy", rounds=1, camera_bump=False,
                        size=(480, 270))),
    Fixture("korona_4p_part", "the first 10 shots of a 4-player korona game (4 disc colours), easy "
            "camera, bumped part way", 10.0, (480, 270),
            MatchConfig("korona", 4, seed=404, preset="easy", max_shots=10, camera_bump=True,
                        size=(480, 270))),
    Fixture("korona_ru_part", "the first 12 shots of a 2-player korona game under the Russian rules: "
            "an own pawn flies over the rim (to the centre, a penalty pawn owed), ricochets off the opposite "
            "rim (one pockets the pawn from the centre circle), the penalty pawn placed",
            10.0, (480, 270),
            MatchConfig("korona", 2, seed=530, preset="easy", max_shots=12, camera_bump=False,
                        size=(480, 270), variant="ru")),
] + [
    Fixture(name, clip.description, 15.0, (640, 360), clip=name, preset="easy", seed=7)
    for name, clip in CLIPS.items()
]


def build(f: Fixture) -> Match:
    if f.config is not None:
        return run_match(f.config)
    assert f.clip is not None
    return run_clip(f.clip, size=f.size, seed=f.seed, preset=f.preset)


def write_readme(index: dict) -> None:
    lines = [
        "# Synthetic fixture videos",
        "",
        "Rendered matches with their ground truth, made by `scripts/make_fixtures.py` (seeded; run it",
        "again to regenerate). Each folder holds `video.mp4`, `truth.json` (SPEC 4 summary = the rules",
        "engine over `shots.jsonl`), `shots.jsonl` (SPEC 4b), `events.jsonl` (SPEC 4) and `frames.jsonl`",
        "(per frame: `frame`, `t`, `homography` image px -> board mm, `camera`, and every disc in play",
        "with `id`, `seat`, `kind`, `x_mm`, `y_mm`, `moving`, `state`). `index.json` lists them.",
        "",
        "| fixture | what it shows | size | fps | frames |",
        "|---|---|---|---|---|",
    ]
    for name, v in sorted(index.items()):
        lines.append(f"| {name} | {v['description']} | {v['size'][0]}x{v['size'][1]} | {v['fps']:g} | {v['frames']} |")
    (OUT / "README.md").write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="only these fixtures")
    args = ap.parse_args(argv)
    names = {f.name for f in FIXTURES}
    unknown = [n for n in args.names if n not in names]
    if unknown:
        ap.error(f"unknown fixture {unknown[0]!r}; known: {', '.join(sorted(names))}")
    index_path = OUT / "index.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {}
    for f in FIXTURES:
        if args.names and f.name not in args.names:
            continue
        t0 = time.time()
        m = build(f)
        folder = OUT / f.name
        figures = write_match(m, folder, f.fps)
        sizes = {p.name: p.stat().st_size for p in sorted(folder.iterdir())}
        big = [n for n, s in sizes.items() if s > MAX_FILE]
        print(f"{f.name}: {figures['frames']} frames, {sum(sizes.values()) / 1e6:.2f} MB, "
              f"{time.time() - t0:.0f} s" + (f"  TOO BIG: {big}" if big else ""), flush=True)
        index[f.name] = {
            "description": f.description,
            "game": m.config.game,
            **({"variant": m.config.variant or "fi"} if m.config.game == "korona" else {}),
            "players": m.config.players,
            "preset": m.config.preset,
            "size": list(f.size),
            "fps": f.fps,
            "frames": figures["frames"],
            "shots": sum(1 for e in m.entries if hasattr(e, "seat")),
            "camera_bumped": len(m.timeline.cameras) > 1,
            "bytes": sizes,
        }
    index_path.write_text(json.dumps(dict(sorted(index.items())), indent=2) + "\n")
    write_readme(index)
    total = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"total {total / 1e6:.1f} MB (budget {MAX_TOTAL / 1e6:.0f} MB)")
    return 0 if total <= MAX_TOTAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
