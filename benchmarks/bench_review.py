"""Benchmark of ``tracker review`` on rendered matches with known truth, and its speed.

    python benchmarks/bench_review.py [MATCH_DIR ...] [--speed VIDEO] [--truth-dets] [--real] [--worst N]

Each MATCH_DIR holds what ``tracker synth`` writes (video.mp4, truth.json, shots.jsonl,
events.jsonl, frames.jsonl). Without arguments: the fixtures in fixtures/videos/. Figures:

* rounds scored exactly (per round: points, awarded and 20s; korona games: pocketed, fouls, winner);
* event recall / precision for shot, twenty, pocketed, removed (matched by type and time, +-1.5 s);
* position error at rest (mm): each shot's end positions against the truth's, nearest within 15 mm;
* identity switches per 100 shots: a reviewed disc name that maps to another true disc than before;
* with ``--truth-dets`` the same on detections made from the per-frame truth (no detector: the
  tracking, events and rules alone);
* ``--dets DIR``: review each video once and keep the detections the tracker was fed, per frame,
  in DIR (a pickle per match); later runs replay them through tracking, events and rules only,
  in seconds instead of minutes (for work downstream of the detector: the detector and the
  stillness gate are not re-run, so a change of theirs needs the cache deleted; the board fits'
  ``calibrated`` events are kept and replayed with them); a korona replay (and a crokinole one
  while ``rest_unseen.ON``: its discs lost at rest) decodes the video
  alongside, so that each shot's discs at rest are refitted on the frame it is judged on as the
  review does (``pipeline.rest_places``, ``replay_frames.py``; ``--anchors``: the tracker's rest
  anchors instead, what replays reported before);
* ``--explain``: for each match not exact, the shots of the review and of the truth side by
  side in time order with their ends, and the events of other types that neither side matched;
* ``--worst N``: for each match, its N largest errors at rest: which shot, which disc, where;
* ``--kinds``: the errors at rest split by kind of disc (``kind_of``: korona strikers, discs
  against a rim alone or in a row, touching another, in the open);
* ``--sides``: the same split by the true disc's team (crokinole: ``A``, whose discs the renderer
  gives the lighter colour of its pair, and ``B``, the darker; korona: by seat; strikers apart),
  for a bias of the edge or region fits with the disc's colour;
* ``--noise SIGMAS``: the detector's change mask keeps only the parts that stand out of the
  picture's noise by that many standard deviations (``Pipeline.change_noise``; default: the game's own, ``pipeline.CHANGE_NOISE``; 0: off);
* ``--speed VIDEO``: frames per second of review against a decode-only loop of the same video,
  and the peak memory of the process;
* ``--real``: review the real clips in ../shared/real/crokinole/video/ with --annotate, print a
  line per clip to compare runs (board fits, shots seen and unseen, 20s and discs off, discs in
  play with their points; the clips have no truth) and the review's warnings, and write PNG
  frames of the annotated output to /tmp/bench_review_real/ for a person to look at.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from replay_frames import ReplayFrames  # noqa: E402  (beside this file)

from tracker.boards import board_for  # noqa: E402
from tracker.pipeline import (  # noqa: E402
    Pipeline,
    rest_unseen,  # noqa: E402
    review_video,
)
from tracker.pipeline.compare import Match, match_events, pair_events, round_rows, rounds_exact  # noqa: E402
from tracker.pipeline.withdraw import standing  # noqa: E402
from tracker.shotlog import Shot, parse_shot_log  # noqa: E402
from tracker.track.synthetic import detections_from_truth  # noqa: E402

EVENT_KEYS = {"shot": "seat", "twenty": "seat", "pocketed": "owner", "removed": "reason", "off_board": None}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.exists() else []


def shots_of(path: Path) -> list[Shot]:
    return [e for e in parse_shot_log(path.read_text().splitlines()) if isinstance(e, Shot)] if path.exists() else []


def end_errors_and_switches(mine: list[Shot], truth: list[Shot],
                            pairs: list[tuple[int, int]] | None = None,
                            where: list[tuple[int, str, str, tuple[float, float], float]] | None = None,
                            switched: list[tuple[int, str, str, str, tuple[float, float]]] | None = None
                            ) -> tuple[list[float], int]:
    """Position errors of matched end points, and identity switches, over the shots ``pairs``
    pairs (review's index, truth's index: the shot events matched in time), in order. Without
    ``pairs``, shot by shot in order (a missed or a false shot then compares every later end
    with another shot's: discs moved since, up to 15 mm "off"). ``where``, if given, gets one
    row per error: the truth's shot index, the review's disc name, the true disc's name, its
    true place and the error. ``switched``, if given, gets one row per switch: the truth's shot
    index, the review's disc name, the true disc it was before and the one it is now, and the
    review's place for it."""
    errors: list[float] = []
    m2t: dict[str, str] = {}
    switches = 0
    if pairs is None:
        pairs = list(zip(range(len(mine)), range(len(truth)), strict=False))
    for a, b, j in ((mine[i], truth[j], j) for i, j in pairs if i < len(mine) and j < len(truth)):
        tp = {k: v for k, v in b.end.items() if isinstance(v, tuple)}
        for name, v in a.end.items():
            if not isinstance(v, tuple) or not tp:
                continue
            tname = min(tp, key=lambda k: float(np.hypot(tp[k][0] - v[0], tp[k][1] - v[1])))
            d = float(np.hypot(tp[tname][0] - v[0], tp[tname][1] - v[1]))
            if d > 15.0:
                continue
            errors.append(d)
            if where is not None:
                where.append((j, name, tname, tp[tname], d))
            if name in m2t and m2t[name] != tname:
                switches += 1
                if switched is not None:
                    switched.append((j, name, m2t[name], tname, (float(v[0]), float(v[1]))))
            m2t[name] = tname
    return errors, switches


EXPLAIN = False  # --explain: print where a match not scored exactly went wrong
WORST = 0  # --worst N: print each match's N largest errors at rest


def worst(name: str, where: list[tuple[int, str, str, tuple[float, float], float]],
          true_shots: list[dict[str, Any]]) -> None:
    """A match's largest errors at rest: the shot (the truth's; its discs at rest from the time
    it ended until the next one began), the disc as reviewed and as true, its true place."""
    print(f"\n--- {name}: worst errors at rest (mm)")
    for j, mine, true, (x, y), d in sorted(where, key=lambda w: -w[4])[:WORST]:
        t0 = float(true_shots[j]["t"]) if j < len(true_shots) else float("nan")
        t1 = float(true_shots[j + 1]["t_start"]) if j + 1 < len(true_shots) else float("inf")
        print(f"  {d:6.2f}  shot {j:2d} at rest {t0:6.2f}-{t1:6.2f} s  {mine:4} (true {true:4}) at ({x:7.1f},{y:7.1f}) "
              f"r={float(np.hypot(x, y)):5.1f}")


def kind_of(board: Any, name: str, at: tuple[float, float], ends: dict[str, Any]) -> str:
    """What a true korona disc at rest is, for ``--kinds``: a ``striker``; a disc against a rim
    (within 0.6 mm of its line) touching another (``row``) or alone (``cushion``); one touching
    another away from the rims (``touch``); else ``open``. Crokinole: ``all``."""
    if not hasattr(board, "half"):
        return "all"
    if name[:1].isupper():
        return "striker"
    r = board.disc_radius
    touch = any(float(np.hypot(v[0] - at[0], v[1] - at[1])) <= 2 * r + 0.6
                for n, v in ends.items() if n != name and n[:1].islower() and isinstance(v, tuple))
    rim = max(abs(at[0]), abs(at[1])) >= board.half - r - 0.6
    return ("row" if rim else "touch") if touch else ("cushion" if rim else "open")


def side_of(truth: dict[str, Any], name: str) -> str:
    """The team (crokinole) or seat (korona) of a true disc, for ``--sides``; ``striker`` for a
    korona striker."""
    if name[:1].isupper():
        return "striker"
    for team, seats in truth.get("sides", {}).items():
        if any(seat[:1] == name[:1] for seat in seats):
            return str(team)
    return name[:1]


def evaluate(folder: Path, summary: dict[str, Any], events: list[dict[str, Any]], shots: list[Shot]) -> dict[str, Any]:
    truth = json.loads((folder / "truth.json").read_text())
    ok, n = rounds_exact(summary, truth)
    events = standing(events)  # calls a later ``corrected`` event withdrew are not counted
    tev = read_jsonl(folder / "events.jsonl")
    ev = {k: match_events(events, tev, k, key=key) for k, key in EVENT_KEYS.items()}
    true_shots = shots_of(folder / "shots.jsonl")
    # (the i-th shot event is the i-th shot of its log)
    where: list[tuple[int, str, str, tuple[float, float], float]] = []
    switched: list[tuple[int, str, str, str, tuple[float, float]]] = []
    errors, switches = end_errors_and_switches(shots, true_shots, pair_events(events, tev, "shot", key=EVENT_KEYS["shot"]),
                                               where, switched)
    if WORST:
        worst(folder.name, where, [e for e in tev if e["type"] == "shot"])
    board = board_for(truth["game"])
    kinds: dict[str, list[float]] = {}
    sides: dict[str, list[float]] = {}
    for j, _, tname, at, d in where:
        kinds.setdefault(kind_of(board, tname, at, true_shots[j].end), []).append(d)
        sides.setdefault(side_of(truth, tname), []).append(d)
    bad = ok < n or any(m.fp or m.fn for m in ev.values()) or switches
    if EXPLAIN and bad:
        explain(folder.name, summary, truth, events, tev, shots, true_shots, switched)
    return {"rounds_ok": ok, "rounds": n, "events": ev, "errors": errors, "switches": switches,
            "shots": len(true_shots), "kinds": kinds, "sides": sides}


def _fmt_end(end: dict[str, Any]) -> str:
    return " ".join(f"{k}:{v if isinstance(v, str) else f'({v[0]:.0f},{v[1]:.0f})'}" for k, v in sorted(end.items()))


def explain(name: str, summary: dict[str, Any], truth: dict[str, Any], mine: list[dict[str, Any]],
            tev: list[dict[str, Any]], shots: list[Shot], true_shots: list[Shot],
            switched: Sequence[tuple[int, str, str, str, tuple[float, float]]] = ()) -> None:
    """Where a match went wrong: the rounds side by side, the shots in time order (the review's
    and the truth's, each with its ends), the events of the other types matched by neither, and
    the identity switches (``end_errors_and_switches``: the truth's shot after which a reviewed
    name stood for another true disc)."""
    print(f"\n=== {name}")
    for label, s in (("truth", truth), ("mine ", summary)):
        print(f"  {label} rounds: {round_rows(s)}")
    ms = [e for e in mine if e["type"] == "shot"]
    ts = [e for e in tev if e["type"] == "shot"]
    rows = [(float(e["t"]), "T", i, e) for i, e in enumerate(ts)] + [(float(e["t"]), "M", i, e) for i, e in enumerate(ms)]
    for t, who, i, e in sorted(rows, key=lambda r: (r[0], r[1])):
        sh = (true_shots if who == "T" else shots)
        entry = sh[i] if i < len(sh) else None
        ends = _fmt_end(entry.end) if entry is not None else "?"
        con = " ".join(f"{a}-{b}" for a, b in entry.contacts) if entry is not None else ""
        print(f"  {who} {t:7.2f} [{float(e['t_start']):7.2f}] {e['seat']:5} {e['disc']:4} | {ends} | {con}")
    for k, key in EVENT_KEYS.items():
        if k == "shot":
            continue
        a = [e for e in mine if e["type"] == k]
        b = [e for e in tev if e["type"] == k]
        show = [e for e in b if not any(abs(float(f["t"]) - float(e["t"])) <= 1.5 and (key is None or f.get(key) == e.get(key)) for f in a)]
        extra = [f for f in a if not any(abs(float(f["t"]) - float(e["t"])) <= 1.5 and (key is None or f.get(key) == e.get(key)) for e in b)]
        for e in show:
            print(f"  missed {k}: {json.dumps(e)}")
        for e in extra:
            print(f"  extra  {k}: {json.dumps(e)}")
    for j, mine_name, was, now, (x, y) in switched:
        t = float(ts[j]["t"]) if j < len(ts) else float("nan")
        print(f"  switch after true shot {j} ({t:.2f} s): {mine_name} was {was}, now {now} at ({x:.0f},{y:.0f})")


def rules_of(truth: dict[str, Any]) -> dict[str, Any] | None:
    """The rulebook the match was played under, as ``tracker review --variant`` would give it."""
    variant = truth.get("variant")
    return {"variant": variant} if truth.get("game") == "korona" and variant else None


def review_folder(folder: Path, annotate: bool = False) -> tuple[dict[str, Any], float, int]:
    truth = json.loads((folder / "truth.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        r = review_video(folder / "video.mp4", truth["game"], int(truth["players"]), Path(tmp), annotate=annotate,
                         rules=rules_of(truth))
        dt = time.perf_counter() - t0
        res = evaluate(folder, r.summary, read_jsonl(Path(tmp) / "events.jsonl"), shots_of(Path(tmp) / "shots.jsonl"))
    return res, dt, r.frames


def cached_dets_folder(folder: Path, cache: Path) -> dict[str, Any]:
    """Review ``folder`` from the detections cached in ``cache`` (made on the first call)."""
    import pickle

    from tracker.pipeline import pipeline as pl

    truth = json.loads((folder / "truth.json").read_text())
    path = cache / f"{folder.name}.pkl"
    if not path.exists():
        fed: list[tuple[Any, float, int, Any, list[Any]]] = []
        orig = pl.Pipeline.process_detections
        fits_seen = [0]

        def record(self: Pipeline, dets: Any, t: float, index: int) -> Any:
            fits = [e for e in self.events if e.type == "calibrated"]
            # the board fits since the last frame, and the calibration (``replay_frames``)
            fed.append((dets, t, index, self.board, fits[fits_seen[0]:], self.calib))
            fits_seen[0] = len(fits)
            return orig(self, dets, t, index)

        pl.Pipeline.process_detections = record  # type: ignore[method-assign]
        try:
            review_folder(folder)
        finally:
            pl.Pipeline.process_detections = orig  # type: ignore[method-assign]
        cache.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(fed))
    fed = pickle.loads(path.read_bytes())
    p = Pipeline(truth["game"], int(truth["players"]), rules=rules_of(truth))
    # korona: the frames and a detector, for the shots' places at rest (``replay_frames``)
    frames = ReplayFrames(folder / "video.mp4", truth["game"], int(truth["players"])) \
        if REFIT and (truth["game"] == "korona" or rest_unseen.ON) else None
    board = None
    for dets, t, index, b, *rest in fed:
        fits = rest[0] if rest else []  # (caches made before the fits were kept have none)
        if board is None:
            p.start_tracking(b)
        elif b is not board:  # the board was fitted again (camera moved)
            p.board = p.tracker.board = b
        board = b
        p.events.extend(fits)  # the fits' ``calibrated`` events (the missed-disc check reads them)
        if frames is not None:
            frames.before(p, index, b, fits, rest[1] if len(rest) > 1 else None)
        p.process_detections(dets, t, index)
        p._frame = None
    p.finish()
    return evaluate(folder, p.summary(), [e.to_json() for e in p.sorted_events()],
                    [e for e in p.entries if isinstance(e, Shot)])


def truth_dets_folder(folder: Path) -> dict[str, Any]:
    truth = json.loads((folder / "truth.json").read_text())
    rows = read_jsonl(folder / "frames.jsonl")
    p = Pipeline(truth["game"], int(truth["players"]), rules=rules_of(truth))
    p.start_tracking(board_for(truth["game"]))
    for i, (t, det) in enumerate(detections_from_truth(rows, noise_mm=0.3, dropout=0.02, seed=1)):
        p.process_detections(det, t, i)
    return evaluate(folder, p.summary(), [e.to_json() for e in p.sorted_events()],
                    [e for e in p.entries if isinstance(e, Shot)])


def table(rows: list[tuple[str, dict[str, Any]]], title: str) -> None:
    print(f"\n{title}")
    head = f"{'match':28} {'rounds':>7} {'shots R/P':>10} {'20s R/P':>10} {'pockets R/P':>12} {'removed R/P':>12} {'pos med/p95 mm':>15} {'switch/100':>10}"
    print(head)
    print("-" * len(head))
    tot: dict[str, Match] = {k: Match() for k in EVENT_KEYS}
    errs: list[float] = []
    r_ok = r_n = sw = shots = 0

    def rp(m: Match) -> str:
        return f"{m.recall:4.0%}/{m.precision:4.0%}" if m.tp + m.fn + m.fp else "   -"

    for name, res in rows:
        for k in EVENT_KEYS:
            tot[k] += res["events"][k]
        errs += res["errors"]
        r_ok, r_n, sw, shots = r_ok + res["rounds_ok"], r_n + res["rounds"], sw + res["switches"], shots + res["shots"]
        e = np.array(res["errors"]) if res["errors"] else np.array([np.nan])
        print(f"{name:28} {res['rounds_ok']:>3}/{res['rounds']:<3} {rp(res['events']['shot']):>10} "
              f"{rp(res['events']['twenty']):>10} {rp(res['events']['pocketed']):>12} {rp(res['events']['removed']):>12} "
              f"{np.median(e):6.2f}/{np.percentile(e, 95):<7.2f} {100 * res['switches'] / max(res['shots'], 1):>9.1f}")
    e = np.array(errs) if errs else np.array([np.nan])
    print("-" * len(head))
    print(f"{'ALL':28} {r_ok:>3}/{r_n:<3} {rp(tot['shot']):>10} {rp(tot['twenty']):>10} {rp(tot['pocketed']):>12} "
          f"{rp(tot['removed']):>12} {np.median(e):6.2f}/{np.percentile(e, 95):<7.2f} {100 * sw / max(shots, 1):>9.1f}")
    if KINDS:
        kinds_table(rows)
    if SIDES:
        kinds_table(rows, "sides", sorted({k for _, r in rows for k in r["sides"]}, key=lambda k: (k == "striker", k)))


REFIT = True  # --dets: korona's places at rest refitted on the video's frames, as a review does (``--anchors``: not)
KINDS = False  # --kinds: the errors at rest by kind of disc (``kind_of``)
SIDES = False  # --sides: the errors at rest by team (crokinole) or seat (korona) (``side_of``)


def kinds_table(rows: list[tuple[str, dict[str, Any]]], key: str = "kinds", names: Sequence[str] = ()) -> None:
    """Median/p95 (count) of the errors at rest per match and kind of disc (``kind_of``), or with
    ``key`` "sides" per team or seat (``side_of``; ``names``: those present)."""
    names = [*(names or ["cushion", "row", "touch", "open", "striker"]), "all"]
    print(f"\n{'position at rest by ' + ('kind' if key == 'kinds' else 'side'):28}" + "".join(f"{k:>18}" for k in names))
    total: dict[str, list[float]] = {}
    for name, res in [*rows, ("ALL", {key: total})]:
        if name != "ALL":
            for k, v in res[key].items():
                total.setdefault(k, []).extend(v)
        cells = [res[key].get(k, []) if k != "all" else [x for v in res[key].values() for x in v] for k in names]
        print(f"{name:28}" + "".join(f"{np.median(c):6.2f}/{np.percentile(c, 95):5.2f} ({len(c):3d})" if c else f"{'-':>18}"
                                    for c in cells))


def speed(video: Path, game: str, players: int) -> None:
    import cv2

    cap = cv2.VideoCapture(str(video))
    n = 0
    t0 = time.perf_counter()
    while True:
        ok, _ = cap.read()
        if not ok:
            break
        n += 1
    decode = n / (time.perf_counter() - t0)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        r = review_video(video, game, players, Path(tmp))
        review = r.frames / (time.perf_counter() - t0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    w, h = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))
    print(f"\nspeed on {video} ({w}x{h}, {n} frames)")
    print(f"{'decode only':>14} {decode:8.1f} fps")
    print(f"{'review':>14} {review:8.1f} fps   ({review / decode:.0%} of decode; detector ran on "
          f"{r.frames_detected}/{r.frames} frames)")
    print(f"{'peak memory':>14} {peak:8.0f} MB")


