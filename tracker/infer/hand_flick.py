"""A crokinole shot disc whose track followed the flicking hand instead of the disc (``judge``'s check).

A shot disc waits on the shooting line and is flicked forward, in over the board: its first stretch
heads inwards (nothing lies behind it to bounce off). At the flick the disc may blur out of the
detector's sight for a few frames while the player's finger, right behind it, is found as a
blurred "disc": the disc's track takes the finger's finds, heading out towards the player, and then
a find in the ditch by the hand. The track is called off the board, and the disc itself, found again
on its way over the board, starts a new track that is left out of the shot (c2h_9986 at 15.7 s:
south's s3, flicked at 900 mm/s, unseen for 6 frames; its track took two finds of the finger 16 mm
behind the line and one of the hand in the ditch; s3 was called off the board, a foul, while it
came to rest at (-167, -204) after two pegs).

Such a shot disc's first stretch heads outwards and its track ends in the ditch; the disc is the
one new track of its kind born moving during the episode (its colour not another side's): a link
(``followed_the_hand``). When the disc's run, first seen in flight, lines back to the line, it is taken
for the shot disc already, flicked from where the hand's track rested: that track is dropped from the
shot and retired (``the_hand``), else called a disc struck off the board. Replays (--dets): c2h_9986's
false off_board (and foul) at 16.85 s gone, s3 at rest at (-168, -204) (position median/p95 1.19/5.09
-> 0.95/5.06 mm); the other 26 crokinole dev matches and 6 fixtures the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.infer.start_places import at_start_place
from tracker.track.datatypes import Track
from tracker.track.merge import other_colour
from tracker.track.tracker import TrackerConfig

if TYPE_CHECKING:
    from tracker.infer.segmenter import ShotSegmenter


def followed_the_hand(seg: ShotSegmenter, shooter: Track, movers: Sequence[Track], paths: dict[int, np.ndarray],
                      start: tuple[float, float]) -> Track | None:
    """The new track that is the shot disc when ``shooter``'s own track followed the flicking
    hand (see the module doc), else None. ``paths``: the movers' sightings (rows t, x, y)."""
    if not isinstance(seg.board, CrokinoleBoard) or not _went_out(seg, shooter, paths.get(shooter.id), start):
        return None
    unlike = TrackerConfig.colour_gate
    fresh = [tr for tr in movers if tr.id != shooter.id and tr.kind == shooter.kind and tr.id not in seg._before
             and tr.born >= seg._t0 - 1e-6 and tr.state != "lifted" and tr.id in paths and _born_moving(paths[tr.id])
             and not at_start_place(seg.board, (float(paths[tr.id][0, 1]), float(paths[tr.id][0, 2])), tr)
             and not seg.unlike_a_disc(tr) and not (unlike is not None and other_colour(shooter, tr, unlike))]
    return fresh[0] if len(fresh) == 1 else None


def _born_moving(p: np.ndarray) -> bool:
    """Whether a path (rows t, x, y) starts on the move: its first two sightings apart by more
    than the tracker's ``move_mm``."""
    return len(p) >= 2 and float(np.hypot(*(p[1, 1:] - p[0, 1:]))) > TrackerConfig.move_mm


def _went_out(seg: ShotSegmenter, tr: Track, p: np.ndarray | None, rest: tuple[float, float]) -> bool:
    """Whether ``tr`` (sightings ``p``, rows t, x, y), resting at ``rest`` on the shooting line
    before the episode, is in the ditch now and its first stretch in the episode headed out (no
    flick sends a disc so: the flicking hand's finds)."""
    q = np.asarray(rest, float)
    out = float(np.hypot(*q))
    if tr.state != "off" or p is None or out < 1.0 or not at_start_place(seg.board, rest, tr):
        return False
    away = [row for row in p if row[0] >= seg._t0 - 1e-6 and float(np.hypot(*(row[1:] - q))) > TrackerConfig.move_mm]
    return bool(away) and float((away[0][1:] - q) @ (q / out)) > 0.0


def the_hand(seg: ShotSegmenter, shooter: Track, movers: Sequence[Track], paths: dict[int, np.ndarray],
             start: tuple[float, float]) -> Track | None:
    """The track that followed the flicking hand when the shot disc, first seen in flight, was
    taken to have left the shooting line (``start_places.put_down_and_flicked``,
    ``flicked_unseen.flicked_unseen``) where that track rested, within a radius: two discs cannot lie on
    one place, that track was the shot disc's until the flick (see the module doc), and its
    later finds (out behind the line, in the ditch) are no disc's. None otherwise."""
    if not isinstance(seg.board, CrokinoleBoard) or shooter.born < seg._t0 - 1e-6:
        return None
    for tr in movers:
        at = seg._before.get(tr.id)
        if tr is shooter or at is None or tr.kind != shooter.kind or tr.born >= seg._t0 - 1e-6:
            continue
        if float(np.hypot(at[0] - start[0], at[1] - start[1])) <= tr.radius and _went_out(seg, tr, paths.get(tr.id), at):
            return tr
    return None
