"""Korona: a striker set on its striking line and measured a mm short of it (in the field) was
seen flicked from where shots start (``ON_LINE_MM``): the shot is its, not one read from the rest
states by a false striker find that vanished meanwhile (k4h_9966 at 17.4 s: east's striker read
1.1 mm past its line; a "striker" found by a hand in the north-east corner, gone since, was
taken for the shot disc and the shot logged as north's). Hand-made tracks, judged directly."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER
from tracker.infer.judge import judge
from tracker.infer.segmenter import ShotSegmenter
from tracker.track.datatypes import Sample, Track

KB = KoronaBoard()
LINE = KB.half - KB.striking_line_offset
T0, NOW = 1.0, 2.0


def _resting(tid: int, kind: int, at: tuple[float, float], until: float) -> Track:
    tr = Track(id=tid, kind=kind, radius=KB.striker_radius if kind == STRIKER else KB.disc_radius,
               xy=np.array(at), born=0.0)
    tr.path = [Sample(k / 30, *at, True) for k in range(int(until * 30) + 1)]
    tr.last_seen, tr.rest_xy, tr.hits = until, at, len(tr.path)
    tr.anchor, tr.anchor_n = tr.xy.copy(), 5
    return tr


def test_a_striker_measured_just_short_of_its_line_and_seen_flicked_is_the_shot_disc() -> None:
    start = (0.0, LINE - 1.1)  # north's striker, a mm short of its line
    striker = _resting(1, STRIKER, start, T0 - 1 / 30)
    run = [(0.3 * k, start[1] - 45.0 * k) for k in range(1, 16)]  # ~1350 mm/s south
    striker.path += [Sample(T0 + k / 30, x, y, True) for k, (x, y) in enumerate(run)]
    stop = run[-1]
    striker.path += [Sample(T0 + (len(run) + k) / 30, *stop, True) for k in range(10)]
    striker.xy, striker.state, striker.last_seen = np.array(stop), "rest", striker.path[-1].t
    disc = _resting(2, DISC, (12.5, -412.5), T0)  # a north row disc it knocked 60 mm on, lost as it left
    disc.occluded = True
    found = _resting(4, DISC, (12.5, -352.5), NOW)  # ... and found there, a new track
    found.born = T0 + 0.5
    found.path = [sm for sm in found.path if sm.t >= found.born]
    ghost = _resting(3, STRIKER, (-382.0, -331.0), 0.6)  # a false "striker" found by a hand, gone since
    ghost.occluded = True
    seg = ShotSegmenter(KB)
    seg.in_shot, seg._t0, seg.t = True, T0, NOW
    seg._moved = {1, 4}
    seg._before = {1: start, 2: (12.5, -412.5), 3: (-382.0, -331.0)}
    seg._before_state = {1: "rest", 2: "rest", 3: "rest"}
    rec = judge(seg, [striker, disc, ghost, found], NOW, 60)
    assert rec is not None and rec.disc == 1 and not rec.inferred
    assert rec.start == start


def test_a_striker_put_down_a_few_mm_past_its_line_and_flicked_during_the_episode_was_put_down_and_flicked() -> None:
    """South's striker set down while the board still moved (the episode already open), read
    5 mm past its line, flicked a second later (k4h_9942 at 22.5 s): it was flicked from where
    shots start, not carried."""
    from tracker.infer.start_places import put_down_and_flicked

    at = (-254.0, -LINE + 5.0)
    tr = Track(id=56, kind=STRIKER, radius=KB.striker_radius, xy=np.array(at), born=21.57)
    rows = [(21.57 + k / 30, at[0], at[1]) for k in range(30)]
    rows += [(22.53 + k / 30, at[0] + 6.0 * k, at[1] + 55.0 * k) for k in range(1, 12)]
    p = np.array(rows)
    got = put_down_and_flicked(KB, p, tr, 350.0)
    assert got is not None and got[0] == at


def test_a_false_striker_against_a_rim_that_vanished_made_no_shot_read_from_the_rest_states() -> None:
    """A "striker" found in south's row against the north rim (no shot starts there: no finger
    gets behind it) is gone, and a row disc beside it turns up a disc's width on as a new track
    (the row shuffled by a hand, or re-found): no shot was played (k4h_9924 at 32.0 s, a north
    shot logged)."""
    ghost = _resting(3, STRIKER, (42.0, KB.half - KB.striker_radius), T0 - 0.3)
    ghost.occluded = True
    disc = _resting(2, DISC, (67.5, KB.half - KB.disc_radius), T0)
    disc.occluded = True
    found = _resting(4, DISC, (95.0, KB.half - KB.disc_radius), NOW)
    found.born = T0 + 0.2
    found.path = [sm for sm in found.path if sm.t >= found.born]
    seg = ShotSegmenter(KB)
    seg.in_shot, seg._t0, seg.t = True, T0, NOW
    seg._moved = {4}
    seg._before = {2: (67.5, KB.half - KB.disc_radius), 3: (42.0, KB.half - KB.striker_radius)}
    seg._before_state = {2: "rest", 3: "rest"}
    assert judge(seg, [disc, ghost, found], NOW, 60) is None
    # the same with the "striker" read as a disc (a disc-sized ring) where no striker waits
    ghost.kind, ghost.radius = DISC, KB.disc_radius
    seg._t0, seg._shot_before = T0, set()
    assert judge(seg, [disc, ghost, found], NOW, 60) is None
