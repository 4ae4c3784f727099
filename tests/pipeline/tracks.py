"""Hand-made tracks for the identity tests (``pipeline.identity``, ``pipeline.found_in_place``)."""

from __future__ import annotations

import numpy as np

from tracker.detect.datatypes import DISC
from tracker.track import Track
from tracker.track.datatypes import Sample


def track_at(tid: int, xy: tuple[float, float], born: float, state: str = "rest", occluded: bool = False,
             last_seen: float = 0.0) -> Track:
    """A disc's track at ``xy`` (mm), born at ``born`` (s) and seen there once."""
    tr = Track(id=tid, kind=DISC, radius=12.5, xy=np.array(xy), anchor=np.array(xy), anchor_n=3,
               state=state, occluded=occluded, born=born, last_seen=last_seen)  # type: ignore[arg-type]
    tr.path = [Sample(born, xy[0], xy[1])]
    return tr
