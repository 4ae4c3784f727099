"""Korona discs the detector loses or misnames on their way into a pocket (at 10 fps, through
motion blur): the tracker must still know where they went."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track.association import BIG
from tracker.track.datatypes import Sample, Track
from tracker.track.fate import resolve_lost
from tracker.track.pair_costs import penalties
from tracker.track.tracker import Tracker, TrackerConfig

B = KoronaBoard()


def _dets(rows: list[tuple[float, float, int, float]]) -> Detections:
    a = np.array(rows, float).reshape(-1, 4)
    return Detections(xy=a[:, :2], kind=a[:, 2].astype(int), radius=a[:, 3])


def test_a_disc_lost_on_its_way_into_a_corner_went_down_the_pocket() -> None:
    """korona_2p_game at 18.8 s: a knocked disc last seen 100 mm out of the sw pocket, heading
    for the south rim 40 mm from the pocket's centre, then never seen again. Its coasting took
    it past the rim line, off the board: it glanced off the rim into the pocket."""
    tr = Track(id=1, kind=DISC, radius=B.disc_radius, xy=np.zeros(2), state="moving")
    tr.path = [Sample(18.7, -256.1, -302.2), Sample(18.8, -303.0, -353.6)]
    tr.xy, tr.v = np.array([-303.0, -353.6]), np.array([-469.0, -514.0])
    for k in range(1, 4):  # coasting, unseen, as the tracker does (friction 1500 mm/s^2)
        sp = float(np.hypot(*tr.v))
        tr.v = tr.v * (sp - 150.0) / sp
        tr.xy = tr.xy + tr.v * 0.1
        tr.path.append(Sample(18.8 + 0.1 * k, float(tr.xy[0]), float(tr.xy[1]), False))
    assert not B.on_surface(*tr.xy)
    resolve_lost(B, tr, TrackerConfig.decel)
    assert (tr.state, tr.pocket) == ("pocket", "sw")


def test_a_disc_lost_mid_board_is_no_pocket() -> None:
    """The same disc, slower and mid-board, stops short of any pocket: covered, not pocketed."""
    tr = Track(id=1, kind=DISC, radius=B.disc_radius, xy=np.zeros(2), state="moving")
    tr.path = [Sample(1.0, -20.0, -10.0), Sample(1.1, -40.0, -30.0)]
    tr.xy, tr.v = np.array([-40.0, -30.0]), np.array([-200.0, -200.0])
    resolve_lost(B, tr, TrackerConfig.decel)
    assert tr.state == "rest" and tr.occluded


def test_a_disc_seen_fast_towards_a_pocket_and_coasted_to_a_stop_went_down_it() -> None:
    """korona_2p_game at 115.4 s: a struck disc seen once on its way, 710 mm/s between its rest
    place and that sighting, 180 mm out of the se pocket and heading for it; the tracker's
    smoothed coasting stopped it 70 mm further on, so its course from the coasting speed (none
    left) fell short and it was left covered there. It went down the pocket 0.2 s later."""
    tr = Track(id=1, kind=DISC, radius=B.disc_radius, xy=np.zeros(2), state="moving")
    tr.path = [Sample(115.1, 180.0, -157.0), Sample(115.2, 180.0, -157.0), Sample(115.3, 204.0, -183.0, False),
               Sample(115.4, 267.0, -269.0), Sample(115.5, 289.0, -300.0, False),
               Sample(115.6, 303.0, -319.0, False), Sample(115.7, 308.0, -326.0, False),
               Sample(115.8, 308.0, -326.0, False)]
    tr.xy, tr.v = np.array([308.0, -326.0]), np.zeros(2)
    resolve_lost(B, tr, TrackerConfig.decel)
    assert (tr.state, tr.pocket) == ("pocket", "se")


def test_a_blurred_disc_named_a_striker_keeps_its_track() -> None:
    """A disc knocked fast blurs into a ring between a disc's size and a striker's, and the
    detector names it a striker (korona_2p_game at 18.6 s: 21 mm against a disc's 12.5 and a
    striker's 25). Its track takes it, so it is not lost while a new track takes its run."""
    tk = Tracker(B)
    t = 0.0
    for _ in range(5):  # at rest
        tk.update(_dets([(-100.0, -100.0, DISC, 14.0)]), t)
        t += 0.1
    xy = np.array([-100.0, -100.0])
    for k, step in enumerate((3.0, 5.0, 8.0, 30.0, 35.0, 35.0)):  # knocked towards the sw pocket
        xy = xy - step
        kind, r = (DISC, 14.0) if k < 3 else (STRIKER, 21.0)
        tk.update(_dets([(xy[0], xy[1], kind, r)]), t)
        t += 0.1
    known = [tr for tr in tk.tracks]
    assert len(known) == 1
    assert np.hypot(*(known[0].xy - xy)) < 5.0


def test_only_unseen_or_moving_disc_tracks_may_take_a_blurred_striker() -> None:
    """The kind test is eased for a moving disc's track and a resting one not seen this moment,
    and only for a "striker" smaller than a striker: a disc seen at rest keeps its kind, and a
    striker-sized ring is a striker."""
    def track(state: str, occluded: bool) -> Track:
        return Track(id=1, kind=DISC, radius=B.disc_radius, xy=np.zeros(2), state=state,  # type: ignore[arg-type]
                     occluded=occluded)
    rows = [track("moving", False), track("rest", True), track("rest", False)]
    dets = _dets([(0.0, 0.0, STRIKER, 21.0), (0.0, 0.0, STRIKER, 28.0)])
    pen = penalties(rows, dets, B.striker_radius)
    assert pen[0, 0] == pen[1, 0] == B.disc_radius
    assert pen[2, 0] >= BIG and pen[0, 1] >= BIG and pen[1, 1] >= BIG
    assert penalties(rows, dets)[0, 0] >= BIG  # crokinole: no strikers, no easing


def test_a_striker_seen_at_rest_as_a_disc_is_the_striker_that_flies() -> None:
    """The detector may see a striker at rest as the disc-sized ring of its top's groove
    (k2e_8805, 1280x720: the opening striker found as a 13.8 mm disc until it moved). Flicked,
    it is first seen as a striker 0.4 s later, 600 mm on: that striker is the resting "disc" it
    came from (one track, now a striker), not a striker from nowhere (no shot disc at all)."""
    tk = Tracker(B)
    t = 0.0
    for _ in range(10):
        tk.update(_dets([(100.0, -320.0, DISC, 13.8)]), t)
        t += 1 / 30
    for _ in range(12):  # flying, unseen (blur)
        tk.update(_dets([]), t)
        t += 1 / 30
    for y in (290.0, 325.0, 355.0):
        tk.update(_dets([(90.0, y, STRIKER, 26.0)]), t)
        t += 1 / 30
    assert len(tk.tracks) == 1
    tr = tk.tracks[0]
    assert tr.kind == STRIKER and tr.state == "moving" and tr.rest_xy is not None
    assert np.hypot(tr.rest_xy[0] - 100.0, tr.rest_xy[1] + 320.0) < 3.0


def test_a_rim_disc_unseen_for_seconds_is_still_on_the_board() -> None:
    """korona_ru_part from 4.8 s to 9.8 s: the detector finds no disc of the north rim row for
    five seconds (rim rows are found on its full passes only), and the row's tracks counted as
    lifted; the shot that then moved them made new nameless tracks and their pockets went
    unscored. A korona disc against a rim waits ``rim_lift_after`` before it counts as lifted
    and takes its detection again where it lay; one mid-board is lifted after ``lift_after``."""
    tk = Tracker(B)
    rim = B.half - B.disc_radius
    t = 0.0
    for _ in range(5):
        tk.update(_dets([(40.0, -rim, DISC, 12.5), (0.0, 100.0, DISC, 12.5)]), t)
        t += 0.1
    ids = {round(float(tr.xy[1])): tr.id for tr in tk.tracks}
    while t < 6.0:  # neither seen for 5.5 s
        tk.update(_dets([]), t)
        t += 0.1
    state = {round(float(tr.xy[1])): tr.state for tr in tk.tracks}
    assert state[round(-rim)] == "rest" and state[100] == "lifted"
    tk.update(_dets([(41.0, -rim, DISC, 12.5)]), t)
    back = tk.get(ids[round(-rim)])
    assert back is not None and back.last_seen == t


def _rim_blow(back_at: float | None, step: float = 200.0, cfg: TrackerConfig | None = None) -> tuple[Tracker, int]:
    """A disc resting against the north rim; the striker runs up into it at ``step`` mm a frame
    (10 fps: 2000 mm/s by default) and the
    disc's detection vanishes the frame it is due to be hit (knocked unseen, its course into the
    rim); the striker stops against the rim beside where it lay. From ``back_at`` (s) on the
    disc is detected again where it rested (None: never again, it jumped the rim)."""
    tk = Tracker(B, cfg or TrackerConfig())
    rim = B.half - B.disc_radius
    disc = (0.0, rim, DISC, B.disc_radius)
    t = 0.0
    for _ in range(5):  # at rest, the striker waiting at the south line
        tk.update(_dets([disc, (0.0, -300.0, STRIKER, B.striker_radius)]), t)
        t += 0.1
    tid = next(tr.id for tr in tk.tracks if tr.kind == DISC)
    y = -300.0
    while y < rim - B.disc_radius - B.striker_radius - step:  # the flick
        y += step
        tk.update(_dets([disc, (0.0, y, STRIKER, B.striker_radius)]), t)
        t += 0.1
    stop = rim - B.disc_radius - B.striker_radius - 5.0
    while t < 4.0:
        rows = [(0.0, stop, STRIKER, B.striker_radius)]
        if back_at is not None and t >= back_at:
            rows.append(disc)
        tk.update(_dets(rows), t)
        t += 0.1
    return tk, tid


def test_a_rim_disc_called_off_unseen_and_found_in_place_was_not_off() -> None:
    """k4h_8806 at 3.6 s: the striker hits the south row; the detector drops three row discs
    (rows are found on full passes only), the tracker forecasts them knocked into the rim and,
    unseen, calls them off the board. The full pass once the board settles finds them where
    they rested: the same discs, at rest there, not new ones (a real jump leaves no disc there)."""
    tk, tid = _rim_blow(back_at=1.9)
    tr = tk.get(tid)
    assert tr is not None and tr.state == "rest" and not tr.occluded
    assert sum(1 for t in tk.tracks if t.kind == DISC) == 1


def test_a_rim_disc_knocked_unseen_and_never_seen_again_is_kept_where_it_rested() -> None:
    """The same blow, and the disc is not seen again: it jumped the rim (truth detections of
    korona_ru_part at 3.55 s). The tracker keeps it covered where it rested (a disc struck hard
    into a rim jumps it only now and then: ``TrackerConfig.unseen_over_rim``), and the shot's
    judge calls it off, a disc struck head on into the rim and never seen again
    (``infer.rim_gone.knocked_out_unseen``; tests/infer/test_rim_gone.py). With the setting on,
    the forecast of the blow called it off the board here."""
    tk, tid = _rim_blow(back_at=None)
    tr = tk.get(tid)
    assert tr is not None and tr.state == "rest" and tr.occluded
    assert tr.rest_xy is not None and np.allclose(tr.xy, tr.rest_xy)
    tk, tid = _rim_blow(back_at=None, cfg=TrackerConfig(unseen_over_rim=True))
    tr = tk.get(tid)
    assert tr is not None and tr.state == "off"


def test_a_rim_disc_knocked_unseen_too_slowly_to_jump_is_not_off() -> None:
    """The same blow at 900 mm/s: the disc, knocked into the rim at about that speed, cannot
    ride up 20 mm of rim (``track.rims.RIM_JUMP_SPEED``; the rendered matches' physics gives a
    jump no chance below 1500 mm/s). The forecast of the blow put it beyond the rim and called
    it off; it rebounds off the rim and stays on the board (korona_4p_part at 27.5 s: s1 called
    off while it slid along the rim into the nw pocket)."""
    tk, tid = _rim_blow(back_at=None, step=90.0)
    tr = tk.get(tid)
    assert tr is not None and tr.state != "off"
    assert abs(float(tr.xy[1])) <= B.half - B.disc_radius


def test_a_disc_lost_as_it_slides_into_a_rim_stays_on_the_board() -> None:
    """k2e_9505 at 18.0 s: a disc seen sliding at 700 mm/s towards the north rim, then lost by
    the detector 80 mm short of it (rim discs are found on full passes only). Coasted straight
    on it was placed past the rim and called off the board; at that speed it meets the rim at
    some 500 mm/s, rebounds and stops against it: it is still on the board (covered where it was
    last seen, for the rest gate or the shot's rim wait to find)."""
    tk = Tracker(B)
    t = 0.0
    for _ in range(5):
        tk.update(_dets([(0.0, 100.0, DISC, B.disc_radius)]), t)
        t += 0.1
    tid = tk.tracks[0].id
    for y in (180.0, 260.0, 330.0):
        tk.update(_dets([(0.0, y, DISC, B.disc_radius)]), t)
        t += 0.1
    while t < 1.5:  # lost
        tk.update(_dets([]), t)
        t += 0.1
    tr = tk.get(tid)
    assert tr is not None and tr.state not in ("off", "pocket")
    assert B.on_surface(*tr.xy)


def test_a_blurred_disc_flying_while_the_striker_moves_is_no_striker_seen_as_a_disc() -> None:
    """korona_2p_game at 48.4 s: while a striker flies, a disc resting in a rim zone (where a
    striker waits) is struck and, blurred, seen as a 22.6 mm ring (a "striker") flying from
    where it lay. That is not the striker the detector saw at rest as a disc (one striker is
    flicked a shot, and it is the one already flying): the resting track stays a disc."""
    tk = Tracker(B)
    t = 0.0
    disc = (100.0, -330.0, DISC, 13.0)
    for _ in range(10):  # the disc at rest where a striker waits; a striker at rest mid-board
        tk.update(_dets([disc, (-350.0, 150.0, STRIKER, B.striker_radius)]), t)
        t += 0.1
    did = next(tr.id for tr in tk.tracks if tr.kind == DISC)
    x = -350.0
    for _ in range(5):  # the flick, 600 mm/s towards the east
        x += 60.0
        tk.update(_dets([disc, (x, 150.0, STRIKER, B.striker_radius)]), t)
        t += 0.1
    for k in range(1, 5):  # the disc struck unseen (by a disc the striker sent), flying blurred
        x += 60.0
        tk.update(_dets([(100.0 - 85.0 * k, -330.0 + 60.0 * k, STRIKER, 22.6),
                         (x, 150.0, STRIKER, B.striker_radius)]), t)
        t += 0.1
    d = tk.get(did)
    assert d is not None and d.kind == DISC
    assert sum(1 for tr in tk.tracks if tr.kind == STRIKER and tr.state == "moving") >= 1


def test_a_disc_resting_by_a_pocket_mouth_is_not_the_disc_down_the_pocket() -> None:
    """korona_2p_game from 98 s: a disc went down the sw pocket, last seen in it 27 mm from its
    centre; another came to rest on the surface by the pocket's mouth, 33 mm from the centre
    and 17 mm from where the pocketed disc was seen. That one is a disc on the board (its centre
    outside the pocket's circle: over it, it would drop in), not the pocketed disc seen again;
    taken for it, its own pocketing later went unseen."""
    from tracker.detect.datatypes import IN_POCKET, ON_SURFACE

    def frame(rows: list[tuple[float, float, int]]) -> Detections:
        a = np.array(rows, float).reshape(-1, 3)
        return Detections(xy=a[:, :2], kind=np.zeros(len(a), int), radius=np.full(len(a), B.disc_radius),
                          where=a[:, 2].astype(int))

    tk = Tracker(B)
    t = 0.0
    for _ in range(5):
        tk.update(frame([(-250.0, -300.0, ON_SURFACE)]), t)
        t += 0.1
    for x, y, w in ((-290.0, -330.0, ON_SURFACE), (-330.0, -360.0, ON_SURFACE), (-370.0, -385.0, IN_POCKET),
                    (-370.0, -385.0, IN_POCKET)):
        tk.update(frame([(x, y, w)]), t)
        t += 0.1
    down = [tr for tr in tk.tracks if tr.state == "pocket"]
    assert len(down) == 1 and down[0].pocket == "sw"
    by_mouth = (-362.0, -400.0)
    assert B.pocket_of(*by_mouth) is None
    for _ in range(10):  # another disc at rest by the pocket's mouth
        tk.update(frame([(*by_mouth, ON_SURFACE)]), t)
        t += 0.1
    on_board = [tr for tr in tk.tracks if tr.state == "rest"]
    assert len(on_board) == 1 and np.hypot(*(on_board[0].xy - np.array(by_mouth))) < 1.0
    assert down[0].state == "pocket" and B.pocket_of(*down[0].xy) == "sw"
