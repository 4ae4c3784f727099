"""Korona: a rim disc pushed down a corner pocket along its row, seen only as a lone glimpse in the
pocket's mouth.

A blow that enters a row of touching discs against the rim passes along the row to its far end
(equal masses: the momentum runs through), and the last disc slides on along the rim, down the
corner pocket if the row points at one. The detector loses the whole row the moment it is struck
(rows against the rim are found on its full passes only) and the far disc runs to the corner in a
few frames: it is found at most once or twice, in the pocket's mouth, too few times for a track
(k4h_9996 at 4.03 s: s8, the far end of the south row struck at its west end, found once 66 mm
from the ne pocket's centre and down it 0.2 s later; k4h_9966 at 23.13 s, k4h_9984 at 35.13 s,
the same). No mover's path comes near the far disc (``rim_gone.rim_gone`` looks for one), and the
shot is judged before the detector's next full pass finds the row again, so the disc was left
covered where it rested and its pocket was lost.

What tells it: a detection in a corner pocket's mouth against a rim that no track on the board
took during the episode (a *glimpse*, kept by the pipeline: :func:`glimpses`), nothing found
resting there since, and a struck row of touching discs (their places before the shot) against
that rim whose disc nearest that corner is covered since the shot began: that disc went down the
pocket (a disc against the rim cannot pass another along it). The row's end may also have been
"found" about its place: its track took the detection of the row-mate that struck it and stopped
there (k4h_9984 at 35.1 s, k4h_9966 at 23.1 s). The segmenter adds these ends to the shot it
judges (``ShotSegmenter._judge``). Pure functions on tracks, detections and the board model.

Replays of the cached detections (``bench_review.py --dets``), off -> on: k4h dev rounds 3/10 ->
6/10 (k4h_9996, k4h_9966, k4h_9984), pockets R/P 65/94 -> 74/89 (k4h_9984's pocket is found but
timed at the shot's end, 37.2 s, where the video ends, 2 s after the truth's: counted missed and
extra); k2e_9983 0/1 -> 1/1 (pockets 67 -> 100%); the other k2e dev matches, k2e_10005,
k4h_10006 and the 11 fixtures the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.boards.korona import Pocket
from tracker.detect.datatypes import STRIKER, Detections
from tracker.infer.datatypes import End
from tracker.infer.ends import reached
from tracker.infer.rim_gone import LOST_AT_FLICK
from tracker.track.datatypes import Track
from tracker.track.ghost_course import ROW_SLACK_MM

# Korona: judge a struck row's end down the corner pocket a lone detection was glimpsed in
# (``ShotSegmenter._judge``). False: off.
ON = True
# A glimpse lies in a pocket's mouth when its centre is within the pocket's radius and this many
# disc diameters of the pocket's centre (the mouth along the rims is wider than the pocket's
# circle: a disc sliding along a rim into the corner is found 30-70 mm out of the centre).
MOUTH_DIAMETERS = 2.0
# A disc down a pocket unseen for this many seconds and taken for a detection in the pocket's
# mouth was not seen there: the detection is another disc going down (``glimpses``); one seen down
# there all along (a disc in the pocket's circle is found now and then) is itself.
DOWN_UNSEEN_S = 1.0


def mouth_of(board: CrokinoleBoard | KoronaBoard, x: float, y: float) -> Pocket | None:
    """The korona pocket in whose mouth a detection at (x, y) lies against a rim (its centre within
    a disc's diameter of the rim, and ``MOUTH_DIAMETERS`` diameters and the pocket's radius of the
    pocket's centre), or None."""
    if not isinstance(board, KoronaBoard) or board.rim_against(x, y, board.disc_radius) is None:
        return None
    reach = board.pocket_radius + MOUTH_DIAMETERS * board.disc_diameter
    for name, (px, py) in board.pocket_centres().items():
        if float(np.hypot(x - px, y - py)) <= reach:
            return name
    return None


def glimpses(board: CrokinoleBoard | KoronaBoard, dets: Detections, det_track: np.ndarray, tracks: Sequence[Track],
             t: float) -> list[tuple[float, float, float]]:
    """The detections of a frame at ``t`` lying in a korona pocket's mouth (:func:`mouth_of`) that
    no track on the board took (``det_track``: none, or one already down a pocket, which the
    tracker lets see a disc within its pocket's circle: k4h_9984 at 35.13 s, s7 found once in the
    ne pocket's circle as it went down, taken by s6's track, down there since 4.0 s), as rows t,
    x, y; none on a crokinole board."""
    if not ON or not isinstance(board, KoronaBoard):
        return []
    down = {tr.id for tr in tracks if tr.state == "pocket" and _unseen_for(tr, t) >= DOWN_UNSEEN_S}
    return [(t, float(x), float(y)) for j, (x, y) in enumerate(dets.xy)
            if j < len(det_track) and (det_track[j] < 0 or int(det_track[j]) in down)
            and dets.kind[j] != STRIKER and mouth_of(board, x, y)]


def _unseen_for(tr: Track, t: float) -> float:
    """Seconds from ``tr``'s last sighting before ``t`` to ``t`` (infinite if none)."""
    prev = [s.t for s in tr.path if s.measured and s.t < t - 1e-6]
    return t - prev[-1] if prev else float("inf")


def glimpsed_pockets(board: CrokinoleBoard | KoronaBoard, tracks: Sequence[Track], ends: Mapping[int, End],
                     shooter: int, before: Mapping[int, tuple[float, float]], moved: set[int], t0: float,
                     glimpses: Sequence[tuple[float, float, float]]) -> dict[int, End]:
    """The ends of rim discs pushed down a corner pocket along their row (:func:`_row_end`), one
    per pocket glimpsed in (``glimpses``: rows t, x, y of detections no track took, in a pocket's
    mouth, during the episode that began at ``t0``) beyond the disc's place, when nothing is seen
    resting by the glimpse since and no disc is already called down that pocket in ``ends``."""
    if not ON or not isinstance(board, KoronaBoard) or not glimpses:
        return {}
    out: dict[int, End] = {}
    by_id = {tr.id: tr for tr in tracks}
    movers = [tr for tr in tracks if tr.id in moved]
    taken = {e for e in ends.values() if isinstance(e, str)}
    for tg, gx, gy in sorted(glimpses):
        pocket = mouth_of(board, gx, gy)
        if pocket is None or f"pocket:{pocket}" in taken or tg < t0:
            continue
        if _found_there(board, tracks, (gx, gy), tg):
            continue
        rim = board.rim_against(gx, gy, board.disc_radius)
        tr = _row_end(board, by_id, before, movers, rim, pocket, t0, tg, set(out), shooter, ends)
        if tr is not None and _beyond(board, before[tr.id], (gx, gy), pocket, rim):
            out[tr.id] = f"pocket:{pocket}"
            taken.add(f"pocket:{pocket}")
    return out


def _beyond(board: KoronaBoard, at: tuple[float, float], glimpse: tuple[float, float], pocket: Pocket,
            rim: tuple[int, int] | None) -> bool:
    """Whether the ``glimpse`` lies along the rim beyond ``at`` towards ``pocket``'s corner."""
    if rim is None:
        return False
    along = 1 - rim[0]
    corner = board.pocket_centres()[pocket][along]
    return bool((glimpse[along] - at[along]) * np.sign(corner) > 0)


def _found_there(board: KoronaBoard, tracks: Sequence[Track], at: tuple[float, float], tg: float) -> bool:
    """Whether a disc is seen at rest near ``at`` (within two diameters) after the glimpse at
    ``tg``: it stopped in the mouth, on the board."""
    q = np.asarray(at, float)
    return any(tr.state in ("rest", "moving") and not tr.occluded and tr.last_seen >= tg
               and float(np.hypot(*(tr.xy - q))) <= 2 * board.disc_diameter for tr in tracks)


def _row_end(board: KoronaBoard, by_id: Mapping[int, Track], before: Mapping[int, tuple[float, float]],
             movers: Sequence[Track], rim: tuple[int, int] | None, pocket: Pocket, t0: float, tg: float,
             excluded: set[int], shooter: int, ends: Mapping[int, End]) -> Track | None:
    """The disc nearest ``pocket``'s corner of the row of touching discs (their places before the
    shot) against ``rim`` nearest that corner that a mover reached or that holds a mover, when it
    has been covered since the shot began (unseen since ``t0`` less ``rim_gone.LOST_AT_FLICK``, and
    before the glimpse at ``tg``) or ends about its place (:func:`_in_place_after`), and no row
    nearer the corner that nothing reached is seen since the glimpse (a disc against the rim
    cannot pass another). None otherwise."""
    if rim is None:
        return None
    along = 1 - rim[0]
    corner = board.pocket_centres()[pocket][along]
    r = board.disc_radius
    on_rim = sorted(((i, xy) for i, xy in before.items() if i in by_id and by_id[i].kind != STRIKER
                     and board.rim_against(xy[0], xy[1], r) == rim),
                    key=lambda e: e[1][along] * np.sign(corner))  # towards the corner last
    if not on_rim:
        return None
    ids = {m.id for m in movers}
    # the rows of touching discs, the one nearest the corner first
    rows: list[list[tuple[int, tuple[float, float]]]] = [[on_rim[-1]]]
    for i, xy in reversed(on_rim[:-1]):
        last = rows[-1][-1][1]
        if float(np.hypot(xy[0] - last[0], xy[1] - last[1])) > 2 * r + ROW_SLACK_MM:
            rows.append([])
        rows[-1].append((i, xy))
    for row in rows:
        struck = any(i in ids or reached([m for m in movers if m.id != i], xy, r, t0, r) for i, xy in row)
        if not struck:
            # a row nearer the corner seen in place since: the pushed disc cannot have passed it
            if any(not by_id[i].occluded and by_id[i].last_seen >= tg for i, _ in row):
                return None
            continue
        end_id, end_xy = row[0]
        tr = by_id[end_id]
        if end_id in excluded or end_id == shooter or isinstance(ends.get(end_id), str) \
                or (corner - end_xy[along]) * np.sign(corner) < 0:
            return None
        covered = tr.state == "rest" and tr.occluded and t0 - LOST_AT_FLICK <= tr.last_seen <= tg
        return tr if covered or _in_place_after(tr, end_xy, ends.get(end_id), board.disc_diameter) else None
    return None


def _in_place_after(tr: Track, at: tuple[float, float], end: End | None, reach: float) -> bool:
    """Whether ``tr``, a row's end, moved in the shot and ends within ``reach`` of where it rested
    (``at``): its track took the detection of the row-mate that struck it and stopped there as it
    went on (equal masses; the struck disc carries the blow on), while a disc was glimpsed beyond
    it, which cannot pass it along the rim (k4h_9984 at 35.1 s: s6, knocked along the north rim into
    s7, stopped 2 mm from s7's place; s7, glimpsed once in the ne pocket's circle, went down it, and
    s7's track took s6's detection)."""
    return isinstance(end, tuple) and float(np.hypot(end[0] - at[0], end[1] - at[1])) <= reach
