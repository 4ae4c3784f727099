"""Korona: a disc called pocketed whose place a new track was found on during the shot is that
disc (``pipeline.found_in_place``, asked by ``identity.reconcile``)."""

from __future__ import annotations

from tests.pipeline.tracks import track_at as _track
from tracker.infer import ShotRecord
from tracker.pipeline.identity import reconcile
from tracker.track.datatypes import Sample


def test_a_korona_disc_called_pocketed_but_found_in_its_place_during_the_shot_is_that_disc() -> None:
    """k4h_9606 at 8.5 s: e1's track followed south's striker off the west rim into the nw
    pocket, while e1 itself was found again at its place as a new nameless track 0.1 s later.
    The new track is e1 (never left; no pocket), not a disc of its own; a nameless track found
    a disc's width along the rim (a row-mate) is not."""
    place = (-412.5, -87.8)
    tracks = {
        1: _track(1, (177.0, 54.0), 0.0, last_seen=8.6),  # the striker
        18: _track(18, (-408.0, 229.0), 0.0, state="pocket", last_seen=7.27),  # e1's track, "pocketed"
        30: _track(30, (place[0], place[1] + 0.3), 8.33, last_seen=8.6),  # found in e1's place
    }
    tracks[30].path.append(Sample(8.5, place[0], place[1] + 0.5))
    names = {18: "e1"}
    rec = ShotRecord(disc=1, start=(-148.0, -319.0), t_start=7.17, t_end=8.65, frame_start=215, frame_end=259,
                     ends={1: (177.0, 54.0), 18: "pocket:nw", 30: (place[0], place[1] + 0.3)},
                     before={1: (-148.0, -319.0), 18: place})
    assert reconcile(rec, tracks, names, korona=True) == [(30, 18)]
    mate = dict(tracks)
    mate[30] = _track(30, (place[0], place[1] + 25.0), 8.33, last_seen=8.6)
    assert reconcile(rec, mate, names, korona=True) == []
