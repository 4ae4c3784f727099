"""Korona: a hand moving a striker between shots is no shot. The segmenter is fed hand-made
tracks (it never looks at pixels); the motions are what the rendered matches show."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.infer.ends import MAX_SLIDE_DECEL, stopped_by_hand
from tracker.infer.segmenter import ShotSegmenter
from tracker.track.datatypes import Sample, Track

B = KoronaBoard()
LINE = B.half - B.striking_line_offset  # a striking line's distance from the centre


def _at(tr: Track, t: float, x: float, y: float, state: str = "rest") -> None:
    tr.xy = np.array([x, y])
    tr.state = state  # type: ignore[assignment]
    tr.last_seen = t
    tr.occluded = False
    tr.hits += 1
    tr.path.append(Sample(t, x, y, True))
    if state == "rest":
        tr.anchor, tr.anchor_n = tr.xy.copy(), 1


def _run(s: Track, place: Callable[[float], tuple[float, float, str] | None]) -> list[int]:
    """Feed the segmenter the striker ``s`` at 10 fps for 4 s; ``place(t)`` gives where it is
    seen (x, y, state), or None while unseen. The shot discs of the records."""
    seg = ShotSegmenter(B)
    records = []
    for k in range(40):
        t = k / 10
        seen = place(t)
        if seen is None:
            s.occluded = s.state == "rest"
        else:
            x, y, state = seen
            if state == "moving" and s.state == "rest":
                s.rest_xy = (float(s.xy[0]), float(s.xy[1]))
            _at(s, t, x, y, state)
        got, _ = seg.update([s], t, k)
        records += got
    return [r.disc for r in records]


def test_a_striker_carried_and_set_down_in_the_open_is_no_shot() -> None:
    """k4h_9306 at 34.1 s: west's striker, left by west's shot in the south rim zone (where a
    south shot may start), is carried by a hand at 1.75 m/s to west's striking line and set
    down there: it stops dead from full speed, in the open, having struck nothing. A free slide
    from that speed runs on for metres; it was no shot (it was logged as one by south)."""
    s = Track(id=2, kind=STRIKER, radius=B.striker_radius, xy=np.array([300.0, -340.0]), born=0.0)

    def place(t: float) -> tuple[float, float, str] | None:
        if t < 1.0:
            return (300.0, -340.0, "rest")
        if t < 1.25:  # carried west at 1750 mm/s, to (-210, -220) at 1.2 s
            k = round(10 * t) - 9
            return (300.0 - 170.0 * k, -340.0 + 40.0 * k, "moving")
        if t < 1.45:
            return None  # under the hand as it sets the striker down 120 mm on
        return (-LINE, -175.0, "moving" if t < 1.55 else "rest")

    assert _run(s, place) == []


def test_a_striker_sliding_to_a_stop_is_still_a_shot() -> None:
    """South's striker shot from its line at 1 m/s up the board, touching nothing, slows by the
    board's friction (0.12 g, as rendered) and stops 425 mm on: a shot."""
    s = Track(id=2, kind=STRIKER, radius=B.striker_radius, xy=np.array([0.0, -LINE]), born=0.0)
    a = 0.12 * 9810.0
    stop = 1000.0 / a

    def place(t: float) -> tuple[float, float, str] | None:
        if t < 1.0:
            return (0.0, -LINE, "rest")
        u = min(t - 1.0 + 0.05, stop)
        y = -LINE + 1000.0 * u - 0.5 * a * u * u
        return (0.0, y, "moving" if t - 1.0 + 0.05 < stop + 0.2 else "rest")

    assert _run(s, place) == [2]


def test_stopped_by_hand_reads_the_room_a_run_took_to_stop() -> None:
    """A run at 1500 mm/s stopped within 100 mm stopped by a hand; one that runs on for the
    slide friction allows (at ``MAX_SLIDE_DECEL``, the most a board gives) did not."""
    v = 1500.0
    fast = [(0.0, 0.0, 0.0), (0.1, 0.0, 150.0), (0.2, 0.0, 300.0)]
    caught = np.array([*fast, (0.3, 0.0, 360.0), (0.4, 0.0, 400.0)])
    assert stopped_by_hand(caught, 12.5, 350.0)
    room = v * v / (2 * MAX_SLIDE_DECEL)
    slid = np.array([*fast, (0.5, 0.0, 300.0 + room / 2), (1.0, 0.0, 300.0 + room)])
    assert not stopped_by_hand(slid, 12.5, 350.0)


