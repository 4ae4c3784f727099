"""Sample frames for looking at the renderer: ``python -m tracker.render.samples [OUTDIR]``.

Writes PNGs of easy and hard frames (crokinole with 2 and 4 disc colours, korona with strikers and
a cue, hands, motion blur) so a person can compare them with photos of real boards.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.render.renderer import Renderer
from tracker.render.sampling import sample_camera, sample_look
from tracker.render.scene import CueSprite, DiscSprite, HandSprite, SceneFrame


def crokinole_scene(board: CrokinoleBoard, rng: np.random.Generator, colors: int = 2,
                    hand: bool = True) -> SceneFrame:
    """Discs at rest across the zones, some in the ditch, one in the hole, and a shooting hand."""
    discs: list[DiscSprite] = []
    r = board.disc_radius
    for i in range(14):
        while True:
            d = float(rng.uniform(0.0, board.shooting_line_radius - r - 2))
            a = float(rng.uniform(0, 2 * math.pi))
            x, y = d * math.cos(a), d * math.sin(a)
            if all(math.hypot(x - o.x, y - o.y) > 2 * r + 1 for o in discs) and all(
                    math.hypot(x - px, y - py) > r + board.peg_diameter / 2 + 1
                    for px, py in board.peg_positions()) and d > board.hole_radius + r + 2:
                break
        discs.append(DiscSprite(f"d{i}", x, y, r, board.disc_thickness, i % colors))
    discs.append(DiscSprite("h0", 0.0, 0.0, r, board.disc_thickness, 0, state="hole",
                            z=-board.disc_thickness))
    ditch_r = (board.surface_radius + board.ditch_outer_radius) / 2
    for k in range(8):
        a = math.radians(200 + k * 9.5)
        discs.append(DiscSprite(f"t{k}", ditch_r * math.cos(a), ditch_r * math.sin(a), r,
                                board.disc_thickness, k % colors, state="ditch",
                                z=-(board.disc_thickness + 3.0)))
    sx, sy = board.shooting_position("south", 12.0)
    discs.append(DiscSprite("s", sx, sy, r, board.disc_thickness, 0))
    hands = (HandSprite(sx - 4, sy - r - 2, from_angle=math.radians(-100), skin=0, sleeve=0,
                        z=8.0),) if hand else ()
    return SceneFrame(t=0.0, discs=tuple(discs), hands=hands)


def korona_scene(board: KoronaBoard, rng: np.random.Generator) -> SceneFrame:
    discs: list[DiscSprite] = []
    for i in range(16):
        while True:
            x, y = (float(v) for v in rng.uniform(-board.half + 60, board.half - 60, 2))
            if all(math.hypot(x - o.x, y - o.y) > 2 * board.disc_radius + 2 for o in discs):
                break
        discs.append(DiscSprite(f"k{i}", x, y, board.disc_radius, board.disc_thickness, i % 4))
    d = board.half - board.striking_line_offset
    discs.append(DiscSprite("S", 40.0, -d, board.striker_radius, board.disc_thickness, 0,
                            kind="striker"))
    discs.append(DiscSprite("N", -120.0, d, board.striker_radius, board.disc_thickness, 1,
                            kind="striker"))
    cue = CueSprite(40.0, -d - board.striker_radius - 3, 10.0, -d - 900.0, z=8.0)
    hand = HandSprite(18.0, -board.outer_size / 2 - 40.0, from_angle=math.radians(-80), skin=1,
                      sleeve=1, z=30.0, pose="pinch")
    return SceneFrame(t=0.0, discs=tuple(discs), cues=(cue,), hands=(hand,))


def motion_subframes(base: SceneFrame, disc_id: str, dx: float, dy: float,
                     n: int) -> list[SceneFrame]:
    out = []
    for k in range(n):
        f = k / max(n - 1, 1)
        discs = tuple(
            DiscSprite(d.id, d.x + dx * f, d.y + dy * f, d.radius, d.thickness, d.side, d.kind,
                       d.state, d.z, d.angle) if d.id == disc_id else d for d in base.discs)
        out.append(SceneFrame(t=base.t, discs=discs, hands=(), cues=()))
    return out


def write_samples(outdir: Path, size: tuple[int, int] = (1280, 720)) -> list[Path]:
    import cv2

    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for preset in ("easy", "hard"):
        for seed in range(3):
            rng = np.random.default_rng(seed + (100 if preset == "hard" else 0))
            board = CrokinoleBoard()
            look = sample_look(preset, rng, "crokinole")  # type: ignore[arg-type]
            colors = 4 if seed == 2 else 2
            if colors == 4:
                from dataclasses import replace

                look = replace(look, disc_colors=look.disc_colors + ((60, 150, 60), (40, 180, 220)))
            cam = sample_camera(preset, rng, size, "crokinole")  # type: ignore[arg-type]
            r = Renderer(board, look, size, seed)
            scene = crokinole_scene(board, rng, colors, hand=seed != 1)
            frames = motion_subframes(scene, "d0", 90.0, 40.0, 8) if seed == 1 else [scene]
            img = r.render(frames, cam, frame_index=seed * 10)
            p = outdir / f"crokinole_{preset}_{seed}.png"
            cv2.imwrite(str(p), img)
            written.append(p)
        rng = np.random.default_rng(7 + (100 if preset == "hard" else 0))
        kb = KoronaBoard()
        look = sample_look(preset, rng, "korona")  # type: ignore[arg-type]
        cam = sample_camera(preset, rng, size, "korona")  # type: ignore[arg-type]
        r = Renderer(kb, look, size, 7)
        img = r.render([korona_scene(kb, rng)], cam)
        p = outdir / f"korona_{preset}.png"
        cv2.imwrite(str(p), img)
        written.append(p)
    return written


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/render_samples")
    for path in write_samples(out):
        print(path)
