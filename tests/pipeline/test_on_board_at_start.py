"""A video that begins in the middle of a round (ricochet.mp4, triple.mp4): the discs already at
rest on the board when the view begins were shot before it, and score like any other. They are
logged as unseen shots before the first shot seen, each its colour's side (``missed.py``,
``colours.crokinole_owners``). Hand-made detections in board mm, with colours (CIE Lab)."""

from __future__ import annotations

import numpy as np

from tracker import events as ev
from tracker.boards import CrokinoleBoard
from tracker.calibration import Calibration
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.pipeline import Pipeline
from tracker.shotlog import Shot

RED = (44.0, 34.0, 18.0)
BLACK = (12.0, 2.0, -2.0)
BOARD = (85.0, 5.0, 22.0)
FPS = 25.0


def dets(rows: list[tuple[tuple[float, float], tuple[float, float, float]]]) -> Detections:
    n = len(rows)
    return Detections(xy=np.array([xy for xy, _ in rows], float).reshape(-1, 2),
                      color=np.array([c for _, c in rows], float).reshape(-1, 3),
                      surround=np.tile(BOARD, (n, 1)), where=np.full(n, ON_SURFACE),
                      radius=np.full(n, 15.9))


def play(at_start: list[tuple[tuple[float, float], tuple[float, float, float]]],
         late: list[tuple[tuple[float, float], tuple[float, float, float]]] | None = None,
         fits: tuple[tuple[float, bool], ...] = ()) -> Pipeline:
    """``at_start`` at rest from the first frame (``late`` from 2 s on); a red disc set on south's
    shooting line at 2.4 s is shot at 3 s and stops at (-60, -120), touching none of them.
    ``fits``: (t, settled) of later fits of the board, as their ``calibrated`` events."""
    # the view begins with a fit of the board (a camera straight above it, 1 px a mm)
    p = Pipeline("crokinole", 2, calib=Calibration(homography=np.eye(3), image_size=(64, 64), rms_mm=0.0,
                                                   board=CrokinoleBoard()))
    start, stop = np.array([0.0, -300.0]), np.array([-60.0, -120.0])
    for k in range(int(6.0 * FPS)):
        t = k / FPS
        rows = list(at_start) + (list(late or []) if t >= 2.0 else [])
        if 2.4 <= t < 3.0:
            rows.append(((float(start[0]), float(start[1])), RED))
        elif t >= 3.0:
            f = min((t - 3.0) / 0.6, 1.0)
            xy = start + (stop - start) * (1 - (1 - f) ** 2)
            rows.append(((float(xy[0]), float(xy[1])), RED))
        for ft, settled in fits:
            if ft <= t < ft + 0.5 / FPS:
                p.events.append(ev.calibrated(t, k, np.eye(3).tolist(), 0.0, **({"settled": True} if settled else {})))
        p.process_detections(dets(rows), t, k)
    p.finish()
    return p


def test_discs_on_the_board_when_the_video_begins_are_credited_to_their_colours() -> None:
    p = play([((70.0, 36.0), BLACK), ((21.0, 90.0), RED), ((-120.0, 150.0), BLACK)])
    shots = [e for e in p.entries if isinstance(e, Shot)]
    assert [s.unseen for s in shots] == [True, True, True, False]
    on = p.engine.on_board  # type: ignore[attr-defined]
    owners = sorted((round(d.x), round(d.y), d.seat) for d in on.values())
    assert owners == [(-120, 150, "north"), (21, 90, "south"), (70, 36, "north")]
    # with north's discs known to be there, south's shot that struck none of them is a foul
    assert any(e.type == "removed" and e.data.get("reason") == "foul" for e in p.events)
    # the last unseen line is the other side's, so the shot seen is in turn
    assert shots[2].seat == "north" and shots[3].seat == "south"


def test_a_disc_first_seen_after_the_view_began_is_not_taken_for_one_already_there() -> None:
    # (triple.mp4 at 2.7 s: the shooter's fingers by the line, at rest a moment before the flick)
    p = play([((70.0, 36.0), BLACK)], late=[((-150.0, 150.0), BLACK)])
    unseen = [e for e in p.entries if isinstance(e, Shot) and e.unseen]
    assert [s.end for s in unseen] == [{unseen[0].disc: (70.0, 36.0)}]


def test_a_disc_first_seen_once_a_bumped_camera_settled_is_not_taken_for_one_already_there() -> None:
    """crokinole_4p_part at 14.3 s: the board fitted again as a bump was noticed (13.8 s), then
    once more with the camera at rest (``camera.settle_refit``), whose fresh detector found glare
    by the pegs as three discs; within half a second of the bump's fit they were logged as discs
    on the board when that view began. A disc there then would have been seen before."""
    p = play([((70.0, 36.0), BLACK)], late=[((-150.0, 150.0), BLACK)], fits=((1.6, False), (2.0, True)))
    unseen = [e for e in p.entries if isinstance(e, Shot) and e.unseen]
    assert [s.end for s in unseen] == [{unseen[0].disc: (70.0, 36.0)}]