def test_a_striker_set_down_just_past_its_line_while_another_is_lost_is_no_shot() -> None:
    """korona_2p_game at 68.9 s and korona_ru_part at 26.3 s: a hand sets north's striker on its
    striking line, measured 3 to 5 mm past it into the field (its groove and shadow), first
    seen there at rest; meanwhile a striker-like track resting in north's rim zone (where a
    striker waits) goes unseen under the hand. A striker set on its line is no disc landing
    away from the shooting places: no shot nobody saw."""
    seg = ShotSegmenter(B)
    lost = Track(id=1, kind=STRIKER, radius=B.striker_radius, xy=np.array([-4.0, 402.0 - B.striker_radius]),
                 born=0.0)
    put = Track(id=2, kind=STRIKER, radius=B.striker_radius, xy=np.array([-54.0, LINE - 5.1]), born=1.5)
    records = []
    for k in range(40):
        t = k / 10
        tracks = [lost] + ([put] if t >= 1.5 else [])
        if t < 1.0:
            _at(lost, t, -4.0, 402.0 - B.striker_radius)
        else:
            lost.occluded = True
        if t >= 1.5:
            _at(put, t, -54.0, LINE - 5.1)
        got, _ = seg.update(tracks, t, k)
        records += got
    assert records == []


Seen = tuple[float, float, str] | None


def _run_all(places: dict[int, tuple[Track, Callable[[float], Seen]]], fps: float, seconds: float) -> list[int]:
    """Feed the segmenter several tracks at ``fps``; ``places[id] = (track, place)`` with
    ``place(t)`` as in :func:`_run` (state ``"lost"``: a moving track the tracker gave up on, at
    rest unseen where it was last seen), and a track listed from its first sighting on."""
    seg = ShotSegmenter(B)
    records = []
    for k in range(round(seconds * fps)):
        t = k / fps
        listed = []
        for tr, place in places.values():
            seen = place(t)
            if seen is None:
                tr.occluded = tr.state == "rest"
            elif seen[2] == "lost":  # the tracker gave up on it moving: at rest where last seen, unseen
                tr.state, tr.occluded = "rest", True
            else:
                x, y, state = seen
                if state == "moving" and tr.state == "rest" and tr.rest_xy is None:
                    tr.rest_xy = (float(tr.xy[0]), float(tr.xy[1]))
                _at(tr, t, x, y, state)
            if tr.path:
                listed.append(tr)
        got, _ = seg.update(listed, t, k)
        records += got
    return [r.disc for r in records]


def test_a_striker_taken_up_slowly_while_another_disc_jumps_is_no_shot() -> None:
    """k4h_9912 at 20.1 s: east's striker, left by east's shot in the west rim zone (where a
    west shot starts), is taken up by a hand: seen to creep 45 mm at 300 mm/s under the
    fingers, then never again (carried off the board). Meanwhile the camera moves and a disc
    against the east rim jumps 90 mm between two frames. The striker never ran like a shot; the
    fast disc was no flick of it (it was logged as a west shot)."""
    s = Track(id=1, kind=STRIKER, radius=B.striker_radius, xy=np.array([-387.0, 230.0]), born=0.0)
    d = Track(id=2, kind=0, radius=B.disc_radius, xy=np.array([412.0, -9.0]), born=0.0)

    def striker(t: float) -> Seen:
        if t < 1.0:
            return (-387.0, 230.0, "rest")
        if t < 1.15:  # 30 fps: 1.0, 1.033, 1.067, 1.1, 1.133
            k = round((t - 1.0) * 30)
            return (-387.0 + 5.0 * k, 230.0 - 10.0 * k, "moving")
        return (0.0, 0.0, "lost") if t < 1.5 else None

    def rim_disc(t: float) -> Seen:
        if t < 1.19:
            return (412.0, -9.0, "rest")
        if t < 1.22:
            return (322.0, 0.0, "moving")
        return (412.0, -72.0, "moving" if t < 1.3 else "rest")

    assert _run_all({1: (s, striker), 2: (d, rim_disc)}, fps=30.0, seconds=4.0) == []


def test_a_striker_first_seen_on_its_way_in_is_no_shot() -> None:
    """k4h_9912 at 34.6 s: west's striker, carried onto the board from beside it, is first seen
    in the hand in west's rim zone, a frame later 52 mm on (1.6 m/s) and still taken for at
    rest; then hidden by the hand, and seen again 0.37 s later on its way, here running on
    across the board as a shot striker would. It never rested before it moved: no west shot
    (one was logged)."""
    s = Track(id=1, kind=STRIKER, radius=B.striker_radius, xy=np.array([-353.0, 249.0]), born=1.0)
    u = np.array([29.0, -22.0]) / np.hypot(29.0, -22.0)
    v0, a = 1090.0, 0.12 * 9810.0

    def striker(t: float) -> Seen:
        k = round(t * 30)
        if k < 30:
            return None
        if k == 30:
            return (-353.0, 249.0, "rest")
        if k == 31:
            return (-349.0, 197.0, "rest")
        if k < 42:
            return None
        dt = min(t - 1.4, v0 / a)
        x, y = np.array([-412.0, 295.0]) + u * (v0 * dt - 0.5 * a * dt * dt)
        return (float(x), float(y), "moving" if t - 1.4 < v0 / a + 0.2 else "rest")

    assert _run_all({1: (s, striker)}, fps=30.0, seconds=4.0) == []


