"""Korona: a rim disc called pocketed while the detector had lost it is seen again in its place,
and the call is withdrawn in the shot log (hand-made detections, board mm).

South's striker runs up to the north rim and stops beside the end disc of south's row, reaching
it from the row's side at an angle (along the rim towards the nw pocket). The detector drops that disc the frame the striker starts and finds it
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
# the striker's rest place and where it stops: below the row's end disc on its row's side, so
# that its blow pushes that disc along the rim towards the nw pocket, with no disc in the way
# (``rim_gone._way_blocked``)
REST, STOP = (0.0, -320.0), (-75.0, 376.0)
LOST = (-87.5, 412.5)  # the row's end disc, reached by the striker's stop


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


def test_a_disc_called_pocketed_that_the_next_shot_moves_is_withdrawn_before_that_shot_is_scored() -> None:
    """The next shot strikes the disc called pocketed (the detector had lost it in its row, and
    finds it as it moves): the rules would refuse that shot ("not on the table") and the turns go
    wrong from there (k4h_9972 at 13.4 s). Seen during that shot, the call is withdrawn first, with
    where it rested before that shot; a disc the shot "moved" unseen throughout withdraws nothing."""
    from tracker.infer import ShotRecord
    from tracker.pipeline.withdraw import seen_moving
    from tracker.shotlog import Setup
    from tracker.track.datatypes import Sample, Track

    setup = Setup(discs={"w5": ("west", (412.5, -12.5)), "w6": ("west", (412.5, -37.5))}, strikers={"west": "W"})
    called = Shot(seat="west", disc="W", start=(-320.0, 0.0), contacts=(), end={"w5": "pocket:se"})
    entries = [setup, called]
    lost = Track(id=15, kind=DISC, radius=KB.disc_radius, xy=np.array([410.0, 14.0]), born=0.0)
    lost.path = [Sample(k / 10, 408.0, -11.0, True) for k in range(80)]  # at rest, then lost at 8.0 s
    lost.path += [Sample(12.5, 409.0, 0.0, True), Sample(12.6, 410.0, 14.0, True)]  # seen moving at 12.5 s
    rec = ShotRecord(disc=9, start=(-320.0, -250.0), t_start=12.1, t_end=13.4, frame_start=363, frame_end=402,
                     ends={15: (410.0, 14.0)}, before={15: (408.0, -11.0)})
    got = seen_moving(entries, rec, {"w5": 1}, {15: "w5"}, {15: lost}, KB, set())
    assert [(w.line, w.disc, w.was, w.at) for w in got] == [(1, "w5", "pocket:se", (408.0, -11.0))]
    lost.path = lost.path[:80]  # never seen during the shot: no evidence it was there
    assert seen_moving(entries, rec, {"w5": 1}, {15: "w5"}, {15: lost}, KB, set()) == []
