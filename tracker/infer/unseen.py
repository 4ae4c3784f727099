"""Shots nobody saw moving, read from the rest states: functions of the
:class:`tracker.infer.segmenter.ShotSegmenter` (``seg``), called when an episode of motion ends
with no disc seen flicked from where shots start.

At 10 fps a fast disc may be blurred out of every frame: the shot disc vanishes from where shots
start and turns up elsewhere as a new track, at rest, in the hole or the ditch, with no moving
track linking the two. A disc that vanished from where shots start during the episode is the
shot disc, and a new track of its kind that appeared during the episode, away from where shots
start, is where it went (a ``link``); other discs that vanished from their rest places and turned
up again were knocked on by it, each taking the new track that fits it best (:func:`knock_cost`).
A hand straightening a disc moves it slowly and nothing vanishes; a hand taking a disc away
leaves no new track; a hand putting a disc down puts it where shots start: none of these read as
a shot (see the segmenter's module doc).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.boards.korona import ON_LINE_MM
from tracker.detect.datatypes import STRIKER
from tracker.infer.contacts import infer_contacts, motion_start
from tracker.infer.datatypes import Contact, End, ShotRecord
from tracker.infer.ends import end_of, peak_speed, stayed_out, stopped_by_hand
from tracker.infer.start_places import (
    TOUCH_MM,
    at_start_place,
    lines_up_with_its_rest,
    may_start,
    runs_back,
    seen_there_after,
)
from tracker.track.association import leaves_circle
from tracker.track.datatypes import Track
from tracker.track.merge import other_colour
from tracker.track.tracker import TrackerConfig

if TYPE_CHECKING:
    from tracker.infer.segmenter import ShotSegmenter


def unseen_shot(seg: ShotSegmenter, tracks: Sequence[Track], movers: list[Track], paths: dict[int, np.ndarray],
                t: float, frame: int) -> ShotRecord | None:
    """The shot read from rest states (see the module doc): None when no disc vanished from
    where shots start, or nothing shows it was shot (no new disc away from the shooting
    places, nothing knocked)."""
    gone = [tr for tr in seg._vanished(tracks, seg._t0 - seg.unseen_window, t) if tr.id in seg._before]
    # korona: strikers first seen during the episode that came flying to where they rest
    flown = [tr for tr in movers if isinstance(seg.board, KoronaBoard) and _flown(seg, tr, paths.get(tr.id))]
    # korona: the striker is the shot disc; crokinole: the disc that vanished last (the one
    # flicked; one vanishing earlier was more likely lifted by its player)
    if isinstance(seg.board, KoronaBoard):
        # ... that rested before the episode where a striker waits: a striker first seen in
        # flight has no rest place (its first sighting is no start), and a resting striker
        # the detector reads as a disc (its groove's ring is disc-sized) is a disc track at a
        # striker's place (k2e_9205 at 3.1 s: south's striker, a "disc" at (50, -320), lost
        # at the flick; the striker first seen at (72, 373) was taken to have left from there,
        # and the shot was logged as north's). The striker first seen in flight may have
        # vanished again (read as a disc once it stopped), or be seen to rest as a striker
        # (``TrackerConfig.striker_rings``: the ring of its groove found as a disc keeps its
        # striker track): no striker vanished then, only the "disc" where it waited.
        rested = [tr for tr in gone if tr.kind == STRIKER and tr.born < seg._t0 - 1e-6]
        if not rested and (flown or any(tr.kind == STRIKER for tr in gone)):
            rested = [tr for tr in seg._vanished(tracks, seg._t0 - seg.unseen_window, t, as_disc=True)
                      if tr.id in seg._before and tr.born < seg._t0 - 1e-6]
        gone = rested or [tr for tr in gone if tr.kind == STRIKER] or gone
    if not gone:
        return None
    # the new tracks of the episode, away from where shots start, that did not vanish again
    # (born during the episode: first seen at rest, or already moving, with no rest place).
    # Korona: a striker up to ``ON_LINE_MM`` past its striking line is one a hand set there to
    # be shot, not one a shot sent there (korona_ru_part at 25.9 s: north's striker, carried
    # back to its line after its shot and read 5 mm past it, made a shot "by" a rim disc the
    # detector had lost), unless it came flying there (k2e_9205 at 3.1 s with ``striker_rings``:
    # south's striker, first seen coming back off the north rim, stopped on north's line)
    fresh = [tr for tr in movers if tr.born >= seg._t0 - 1e-6 and tr.state != "lifted"
             and (tr in flown or not at_start_place(seg.board, tr.position(), tr, on_line=ON_LINE_MM))]
    knocked = [tr for tr in movers if tr.id in seg._before and tr.id in paths and tr.born < seg._t0 - 1e-6
               and float(np.hypot(*(np.array(tr.position()) - seg._before[tr.id]))) > tr.radius]
    if not fresh and not knocked:
        return None
    shooter = max(gone, key=lambda tr: tr.last_seen)
    start = seg._before[shooter.id]
    if isinstance(seg.board, KoronaBoard) and not (may_start(seg.board, start, shooter) if shooter.kind == STRIKER
                                                   else seg.board.striker_waits(*start, ON_LINE_MM)):
        # korona: no shot starts against a rim (``judge``): k4h_9924 at 32.0 s, a row disc read as
        # a striker (moved since by a hand) made a north shot "from" (42, 412) nobody played
        return None
    seg._shot_before.add(shooter.id)
    links: list[tuple[int, int]] = []
    ends: dict[int, End] = {}
    paths = dict(paths)
    crokinole = isinstance(seg.board, CrokinoleBoard)
    # other discs that vanished from their rest places and turned up again, unseen between:
    # knocked on by the shot disc; each takes the new track nearest its rest place. Crokinole
    # (korona not measured with it): not one last seen away from its rest place: it was followed to where it went and the detector
    # lost it there (c4h_9503 at 14.4 s: e1, driven 120 mm by w1 and seen to a stop, unseen
    # there from the next frame, took the shot disc's new track 190 mm off; the shot disc, left
    # on its line, was removed for touching it and e1 came back as a new disc)
    struck = [tr for tr in tracks if tr.id in seg._before and tr.id != shooter.id and tr.born < seg._t0 - 1e-6
              and ((tr.state == "rest" and tr.occluded) or tr.state == "lifted")
              and tr.last_seen >= seg._t0 - seg.unseen_window
              and (not crokinole or _last_seen_at(tr, seg._before[tr.id]))]
    # A lone new track lying nearer the shot's start than a struck disc rested is the shot disc,
    # stopped short by the blow, not the struck one driven back towards the shooter: the struck
    # disc went where nothing saw it (c4h_9403 at 20.0 s: n2 stopped 29 mm short of where w2
    # lay, w2 flew unseen through the lamp's glare into the ditch; w2's name went to n2's place
    # and n2, left on its line, was removed for touching it).
    lone = crokinole and sum(1 for f in fresh if f.kind == shooter.kind) == 1
    unlike = TrackerConfig().colour_gate  # (nor a disc of another colour: ``merge.other_colour``)
    pairs = sorted((knock_cost(seg, f, o, start), f.id, o.id) for f in fresh for o in struck
                   if f.kind == o.kind and not (lone and f.kind == shooter.kind and _behind(seg, f, o, start))
                   and (unlike is None or not other_colour(o, f, unlike)))
    taken: set[int] = set()
    by = {tr.id: tr for tr in tracks}
    for d, f, o in pairs:
        if d > 300.0 or f in taken or o in taken:
            continue
        taken |= {f, o}
        links.append((f, o))
        ends[o] = end_of(by[f])
        if f in paths:
            paths[o] = paths.pop(f)
    # (korona: a striker seen flying in is where the striker read as a disc went, before any
    # "disc" first seen in the episode: k2e_9923 at 15.7 s, a find at (263, -354) took it)
    same = sorted((tr for tr in fresh if (tr.kind == shooter.kind or tr in flown) and tr.id not in taken),
                  key=lambda tr: (tr not in flown, unlike is not None and other_colour(shooter, tr, unlike), tr.born,
                                  -float(np.hypot(*(np.array(tr.position()) - start)))))
    if same:
        new = same[0]
        links.append((new.id, shooter.id))
        ends[shooter.id] = end_of(new)
        if new.id in paths:
            paths[shooter.id] = paths.pop(new.id)
    elif not taken and not knocked:
        # the shot disc never turned up and nothing was knocked: discs only vanished (a
        # hand over them while another disc was put down), nothing shows a shot
        return None
    linked = {f for f, _ in links}
    for tr in movers:
        if tr.id != shooter.id and tr.id not in ends and tr.id not in linked:
            ends[tr.id] = end_of(tr)
    if shooter.id not in paths:  # never seen on its way: a straight run from its start
        end = ends.get(shooter.id)
        xy = end if isinstance(end, tuple) else (0.0, 0.0)
        paths[shooter.id] = np.array([[seg._t0, start[0], start[1]], [t - seg.settle, xy[0], xy[1]]])
    # a struck disc that turned up nowhere, where the shot disc stopped against its place: hit,
    # and gone off the board (a disc knocked on over the surface comes to rest in view; the
    # ditch, in the rail's shadow, hides discs from the detector). c4h_9403 at 20.0 s: n2
    # stopped 29 mm from where w2 lay; w2 flew unseen through the lamp's glare into the ditch,
    # and without the hit the shot was a foul, without the off w2 scored where it had lain.
    stop = ends.get(shooter.id)
    hits = [o.id for o in struck if crokinole and o.id not in taken and isinstance(stop, tuple)
            and float(np.hypot(*(np.array(stop) - seg._before[o.id]))) <= 2 * o.radius + TOUCH_MM]
    ends.update({o: "off" for o in hits})
    why = f"shot inferred from rest states: track {shooter.id} left {start[0]:.0f}, {start[1]:.0f} unseen"
    return inferred_record(seg, tracks, shooter.id, start, seg._t0, paths, ends, t, frame, why, links, hits)


def _flown(seg: ShotSegmenter, tr: Track, p: np.ndarray | None) -> bool:
    """Korona: whether ``tr`` (measured path ``p``) is a striker first seen during the episode
    that came flying to where it is seen to rest: first seen in flight more than its diameter
    from there, its run no hand's setting it down (:func:`stopped_by_hand`)."""
    if tr.kind != STRIKER or tr.born < seg._t0 - 1e-6 or tr.state != "rest" or tr.occluded or p is None:
        return False
    far = float(np.hypot(*(p[0, 1:] - np.array(tr.position())))) > 2 * tr.radius
    return far and not stopped_by_hand(p, tr.radius, seg.shot_speed)