def _waiting_row(speed: float, push_s: float, back_at: float = float("inf")) -> dict[int, tuple[Track, Callable[[float], Seen]]]:
    """A rim disc (id 1) unseen from 1.0 s (till ``back_at``) while a hand pushes its row-mate
    (id 2) along the rim at ``speed`` mm/s for ``push_s`` s: an episode that waits for the rim
    disc it may have knocked away."""
    y_rim = B.half - B.disc_radius
    r = Track(id=1, kind=0, radius=B.disc_radius, xy=np.array([0.0, y_rim]), born=0.0)
    mate = Track(id=2, kind=0, radius=B.disc_radius, xy=np.array([25.0, y_rim]), born=0.0)

    def rim_disc(t: float) -> Seen:
        return None if 1.0 <= t < back_at else (0.0, y_rim, "rest")

    def row_mate(t: float) -> Seen:
        if t < 1.0:
            return (25.0, y_rim, "rest")
        return (25.0 + speed * min(t - 1.0, push_s), y_rim, "moving" if t < 1.05 + push_s else "rest")

    return {1: (r, rim_disc), 2: (mate, row_mate)}


def test_a_striker_set_down_while_a_shot_waits_for_a_rim_disc_is_shot_once() -> None:
    """k4h_9806 at 22.6 s: an episode waits for a rim disc it may have knocked away (a hand
    nudged its row-mate); meanwhile south's striker is set on its line, and flicked before the
    wait runs out (its first 0.3 s unseen, then seen running up the board). The striker stood
    still through the episode: its run is the next shot's, logged once (it was logged twice,
    once in the episode it never moved in)."""
    s = Track(id=3, kind=STRIKER, radius=B.striker_radius, xy=np.array([-100.0, -LINE]), born=1.2)
    v0, a = 1000.0, 0.12 * 9810.0

    def striker(t: float) -> Seen:
        if t < 1.2:
            return None
        if t < 1.99:
            return (-100.0, -LINE, "rest")
        if t < 2.29:
            return None
        dt = min(t - 2.0, v0 / a)
        return (-100.0, -LINE + v0 * dt - 0.5 * a * dt * dt, "moving" if t - 2.0 < v0 / a + 0.2 else "rest")

    assert _run_all({**_waiting_row(50.0, 0.3), 3: (s, striker)}, fps=30.0, seconds=4.0) == [3]


def test_a_disc_put_down_while_a_hand_carried_the_striker_is_told_as_placed() -> None:
    """korona_ru_part at 35.3 s: the rules asked south for a penalty pawn on its rim zone; it was
    put down while a hand carried south's striker to its line (an episode judged no shot). The
    pawn, first found at rest during that episode, must still be told as put down (it takes the
    name the rules gave it); it was taken in silently, and the shot that struck it next was
    called a foul."""
    s = Track(id=2, kind=STRIKER, radius=B.striker_radius, xy=np.array([300.0, -340.0]), born=0.0)
    pawn = Track(id=7, kind=0, radius=B.disc_radius, xy=np.array([0.0, LINE]), born=1.3)
    seg = ShotSegmenter(B)
    placed: list[tuple[int, bool]] = []
    shots = []
    for k in range(60):
        t = k / 10
        if t < 1.0:
            _at(s, t, 300.0, -340.0)
        elif t < 1.25:  # carried west at 1750 mm/s
            j = round(10 * t) - 9
            _at(s, t, 300.0 - 170.0 * j, -340.0 + 40.0 * j, "moving")
        elif t < 1.45:
            s.occluded = True  # under the hand as it sets the striker down
        else:
            _at(s, t, -LINE, -175.0, "moving" if t < 1.55 else "rest")
        tracks = [s]
        if t >= 1.3:  # the pawn, put down meanwhile, found at rest
            _at(pawn, t, 0.0, LINE)
            tracks.append(pawn)
        got, hands = seg.update(tracks, t, k)
        shots += got
        placed += [(h.track, h.fresh) for h in hands if h.kind == "placed"]
    assert shots == []
    assert (7, True) in placed


