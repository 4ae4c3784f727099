"""Korona: an unseen disc driven into a rim does not rebound through the striker that drove it
there (``rims.rebound_blocked``, off by default: ``TrackerConfig.rebound_blocked``)."""

from __future__ import annotations

from dataclasses import replace

from tests.track.korona_frames import names_through
from tracker.detect.datatypes import DISC, STRIKER
from tracker.track.tracker import TrackerConfig

D, S = DISC, STRIKER
ROW = [(37.1, -394.5, D), (12.4, -412.5, D), (62.4, -412.5, D), (87.4, -412.5, D)]

# k2e_9941 at 21.3-22.07 s (30 fps), the detector's finds by the north rim: the striker comes up
# the board and drives n3 (16 mm off the rim at 37, -395) into it; the row beside it (n4, n2, n1)
# and n3 go unseen for two frames; n3 is found again crept back 6 mm (43, -405), then coming to
# rest at (46, -394); n2 is found again at (77, -410). Truth at rest: n3 (47, -395), n2 (77, -411).
FRAMES: list[list[tuple[float, float, int]]] = [
    *[ROW] * 7,
    [*ROW, (41.0, -221.0, S)],
    [*ROW, (40.0, -251.5, S)],
    [*ROW, (39.5, -282.0, S)],
    [*ROW, (38.5, -312.4, S)],
    [(12.4, -412.5, D), (62.4, -412.5, D), (87.4, -412.5, D), (37.2, -394.4, D), (37.1, -342.9, S)],
    [(34.1, -368.0, S)],
    [(30.4, -364.5, S)],
    [(42.9, -405.0, D), (26.5, -357.8, S)],
    [(44.3, -400.7, D), (23.5, -351.6, S)],
    [(45.4, -397.0, D), (76.6, -409.6, D), (20.8, -347.2, S)],
    [(46.1, -394.7, D), (76.9, -409.6, D), (18.8, -343.8, S)],
    *[[(76.9, -409.6, D), (46.3, -393.5, D), (17.5, -340.4, S)]] * 8,
]


def _names(cfg: TrackerConfig) -> tuple[tuple[int, int], tuple[int, int]]:
    """(n3, n2) track ids before the blow and at rest after it."""
    return names_through(cfg, FRAMES, 21.1, 6, ((37.1, -394.5), (62.4, -412.5)), ((46.3, -393.5), (76.9, -409.6)))


def test_a_disc_pressed_into_the_rim_by_the_striker_stays_there() -> None:
    before, after = _names(replace(TrackerConfig(), rebound_blocked=True))
    assert -1 not in before and before[0] != before[1]
    assert after == before


def test_rebounding_through_the_striker_loses_it() -> None:
    """As before: n3's forecast came back off the rim through the striker, and n2's track took
    n3's find."""
    before, after = _names(replace(TrackerConfig(), rebound_blocked=False))
    assert after != before
