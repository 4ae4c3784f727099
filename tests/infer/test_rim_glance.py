"""Korona contacts a frame or two apart: a glancing bounce off a rim (``rim_reach.rim_glance``)
and a blow on a resting disc timed where the mover first touched it (``first_touch.first_touch``).
Both decide which contact came first, and so whether a shot was direct or an unannounced
indirect one (a foul)."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.infer import contacts
from tracker.infer.contacts import infer_contacts

KB = KoronaBoard()

# k2e_9941 at 35.47-35.83 s, the tracker's samples on the detector's cache (30 fps): south's
# striker runs north up the east rim, touches it at 35.649 s (truth) coming in across it at
# ~150 mm/s and leaving at ~75, then strikes s5, lying against the east rim, at 35.713 s.
# Truth: rim:east, then s5: an indirect shot, not announced: a foul.
STRIKER = np.array([
    (35.467, 365.7, 94.8), (35.500, 372.4, 114.7), (35.533, 379.4, 134.7), (35.567, 385.4, 152.9),
    (35.600, 390.8, 168.9), (35.633, 395.9, 184.5), (35.667, 396.8, 198.9), (35.700, 394.2, 212.6),
    (35.733, 392.4, 221.3), (35.767, 390.3, 227.3), (35.800, 388.8, 232.2), (35.833, 387.7, 235.5)])
S5 = np.array([
    (35.467, 394.8, 254.8), (35.500, 394.8, 254.8), (35.533, 394.8, 254.8), (35.567, 394.8, 254.8),
    (35.600, 394.8, 254.8), (35.633, 394.8, 254.8), (35.667, 394.8, 254.8), (35.700, 394.7, 255.0),
    (35.733, 393.4, 265.3), (35.767, 394.1, 282.0), (35.800, 394.7, 297.3), (35.833, 393.8, 310.5)])
REST = {1: (365.7, 94.8), 2: (394.8, 254.8)}
RADIUS = {1: 26.0, 2: 12.1}


def test_a_striker_glancing_off_the_rim_before_its_disc_touched_the_rim_first() -> None:
    out = infer_contacts({1: STRIKER, 2: S5}, REST, RADIUS, 1, KB)
    mine = [c for c in out if c.a == 1]
    assert [c.b for c in mine][:2] == ["rim:east", 2], out
    assert abs(mine[0].t - 35.649) < 0.04, out


def test_without_the_glance_test_the_rim_is_missed() -> None:
    """What the sharp-turn test alone read: the striker's turn (~110 mm/s a leg) is under its
    300 mm/s, and the shot was direct."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(contacts, "RIM_GLANCE", False)
        out = infer_contacts({1: STRIKER, 2: S5}, REST, RADIUS, 1, KB)
    assert [c.b for c in out if c.a == 1][:1] == [2], out


def test_a_run_along_the_rim_that_never_turns_back_touches_nothing() -> None:
    """The same run with its motion across the rim carried on (no turn back): it comes as near
    the rim but never bounces."""
    straight = STRIKER.copy()
    straight[:, 1] = np.minimum(STRIKER[:, 1], 396.8)
    straight[7:, 1] = 396.8
    out = infer_contacts({1: straight}, {1: REST[1]}, {1: RADIUS[1]}, 1, KB)
    assert not [c for c in out if c.a == 1], out


def test_a_turn_back_far_from_the_rim_is_no_bounce() -> None:
    """The same glance 40 mm short of the rim: nothing there to turn it."""
    far = STRIKER.copy()
    far[:, 1] -= 40.0
    out = infer_contacts({1: far}, {1: (far[0, 1], far[0, 2])}, {1: RADIUS[1]}, 1, KB)
    assert not [c for c in out if c.a == 1 and isinstance(c.b, str)], out