def _last_seen_at(tr: Track, rest: tuple[float, float]) -> bool:
    """Whether ``tr`` was last seen within a radius of ``rest`` (it vanished from there)."""
    last = tr.last_sighting()
    return last is None or float(np.hypot(last.x - rest[0], last.y - rest[1])) <= tr.radius


def inferred_record(seg: ShotSegmenter, tracks: Sequence[Track], shooter: int, start: tuple[float, float],
                    t_start: float, paths: dict[int, np.ndarray], ends: dict[int, End], t: float, frame: int,
                    why: str, links: Sequence[tuple[int, int]] = (), hits: Sequence[int] = ()) -> ShotRecord:
    """The record of a shot read from rest states: its contacts from the paths (the shot disc's
    own made up) and with the discs ``hits`` (struck, gone nobody saw where), the ends of discs
    that stayed out, and ``why`` noted in ``seg.rejected``."""
    radius = {tr.id: tr.radius for tr in tracks}
    before = {i: xy for i, xy in seg._before.items() if i in radius}
    contacts = infer_contacts(paths, before, radius, shooter, seg.board)
    contacts += [Contact(t - seg.settle, shooter, o) for o in hits
                 if not any({c.a, c.b} == {shooter, o} for c in contacts)]
    ends = stayed_out(ends, seg._before, radius, contacts, shooter)
    peak = max((peak_speed(q) for q in paths.values()), default=0.0)
    seg.rejected.append((t, why))
    return ShotRecord(
        disc=shooter, start=start, t_start=t_start, t_end=t - seg.settle, frame_start=seg._f0,
        frame_end=frame, contacts=tuple(contacts), ends=ends, before=dict(seg._before), peak_speed=peak,
        links=tuple(links), inferred=True,
    )


