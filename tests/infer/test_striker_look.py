"""Korona: a false striker find that rests on a striking line and is lost again is no striker that
vanished there, shot unseen (``StrikerLook``; k4h_9942 at 7.8 s: a ring of the board's own wood
on north's line, lost as the hand passed, made a north shot nobody played). Its colour tells it:
the board's around it, or unlike every striker seen flicked. Hand-made tracks, judged directly."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER
from tracker.infer.judge import judge
from tracker.infer.segmenter import ShotSegmenter
from tracker.infer.striker_look import StrikerLook
from tracker.track.datatypes import Sample, Track

KB = KoronaBoard()
LINE = KB.half - KB.striking_line_offset
T0, NOW = 1.0, 2.0
# Lab colours as the detector measures them in k4h_9942: the strikers' wood, the board around
WOOD, BOARD, PALE_DISC = (40.0, 21.0, 32.0), (80.0, 6.0, 40.0), (66.0, 4.0, 14.0)


def _resting(tid: int, kind: int, at: tuple[float, float], until: float, colour: tuple[float, float, float]) -> Track:
    tr = Track(id=tid, kind=kind, radius=KB.striker_radius if kind == STRIKER else KB.disc_radius,
               xy=np.array(at), born=0.0)
    tr.path = [Sample(k / 30, *at, True) for k in range(int(until * 30) + 1)]
    tr.last_seen, tr.rest_xy, tr.hits = until, at, len(tr.path)
    tr.anchor, tr.anchor_n = tr.xy.copy(), 5
    tr.color, tr.color_n = np.array(colour), 20
    tr.surround, tr.surround_n = np.array(BOARD), 20
    return tr


def _episode(ghost_colour: tuple[float, float, float], look: StrikerLook | None) -> tuple[ShotSegmenter, list[Track]]:
    """A "striker" rests on north's line and is lost at ``T0`` (a hand passed over it); meanwhile
    a disc of the south row is found again 40 mm along the rim (the detector's full pass, its
    tracks crossed) and one it had missed is first found at rest in the field: what a shot nobody
    saw leaves behind, but no striker was flicked."""
    ghost = _resting(1, STRIKER, (-24.0, LINE - 3.0), T0, ghost_colour)
    ghost.occluded = True
    found = _resting(2, DISC, (150.0, 120.0), NOW, PALE_DISC)
    found.born = T0 + 0.3
    found.path = [sm for sm in found.path if sm.t >= found.born]
    seg = ShotSegmenter(KB)
    if look is not None:
        seg.unlike_a_striker = look.unlike
    seg.in_shot, seg._t0, seg.t = True, T0, NOW
    row = _resting(3, DISC, (-60.0, 412.5), T0, PALE_DISC)
    row.path += [Sample(T0 + k / 30, -20.0, 412.5, True) for k in range(1, 31)]
    row.xy, row.anchor = np.array([-20.0, 412.5]), np.array([-20.0, 412.5])
    row.last_seen = row.path[-1].t
    seg._moved = {2, 3}
    seg._before = {1: (-24.0, LINE - 3.0), 3: (-60.0, 412.5)}
    seg._before_state = {1: "rest", 3: "rest"}
    return seg, [ghost, found, row]


def _learned() -> StrikerLook:
    look = StrikerLook()
    south = Track(id=9, kind=STRIKER, radius=KB.striker_radius, xy=np.zeros(2))
    south.color, south.color_n = np.array(WOOD), 50
    look.learn("south", south)
    return look


def test_a_board_coloured_striker_find_lost_on_a_line_makes_no_shot() -> None:
    seg, tracks = _episode(BOARD, StrikerLook())  # (no striker seen flicked yet: the board test alone)
    assert judge(seg, tracks, NOW, 60) is None


def test_a_striker_find_unlike_the_strikers_seen_flicked_makes_no_shot() -> None:
    seg, tracks = _episode(PALE_DISC, _learned())
    assert judge(seg, tracks, NOW, 60) is None


def test_a_real_striker_lost_on_its_line_is_still_a_shot_nobody_saw() -> None:
    """The same rest states with a striker of the strikers' colour: the shot read from them stands
    (and, without the test, the false finds made one: what the tests above guard against)."""
    seg, tracks = _episode((41.0, 23.0, 34.0), _learned())
    rec = judge(seg, tracks, NOW, 60)
    assert rec is not None and rec.disc == 1 and rec.inferred
    seg, tracks = _episode(PALE_DISC, None)
    rec = judge(seg, tracks, NOW, 60)
    assert rec is not None and rec.disc == 1 and rec.inferred


def test_striker_look_learns_per_seat_and_ignores_discs() -> None:
    look = _learned()
    disc = Track(id=3, kind=DISC, radius=KB.disc_radius, xy=np.zeros(2))
    disc.color, disc.color_n = np.array(PALE_DISC), 20
    look.learn("north", disc)  # a disc is never learned as a striker
    pale = Track(id=4, kind=STRIKER, radius=KB.striker_radius, xy=np.zeros(2))
    pale.color, pale.color_n = np.array(PALE_DISC), 20
    assert look.unlike(pale) and not look.unlike(disc)
    look.learn("north", pale)  # north's striker is of that colour: a set of two colours
    assert not look.unlike(pale)
