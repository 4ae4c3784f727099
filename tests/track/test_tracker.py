"""Tracker identity through crossings, collisions, occlusion and lift-and-replace.

Detections come from the small known-truth physics of ``tracker.track.synthetic`` (noise,
drop-outs, motion streaks, hands hiding discs); each test checks that every physical disc ended
with exactly one track id, at its true position.
"""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.track import Tracker
from tracker.track.synthetic import World

BOARD = CrokinoleBoard()


def run(world: World, tracker: Tracker | None = None) -> tuple[Tracker, dict[str, set[int]]]:
    """Feed every frame; map each true body to the set of track ids its detections got."""
    tr = tracker or Tracker(world.board)
    seen: dict[str, set[int]] = {}
    for t, det in world.frames:
        tr.update(det, t)
        for j in range(len(det)):
            tid = int(tr.det_track[j])
            if tid < 0:
                continue
            # The true body is the nearest one at this frame: recover from the recorded positions.
            seen.setdefault(_body_at(world, t, det.xy[j]), set()).add(tid)
    return tr, seen


def _body_at(world: World, t: float, xy: np.ndarray) -> str:
    """The true body nearest a detection at time t."""
    return min(world.truth_at[t], key=lambda k: np.hypot(*(np.array(world.truth_at[t][k]) - xy)))


def make(board: CrokinoleBoard | KoronaBoard = BOARD, **kw: float) -> World:
    return World(board, **kw)  # type: ignore[arg-type]


def test_head_on_hit_keeps_identities() -> None:
    w = make(seed=1)
    w.place("s1", 0, -290, cls=0)
    w.place("n1", 0, 60, cls=0)  # same colour: only motion can tell them apart
    w.run(0.5)
    w.shoot("s1", 0, 2200)
    w.settle()
    tr, seen = run(w)
    assert all(len(ids) == 1 for ids in seen.values()), seen
    assert seen["s1"] != seen["n1"]
    end = w.truth_end()
    for body, ids in seen.items():
        track = tr.get(next(iter(ids)))
        assert track is not None
        if isinstance(end[body], tuple):
            assert track.state == "rest"
            assert np.hypot(*(np.array(track.position()) - end[body])) < 1.0
        else:
            assert track.state == end[body]


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_glancing_hits_and_crossings_with_dropouts(seed: int) -> None:
    rng = np.random.default_rng(seed)
    w = make(seed=seed, dropout=0.05)
    for k in range(6):
        a = rng.uniform(0, 2 * np.pi)
        r = rng.uniform(40, 240)
        w.place(f"d{k}", r * np.cos(a), r * np.sin(a), cls=k % 2)
    w.place("s", 40, -295, cls=0)
    w.run(0.4)
    w.shoot("s", rng.uniform(-300, 300), 2500)
    w.settle()
    tr, seen = run(w)
    assert all(len(ids) == 1 for ids in seen.values()), seen
    ids = [next(iter(v)) for v in seen.values()]
    assert len(set(ids)) == len(ids)


def test_resting_disc_survives_a_hand_over_it() -> None:
    w = make(seed=5)
    w.place("a", 100, 100, cls=1)
    w.place("b", -50, 20, cls=0)
    w.run(0.5)
    w.hand(100, 100, 60, 1.2)  # hides disc a for 1.2 s
    w.run(2.0)
    tr, seen = run(w)
    assert len(seen["a"]) == 1
    track = tr.get(next(iter(seen["a"])))
    assert track is not None and track.state == "rest" and not track.occluded


def test_lift_and_put_back_keeps_identity() -> None:
    w = make(seed=6)
    w.place("a", 100, 100, cls=1)
    w.run(0.5)
    w.lift("a")
    w.run(4.5)  # gone long enough to count as lifted (TrackerConfig.lift_after)
    w.place("a", 100.5, 99.6, cls=1)
    w.run(0.5)
    tracker = Tracker(w.board)
    tr, seen = run(w, tracker)
    assert len(seen["a"]) == 1
    assert tr.get(next(iter(seen["a"]))).state == "rest"  # type: ignore[union-attr]