def real_digest(dest: Path) -> str:
    """One line to compare runs on a real clip (no truth): board fits, shots seen and unseen
    (on the board when the view began), 20s and discs off per side, and the discs in play with
    their points per side, from the review's ``events.jsonl``, ``shots.jsonl`` and summary."""
    events = read_jsonl(dest / "events.jsonl")
    shots = read_jsonl(dest / "shots.jsonl")
    cur = json.loads((dest / "summary.json").read_text()).get("current_round") or {}
    fits = sum(e["type"] == "calibrated" for e in events)
    unseen = sum(bool(s.get("unseen")) for s in shots)
    twenties = {s[0]: 0 for s in ("south", "north")}
    for e in events:
        if e["type"] == "twenty":
            twenties[e["seat"][0]] = twenties.get(e["seat"][0], 0) + 1
    off = sum(e["type"] == "off_board" for e in events)
    play: dict[str, list[int]] = {}
    for d in cur.get("discs", []):
        play.setdefault(d["team"], []).append(int(d["points"]))
    in_play = "  ".join(f"{t} {sorted(p, reverse=True)}" for t, p in sorted(play.items())) or "none"
    return (f"{fits} board fits, {len(shots) - unseen} shots seen + {unseen} unseen, "
            f"20s {' '.join(f'{k}{v}' for k, v in twenties.items())}, {off} off; in play: {in_play}")