def test_a_striker_set_down_as_an_episode_begins_and_flicked_during_its_wait_is_shot_once() -> None:
    """k4h_9966 at 7.8 s: west's striker, set on its line (seen sliding the last few mm under the
    fingers), starts an episode that then waits for a rim disc a hand may have knocked away; at
    rest it is measured a few mm apart from frame to frame (the tracker even calls it moving
    for a frame), and it is flicked before the wait runs out. It never travelled in that
    episode: its run is the next shot's, logged once (it was logged twice)."""
    s = Track(id=3, kind=STRIKER, radius=B.striker_radius, xy=np.array([-130.0, -LINE]), born=0.9)
    v0, a = 1900.0, 0.12 * 9810.0

    def striker(t: float) -> Seen:
        if t < 0.9:
            return None
        if t < 1.0:  # set down: slid the last 6 mm under the fingers
            return (-106.0 + 60.0 * (t - 0.9), -LINE, "moving")
        if t < 1.95:  # at rest, measured up to 4 mm apart; called moving for a frame
            jitter = 4.0 if 1.4 <= t < 1.6 else 0.0
            return (-100.0 - jitter, -LINE, "moving" if 1.4 <= t < 1.44 else "rest")
        dt = min(t - 1.95, v0 / a)
        return (-100.0, -LINE + v0 * dt - 0.5 * a * dt * dt, "moving" if 1.98 < t < 1.95 + v0 / a + 0.2 else "rest")

    assert _run_all({**_waiting_row(50.0, 0.3), 3: (s, striker)}, fps=30.0, seconds=4.0) == [3]


def test_a_striker_lost_as_it_is_flicked_and_found_again_on_its_way_is_shot_once() -> None:
    """k4h_9984 at 12.1 s: an episode waits for a rim disc a hand may have knocked away; west's
    striker, waiting on its line, is flicked: seen once 10 mm off its place, then blurred out of
    the detector's frames for 0.33 s while the rim disc is seen again in place, then found on its
    way up the board. The episode waits for it: one shot, the striker's, seen flicked (it was
    read from the rest states as the rim disc showed, and the run found next made a second)."""
    s = Track(id=3, kind=STRIKER, radius=B.striker_radius, xy=np.array([-100.0, -LINE - 8.0]), born=0.0)
    v0, a = 1500.0, 0.12 * 9810.0

    def striker(t: float) -> Seen:
        if t < 1.7:
            return (-100.0, -LINE - 8.0, "rest")
        if t < 1.72:  # the flick's first frame: 10 mm off, still "at rest" to the tracker
            return (-100.0, -LINE + 2.0, "rest")
        if t < 2.05:  # blurred out
            return None
        dt = min(t - 1.69, v0 / a)
        return (-100.0, -LINE - 8.0 + v0 * dt - 0.5 * a * dt * dt, "moving" if t - 1.69 < v0 / a + 0.2 else "rest")

    assert _run_all({**_waiting_row(100.0, 0.4, back_at=1.9), 3: (s, striker)}, fps=30.0, seconds=4.0) == [3]


def test_a_striker_measured_apart_at_rest_after_its_shot_lets_the_shot_close() -> None:
    """k4h_9942 at 32.3 s: west's striker, stopped by the east rim row after its shot, is measured
    up to 5 mm apart from frame to frame, and the tracker calls it moving on and off for 2.5 s
    (its rest place taken anew each time). That is no motion: the shot closes once the board
    settles, not when the hands next touch it (it closed 2.1 s late, its fates lost)."""
    seg = ShotSegmenter(B)
    s = Track(id=3, kind=STRIKER, radius=B.striker_radius, xy=np.array([-100.0, -LINE - 8.0]), born=0.0)
    v0, a = 1200.0, 0.12 * 9810.0
    stop_t = 1.0 + v0 / a  # ~2.0 s
    records = []
    for k in range(round(5.0 * 30)):
        t = k / 30
        if t < 1.0:
            x, y, state = -100.0, -LINE - 8.0, "rest"
        elif t < stop_t + 0.2:
            dt = min(t - 1.0, v0 / a)
            x, y, state = -100.0, -LINE - 8.0 + v0 * dt - 0.5 * a * dt * dt, "moving" if t < stop_t + 0.15 else "rest"
        else:  # at rest, measured 5 mm apart every fifth frame, called moving for two frames
            y_stop = -LINE - 8.0 + v0 * v0 / (2 * a)
            off = 5.0 if k % 5 in (0, 1) else 0.0
            x, y, state = -100.0 + off, y_stop, "moving" if k % 5 in (1, 2) else "rest"
        if state == "moving" and s.state == "rest":
            s.rest_xy = (float(s.xy[0]), float(s.xy[1]))
        _at(s, t, x, y, state)
        got, _ = seg.update([s], t, k)
        records += got
    assert [r.disc for r in records] == [3]
    assert records[0].t_end < stop_t + 0.6