# korona_2p_game at 88.3-89.9 s (10 fps), the tracker's samples on the fixture's detector cache:
# south's striker strikes s4 (resting at (-196, 357)) at 89.163 s and the north rim at 89.28 s
# (truth); s4 goes down the nw pocket. The striker's path runs on through s4's place, deepest at
# 89.4 s: timed there, the blow came after the rim, and the shot was read as an unannounced
# indirect one, a foul (truth: direct, south shoots again).
STRIKER_2P = np.array([
    (88.3, 226.3, -321.4), (88.4, 226.3, -321.4), (88.5, 188.5, -254.7), (88.6, 119.1, -135.3),
    (88.7, 55.1, -24.0), (88.8, -2.2, 73.2), (88.9, -53.7, 162.8), (89.0, -98.3, 240.7),
    (89.1, -138.9, 311.3), (89.2, -165.0, 364.4), (89.3, -178.0, 391.5), (89.4, -188.5, 372.7),
    (89.5, -190.6, 374.1), (89.6, -190.6, 374.1), (89.7, -190.6, 374.1)])
S4_2P = np.array([
    (88.3, -196.4, 356.8), (88.6, -196.4, 356.8), (88.9, -196.4, 356.8), (89.0, -196.4, 356.8),
    (89.1, -196.4, 356.8), (89.4, -325.9, 392.0), (89.5, -368.4, 411.5)])
REST_2P = {1: (226.3, -321.4), 2: (-196.4, 356.8)}
RADIUS_2P = {1: 27.8, 2: 13.1}


def test_a_blow_is_timed_where_the_striker_first_touched_the_disc() -> None:
    out = infer_contacts({1: STRIKER_2P, 2: S4_2P}, REST_2P, RADIUS_2P, 1, KB)
    mine = [c for c in out if c.a == 1]
    assert [c.b for c in mine][:2] == [2, "rim:north"], out
    assert abs(mine[0].t - 89.163) < 0.05, out


def test_timed_at_the_deepest_point_the_rim_came_first() -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(contacts, "FIRST_TOUCH", False)
        out = infer_contacts({1: STRIKER_2P, 2: S4_2P}, REST_2P, RADIUS_2P, 1, KB)
    assert [c.b for c in out if c.a == 1][:1] == ["rim:north"], out


def test_a_rim_glanced_on_a_run_aimed_at_the_disc_is_a_graze_not_a_bank_shot() -> None:
    """The striker was shot from its place straight at s5 and glanced off the east rim 60 mm short
    of it: the indirect call is not assumed (truth: unannounced, a foul). The same run with s5
    lying 150 mm further along the rim, off its course, is a bank shot (assumed called)."""
    paths = {1: STRIKER, 2: S5}
    out = infer_contacts(paths, REST, RADIUS, 1, KB)
    assert contacts.grazed_rim(out, paths, REST, RADIUS, 1, KB)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(contacts, "AIMED_GRAZE", False)
        assert not contacts.grazed_rim(out, paths, REST, RADIUS, 1, KB)
    far = {**REST, 2: (394.8, 404.8)}
    assert not contacts.grazed_rim(out, paths, far, RADIUS, 1, KB)


def test_a_row_mate_touching_from_the_start_is_timed_at_its_push_not_before_the_blow() -> None:
    """Gaps already closed at the window's start (a row-mate pressed against the disc): the push
    is timed where it ran deepest, as before, not at the window's start."""
    from tracker.infer.first_touch import first_touch

    ts = np.array([1.0, 1.1, 1.2, 1.3])
    assert first_touch(ts, np.array([-0.5, -0.5, -6.0, -2.0])) == 1.2
    assert first_touch(ts, np.array([2.0, -0.5, -6.0, -2.0])) == 1.2
    assert abs(first_touch(ts, np.array([10.0, 4.0, -2.0, -8.0])) - (1.1 + 0.1 * 4.0 / 6.0)) < 1e-9
    assert first_touch(ts, np.array([10.0, 4.0, 3.0, 5.0])) == 1.2
