"""Judging an episode of motion once every disc has settled (the segmenter's close).

The shot disc is the first disc that moved, among those that rested before it (a track first seen
already moving was carried by a hand) and, in korona, only the striker (or a "disc" resting where
a striker waits: the striker read as its groove's ring). When no disc was seen flicked from where
shots start, the rest states tell the shot (:mod:`tracker.infer.unseen`). A motion is no shot when
it was slow (a hand's), started away from where shots start, ended in a hand, or was a striker run
set down in the open with nothing struck. A shot gets its contacts (:mod:`tracker.infer.contacts`)
and every mover's end (:mod:`tracker.infer.ends`, :mod:`tracker.infer.rim_gone`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.boards.korona import ON_LINE_MM
from tracker.detect.datatypes import STRIKER
from tracker.infer.clear_of_struck import clear_of_struck
from tracker.infer.contacts import found_still, grazed_rim, infer_contacts, motion_start
from tracker.infer.datatypes import End, ShotRecord
from tracker.infer.ends import end_of, peak_speed, rested_before, stayed_out
from tracker.infer.flicked_unseen import flicked_unseen
from tracker.infer.hand_flick import followed_the_hand, the_hand
from tracker.infer.landed_unseen import landed_unseen
from tracker.infer.never_seen import struck_by_never_seen
from tracker.infer.rim_gone import knocked_out_unseen
from tracker.infer.start_places import (
    at_start_place,
    came_from,
    may_start,
    put_down_and_flicked,
    set_down_by_hand,
)
from tracker.infer.striker_motion import DISC_BACK_HOME, back_home, left_by_another, taken_up
from tracker.infer.struck_unseen import struck_by_unseen
from tracker.infer.unseen import (
    arrived_unseen,
    sank_unseen,
    striker_put_down,
    unseen_shot,
)
from tracker.track.datatypes import Track
from tracker.track.tracker import TrackerConfig

if TYPE_CHECKING:
    from tracker.infer.segmenter import ShotSegmenter

# seconds of still sightings that make a disc at rest (the tracker's own)
REST_S = TrackerConfig.rest_time
# Korona: a striker is set on its line by hand for every shot, so one that runs from where the
# last shot left it at rest to rest on a striking line (``left_there``), with no put-down seen,
# was carried there by a hand, not flicked. k4h_10212 at 16.6 s: north's striker, left by its 15.0 s shot 3 mm off south's line,
# carried by hand (1.3 m/s, the hand lowering it read as a bounce off the north rim) to north's
# line, was logged as a south shot. False: off.
LEFT_THERE = True
# ... seen at its place up to this long (s) before it was seen away: a hand takes a striker up in
# well under a second (k4h_10212: covered 0.4 s)
LEFT_SEEN_S = 1.0
# ... within this much (mm) of where the last shot left it: the same rest place (k4h_10212: 0.01 mm).
# Not half a radius: k2e_10211 at 36.5 s, south's striker set down by hand 11 mm from where north's,
# just carried off, lay (one track for both) and flicked, was taken for north's carried.
LEFT_MM = 3.0


def judge(seg: ShotSegmenter, tracks: Sequence[Track], t: float, frame: int) -> ShotRecord | None:
    """The episode of motion that just ended, judged: which disc was shot, whether it was a shot
    at all (why not goes to ``seg.rejected``), its contacts and every mover's end."""
    by_id = {tr.id: tr for tr in tracks}
    movers = [by_id[i] for i in seg._moved if i in by_id]
    if not movers:
        return None
    paths: dict[int, np.ndarray] = {}
    starts: dict[int, float] = {}
    for tr in movers:
        pts = [(s.t, s.x, s.y) for s in tr.path if s.measured and s.t >= seg._t0 - 0.25]
        if not pts:
            continue
        p = np.array(pts)
        paths[tr.id] = p
        rest = seg._before.get(tr.id, (p[0, 1], p[0, 2]))
        k = motion_start(p, rest)
        starts[tr.id] = float(p[k, 0]) if k is not None else float("inf")
    # A shot disc rested before it was flicked: a track first seen already moving, with no
    # rest place it came from (the tracker links a flicked disc to its rest place), was
    # carried by a hand (a 20 lifted out of the hole, a disc taken from a pocket).
    candidates = [tr for tr in movers if tr.id in seg._before and tr.id in paths
                  and tr.born < seg._t0 - 1e-6
                  and (isinstance(seg.board, CrokinoleBoard) or rested_before(tr, seg._t0, REST_S))]
    # ... unless it was put down where shots start and flicked before it was seen at rest,
    # or first seen flying in from the shooting line (its wait there hidden by the hand)
    late: list[tuple[Track, tuple[tuple[float, float], float]]] = []  # korona: first seen in flight
    for tr in movers:
        if tr not in candidates and tr.id in paths:
            put = put_down_and_flicked(seg.board, paths[tr.id], tr, seg.shot_speed)
            if put is None:
                put = flicked_unseen(seg.board, paths[tr.id], seg.shot_speed, striker=tr.kind == STRIKER)
                if put is not None and isinstance(seg.board, KoronaBoard):
                    others = [s for i, s in starts.items() if i != tr.id]
                    if put[1] <= min(others, default=math.inf) and _whose_line(seg, put[0]):
                        late.append((tr, put))  # (else it came back off a rim)
                    continue
            if put is not None:
                seg._before[tr.id] = put[0]
                starts[tr.id] = put[1]
                candidates.append(tr)
    # a false find of the detector (a cue or hand taken for a disc, a painted mark) is never
    # the shot disc (seed 7508: a cue flicked across the west line was logged as west's shot)
    # nor is a disc the rules said must come out: a hand carries it away (seed 7502)
    candidates = [tr for tr in candidates if not seg.unlike_a_disc(tr) and not tr.leaving]
    shot_before = False  # crokinole: every disc that moved was shot before
    if isinstance(seg.board, KoronaBoard):
        # only the striker is shot; a disc only when it rested where a striker waits (the
        # striker seen as a disc: its groove's ring is disc-sized, k2e_8805). A disc of a
        # row against the rim never is: one set moving with no striker seen moving took a
        # far detection (a hand, another disc) while the detector had lost it (k2e_9905 at
        # 5.5 s and 37.5 s: two false shots "by" north row discs)
        # ... and that did not come back to rest where it rested: a disc's track that took a
        # hand-carried striker's finds as it passed and then its own again (k4h_10106 at 11.3 s:
        # north's striker carried in over s4, by north's line; s4 "ran" out 50 mm and back at
        # 1.4 m/s and was logged as a north shot) moved nowhere (``back_home``)
        b = seg.board
        candidates = [tr for tr in candidates if tr.kind == STRIKER] or [
            tr for tr in candidates if b.striker_waits(*seg._before[tr.id])
            and not (DISC_BACK_HOME and back_home(tr, seg._before[tr.id]))]
    else:  # a crokinole disc is shot once: the shot disc is one never shot before
        shot_before = bool(candidates) and all(tr.id in seg._shot_before for tr in candidates)
        candidates = [tr for tr in candidates if tr.id not in seg._shot_before] or candidates
    # (korona: a striker set on its striking line is measured up to ``ON_LINE_MM`` past it: k4h_9966
    # at 17.4 s, east's striker read 1.1 mm past its line, seen flicked; the shot was read from the
    # rest states instead, by a false striker find gone from the north-east corner, as north's)
    seen_flick = [tr for tr in candidates if at_start_place(seg.board, seg._before[tr.id], tr, on_line=ON_LINE_MM)]
    late = [(tr, put) for tr, put in late if not seg.unlike_a_disc(tr) and not tr.leaving]
    if late and not seen_flick:
        # korona: a striker first seen in flight is the shot disc only when the rest states tell
        # of none (a striker gone unseen from where shots start): one first seen coming back off
        # a far rim or row runs back to that side's line (k4h_9506 at 12.6 s and 17.4 s: west's
        # and north's shots, read so as east's and south's)
        unseen = unseen_shot(seg, tracks, movers, paths, t, frame) or arrived_unseen(seg, tracks, movers, paths, t, frame)
        if unseen is not None:
            return unseen
        for tr, put in late:
            seg._before[tr.id], starts[tr.id] = put
        seen_flick = [tr for tr, _ in late]
        candidates = seen_flick + candidates
    # (crokinole: every disc that moved was shot before: the shot disc was not seen flicked)
    if not seen_flick or shot_before:
        unseen = unseen_shot(seg, tracks, movers, paths, t, frame) \
            or arrived_unseen(seg, tracks, movers, paths, t, frame) \
            or (None if candidates else sank_unseen(seg, tracks, movers, paths, t, frame)
                or landed_unseen(seg, tracks, movers, paths, t, frame))
        if unseen is not None:
            return unseen
        # ... or the shot disc was first seen as it struck one of them (``struck_unseen``)
        hit = struck_by_unseen(seg, movers, candidates, paths, starts)
        if hit is not None:
            seg._before[hit[0].id], starts[hit[0].id] = hit[1], hit[2]
            candidates = [hit[0]]
        else:  # ... or never seen at all (``never_seen``)
            never = struck_by_never_seen(seg, tracks, movers, candidates, paths, starts, t, frame)
            if never is not None:
                return never
    if not candidates:
        seg.rejected.append((t, "motion with no disc that rested before it"))
        return None
    # earliest to move; within a frame, the fastest (the hit disc starts slower or later).
    # Only among the discs flicked from where a shot may start, if any: a disc that crept
    # a few mm first (a false find of the detector jittering, a disc a hand nudged) is no
    # shot disc, and taken for one it had the whole shot rejected (rendered match, seed
    # 7508: a painted "15" on the board moved 8 mm just before west's flick)
    flicked = [tr for tr in candidates if may_start(seg.board, seg._before[tr.id], tr)
               and peak_speed(paths[tr.id]) >= seg.shot_speed]
    shooter = min(flicked or candidates, key=lambda tr: (round(starts.get(tr.id, float("inf")), 4),
                                                         -peak_speed(paths[tr.id])))
    p = paths[shooter.id]
    # the shot disc may stop at once against another (a frame may hold all its motion):
    # judge the flick by the fastest disc of the episode
    peak = max(peak_speed(q) for q in paths.values())
    start = seg._before[shooter.id]
    links = striker_put_down(seg, tracks, shooter, start, t)
    if links:
        start = seg._before[links[0][1]]
    elif isinstance(seg.board, KoronaBoard) and shooter.kind == STRIKER and may_start(seg.board, start, shooter):
        # (its track took over a false striker waiting to be shot: it came along its line from
        # another striking line; a run from no striking place stays one, judged below)
        came = came_from(seg.board, shooter, start, seg._t0, TrackerConfig.decel, TrackerConfig.restitution)
        start = came if came is not None and may_start(seg.board, came, shooter) else start
    if not links and left_there(seg, shooter, start):
        seg.rejected.append((t, "a striker run from where the last shot left it: a hand carried it"))
        return None
    if peak < seg.shot_speed:
        seg.rejected.append((t, f"slow motion ({peak:.0f} mm/s): a hand, not a shot"))
        return None
    if not may_start(seg.board, start, shooter):
        seg.rejected.append((t, f"motion from ({start[0]:.0f}, {start[1]:.0f}): not where a shot starts"))
        return None
    # (korona: nor from where another seat's shot left its striker: a hand took it away)
    owner = None if links else left_by_another(seg, shooter, start)
    if owner is not None:
        seg.rejected.append((t, f"a striker run from where {owner}'s shot left it: a hand took it away"))
        return None
    # (not one that went down the 20-hole first: a 20 is taken out by hand, and one never seen
    # down there, a disc of the hole's colour, is called taken out a second after it was last
    # seen, maybe before the discs it struck stop: c4h_9921 at 8.6 s, north's 20 lost)
    if shooter.state == "lifted" and shooter.id not in seg._sunk:
        seg.rejected.append((t, "the moved disc was carried away by a hand"))
        return None
    # crokinole: the shot disc's track followed the flicking hand; the disc is a new track
    # (or it was first seen in flight, and the track that rested where it left the line followed
    # the hand: ``hand_flick.the_hand``)
    relay = followed_the_hand(seg, shooter, movers, paths, start)
    if relay is not None:
        links = (*links, (relay.id, shooter.id))
        paths[shooter.id] = np.vstack([[[starts.get(shooter.id, seg._t0), start[0], start[1]]], paths.pop(relay.id)])
        movers = [tr for tr in movers if tr is not relay]
    hand = the_hand(seg, shooter, movers, paths, start)
    if hand is not None:
        links = (*links, (shooter.id, hand.id))
        paths.pop(hand.id, None)
        movers = [tr for tr in movers if tr is not hand]
    radius = {tr.id: tr.radius for tr in tracks}
    before = {i: xy for i, xy in seg._before.items() if i in by_id}
    still = {i: xy for i, xy in before.items() if i not in paths and by_id[i].state == "rest"}
    contacts = infer_contacts(paths, before, radius, shooter.id, seg.board, still=still)
    # (a rim contact read for the run is no evidence: a dead stop reads as a bounce off
    # whatever lies ahead; one that came back off the rim is no stop, ``stopped_by_hand``)
    struck = any(shooter.id in (c.a, c.b) and not isinstance(c.b, str) for c in contacts)
    if not struck and set_down_by_hand(seg.board, shooter, paths, movers, seg._before, seg.shot_speed):
        seg.rejected.append((t, "a striker run that stopped dead in the open, nothing struck: a hand set it down"))
        return None
    # (a "disc" not seen at rest before the episode is no disc the striker struck: a hand's false find)
    struck_rested = any(shooter.id in (c.a, c.b) and isinstance(o := c.b if c.a == shooter.id else c.a, int)
                        and o in by_id and rested_before(by_id[o], seg._t0, REST_S) for c in contacts)
    if not struck_rested and taken_up(seg.board, shooter, start, seg._t0, tracks):
        seg.rejected.append((t, "a striker seen once off its place and lost there, nothing struck: a hand took it up"))
        return None
    if isinstance(seg.board, KoronaBoard) and peak_speed(p) < seg.shot_speed:
        # korona: the flick is read off the striker itself, which no hit stops dead (it is
        # four times a disc's weight, and a striking line lies well clear of the rim): the
        # fastest disc of the episode was another's. k4h_9912 at 20.1 s: east's striker, left
        # in the west rim zone, taken up by a hand at 300 mm/s while the camera moved and
        # every rim row jumped, was logged as a west shot; k4h_9606 at 35.7 s: a disc by
        # north's line, read as its striker, nudged 4 mm as the striker was carried in
        seg.rejected.append((t, f"a striker that never ran like a shot ({peak_speed(p):.0f} mm/s): "
                              "a hand moved it"))
        return None
    seg._shot_before.add(shooter.id)
    # a disc lost at rest and found again during the shot a few millimetres from where it was
    # kept, and still since, did not move: it lay at its place all along (``found_still``)
    touched = {c.a for c in contacts} | {c.b for c in contacts}
    for i, pi in paths.items():
        if i != shooter.id and i not in touched and i in seg._before and found_still(pi, seg._before[i], radius[i]):
            seg._before[i] = (float(pi[0, 1]), float(pi[0, 2]))
    ends: dict[int, End] = {}
    for tr in movers:
        if tr.id not in seg._before and tr.born < seg._t0:
            continue
        ends[tr.id] = "hole" if tr.id in seg._sunk and tr.state == "lifted" else end_of(tr)
    if relay is not None:
        ends[shooter.id] = end_of(relay)
    ends.update(knocked_out_unseen(seg.board, tracks, ends, shooter.id, seg._before, seg._moved, seg._t0,
                                   seg.t))
    ends = stayed_out(ends, seg._before, radius, contacts, shooter.id)
    if isinstance(seg.board, CrokinoleBoard):  # (a lone find of two discs meeting: ``clear_of_struck``)
        ends = clear_of_struck(ends, seg._before, radius, contacts, {tr.id: tr.anchor_n for tr in tracks})
    return ShotRecord(
        disc=shooter.id, start=start, t_start=min(starts.get(shooter.id, seg._t0), t), t_end=seg._end_time(t),
        frame_start=seg._f0, frame_end=frame, contacts=tuple(contacts), ends=ends,
        before=dict(seg._before), peak_speed=peak, links=links,
        grazed=grazed_rim(contacts, paths, before, radius, shooter.id, seg.board),
    )


