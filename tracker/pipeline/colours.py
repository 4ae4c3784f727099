"""Korona: whose discs are which colour, learned from the discs at rest before the first shot.

Split out of ``pipeline.py`` (behaviour unchanged). Which colour is whose cannot be seen on a
scattered table; the players' colours are clustered (``ColorModel``, classes lightest first) and
handed to seats by the rows they lie in (``identity.owners_from_rows``), falling back to the
convention lightest colour for south, then clockwise. The result goes to the namer
(``Namer.owners``); the tracks' own colour classes are left alone, as the tracker matches
detections on them (overwriting them once split every resting disc from its detections and
started new, nameless tracks).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.infer import ShotRecord
from tracker.pipeline.identity import owners_from_rows
from tracker.track import Track


def korona_owners(board: CrokinoleBoard | KoronaBoard, seats: Sequence[str], players: int,
                  tracks: dict[int, Track], rec: ShotRecord) -> dict[int, str]:
    """Track id -> seat for the discs at rest before the shot ``rec`` (empty for fewer than two
    colours' worth of discs)."""
    from tracker.detect.color import ColorModel

    discs = [tracks[k] for k in rec.before if k in tracks and tracks[k].kind == 0 and tracks[k].color_n]
    k = min(players, len(discs))
    if k < 2:
        return {}
    model = ColorModel.fit(np.array([d.color for d in discs]), k=k)
    classes = [int(c) for c in model.predict(np.array([d.color for d in discs]))]
    owner = owners_from_rows(board, seats, [rec.before[d.id] for d in discs], classes)
    out: dict[int, str] = {}
    for d, c in zip(discs, classes, strict=True):
        i = owner.get(c, c)
        if i < len(seats):
            out[d.id] = str(seats[i])
    return out
