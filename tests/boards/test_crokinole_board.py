"""Crokinole geometry at the line boundaries: both sides of each line (SPEC section 2)."""

from __future__ import annotations

import math

import pytest

from tracker.boards import CrokinoleBoard, load_profile

B = CrokinoleBoard()
R = B.disc_radius
HALF = B.line_width / 2
EPS = 0.01


def at(d: float, angle_deg: float = 30.0) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return (d * math.cos(a), d * math.sin(a))


@pytest.mark.parametrize(
    ("line_radius", "inside", "touching"),
    [
        (B.fifteen_line_radius, 15, 10),
        (B.ten_line_radius, 10, 5),
        (B.shooting_line_radius, 5, 0),
    ],
)
@pytest.mark.parametrize("angle", [0.0, 77.0, 200.0, 333.0])
def test_disc_inside_line_scores_inner_zone_and_touching_scores_lower(line_radius, inside, touching, angle):
    edge = line_radius - HALF  # the line's inner edge
    assert B.zone(*at(edge - R - EPS, angle)) == inside
    assert B.zone(*at(edge - R + EPS, angle)) == touching
    # Straddling the line centre and just outside the line's outer edge: still the lower value.
    assert B.zone(*at(line_radius, angle)) == touching
    assert B.zone(*at(line_radius + HALF + R + EPS, angle)) == touching


def test_hole_boundary():
    lim = B.hole_radius + B.hole_tolerance - R
    assert B.zone(*at(lim - EPS)) == 20
    assert B.zone(*at(lim + EPS)) == 15
    assert B.in_hole(0.0, 0.0)


def test_touches_shooting_line_both_sides():
    edge = B.shooting_line_radius - HALF
    assert not B.touches_shooting_line(*at(edge - R - EPS))
    assert B.touches_shooting_line(*at(edge - R + EPS))


def test_fifteen_line_touch_for_no_opponent_rule():
    outer = B.fifteen_line_radius + HALF
    assert B.touches_fifteen_line_or_inside(*at(outer + R - EPS))
    assert not B.touches_fifteen_line_or_inside(*at(outer + R + EPS))


def test_off_surface_and_ditch():
    assert B.on_surface(*at(B.surface_radius - EPS))
    assert not B.on_surface(*at(B.surface_radius + EPS))
    assert B.in_ditch(*at(B.surface_radius + 10))
    assert B.zone(*at(B.surface_radius + 10)) == 0


@pytest.mark.parametrize(
    ("angle", "seat"),
    [(270, "south"), (225.5, "south"), (314.5, "south"), (0, "east"), (44.5, "east"),
     (90, "north"), (45.5, "north"), (180, "west"), (134.5, "north"), (135.5, "west")],
)
def test_quadrant_seat(angle, seat):
    assert B.seat_of(*at(200.0, angle)) == seat


def test_pegs_on_fifteen_line_at_22_5_degrees():
    pegs = B.peg_positions()
    assert len(pegs) == 8
    for k, (x, y) in enumerate(pegs):
        assert math.hypot(x, y) == pytest.approx(B.fifteen_line_radius)
        assert math.degrees(math.atan2(y, x)) % 360 == pytest.approx((22.5 + 45 * k) % 360)


def test_line_gaps_sign():
    name, gap = B.closest_line_gap(*at(B.ten_line_radius - HALF - R - 0.4))
    assert name == "10" and gap == pytest.approx(0.4)
    name, gap = B.closest_line_gap(*at(B.ten_line_radius - HALF - R + 0.3))
    assert name == "10" and gap == pytest.approx(-0.3)


def test_profile_overrides_and_refuses_unknown(tmp_path):
    p = tmp_path / "board.json"
    p.write_text('{"game": "crokinole", "ten_line_radius": 200.0, "outer_shape": "octagon"}')
    b = load_profile(p)
    assert isinstance(b, CrokinoleBoard)
    assert b.ten_line_radius == 200.0 and b.outer_shape == "octagon"
    p.write_text('{"game": "crokinole", "ring_count": 4}')
    with pytest.raises(Exception, match="ring_count"):
        load_profile(p)


def test_a_disc_centred_well_over_the_hole_tips_in() -> None:
    """Over the hole's edge a disc rests on the part of it outside the hole; once the chord where
    the two rims cross passes beyond its centre (d^2 < R^2 - r^2), nothing is under its centre of
    mass and it cannot rest on the surface."""
    b = CrokinoleBoard()
    edge = math.sqrt(b.hole_radius ** 2 - b.disc_radius ** 2)  # 7.4 mm
    assert b.tips_into_hole(0.0, 0.0) and b.tips_into_hole(0.0, edge - 0.1)
    assert not b.tips_into_hole(edge + 0.1, 0.0)
    assert not b.in_hole(0.0, edge - 0.1)  # not in the hole by SPEC 2's rule alone
