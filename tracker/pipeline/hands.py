"""What the players' hands did, against what the rules asked: split out of ``pipeline.py``
(behaviour unchanged; the functions take the :class:`Pipeline` whose state they read and set).

* A disc lifted that the rules said must come out (or any, once the round is over) is retired.
* Crokinole: any other disc lifted from the surface is news, said at the next shot if the disc
  is still away (a disc the detector lost for a few seconds and found again never was lifted).
  Korona players take discs out of pockets all game, so their lifts are not news.
* A disc put down where the rules asked for one to be placed takes that disc's name, if it lands
  within ``place_reach`` of the place the rules chose (a disc put down farther away is another one:
  a row disc the detector first found at rest, a disc set back by hand).
* A placement is expected until the next shot is judged (:func:`expire_placements`): the rules'
  placements are made before the next shot, so a disc put down after that is another one.
* The disc put down is the one the rules named: the track that bore its name before (left covered
  where the disc was last seen, when it was judged knocked over the rim or into a pocket unseen:
  ``rim_gone.knocked_out_unseen``) gives the name up and is retired, unless it is seen on the
  board now. Two tracks bore one name (korona_2p_game at 8.0 s: n2, called off, put in the centre
  circle; its old track, covered on the north rim, still named n2, and the shot at 19.0 s that
  sank the centre disc reported n2 at rest instead).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from tracker import events as ev
from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.infer import HandEvent

if TYPE_CHECKING:
    from tracker.pipeline.pipeline import FrameResult, Pipeline


def hand(p: Pipeline, h: HandEvent, res: FrameResult) -> None:
    """One hand event from the segmenter (see the module docstring)."""
    if h.kind == "placed":
        placed(p, h)
        return
    if h.kind != "lifted":
        return
    if h.track in p._pending_lift or p._round_over:
        p._pending_lift.pop(h.track, None)
        p.tracker.retire(h.track)
        return
    # (korona: players take discs out of pockets all game; only crokinole lifts are news)
    if p.game == "crokinole" and h.where == "surface" and not p._round_over and h.track in p.namer.names:
        p._lift_pending[h.track] = h  # said at the next shot, if the disc is still away


def flush_lifts(p: Pipeline, res: FrameResult) -> None:
    """Unexpected lifts, once the next shot starts (or the input ends): a disc the detector
    lost for a few seconds and found again where it lay was never lifted."""
    for tid, h in list(p._lift_pending.items()):
        tr = p.tracker.get(tid)
        if tr is not None and tr.state == "lifted":
            p._emit(ev.removed(h.t, h.frame, p.namer.name(tid), "by_hand", expected=False), res)
    p._lift_pending.clear()


def placed(p: Pipeline, h: HandEvent) -> None:
    """A disc put down: if the rules asked for a disc to be placed, this is that disc."""
    if h.track in p.namer.names or not p._expect_place:
        return

    def cost(item: tuple[str, tuple[float, float] | None]) -> float:
        at = item[1]
        return 0.0 if at is None else float(np.hypot(h.at[0] - at[0], h.at[1] - at[1]))
    best = min(p._expect_place, key=cost)
    if cost(best) > place_reach(p.board):
        return
    p._expect_place.remove(best)
    for tid, name in list(p.namer.names.items()):
        old = p.tracker.get(tid)
        if name != best[0] or tid == h.track or (old is not None and old.alive and not old.occluded):
            continue
        del p.namer.names[tid]
        p.tracker.retire(tid)
        if old is not None and old.alive:
            old.state, old.occluded = "lifted", False
    p.namer.names[h.track] = best[0]


def expire_placements(p: Pipeline) -> None:
    """The next shot is being judged: the placements the rules asked for after the shot before
    were made by now, or not at all (korona_2p_game: s1, wrongly called off the board at 14.55 s,
    was to go in the centre circle; nobody put it there, and the request stayed open to the
    game's end at 124 s; korona_4p_part: three such from 12 s on). None is expected any more, neither
    by name (:func:`placed`) nor at its place (``Tracker.expect``): left, a disc put down in the
    centre circle later in the game would take the name of a disc placed there long before."""
    p._expect_place.clear()
    p.tracker.forget_expected()


def place_reach(board: CrokinoleBoard | KoronaBoard) -> float:
    """How far (mm) from the place the rules chose a disc put down by hand may land and still be
    the disc they asked for: the korona centre circle's diameter (a disc placed "in the centre
    circle" lands anywhere in it, the spot the rules chose is one of its places)."""
    return 2.0 * board.centre_circle_radius if isinstance(board, KoronaBoard) else math.inf
