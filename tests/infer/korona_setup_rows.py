"""Four korona players' discs in their standard rows, long at rest, owners known, for the setup
tests (``infer.setup_counts``, ``infer.naming``): which of them were seen is the caller's choice."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC
from tracker.infer.naming import Namer
from tracker.rules.korona.setup import standard_setup
from tracker.track.datatypes import Track

KB = KoronaBoard()


def rows_seen(seen: Callable[[str, int], bool]) -> tuple[Namer, dict[int, Track], dict[int, tuple[float, float]]]:
    """(namer, tracks, places before the first shot) of the discs ``seen(owner, index along its
    row)`` says were seen; the others were never found."""
    namer = Namer("korona", 4, KB)
    tracks: dict[int, Track] = {}
    before: dict[int, tuple[float, float]] = {}
    tid = 1
    index: dict[str, int] = {}
    for owner, at in standard_setup(4, 8, KB).discs.values():
        k = index.get(owner, 0)
        index[owner] = k + 1
        if not seen(owner, k):
            continue
        tracks[tid] = Track(id=tid, kind=DISC, radius=KB.disc_radius, xy=np.array(at), anchor=np.array(at),
                            anchor_n=5)
        tracks[tid].hits = 40
        before[tid] = at
        namer.owners[tid] = owner
        tid += 1
    return namer, tracks, before
