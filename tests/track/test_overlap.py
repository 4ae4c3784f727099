"""Two discs cannot overlap: a mover whose own detection is missing does not take the find on
the place of a disc resting there that its run does not reach (``overlap.mover_on_rest_place``)."""

from __future__ import annotations

from dataclasses import replace

from tests.track.korona_frames import names_through
from tracker.detect.datatypes import DISC, STRIKER
from tracker.track.tracker import TrackerConfig

D, S = DISC, STRIKER

# k2e_9971 at 37.07-37.87 s (30 fps), the detector's finds near the north-east corner: south's
# s8 (at 188.5, 326.3), struck by the striker, glances off s7 (resting against the north rim at
# 235.2, 407.5) and runs on east-south-east, unseen at 37.50 s; s7, nudged 6.6 mm south, is found
# then. Truth at rest after: s7 at (237, 398), s8 at (346, 339).
FRAMES: list[list[tuple[float, float, int]]] = [
    *[[(235.2, 407.5, D), (188.5, 326.3, D)]] * 8,
    [(235.2, 407.5, D), (188.8, 326.3, D), (159.3, 287.8, S)],
    [(235.2, 407.5, D), (168.2, 302.8, S)],
    [(235.2, 407.5, D), (173.1, 312.0, S), (213.3, 352.6, D)],
    [(235.1, 408.4, D), (177.8, 320.8, S), (230.8, 375.1, D)],
    [(236.3, 405.9, D), (245.4, 380.6, D), (182.0, 328.2, S)],
    [(236.0, 400.9, D), (185.1, 334.4, S)],
    [(274.9, 367.4, D), (236.0, 397.1, D), (187.9, 339.7, S)],
    [(287.1, 362.2, D), (235.6, 396.6, D), (190.0, 343.7, S)],
    [(235.6, 396.6, D), (298.5, 357.5, D), (191.5, 346.7, S)],
    [(235.6, 396.6, D), (308.1, 353.7, D), (192.8, 348.7, S)],
    [(235.6, 396.6, D), (317.8, 349.2, D), (192.8, 349.1, S)],
    [(235.6, 396.6, D), (192.8, 349.1, S), (325.4, 346.0, D)],
    [(235.6, 396.6, D), (192.8, 349.1, S), (332.1, 343.4, D)],
    [(235.6, 396.6, D), (192.8, 349.1, S), (337.5, 341.5, D)],
    [(235.6, 396.6, D), (192.8, 349.1, S), (341.6, 339.4, D)],
    [(235.6, 396.6, D), (192.8, 349.1, S), (344.7, 338.1, D)],
    *[[(235.6, 396.6, D), (192.8, 349.1, S), (346.3, 337.2, D)]] * 10,
]


def _names(cfg: TrackerConfig) -> tuple[tuple[int, int], tuple[int, int]]:
    """(s7, s8) track ids before the blow and at rest after it (-1: no track there)."""
    return names_through(cfg, FRAMES, 37.0667, 7, ((235.2, 407.5), (188.5, 326.3)), ((237.0, 398.0), (346.0, 339.0)))


def test_a_glancing_mover_does_not_take_the_nudged_disc_find() -> None:
    before, after = _names(TrackerConfig())
    assert -1 not in before and before[0] != before[1]
    assert after == before  # s7 and s8 kept their names


def test_without_the_rule_the_two_names_swap() -> None:
    """The rule off (as before): s8's track took s7's find and the names swapped."""
    before, after = _names(replace(TrackerConfig(), no_overlap=False))
    assert after != before
