"""What the detector gets wrong, and the shot log must not show (rendered match, seed 7502, hard
preset): the zone numbers painted on the board found as "discs" that a shot disc slides over,
and the shot disc itself first seen in flight (the hand hid it on the shooting line). Discs move
in the known-truth physics of ``tracker.track.synthetic``; the false finds are added to its
detections the way the detector makes them: static, hidden while a disc covers them."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track.datatypes import Track
from tracker.track.synthetic import World

from .scenes import feed, shots

BOARD = CrokinoleBoard()
# top-face colours (Lab) as the detector measures them: light and dark discs, the red board
LIGHT, DARK, BOARD_RED = (80.0, 11.0, 33.0), (15.0, -1.0, 2.0), (41.0, 61.0, 38.0)


def with_phantoms(w: World, phantoms: list[tuple[tuple[float, float], tuple[float, float]]]) -> list[tuple[float, Detections]]:
    """``w``'s frames with real colours (class 0 light, 1 dark) and a board-coloured false find
    per phantom: at its first place until a disc covers it, then at its second place."""
    out = []
    covered = [False] * len(phantoms)
    for t, det in w.frames:
        xy = det.xy.copy()
        color = np.array([LIGHT if c == 0 else DARK for c in det.cls], float).reshape(-1, 3)
        extra = []
        for k, (a, b) in enumerate(phantoms):
            at = b if covered[k] else a
            if len(xy) and float(np.hypot(*(xy - np.array(at)).T).min()) < 2 * BOARD.disc_radius:
                covered[k] = True
                continue
            extra.append(at)
        if extra:
            n = len(extra)
            det = Detections(xy=np.vstack([xy, np.array(extra, float)]),
                             radius=np.concatenate([det.radius, np.full(n, BOARD.disc_radius)]),
                             cls=np.concatenate([det.cls, np.full(n, -1)]),
                             kind=np.concatenate([det.kind, np.zeros(n, int)]),
                             where=np.concatenate([det.where, np.zeros(n, int)]),
                             streak=np.vstack([det.streak, np.zeros((n, 2))]),
                             color=np.vstack([color, np.tile(BOARD_RED, (n, 1))]))
        else:
            det = Detections(xy=xy, radius=det.radius, cls=det.cls, kind=det.kind, where=det.where,
                             streak=det.streak, color=color)
        out.append((t, det))
    return out


def test_a_painted_mark_a_disc_slides_over_is_no_disc() -> None:
    """South's and north's first shots each slide straight over a zone number found as a disc;
    the second mark is found again 30 mm on once uncovered. No shot lists a mark, no mark is
    named, and both discs end where they truly rest."""
    w = World(BOARD, fps=30, seed=3)
    w.place("s1", 0, -300, cls=0)
    w.run(0.5)
    w.shoot("s1", 0, 849)  # comes to rest about (0, -60)
    w.settle(0.6)
    w.place("n1", 0, 300, cls=1)
    w.run(0.5)
    w.shoot("n1", 0, -849)  # about (0, 60)
    w.settle(0.6)
    frames = with_phantoms(w, [((0.0, -155.0), (0.0, -155.0)), ((3.0, 143.0), (15.0, 115.0))])
    p = feed(frames)
    log = shots(p)
    assert [(s.seat, s.disc) for s in log] == [("south", "s1"), ("north", "n1")]
    truth = w.truth_end()
    for s in log:
        assert set(s.end) == {s.disc}
        got, true = s.end[s.disc], truth[s.disc]
        assert isinstance(got, tuple) and isinstance(true, tuple) and np.hypot(got[0] - true[0], got[1] - true[1]) < 3
    assert sorted(p.namer.names.values()) == ["n1", "s1"]


def test_a_disc_first_seen_in_flight_from_the_line_is_the_shot_disc() -> None:
    """North's disc waits on the shooting line under the player's hand and is first seen flying
    in; it strikes south's disc mid-board. The shot is north's, by that disc, and the struck
    disc was hit (not taken for the shot disc, moving from where no shot starts)."""
    w = World(BOARD, fps=30, seed=4)
    w.place("s1", -150, -260, cls=0)
    w.run(0.5)
    w.shoot("s1", 0, 849)  # comes to rest about (-150, -60)
    w.settle(0.6)
    s1 = w.truth_end()["s1"]
    assert isinstance(s1, tuple)
    w.place("n1", -150.0, 260.0, cls=1)  # on the shooting line
    w.hand(-150.0, 280.0, 45.0, 1.0)  # the hand over it until it is flicked
    w.run(0.9)
    v = np.array([s1[0] + 150.0, s1[1] - 260.0])
    w.shoot("n1", *(v / np.hypot(*v) * 1100))
    w.settle(0.8)
    assert {c[1:] for c in w.contacts} & {("n1", "s1"), ("s1", "n1")}
    p = feed(with_phantoms(w, []))
    log = shots(p)
    assert [(s.seat, s.disc) for s in log] == [("south", "s1"), ("north", "n1")]
    assert ("n1", "s1") in log[1].contacts
    truth = w.truth_end()
    for name in ("n1", "s1"):
        got, true = log[1].end[name], truth[name]
        assert isinstance(got, tuple) and isinstance(true, tuple) and np.hypot(got[0] - true[0], got[1] - true[1]) < 3


def test_a_false_find_creeping_just_before_the_flick_is_not_the_shot_disc() -> None:
    """A painted number found as a disc creeps 8 mm (detector jitter as a hand's shadow passes)
    just before south flicks its disc: the shot is south's, by that disc (seed 7508: the mark
    moved first, was taken for the shot disc and the shot was rejected: "not where a shot
    starts")."""
    w = World(BOARD, fps=30, seed=5)
    w.place("s1", 0, -300, cls=0)
    w.run(0.6)
    w.shoot("s1", 120, 849)
    w.settle(0.6)
    frames = []
    for t, det in with_phantoms(w, []):
        at = (4.0, -153.0) if t < 0.5 else (4.0, -149.0) if t < 0.55 else (4.0, -145.0)
        frames.append((t, Detections(xy=np.vstack([det.xy, [at]]), radius=np.append(det.radius, 14.0),
                                     cls=np.append(det.cls, -1), kind=np.append(det.kind, 0),
                                     where=np.append(det.where, 0), streak=np.vstack([det.streak, [[0.0, 0.0]]]),
                                     color=np.vstack([det.color, [BOARD_RED]]))))
    p = feed(frames)
    log = shots(p)
    assert [(s.seat, s.disc) for s in log] == [("south", "s1")]
    start = log[0].start
    assert start is not None and np.hypot(start[0], start[1] + 300) < 3


def test_a_false_find_on_the_line_hidden_by_a_hand_is_no_unseen_shot() -> None:
    """A painted mark on the north shooting line, found as a disc, is hidden by a hand while a
    disc is put down mid-board: no shot nobody saw (seed 7508: the mark was taken for a disc
    shot unseen, and the disc put down for where it went). Both sides were seen shooting, so
    their colours are known and the mark looks like the board."""
    w = World(BOARD, fps=30, seed=6)
    w.place("s1", 0, -300, cls=0)
    w.run(0.5)
    w.shoot("s1", 0, 849)
    w.settle(0.6)
    w.place("n1", 0, 300, cls=1)
    w.run(0.5)
    w.shoot("n1", 0, -849)
    w.settle(0.6)
    t_hand = w.t + 0.3
    w.run(0.6)
    w.place("x", -150, -8, cls=0)  # a disc put down by hand
    w.run(1.0)
    mark = (68.0, 273.0)
    frames = []
    for t, det in with_phantoms(w, []):
        if t_hand <= t < t_hand + 1.2:
            frames.append((t, det))
            continue
        frames.append((t, Detections(xy=np.vstack([det.xy, [mark]]), radius=np.append(det.radius, 14.0),
                                     cls=np.append(det.cls, -1), kind=np.append(det.kind, 0),
                                     where=np.append(det.where, 0), streak=np.vstack([det.streak, [[0.0, 0.0]]]),
                                     color=np.vstack([det.color, [BOARD_RED]]),
                                     surround=np.vstack([np.tile(BOARD_RED, (len(det), 1)), [(43.0, 58.0, 36.0)]]))))
    p = feed(frames)
    assert [(s.seat, s.disc) for s in shots(p)] == [("south", "s1"), ("north", "n1")]


def test_a_disc_the_rules_removed_carried_off_fast_is_no_shot() -> None:
    """South's opening shot stops in the 5 zone with no opponent disc on the board: the rules
    remove it, and the player sweeps it off the board fast (as fast as a flick): that is no
    second shot (seed 7502: it was logged as a shot once a false find no longer hid it)."""
    w = World(BOARD, fps=30, seed=7)
    w.place("s1", 0, -300, cls=0)
    w.run(0.5)
    w.shoot("s1", 0, 490)  # stops about (0, -220), in the 5 zone
    w.settle(0.8)
    w.shoot("s1", 0, -2900)  # swept off into the ditch
    w.settle(0.8)
    p = feed(with_phantoms(w, []))
    assert [(s.seat, s.disc) for s in shots(p)] == [("south", "s1")]
    assert [e.data["reason"] for e in p.events if e.type == "removed"] == ["no_opponent_rule"]


def test_a_disc_hidden_by_an_arm_for_its_first_200_mm_is_the_shot_disc() -> None:
    """The opening shot of a 4-player hard match (seed 8803): the shooter's sleeve lay over the
    disc's path, and the disc, flicked from the line, was first seen 0.26 s later, 190 mm on and
    slowed by friction to two thirds of its launch speed. Taken back along its line at the speed
    first seen, it had left the line 0.4 s before: "motion with no disc that rested before it",
    the shot was lost and every later name went wrong. It is the shot disc, from the line."""
    w = World(BOARD, fps=30, seed=8)
    w.place("s1", 12, -300, cls=0)
    w.hand(12.0, -205.0, 105.0, 0.9)  # the arm over the first 200 mm of its run, until it is past
    w.run(0.6)
    w.shoot("s1", 0, 980)  # at rest about (12, 20), beside the 20-hole
    w.settle(0.6)
    p = feed(with_phantoms(w, []))
    log = shots(p)
    assert [(s.seat, s.disc) for s in log] == [("south", "s1")]
    start, got, true = log[0].start, log[0].end["s1"], w.truth_end()["s1"]
    assert start is not None and np.hypot(start[0] - 12, start[1] + 300) < 15
    assert isinstance(got, tuple) and isinstance(true, tuple) and np.hypot(got[0] - true[0], got[1] - true[1]) < 3


def _coloured_track(color: tuple[float, float, float], surround: tuple[float, float, float]) -> Track:
    """A resting track of this colour (Lab), on a board of the ``surround`` colour."""
    return Track(id=0, kind=0, radius=15.875, xy=np.zeros(2), color=np.array(color), color_n=5,
                 surround=np.array(surround), surround_n=5)


def test_a_side_not_yet_seen_shooting_is_not_unlike_every_disc() -> None:
    """4 players, partners sharing a colour: with only south and north (one side, one colour)
    seen shooting, east's dark disc is unlike both of them but a disc all the same; it is no
    false find until the other side's colour is known (c4h_9403 at 11.2 s, w1's 20 seen only in
    the hole: east's shot was rejected, its disc taken for a mark on the board). A false find
    the colour of the board is told once both sides were seen."""
    from tracker.infer.naming import Namer
    def track(color: tuple[float, float, float]) -> Track:
        return _coloured_track(color, BOARD_RED)

    namer = Namer("crokinole", 4, BOARD)
    namer.learn_colour("south", track(LIGHT))
    namer.learn_colour("north", track(LIGHT))
    assert not namer.looks_like_board(track(DARK))
    namer.learn_colour("east", track(DARK))
    assert not namer.looks_like_board(track(DARK))
    assert namer.looks_like_board(track((42.0, 60.0, 37.0)))  # the board's own colour


def test_a_painted_mark_darker_than_a_light_board_is_no_disc() -> None:
    """A zone number painted on a light board, found as a disc once a disc slid past it: darker
    than the board around it (10.8 from it, lightness damped), the light side's discs lighter
    (15.4 from the mark) and the dark side's darker (17.3). It is the board, not a disc nobody
    saw shot (c2h_9702 at 8.1 s: the "15" by the 15 line, the colours below as measured, was
    adopted as s3 and every later south disc misnamed). A light disc nearly the board's colour
    stays a disc (seed 7511: 3.9 from the board, its side's colour 4.1 away), and so do both
    sides' discs."""
    from tracker.infer.naming import Namer
    board = (70.1, 4.6, 41.8)
    light, dark = (83.5, 0.3, 35.2), (32.8, 8.2, 21.7)

    def track(color: tuple[float, float, float]) -> Track:
        return _coloured_track(color, board)

    namer = Namer("crokinole", 2, BOARD)
    namer.learn_colour("south", track(light))
    namer.learn_colour("north", track(dark))
    assert namer.looks_like_board(track((53.8, 4.5, 34.8)))
    assert not namer.looks_like_board(track(light))
    assert not namer.looks_like_board(track(dark))
    pale = Namer("crokinole", 2, BOARD)  # light discs on a light board (seed 7511)
    pale.learn_colour("south", track((70.1, 8.7, 37.9)))
    pale.learn_colour("north", track(dark))
    assert not pale.looks_like_board(track((70.1, 4.6, 37.9)))
