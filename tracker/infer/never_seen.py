"""A crokinole shot whose disc was never seen at all, read from the disc it struck (``judge``'s fallback).

A dark disc on a dark board, set on the shooting line beside the ditch's shadow, may be missed by
the detector on the line, in flight and where it stops. The disc it struck is then the only disc
seen moving, and it rested on the board since an earlier shot: no disc is shot twice in a round,
so it was struck, by a disc nobody saw (c4h_9975 at 10.1 s: east's dark e1, flicked from the
shooting line into south's s1 lying against the line, knocked s1 into the ditch and stayed on the
line; the shot was logged as "east s1", a foul that hit no opponent, and e1 never came into it).

The unseen shot disc came along the line the struck disc set off on (a hit pushes along the line of
centres, and a flick aims the disc at its target) and, of equal mass, stopped about where it
struck, touching the struck disc's place: it left the shooting line back along that line. The
record's shot disc is ``UNSEEN_DISC``; the pipeline gives it a track of its own, kept unseen at that
place (``Tracker.add_unseen``), so it can be named, ruled on and met again. Replays (--dets):
c4h_9975 removed R/P 0/0 -> 100/100% (e1 logged, at (301, 56) for the true (299, 51), and removed for
the shooting line; s1's false foul gone; position p95 0.56 -> 4.04 mm, e1's place being an estimate);
the other 26 crokinole dev matches and 6 fixtures the same. With ``merge.AT_PLACE``, c4h_9945 at
12.1 s too (e1, never found, struck n1 past the shooting line, and was met again at 16.3 s:
figures there). With a board refit counted in (``_rested_since``), c2h_9944 at 14.2 s: shots R 88 ->
100% (s3, never found, knocked n2 off), switches 12.5 -> 0 per 100 shots, median/p95 1.57/10.97 ->
3.23/11.00 mm (more discs matched, s3's and s2's places estimates 5-6 mm off).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.infer.contacts import infer_contacts
from tracker.infer.datatypes import Contact, End, ShotRecord
from tracker.infer.ends import end_of, peak_speed, stayed_out
from tracker.infer.start_places import may_start
from tracker.track.association import leaves_circle
from tracker.track.datatypes import Sample, Track
from tracker.track.tracker import TrackerConfig

if TYPE_CHECKING:
    from tracker.infer.segmenter import ShotSegmenter

# The shot disc of a record read by ``struck_by_never_seen``: no track yet (the pipeline makes one)
UNSEEN_DISC = -1
# A disc that moved in the episode and rests overlapping the unseen disc's estimated stop is taken
# for the shot disc (``found_late``). OFF: on c4h_10103 (19.0 s) positions 0.65/4.04 -> 0.52/1.43 mm,
# but its round is no longer exact: the real n2, named now, is struck off at 21.8 s and the tracker
# keeps it on the board at (1, 143) (before, a made-up n2 held the name and the real one flew off).
FOUND_LATE = False


def struck_by_never_seen(seg: ShotSegmenter, tracks: Sequence[Track], movers: Sequence[Track],
                         candidates: Sequence[Track], paths: dict[int, np.ndarray], starts: dict[int, float],
                         t: float, frame: int) -> ShotRecord | None:
    """The shot read from the disc it struck when its own disc was never seen (see the module
    doc): every disc that rested before the episode and moved was shot before, and the first of
    them to set off (at a shot's speed) rested where it lies since before the last shot ended.
    None otherwise."""
    board = seg.board
    if not isinstance(board, CrokinoleBoard) or not candidates or not seg._shot_spans \
            or any(tr.id not in seg._shot_before for tr in candidates):
        return None
    last_end = seg._shot_spans[-1][1]
    hit = [tr for tr in candidates if tr.id in paths and peak_speed(paths[tr.id]) >= seg.shot_speed
           and _rested_since(tr, seg._before[tr.id], last_end)]
    if not hit:
        return None
    c = min(hit, key=lambda tr: (round(starts.get(tr.id, float("inf")), 4), -peak_speed(paths[tr.id])))
    rest = np.asarray(seg._before[c.id], float)
    p = paths[c.id]
    # its way: to its first sighting over a radius from its place (one nearer may be a blend
    # with the disc that struck it, found where the two touched)
    away = [row for row in p if float(np.hypot(*(row[1:] - rest))) > c.radius]
    if not away:
        return None
    u = away[0][1:] - rest
    u = u / float(np.hypot(*u))
    r = board.disc_radius
    stop = rest - u * (c.radius + r)  # it stopped where it struck
    if float(np.hypot(*stop)) >= board.shooting_line_radius - r:
        start = stop  # struck from the line itself
    else:
        s = leaves_circle(stop, -u, board.shooting_line_radius)
        if s is None:
            return None
        start = stop - u * s
    at = (float(start[0]), float(start[1]))
    if not may_start(board, at, c):
        return None
    speed = max(peak_speed(p), seg.shot_speed)
    t1 = starts.get(c.id, float(away[0][0]))
    t0 = t1 - float(np.hypot(*(stop - start))) / speed
    late = found_late(seg, movers, c, stop, r) if FOUND_LATE else None
    shooter = late.id if late is not None else UNSEEN_DISC
    paths = dict(paths)
    paths[shooter] = np.array([[t0, start[0], start[1]], [t1, stop[0], stop[1]]])
    before = {i: xy for i, xy in seg._before.items() if any(tr.id == i for tr in tracks)}
    before[shooter] = at
    radius = {tr.id: tr.radius for tr in tracks}
    radius[shooter] = r
    contacts = infer_contacts(paths, before, radius, shooter, board)
    if not any({x.a, x.b} == {shooter, c.id} for x in contacts):
        contacts.insert(0, Contact(t1, shooter, c.id))
    ends: dict[int, End] = {tr.id: end_of(tr) for tr in movers if tr.id in seg._before or tr.born >= seg._t0}
    ends[shooter] = end_of(late) if late is not None else (round(float(stop[0]), 2), round(float(stop[1]), 2))
    ends = stayed_out(ends, before, radius, contacts, shooter)
    seg.rejected.append((t, f"shot by a disc never seen: track {c.id} struck from {at[0]:.0f}, {at[1]:.0f}"
                            + (f", found late as track {shooter}" if late is not None else "")))
    return ShotRecord(
        disc=shooter, start=at, t_start=t0, t_end=seg._end_time(t), frame_start=seg._f0, frame_end=frame,
        contacts=tuple(contacts), ends=ends, before={**seg._before, shooter: at},
        peak_speed=max(peak_speed(q) for q in paths.values()), inferred=True,
    )


def found_late(seg: ShotSegmenter, movers: Sequence[Track], struck: Track, stop: np.ndarray,
               r: float) -> Track | None:
    """The shot disc itself, seen after all: another disc that moved in this episode (found during
    it, or resting elsewhere before it) and rests where the unseen disc stopped, overlapping that
    place (two discs cannot), is that disc; its own rest place, not the estimate, is where it
    ended. c4h_10103 at 19.0 s: north's cream n2 on the cream board, seen on the line and as it
    stopped, was no candidate (``namer.looks_like_board``: a false find); a disc never seen was
    made up 5.8 mm from it and took its name and end. None when no such disc is."""
    def moved(tr: Track) -> bool:
        was = seg._before.get(tr.id)
        return was is None or float(np.hypot(*(np.asarray(tr.position()) - was))) > TrackerConfig.move_mm

    def off(tr: Track) -> float:
        return float(np.hypot(*(np.asarray(tr.position()) - stop)))
    near = [tr for tr in movers if tr.id != struck.id and tr.state == "rest" and moved(tr) and off(tr) < 2 * r]
    return min(near, key=off) if near else None


def _rested_since(tr: Track, rest: tuple[float, float], since: float) -> bool:
    """Whether ``tr`` was seen resting at ``rest`` (within the tracker's ``move_mm``) no later
    than ``since``: it lay there through the end of the last shot (no disc put down for this one).
    Or its track is older and its path begins there after ``since``: a new board fit (the camera
    moved) restarted it at its place (``Tracker.rebase``; c2h_9944 at 14.2 s, n2, resting since
    10.8 s, refitted at 12.0 s, was struck off by south's s3, never found)."""
    def there(s: Sample) -> bool:
        return s.measured and float(np.hypot(s.x - rest[0], s.y - rest[1])) <= TrackerConfig.move_mm
    return any(there(s) and s.t <= since + 1e-6 for s in tr.path) \
        or (tr.born <= since + 1e-6 and bool(tr.path) and tr.path[0].t > since and there(tr.path[0]))
