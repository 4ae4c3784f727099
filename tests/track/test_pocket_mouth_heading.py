"""Korona: a disc lost as it slows by a pocket's mouth went down only if its slide on its heading
brings its centre over the pocket's circle (``fate.NEAR_POCKET_HEADING``), not merely if it had
the way left to get there in some direction.

k2e_9971 at 23.5 s (30 fps, the detector's finds as replayed): n2, knocked towards the se
pocket, slowed along the edge of its mouth; last seen at (352, -374), 16 mm out of the pocket's
circle, at 240 mm/s heading east-north-east (away from the pocket's line), then lost by the
detector. It stopped at (376, -368), 2 mm outside the circle, and was called pocketed."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC
from tracker.track import fate
from tracker.track.datatypes import Sample, Track
from tracker.track.fate import resolve_lost
from tracker.track.tracker import TrackerConfig

B = KoronaBoard()
DT = 1.0 / 30


def _by_the_mouth(heading: tuple[float, float]) -> Track:
    """Seen at 240 mm/s along ``heading`` (unit) to (352, -374), then coasted unseen 0.3 s."""
    u = np.array(heading, float)
    end = np.array([352.0, -374.0])
    tr = Track(id=1, kind=DISC, radius=B.disc_radius, xy=np.zeros(2), state="moving")
    tr.path = [Sample(23.5 - k * DT, *(end - u * 8.0 * k)) for k in range(4, -1, -1)]
    tr.xy, tr.v = end.copy(), u * 240.0
    for k in range(1, 10):  # coasting, unseen, as the tracker does (friction 1500 mm/s^2)
        sp = float(np.hypot(*tr.v))
        tr.v = tr.v * max(sp - TrackerConfig.decel * DT, 0.0) / sp if sp > 0 else tr.v
        tr.xy = tr.xy + tr.v * DT
        tr.path.append(Sample(23.5 + k * DT, float(tr.xy[0]), float(tr.xy[1]), False))
    return tr


def test_a_disc_slowing_past_the_mouth_stays_on_the_board() -> None:
    tr = _by_the_mouth((0.89, 0.45))
    resolve_lost(B, tr, TrackerConfig.decel)
    assert tr.state == "rest" and tr.occluded


def test_the_same_disc_heading_into_the_pocket_goes_down() -> None:
    c = np.array(B.pocket_centres()["se"], float)
    u = c - np.array([352.0, -374.0])
    tr = _by_the_mouth(tuple(u / np.hypot(*u)))
    resolve_lost(B, tr, TrackerConfig.decel)
    assert (tr.state, tr.pocket) == ("pocket", "se")


def test_without_the_heading_it_was_called_pocketed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fate, "NEAR_POCKET_HEADING", False)
    tr = _by_the_mouth((0.89, 0.45))
    resolve_lost(B, tr, TrackerConfig.decel)
    assert (tr.state, tr.pocket) == ("pocket", "se")
