"""Korona: a rim disc called pocketed while the detector had lost it is seen again in its place,
and the call is withdrawn in the shot log (hand-made detections, board mm).

South's striker runs up to the north rim and stops beside the end disc of south's row, reaching
it from along the rim. The detector drops that disc the frame the striker starts and finds it
again in place 2.5 s later (k4h_9206 at 32 s: two east rim discs lost at the flick, called
pocketed, found in place 2.7 s later). The shot is judged while it is unseen and calls it
pocketed; once it is seen again the log line must say where it rests, the rules replay that
log (no pocket counted) and a ``corrected`` event says so."""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.pipeline import Pipeline
from tracker.pipeline.withdraw import standing
from tracker.rules.korona.setup import standard_setup
from tracker.shotlog import Shot

KB = KoronaBoard()
FPS = 30.0
LAB = {"south": (59.0, 10.0, 28.0), "north": (77.0, 4.0, 8.0), "striker": (40.0, 0.0, 0.0)}
REST, STOP = (0.0, -320.0), (-130.0, 390.0)  # the striker's rest place and where it stops
LOST = (-87.5, 412.5)  # the row's end disc, reached from along the rim by the striker's stop


def _frame(rows: list[tuple[tuple[float, float], str]]) -> Detections:
    return Detections(xy=np.array([xy for xy, _ in rows], float).reshape(-1, 2),
                      radius=np.array([KB.striker_radius if w == "striker" else KB.disc_radius for _, w in rows]),
                      kind=np.array([STRIKER if w == "striker" else DISC for _, w in rows], int),
                      color=np.array([LAB[w] for _, w in rows], float).reshape(-1, 3))


def _review(lost_for: float) -> Pipeline:
    discs = [(xy, owner) for owner, xy in standard_setup(2, 8, KB).discs.values()]
    p = Pipeline("korona", 2)
    p.start_tracking(KB)
    flick, run = 90, 15
    for k in range(flick + 240):
        if k < flick:
            s = REST
        else:
            a = min(1.0, (k - flick) / run)
            s = (REST[0] + a * (STOP[0] - REST[0]), REST[1] + a * (STOP[1] - REST[1]))
        unseen = flick <= k < flick + lost_for * FPS
        rows = [(xy, o) for xy, o in discs if not (unseen and xy == LOST)] + [(s, "striker")]
        p.process_detections(_frame(rows), k / FPS, k)
    p.finish()
    return p


def test_a_rim_disc_called_pocketed_and_seen_again_in_place_is_corrected_in_the_log() -> None:
    p = _review(lost_for=2.5)
    shots = [e for e in p.entries if isinstance(e, Shot)]
    assert len(shots) == 1 and shots[0].seat == "south"
    events = [e.to_json() for e in p.sorted_events()]
    called = [e for e in events if e["type"] in ("pocketed", "off_board")]
    assert len(called) == 1, events  # the unseen disc was judged gone when the shot was judged...
    fixed = [e for e in events if e["type"] == "corrected"]
    assert len(fixed) == 1 and fixed[0]["disc"] == called[0]["disc"], events  # ... and then seen again
    assert fixed[0]["line"] == 1 and fixed[0]["t"] > called[0]["t"]
    end = shots[0].end[called[0]["disc"]]
    assert isinstance(end, tuple) and math.dist(end, LOST) < 3.0, shots[0].end  # the log says where it is
    assert p.summary()["rounds"][0]["pocketed"] == {"south": 0, "north": 0}  # the rules replayed that log
    assert not [e for e in standing(events) if e["type"] in ("pocketed", "off_board")]


def test_a_disc_never_seen_again_stays_pocketed() -> None:
    p = _review(lost_for=1000.0)
    events = [e.to_json() for e in p.sorted_events()]
    assert [e["type"] for e in events if e["type"] in ("pocketed", "off_board", "corrected")] == ["pocketed"]
    assert p.summary()["rounds"][0]["pocketed"] == {"south": 1, "north": 0}


def test_standing_drops_only_the_withdrawn_call() -> None:
    evs = [{"type": "pocketed", "t": 4.1, "disc": "s1"}, {"type": "pocketed", "t": 9.0, "disc": "s1"},
           {"type": "off_board", "t": 4.1, "disc": "s2"},
           {"type": "corrected", "t": 6.0, "disc": "s1", "t_call": 4.1, "line": 1}]
    assert standing(evs) == evs[1:]
