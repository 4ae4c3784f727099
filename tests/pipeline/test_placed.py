"""Korona: a disc put down by hand takes the name of the disc the rules asked to be placed only
when it lands near the place they chose (``pipeline.hands.placed``; board mm).

korona_2p_game: the rules asked for a disc in the centre circle (a disc called off the board);
the next disc the segmenter reported put down was a row disc the detector first found at rest
on the rim, ~430 mm away, and it took that name (an identity switch for the rest of the game)."""

from __future__ import annotations

import math

import numpy as np

from tracker.boards import KoronaBoard
from tracker.infer import HandEvent
from tracker.pipeline import Pipeline
from tracker.pipeline.hands import expire_placements, place_reach, placed
from tracker.rules.korona.setup import standard_setup
from tracker.track.datatypes import Track

KB = KoronaBoard()


def _pipeline() -> Pipeline:
    p = Pipeline("korona", 2)
    p.start_tracking(KB)
    p._expect_place.append(("n6", (0.0, 0.0)))  # what the rules ask after n6 flew off (rule 2.6)
    return p


def test_a_row_disc_found_at_rest_far_away_is_not_the_disc_placed_in_the_centre() -> None:
    p = _pipeline()
    row = max((xy for _, xy in standard_setup(2, 8, KB).discs.values()), key=lambda xy: math.hypot(*xy))
    assert math.hypot(*row) > place_reach(KB)  # the setup's rows lie farther out than the reach
    placed(p, HandEvent("placed", 9.1, 273, 7, row, fresh=True))
    assert 7 not in p.namer.names
    assert p._expect_place == [("n6", (0.0, 0.0))]  # still expected
    # the disc really put down in the centre circle, off the rules' spot, takes the name
    inside = (0.0, KB.centre_circle_radius - KB.disc_radius)
    assert KB.in_centre_circle(*inside, KB.disc_radius)
    placed(p, HandEvent("placed", 10.0, 300, 8, inside, fresh=True))
    assert p.namer.names[8] == "n6" and not p._expect_place


def test_the_nearest_of_two_expected_places_names_the_disc() -> None:
    p = _pipeline()
    p._expect_place.append(("s2", (0.0, -KB.half + KB.striking_line_offset / 2)))
    placed(p, HandEvent("placed", 9.1, 273, 7, (10.0, -KB.half + KB.striking_line_offset / 2 + 20.0), fresh=True))
    assert p.namer.names[7] == "s2" and p._expect_place == [("n6", (0.0, 0.0))]


def test_a_placement_not_made_before_the_next_shot_is_no_longer_expected() -> None:
    """korona_2p_game: s1, wrongly called off the board at 14.55 s, was to be placed in the
    centre circle; nobody did, and the rules' request stayed open to the game's end (124 s),
    ready to name any disc later put down in the centre circle. The rules' placements are made
    before the next shot: once it is judged, a disc put down there is another one."""
    p = _pipeline()
    p.tracker.expect(3, (0.0, 0.0))
    expire_placements(p)  # the next shot is judged
    placed(p, HandEvent("placed", 60.0, 1800, 8, (0.0, 0.0), fresh=True))
    assert 8 not in p.namer.names and not p._expect_place
    assert not p.tracker._expected


def _covered(p: Pipeline, tid: int, xy: tuple[float, float], occluded: bool) -> None:
    """A track ``tid`` at rest at ``xy`` (covered where last seen, or seen there now)."""
    tr = Track(id=tid, kind=0, radius=KB.disc_radius, xy=np.array(xy), state="rest", occluded=occluded)
    p.tracker.tracks.append(tr)


def test_the_old_track_of_the_disc_put_down_gives_up_its_name() -> None:
    """korona_2p_game at 8.0 s: n6 (named n2 there) was judged knocked over the rim unseen; its
    track stayed covered on the rim where it was last seen, still named. The disc put in the
    centre circle took the name too, and two tracks bore it: the shot that later sank the centre
    disc reported it at rest. The disc put down is that disc: the old track is retired."""
    p = _pipeline()
    _covered(p, 5, (-37.5, -KB.half + KB.disc_radius), occluded=True)
    p.namer.names[5] = "n6"
    placed(p, HandEvent("placed", 9.1, 273, 8, (0.0, 0.0), fresh=True))
    assert p.namer.names.get(8) == "n6" and 5 not in p.namer.names
    old = p.tracker.get(5)
    assert old is not None and old.state == "lifted"
    assert 5 in p.tracker._retired


def test_a_track_seen_on_the_board_keeps_its_name() -> None:
    """The same, but the old track is seen on the board now: nothing says it is gone, so it is
    left as it is (the new disc still takes the name the rules asked for)."""
    p = _pipeline()
    _covered(p, 5, (-37.5, -KB.half + KB.disc_radius), occluded=False)
    p.namer.names[5] = "n6"
    placed(p, HandEvent("placed", 9.1, 273, 8, (0.0, 0.0), fresh=True))
    assert p.namer.names.get(8) == "n6" and p.namer.names.get(5) == "n6"
    old = p.tracker.get(5)
    assert old is not None and old.state == "rest"