# ``arrived_unseen``: the shot disc seen on its way before the blow runs back along its own course
OWN_COURSE = True


def back_to_line(b: CrokinoleBoard, p0: np.ndarray, step: np.ndarray) -> tuple[tuple[float, float], float] | None:
    """Where a course through ``p0`` heading along ``step`` (mm), run back, meets the shooting
    line, and how far back that is (mm); None when it does not meet it."""
    u = step / float(np.hypot(*step))
    s = leaves_circle(p0, -u, b.shooting_line_radius)
    if s is None:
        return None
    return (float(p0[0] - u[0] * s), float(p0[1] - u[1] * s)), s


def from_line(seg: ShotSegmenter, tracks: Sequence[Track], movers: Sequence[Track], paths: dict[int, np.ndarray],
              tr: Track, start: tuple[float, float], s: float, t: float, frame: int, how: str) -> ShotRecord:
    """The shot of ``tr``, a disc first seen already on its way in: flicked from ``start`` on the
    shooting line, ``s`` mm back along its course from its first sighting, at its peak speed (at
    least a flick's) before that sighting; ``how`` says what its course was read from."""
    p = paths[tr.id]
    t0 = float(p[0, 0])
    seg._before[tr.id] = start
    seg._shot_before.add(tr.id)
    paths = dict(paths)
    flight = s / max(peak_speed(p), seg.shot_speed)  # a straight run from the line, at least a flick's speed
    paths[tr.id] = np.vstack([[[t0 - flight, *start]], p])
    ends: dict[int, End] = {o.id: end_of(o) for o in movers if o.id in seg._before or o.born >= seg._t0 - 1e-6}
    why = f"shot inferred from {how}: track {tr.id} from {start[0]:.0f}, {start[1]:.0f} unseen"
    return inferred_record(seg, tracks, tr.id, start, t0 - flight, paths, ends, t, frame, why)


