"""`tracker photo` on real photos: scores against the labels, and time per photo.

Reads ``../shared/real/crokinole/photos/`` (photos and ``labels.csv``: light_points, dark_points,
light_twenties, dark_twenties per photo) next to the repository; skips when it is absent. Each photo
goes through the whole path (automatic calibration, detection, colour classes, scoring). ``ditch``:
the discs found in the ditch (not labelled; they do not score; a count to compare runs). Run:
``python benchmarks/bench_photo.py [--overlays DIR]`` (DIR outside the repository).

``--broadcast``: also the unlabelled tournament frames of ``../shared/real/crokinole/broadcast/``
(cameras 17-45 degrees up, mid-round): per frame the points of each disc found on the surface
(by colour), the ditch count, or why it stopped, to compare runs and to look at with
``--overlays``.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# ../shared/real next to the repository, or next to any folder above it (a worktree of it)
REAL = next((p / "shared" / "real" for p in ROOT.parents if (p / "shared" / "real").is_dir()),
            ROOT.parent / "shared" / "real") / "crokinole" / "photos"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--overlays", help="write overlay PNGs to this folder (keep it out of the repository)")
    ap.add_argument("--quick", action="store_true", help="only the first three photos")
    ap.add_argument("--discs", action="store_true", help="list every disc found (place, team, points) to compare runs")
    ap.add_argument("--broadcast", action="store_true", help="also the unlabelled broadcast frames (see above)")
    args = ap.parse_args()
    labels_path = REAL / "labels.csv"
    if not labels_path.exists():
        print(f"bench_photo: {labels_path} not found; skipped")
        return 0
    import cv2

    from tracker.calibration import calibrate_image
    from tracker.detect.detector import DetectorSettings, DiscDetector
    from tracker.detect.photo import PHOTO_BEVEL_MM, draw_overlay, score_detections
    from tracker.errors import TrackerError

    rows = list(csv.DictReader(labels_path.open()))
    if args.quick:
        rows = rows[:3]
    out = Path(args.overlays) if args.overlays else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    print(f"{'photo':18} {'light':>11} {'dark':>11} {'20s l/d':>9} {'exact':>6} {'close':>6} {'ditch':>6} "
          f"{'calib s':>8} {'detect s':>9}")
    exact = 0
    for row in rows:
        img = cv2.imread(str(REAL / row["image"]))
        if img is None:
            print(f"{row['image']:18} cannot be read")
            continue
        t0 = time.perf_counter()
        try:
            calib = calibrate_image(img, "crokinole")
        except TrackerError as e:
            print(f"{row['image']:18} calibration failed: {e}")
            continue
        t1 = time.perf_counter()
        dets = DiscDetector(calib, "crokinole", settings=DetectorSettings(bevel=PHOTO_BEVEL_MM, bevel_in_fit=True)).detect(img)
        result = score_detections(calib, dets, image=img)
        t2 = time.perf_counter()
        got = (result.team_points(0), result.team_points(1), result.team_twenties(0), result.team_twenties(1))
        want = (int(row["light_points"]), int(row["dark_points"]), int(row["light_twenties"]), int(row["dark_twenties"]))
        ok = got == want
        exact += ok
        print(f"{row['image']:18} {got[0]:>4} ({want[0]:>3}) {got[1]:>4} ({want[1]:>3}) "
              f"{got[2]}/{got[3]} ({want[2]}/{want[3]}) {'yes' if ok else 'NO':>5} {len(result.close_calls):>6} "
              f"{sum(d.where == 'ditch' for d in result.discs):>6} "
              f"{t1 - t0:>8.1f} {t2 - t1:>9.2f}")
        if args.discs:
            for d in sorted(result.discs, key=lambda d: (d.where, d.x)):
                print(f"    {d.where:7} ({d.x:7.1f}, {d.y:7.1f}) team {d.team} {d.points:2d} points")
        if out:
            cv2.imwrite(str(out / (Path(row["image"]).stem + "_overlay.png")), draw_overlay(img, result))
    print(f"exact for both colours: {exact} of {len(rows)}")
    if args.broadcast:
        broadcast(REAL.parent / "broadcast", out)
    return 0


def broadcast(folder: Path, out: Path | None) -> None:
    """``tracker photo``'s finds on each broadcast frame (no labels)."""
    import cv2

    from tracker.detect.photo import draw_overlay, score_photo
    from tracker.errors import TrackerError

    print(f"\n{'broadcast frame':18} {'surface points per team (colour)':45} ditch")
    for path in sorted(folder.glob("*.jpg")):
        img = cv2.imread(str(path))
        try:
            result = score_photo(img, "crokinole")
        except TrackerError as e:
            print(f"{path.stem:18} {str(e).split(': ', 1)[-1][:70]}")
            continue
        if not result.discs:
            print(f"{path.stem:18} no disc found")
            continue
        surface = [d for d in result.discs if d.where != "ditch"]
        teams = "  ".join(f"{c or '-'}: {sorted((d.points for d in surface if d.team == i), reverse=True)}"
                          for i, c in enumerate(result.team_colors))
        print(f"{path.stem:18} {teams:45} {len(result.discs) - len(surface):>5}")
        if out:
            cv2.imwrite(str(out / (path.stem + "_overlay.png")), draw_overlay(img, result))


if __name__ == "__main__":
    raise SystemExit(main())