def real(out: Path) -> None:
    import cv2

    shared = next((p / "shared" for p in ROOT.parents if (p / "shared" / "real").is_dir()), ROOT.parent / "shared")
    clips = sorted((shared / "real" / "crokinole" / "video").glob("*.mp4"))
    if not clips:
        print("\nreal clips: ../shared/real/crokinole/video/ not found, skipped")
        return
    out.mkdir(parents=True, exist_ok=True)
    print("\nreal clips (look at the PNGs):")
    for clip in clips:
        dest = out / clip.stem
        try:
            r = review_video(clip, "crokinole", 2, dest, annotate=True)
        except Exception as e:  # a bench reports, it does not stop
            print(f"  {clip.name}: {type(e).__name__}: {e}")
            continue
        print(f"  {clip.name}: {r.frames} frames; {real_digest(dest)}")
        for w in r.warnings:
            print(f"      {w}")
        cap = cv2.VideoCapture(str(dest / "annotated.mp4"))
        total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        for k in np.linspace(0, max(total - 1, 0), 6).astype(int):
            cap.set(cv2.CAP_PROP_POS_FRAMES, int(k))
            ok, frame = cap.read()
            if ok:
                cv2.imwrite(str(out / f"{clip.stem}_{k:04d}.png"), frame)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--speed", type=Path, help="a 1280x720 video.mp4 with truth.json beside it")
    ap.add_argument("--truth-dets", action="store_true", help="also run on detections from the per-frame truth")
    ap.add_argument("--no-video", action="store_true", help="skip the video reviews")
    ap.add_argument("--real", action="store_true")
    ap.add_argument("--dets", type=Path, metavar="DIR", help="replay the detections cached in DIR (made on first use)")
    ap.add_argument("--explain", action="store_true", help="print the shots and events of matches not scored exactly")
    ap.add_argument("--anchors", action="store_true",
                    help="--dets: report korona's discs at rest at the tracker's anchors, not refitted on the video's frames")
    ap.add_argument("--kinds", action="store_true", help="also the errors at rest by kind of disc (korona: cushion, row, ...)")
    ap.add_argument("--sides", action="store_true", help="also the errors at rest by team (crokinole) or seat (korona)")
    ap.add_argument("--worst", type=int, default=0, metavar="N", help="print each match's N largest errors at rest")
    ap.add_argument("--noise", type=float, default=None, metavar="SIGMAS",
                    help="the change mask's noise hysteresis (Pipeline.change_noise; default: the detector's own)")
    args = ap.parse_args()
    Pipeline.change_noise = args.noise
    global EXPLAIN, WORST, KINDS, SIDES, REFIT
    EXPLAIN, WORST, KINDS, SIDES, REFIT = args.explain, args.worst, args.kinds, args.sides, not args.anchors
    folders = args.folders or sorted(p.parent for p in (ROOT / "fixtures" / "videos").glob("*/video.mp4"))
    if args.truth_dets:
        table([(f.name, truth_dets_folder(f)) for f in folders], "tracking + events + rules on detections from truth (no detector)")
    if args.dets:
        table([(f.name, cached_dets_folder(f, args.dets)) for f in folders],
              f"tracking + events + rules on the detector's cached detections ({args.dets})")
        return
    if not args.no_video:
        rows = []
        for f in folders:
            try:
                res, dt, frames = review_folder(f)
            except Exception as e:  # a bench reports, it does not stop
                print(f"  {f.name}: {type(e).__name__}: {e}", file=sys.stderr)
                continue
            rows.append((f.name, res))
            print(f"  reviewed {f.name}: {frames} frames in {dt:.1f} s", file=sys.stderr)
        table(rows, "tracker review on the videos (detector included)")
    if args.speed:
        truth = json.loads((args.speed.parent / "truth.json").read_text())
        speed(args.speed, truth["game"], int(truth["players"]))
    if args.real:
        real(Path("/tmp/bench_review_real"))


if __name__ == "__main__":
    main()