def own_course(b: CrokinoleBoard, own: np.ndarray, struck: np.ndarray, was: np.ndarray,
               shot_speed: float) -> tuple[tuple[float, float], float] | None:
    """Where and when a shot disc seen on its way before it struck (``arrived_unseen``) left the
    shooting line: its sightings (``own``: t, x, y) before the struck disc (``struck``, resting at
    ``was``) set off, two or more at least a radius apart, heading in from within the line, run
    back along their course to the line at their speed. The struck disc's push says the course
    only for a head-on blow: c4h_9945 at 20.0 s, west's w2, seen twice in flight, struck s2 off
    centre; s2's push, run back from w2's rest place, put the start 10 degrees round the board,
    over the quadrant line in south's, and the shot was logged as south's s3. None otherwise."""
    k = motion_start(struck, (float(was[0]), float(was[1])))
    if k is None or not len(own):
        return None
    pre = own[own[:, 0] < struck[k, 0] - 1e-6]
    if len(pre) < 2:
        return None
    p0 = pre[0, 1:].astype(float)
    step = pre[-1, 1:].astype(float) - p0
    dist, dt = float(np.hypot(*step)), float(pre[-1, 0] - pre[0, 0])
    if dist < b.disc_radius or dt <= 0 or float(p0 @ step) >= 0 or float(np.hypot(*p0)) >= b.shooting_line_radius \
            or dist / dt < shot_speed:
        return None
    u = step / dist
    s = leaves_circle(p0, -u, b.shooting_line_radius)
    if s is None:
        return None
    return (float(p0[0] - u[0] * s), float(p0[1] - u[1] * s)), float(pre[0, 0]) - s / (dist / dt)


def knock_cost(seg: ShotSegmenter, new: Track, old: Track, start: tuple[float, float]) -> float:
    """How well a new track fits as where a struck disc went: its distance from the struck
    disc's rest place, plus a diameter when it lies nearer the shot's start than that rest
    place did. A struck disc is driven away from the shooter, and the shot disc stops near
    where the struck disc lay (equal masses), so plain nearest-first swaps them."""
    d = float(np.hypot(*(np.array(new.position()) - np.array(seg._before[old.id]))))
    if _behind(seg, new, old, start):
        d += 2 * old.radius + 50.0
    return d