def left_there(seg: ShotSegmenter, shooter: Track, start: tuple[float, float]) -> bool:
    """Korona (``LEFT_THERE``): whether striker ``shooter``, judged shot from ``start``, rested there
    where the last shot judged left it (within ``LEFT_MM``: the same rest place), was
    seen there up to ``LEFT_SEEN_S`` before it was seen away, and now rests on a striking line
    (within ``ON_LINE_MM``), where a hand sets a striker down: its run was a hand's carry to the
    line, not a flick. (Not one that ran on from there: a striker carried to its line and flicked
    at once is one episode from its old place, korona_2p_game at 30.1 s, korona_ru_part at 32.3 s;
    nor one unseen at its place for longer, which may have been taken away long before: k2e_10211
    at 31.7 s, a stale striker track unseen 2.6 s, joined to north's flight passing by it off the
    west rim, the flight ending 6 mm off south's line.)"""
    b = seg.board
    if not LEFT_THERE or not isinstance(b, KoronaBoard) or shooter.kind != STRIKER or shooter.state != "rest":
        return False
    left = seg.left_by.get(shooter.id)
    if left is None or math.dist(left[1], start) > LEFT_MM:
        return False
    seen = [sm for sm in shooter.path if sm.measured]
    away = next((k for k, sm in enumerate(seen) if sm.t >= seg._t0 - 1e-6
                 and math.dist((sm.x, sm.y), start) > 0.5 * shooter.radius), None)
    if not away or seen[away].t - seen[away - 1].t > LEFT_SEEN_S:
        return False
    x, y = shooter.position()
    line = b.half - b.striking_line_offset
    return b.striker_waits(x, y, ON_LINE_MM) and abs(max(abs(x), abs(y)) - line) <= ON_LINE_MM


def _whose_line(seg: ShotSegmenter, at: tuple[float, float]) -> bool:
    """Whether a korona striker first seen in flight, run back to the striking line at ``at``,
    may have been shot from there: the line is a seat's in play, and that seat's turn when the
    rules know whose it is. A striker first seen coming back off a far rim (west's shot, its way
    out unseen, first seen 140 mm inside east's line heading back at 700-800 mm/s: k4h_9506 at
    12.6 s and 17.4 s) runs back to that far line: in a two-player game, a line nobody plays
    from; in four, a seat whose turn it was not."""
    b = seg.board
    assert isinstance(b, KoronaBoard)
    seat = b.seat_of(*at)
    expected = seg.next_seat()
    return seat in seg.seats and (expected is None or seat == expected)

