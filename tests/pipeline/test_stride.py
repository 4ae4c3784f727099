"""Skipping moving frames at >= 30 fps: never near a collision, the rim, a korona pocket, a launch
or a disc being confirmed; and the rendered collision that swapped identities under a blind
stride is seen on every frame."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard, board_for
from tracker.pipeline import Pipeline
from tracker.pipeline.stride import LAUNCH_FRAMES, StrideGate, stride_for
from tracker.shotlog import Shot
from tracker.track import Track
from tracker.track.synthetic import detections_from_truth

CROK = CrokinoleBoard()
KOR = KoronaBoard()


def disc(i: int, xy: tuple[float, float], v: tuple[float, float] = (0.0, 0.0)) -> Track:
    moving = v != (0.0, 0.0)
    return Track(id=i, kind=0, radius=16.0, xy=np.array(xy, float), v=np.array(v, float),
                 state="moving" if moving else "rest")


def launched(gate: StrideGate, tracks: list[Track]) -> None:
    for _ in range(LAUNCH_FRAMES):
        gate.observe(tracks)


def decisions(gate: StrideGate, tracks: list[Track], board: CrokinoleBoard | KoronaBoard, n: int = 6) -> list[bool]:
    out = []
    for _ in range(n):
        s = gate.skip(tracks, False, board)
        if not s:
            gate.observe(tracks)
        out.append(s)
    return out


def test_stride_is_two_at_30_fps_and_one_at_the_fixture_rates() -> None:
    assert stride_for(30.0) == 2 and stride_for(25.0) == 1 and stride_for(15.0) == 1 and stride_for(60.0) == 3


def test_a_disc_sliding_in_the_open_skips_every_other_frame() -> None:
    # inside the 10 line, well away from the pegs, the rim and disc 2; 300 mm/s
    tracks = [disc(1, (0.0, -200.0), (300.0, 0.0)), disc(2, (0.0, 250.0))]
    g = StrideGate(30.0)
    launched(g, tracks)
    assert decisions(g, tracks, CROK) == [True, False, True, False, True, False]


def test_no_skip_at_15_fps() -> None:
    tracks = [disc(1, (0.0, -160.0), (400.0, 0.0))]
    g = StrideGate(15.0)
    launched(g, tracks)
    assert decisions(g, tracks, CROK) == [False] * 6


def test_a_disc_about_to_hit_another_is_never_skipped() -> None:
    """The collision that swapped identities under a blind stride: 1500 mm/s, 60 mm apart."""
    tracks = [disc(1, (-60.0, -160.0), (1500.0, 0.0)), disc(2, (0.0, -160.0))]
    g = StrideGate(30.0)
    launched(g, tracks)
    assert decisions(g, tracks, CROK) == [False] * 6
    assert "near disc 2" in g.why
    tracks[0].xy, tracks[0].v = np.array([0.0, 200.0]), np.array([300.0, 0.0])  # far from disc 2
    assert decisions(g, tracks, CROK, 2) == [True, False]
    tracks[0].xy, tracks[0].v = np.array([0.0, 290.0]), np.array([0.0, 300.0])  # into the ditch
    assert decisions(g, tracks, CROK) == [False] * 6 and "rim" in g.why


def test_a_just_launched_disc_and_a_disc_being_confirmed_are_never_skipped() -> None:
    tracks = [disc(1, (0.0, -200.0), (300.0, 0.0))]
    g = StrideGate(30.0)
    for _ in range(LAUNCH_FRAMES - 1):
        assert not g.skip(tracks, False, CROK)
        g.observe(tracks)
    assert "just started" in g.why
    g.observe(tracks)
    assert not g.skip(tracks, True, CROK)  # a tentative track waits for its next sighting
    assert g.skip(tracks, False, CROK)


def test_frames_with_no_disc_moving_are_never_skipped() -> None:
    """A changing picture with every disc at rest is a hand setting a disc down or lifting one out
    (seed 7401: the disc set on the shooting line, seen on two frames under the hand, was never
    confirmed with every other such frame skipped, and its shot dropped out of the log)."""
    resting = [disc(1, (0.0, -200.0)), disc(2, (0.0, 250.0))]
    g = StrideGate(30.0)
    for _ in range(3 * LAUNCH_FRAMES):
        g.observe(resting)
    assert decisions(g, resting, CROK) == [False] * 6 and g.why == "no disc moving"
    sliding = [disc(1, (0.0, -200.0), (300.0, 0.0)), disc(2, (0.0, 250.0))]
    launched(g, sliding)
    assert g.skip(sliding, False, CROK)


def test_korona_pockets_stop_the_skipping_but_crokinole_pegs_and_hole_do_not() -> None:
    """Pegs and the hole only turn or swallow a disc, which the tracker follows at 15 fps."""
    peg = CROK.peg_positions()[0]
    for xy in ((peg[0] + 30.0, peg[1]), (-45.0, 0.0)):
        g = StrideGate(30.0)
        tracks = [disc(1, xy, (-300.0, 0.0))]
        launched(g, tracks)
        assert g.skip(tracks, False, CROK)
    c = KOR.pocket_centres()["ne"]
    g = StrideGate(30.0)
    near_pocket = [disc(1, (c[0] - 70.0, c[1] - 70.0), (300.0, 300.0))]
    launched(g, near_pocket)
    assert not g.skip(near_pocket, False, KOR) and ("pocket" in g.why or "rim" in g.why)
    g = StrideGate(30.0)
    open_korona = [disc(1, (0.0, 0.0), (300.0, 0.0))]
    launched(g, open_korona)
    assert g.skip(open_korona, False, KOR)


# ---------------------------------------------------------------- a rendered match, from its truth

def _match_rows(tmp: Path) -> list[dict[str, Any]]:
    """crokinole_2_hard seed 7104 at 30 fps (the truth only, no video): its last shot sends n4 at
    ~1.2 m/s into s3, which rests 8 mm from s4; n4, s3 and s4 touch on frames 751-752."""
    from tracker.sim.match import MatchConfig, run_match
    from tracker.sim.output import write_match

    match = run_match(MatchConfig(game="crokinole", players=2, seed=7104, preset="hard", max_shots=8))
    write_match(match, tmp, 30.0, video=False)
    return [json.loads(x) for x in (tmp / "frames.jsonl").read_text().splitlines() if x.strip()]


def _review(rows: list[dict[str, Any]], mode: str, leaving: bool = True) -> tuple[Pipeline, set[int]]:
    """Truth detections through the pipeline, skipping moving frames as ``_step`` does
    (``leaving``: ``TrackerConfig.leaving_ahead``)."""
    p = Pipeline("crokinole", 2, fps=30.0)
    p.skip_moving = mode
    p.start_tracking(board_for("crokinole"))
    p.tracker.cfg = replace(p.tracker.cfg, leaving_ahead=leaving)
    skipped: set[int] = set()
    for i, (t, det) in enumerate(detections_from_truth(rows, noise_mm=0.3, dropout=0.02, seed=1)):
        moving = any(tr.state == "moving" for tr in p.tracker.tracks) or bool(p.tracker._tentative)
        if moving and p._skip(i):
            skipped.add(i)
            continue
        p.process_detections(det, t, i)
    p.finish()
    return p, skipped


def _names_at_rest(p: Pipeline, rows: list[dict[str, Any]]) -> dict[str, str]:
    """Reviewed name -> true name of every disc at rest after the last shot (nearest within 15 mm)."""
    last = p.entries[-1]
    assert isinstance(last, Shot)
    truth = {d["id"]: (d["x_mm"], d["y_mm"]) for d in rows[-1]["discs"] if d.get("state") == "surface"}
    out = {}
    for name, end in last.end.items():
        if isinstance(end, tuple):
            tn = min(truth, key=lambda k: float(np.hypot(truth[k][0] - end[0], truth[k][1] - end[1])))
            if float(np.hypot(truth[tn][0] - end[0], truth[tn][1] - end[1])) < 15.0:
                out[name] = tn
    return out


def test_the_collision_that_swapped_identities_is_seen_on_every_frame(tmp_path: Path) -> None:
    rows = _match_rows(tmp_path)
    # every other moving frame, blindly, with a resting disc's first step off its place not
    # followed on (``TrackerConfig.leaving_ahead`` off, as when the gate was made): s3 and s4 are
    # confused (s3 rests under s4's name; the true s4 is either called s3 or, since a find seen at
    # once with a lost disc's track is not joined to it (identity._reachable), left nameless)
    blind, _ = _review(rows, "even", leaving=False)
    names = _names_at_rest(blind, rows)
    assert names.get("s3") == "s4" and names.get("s4") in ("s3", None)
    # (followed on, the blind stride keeps them apart too here)
    names = _names_at_rest(_review(rows, "even")[0], rows)
    assert all(k == v for k, v in names.items()) and {"s3", "s4", "n4"} <= set(names)
    safe, skipped = _review(rows, "safe")
    assert len(skipped) > 40  # it does skip (the open slides)
    assert not skipped & set(range(744, 757))  # but not while n4 closes in on s3 and s4
    names = _names_at_rest(safe, rows)
    assert all(k == v for k, v in names.items()) and {"s3", "s4", "n4"} <= set(names)