def _behind(seg: ShotSegmenter, new: Track, old: Track, start: tuple[float, float]) -> bool:
    """Whether ``new`` lies nearer the shot's ``start`` than ``old`` rested, by over a radius."""
    s = np.array(start)
    return float(np.hypot(*(np.array(new.position()) - s))) < \
        float(np.hypot(*(np.array(seg._before[old.id]) - s))) - old.radius


def arrived_unseen(seg: ShotSegmenter, tracks: Sequence[Track], movers: list[Track], paths: dict[int, np.ndarray],
                   t: float, frame: int) -> ShotRecord | None:
    """Crokinole: a shot whose disc was seen neither waiting on the shooting line nor on its way
    (the hand and sleeve hide it until it is flicked, and it flies blurred), read from the disc
    it struck. The episode moved discs that rested before it, none from where shots start, and
    a disc first seen during the episode came to rest beside where one of them lay (within three
    radii): equal masses, the shot disc stops about where it struck the disc it drove on. That
    new disc is the shot disc; it came along the line the struck disc was driven on, so it left
    the shooting line where that line, run back from its rest place, meets it. None when there
    is no such pair. c4h_9903 at 17.9 s: west's w2, seen once in flight, struck s1 (s1 drove s2
    onto the south shooting line) and stopped 30 mm from s1's place; the motion was judged as
    s2's and rejected ("not where a shot starts"), and w2 was a disc nobody shot. The new disc
    may have been born on the episode's first frame (its first find, noted as a rest place it
    left, a blur of it and the disc it struck on the blow's frame): first seen during the
    episode all the same (c4h_9963 at 23.37 s: east's e2 struck s2 58 mm inside east's line and
    bounced back 31 mm inside it; the motion was judged as s2's shot, s2 a disc shot before, and
    a false foul removed it)."""
    b = seg.board
    if not isinstance(b, CrokinoleBoard):
        return None
    knocked = [tr for tr in movers if tr.id in seg._before and tr.id in paths and tr.born < seg._t0 - 1e-6
               and float(np.hypot(*(paths[tr.id][-1, 1:] - seg._before[tr.id]))) > tr.radius]
    fresh = [tr for tr in movers if tr.born >= seg._t0 - 1e-6 and tr.state == "rest"
             and tr.id not in seg._shot_before and not at_start_place(seg.board, tr.position(), tr)
             and not seg.unlike_a_disc(tr) and not tr.leaving]
    pairs = sorted((float(np.hypot(*(np.array(f.position()) - seg._before[k.id]))), f.id, k.id)
                   for f in fresh for k in knocked if f.kind == k.kind)
    pairs = [p for p in pairs if p[0] <= 3 * b.disc_radius]
    if not pairs:
        return None
    by = {tr.id: tr for tr in tracks}
    shooter, struck = by[pairs[0][1]], by[pairs[0][2]]
    was = np.array(seg._before[struck.id])
    own = paths.get(shooter.id, np.zeros((0, 3)))
    course = own_course(b, own, paths[struck.id], was, seg.shot_speed) if OWN_COURSE else None
    paths = dict(paths)
    if course is not None:  # seen on its way before the blow: its own course, run back
        start, t0 = course
        paths[shooter.id] = np.vstack([[[t0, *start]], own])
    else:
        push = paths[struck.id][-1, 1:] - was
        u = push / max(float(np.hypot(*push)), 1e-9)
        rest = np.array(shooter.position())
        s = leaves_circle(rest, -u, b.shooting_line_radius)
        if s is None:
            return None
        start = (float(rest[0] - u[0] * s), float(rest[1] - u[1] * s))
        t0 = float(paths[struck.id][0, 0])
        # a straight run from the line to the blow, at the speed it gave the struck disc (equal
        # masses: all of it, head-on)
        flight = s / max(peak_speed(paths[struck.id]), seg.shot_speed)
        paths[shooter.id] = np.vstack([[[t0 - flight, *start], [t0, *rest]], own])
    seg._before[shooter.id] = start
    seg._shot_before.add(shooter.id)
    ends: dict[int, End] = {tr.id: end_of(tr) for tr in movers if tr.id in seg._before or tr.born >= seg._t0 - 1e-6}
    why = f"shot inferred from the disc it struck: track {shooter.id} from {start[0]:.0f}, {start[1]:.0f} unseen"
    return inferred_record(seg, tracks, shooter.id, start, t0, paths, ends, t, frame, why)