def test_lifted_disc_counts_as_lifted() -> None:
    w = make(seed=7)
    w.place("a", 100, 100)
    w.run(0.5)
    w.lift("a")
    w.run(4.5)
    tr, seen = run(w)
    assert tr.get(next(iter(seen["a"]))).state == "lifted"  # type: ignore[union-attr]


def test_jitter_makes_no_motion() -> None:
    w = make(seed=8, noise_mm=0.8)
    w.place("a", 10, 150)
    w.run(3.0)
    tracker = Tracker(w.board)
    states = set()
    for t, det in w.frames:
        for track in tracker.update(det, t):
            states.add(track.state)
    assert states == {"rest"}


def test_twenty_and_ditch_states() -> None:
    w = make(seed=9)
    w.place("a", 0, -290)
    w.place("b", 150, -250)
    w.run(0.3)
    w.shoot("a", 0, 1280)  # gentle: stops in the hole
    w.shoot("b", 700, 1800)  # flies off the surface
    w.settle()
    assert w.truth_end()["a"] == "hole" and w.truth_end()["b"] == "off"
    tr, seen = run(w)
    assert tr.get(next(iter(seen["a"]))).state == "hole"  # type: ignore[union-attr]
    assert tr.get(next(iter(seen["b"]))).state == "off"  # type: ignore[union-attr]


def test_korona_striker_pockets_a_disc() -> None:
    board = KoronaBoard()
    w = make(board, seed=10)
    w.place("S", 0, -300, kind=STRIKER, cls=2)
    w.place("d", 0, 0, cls=0)
    px, py = board.pocket_centres()["ne"]
    w.run(0.3)
    v = np.array([px, py]) - np.array([0, 0])
    v = v / np.hypot(*v)
    # aim the striker so the disc is driven toward the ne pocket
    start = np.array([0, 0]) - v * (board.striker_radius + board.disc_radius) - np.array([0, -300])
    w.shoot("S", *(start / np.hypot(*start) * 2500))
    w.settle()
    tr, seen = run(w)
    assert all(len(ids) == 1 for ids in seen.values()), seen
    end = w.truth_end()
    for body, ids in seen.items():
        track = tr.get(next(iter(ids)))
        assert track is not None
        want = "rest" if isinstance(end[body], tuple) else end[body]
        assert track.state == want, (body, end[body], track.state)


def test_a_disc_put_down_beside_a_hidden_one_is_a_new_disc() -> None:
    """crokinole_2p_round, shot 17: a hand sets s9 down 42 mm from the resting s1 and hides s1
    for a frame. With nothing moving on the board, s1 was not knocked: it stays where it is and
    the new disc gets a track of its own."""
    from tracker.detect.datatypes import Detections

    def frame(*xy: tuple[float, float]) -> Detections:
        return Detections(xy=np.array(xy, float).reshape(-1, 2), radius=np.full(len(xy), BOARD.disc_radius))

    tk = Tracker(BOARD)
    t = 0.0
    for _ in range(10):
        tk.update(frame((154.0, -226.0), (223.0, -33.0)), t)
        t += 0.1
    s1 = next(tr.id for tr in tk.tracks if np.hypot(*(tr.xy - (154.0, -226.0))) < 1.0)
    for _ in range(2):  # the hand hides s1 as it puts s9 down beside it
        tk.update(frame((196.0, -234.0), (223.0, -33.0)), t)
        t += 0.1
    for _ in range(10):  # the hand has gone
        tk.update(frame((196.0, -234.0), (223.0, -33.0), (154.0, -226.0)), t)
        t += 0.1
    by_id = {tr.id: tr for tr in tk.tracks}
    assert np.allclose(by_id[s1].xy, (154.0, -226.0), atol=1.0)
    assert by_id[s1].state == "rest"
    assert any(np.hypot(*(tr.xy - (196.0, -234.0))) < 1.0 and tr.id != s1 for tr in tk.tracks)