def sank_unseen(seg: ShotSegmenter, tracks: Sequence[Track], movers: list[Track], paths: dict[int, np.ndarray],
                t: float, frame: int) -> ShotRecord | None:
    """Crokinole: a 20 whose disc was seen neither waiting on the shooting line (the hand over
    it) nor leaving it, only on its last stretch into the hole. A disc first seen during the
    episode, already moving on the surface and heading in, that ends in the hole, with no disc
    that rested before it seen flicked: no hand puts a disc in the hole, and a disc struck there
    rested before; it was shot, from where its course, run back, meets the shooting line.
    c4h_9703 at 12.8 s: e1, under the east player's hand until flicked, was seen twice within
    21 mm of the hole, slowing, then in it; the motion had "no disc that rested before it" and
    the 20 was lost. None when there is no such disc."""
    b = seg.board
    if not isinstance(b, CrokinoleBoard):
        return None
    sunk = [tr for tr in movers if tr.state == "hole" and tr.born >= seg._t0 - 1e-6
            and tr.id not in seg._shot_before and tr.id in paths and len(paths[tr.id]) >= 2
            and not seg.unlike_a_disc(tr) and not tr.leaving]
    for tr in sorted(sunk, key=lambda tr: tr.born):
        p = paths[tr.id]
        p0, p1 = p[0, 1:].astype(float), p[1, 1:].astype(float)
        step = p1 - p0
        far = float(np.hypot(*p0))
        # first seen on the surface (not down in the hole) and moving in towards it
        if far <= b.hole_radius or float(np.hypot(*step)) < 1.0 or float(p0 @ step) >= 0:
            continue
        if (back := back_to_line(b, p0, step)) is not None:
            return from_line(seg, tracks, movers, paths, tr, *back, t, frame, "its disc's way into the hole")
    return None


# Korona ``striker_put_down``: no link when the striker's run lines up with its own rest place and
# not with the "put down" one (``start_places.lines_up_with_its_rest``); STAYED: nor when the "put
# down" disc was still found at its place after the striker was seen on its way (``seen_there_after``).
PUT_DOWN_LINE = PUT_DOWN_STAYED = True


def striker_put_down(seg: ShotSegmenter, tracks: Sequence[Track], shooter: Track, start: tuple[float, float],
                     t: float) -> tuple[tuple[int, int], ...]:
    """Korona: ((shooter, disc),) when the striker seen flicked "rested" clear of every rim zone
    (where no shot starts: it was lifted after the last shot and put down unseen) and a
    "disc" that rested where a striker waits vanished as the shot began: that was the
    striker, read as its groove's disc-sized ring (k2e_9205 at 17.1 s: south's striker read
    as a disc at (100, -321), the flicked striker taken for the one left at (50, 278) by the
    last shot, and the shot logged as north's). Its place is the shot's start, and its track
    is retired (``Pipeline._link``). () otherwise, and when the striker is first seen on its
    way in the open running back towards that place (:func:`start_places.runs_back`)."""
    b = seg.board
    if not isinstance(b, KoronaBoard) or shooter.kind != STRIKER:
        return ()
    # a striker set against its striking line may stand up to its radius in front of it
    if max(abs(start[0]), abs(start[1])) >= b.half - b.striking_line_offset - b.striker_radius:
        return ()
    waiting = [tr for tr in seg._vanished(tracks, seg._t0 - seg.unseen_window, t, as_disc=True)
               if tr.id in seg._before and tr.born < seg._t0 - 1e-6 and b.striker_waits(*seg._before[tr.id])]
    if not waiting:
        return ()
    chosen = max(waiting, key=lambda tr: tr.last_seen)
    place, rest = seg._before[chosen.id], seg._before.get(shooter.id, start)
    if runs_back(b, shooter, place, rest, seg._t0) \
            or (PUT_DOWN_LINE and lines_up_with_its_rest(b, shooter, place, rest, seg._t0)) \
            or (PUT_DOWN_STAYED and seen_there_after(chosen, shooter, place, seg._t0, TrackerConfig.rest_time)):
        return ()
    return ((shooter.id, chosen.id),)

