"""Scoring discs at rest from one photo: the line-touching rule on the measured board."""

from __future__ import annotations

import re

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import IN_DITCH, IN_HOLE, ON_SURFACE, Detections
from tracker.detect.photo import draw_overlay, score_detections

LIGHT = (70.0, 9.0, 30.0)
DARK = (30.0, 8.0, 14.0)
BOARD = (60.0, 12.0, 35.0)


def _calib(board: CrokinoleBoard) -> Calibration:
    # 1 px = 1 mm, image 800x800 centred on the board, y up.
    H = np.array([[1.0, 0, -400.0], [0, -1.0, 400.0], [0, 0, 1.0]])
    return Calibration(homography=H, image_size=(800, 800), rms_mm=0.3, board=board)


def _dets(rows: list[tuple[float, float, tuple[float, float, float], int]]) -> Detections:
    return Detections(xy=np.array([[x, y] for x, y, _, _ in rows]), color=np.array([c for _, _, c, _ in rows]),
                      where=np.array([w for _, _, _, w in rows]), surround=np.tile(BOARD, (len(rows), 1)))


def test_points_twenties_and_team_order() -> None:
    board = CrokinoleBoard()
    r = board.disc_radius
    half = board.line_width / 2
    rows = [
        (0.0, -150.0, LIGHT, ON_SURFACE),  # 10
        (0.0, 0.0, LIGHT, IN_HOLE),  # 20
        (-60.0, -40.0, DARK, ON_SURFACE),  # 15
        (120.0, 90.0, DARK, ON_SURFACE),  # 10
        # Edge 0.3 mm inside the 15 line's inner edge: 15. Touching it by 0.3 mm: 10.
        (board.fifteen_line_radius - half - r - 0.3, 0.0, DARK, ON_SURFACE),
        (0.0, board.fifteen_line_radius - half - r + 0.3, LIGHT, ON_SURFACE),
        # Touching the shooting line: 0.
        (0.0, board.shooting_line_radius - half - r + 0.1, DARK, ON_SURFACE),
        (-355.0, 10.0, LIGHT, IN_DITCH),
        (355.0, 10.0, DARK, IN_DITCH),
    ]
    result = score_detections(_calib(board), _dets(rows))
    light, dark = 0, 1
    assert result.team_points(light) == 10 + 20 + 10
    assert result.team_points(dark) == 15 + 10 + 15 + 0
    assert result.team_twenties(light) == 1 and result.team_twenties(dark) == 0
    out = result.to_json()
    assert [t["points"] for t in out["teams"]] == [40, 40]
    assert out["teams"][0]["twenties"] == 1
    assert out["ditch_discs"] == 2
    assert out["calibration"]["rms_mm"] == 0.3
    calls = sorted((c["line"], c["gap_mm"]) for c in out["close_calls"])
    assert calls == [("15", -0.3), ("15", 0.3), ("shooting", -0.1)]
    img = draw_overlay(np.zeros((800, 800, 3), np.uint8), result)
    assert img.shape == (800, 800, 3) and img.any()


def test_measured_board_changes_the_call() -> None:
    """A disc whose edge is 206 mm out touches a tournament board's 10 line: a 5. On a board whose 10 line the
    calibration measured at 215 mm, where it is comfortably a 10."""
    rows = [(0.0, 190.0, LIGHT, ON_SURFACE), (0.0, -100.0, DARK, ON_SURFACE)]
    default = score_detections(_calib(CrokinoleBoard()), _dets(rows))
    measured = score_detections(_calib(CrokinoleBoard().with_measured(ten_line_radius=215.0)), _dets(rows))
    assert default.team_points(0) == 5
    assert measured.team_points(0) == 10


def test_no_discs() -> None:
    result = score_detections(_calib(CrokinoleBoard()), Detections.empty())
    assert result.team_points(0) == 0 and result.team_points(1) == 0
    assert "no discs found" in result.notes


def test_a_close_call_on_the_far_side_of_the_disc_is_flagged_unseen() -> None:
    """Camera 35 degrees from vertical, 1.5 m from the centre, to the south. A disc 0.5 mm inside
    the 10 line on the north has the line on its side away from the camera: its top face, 9.5 mm
    up, is seen over the board past its foot by the parallax ``h |P - C| / (C_z - h)`` plus the
    face's enlargement, far more than the gap. The same disc on the south faces the camera with
    that side: nothing hidden, the gap is seen."""
    from tracker.calibration.synthetic import camera_homography

    board = CrokinoleBoard()
    G = camera_homography((1600, 1200), tilt_deg=35.0, distance_mm=1500.0)
    calib = Calibration(homography=np.linalg.inv(G), image_size=(1600, 1200), rms_mm=0.3, board=board)
    r, h, half = board.disc_radius, board.disc_thickness, board.line_width / 2
    y = board.ten_line_radius - half - r - 0.5
    result = score_detections(calib, _dets([(0.0, y, LIGHT, ON_SURFACE), (0.0, -y, DARK, ON_SURFACE)]))
    north, south = result.discs
    C = 1500.0 * np.array([0.0, -np.sin(np.radians(35.0)), np.cos(np.radians(35.0))])
    hidden = h * (y - C[1]) / (C[2] - h) + h / (C[2] - h) * r
    assert abs(north.hidden_mm - hidden) < 0.3 and north.unseen
    assert south.hidden_mm == 0.0 and not south.unseen
    assert abs(north.gap - 0.5) < 1e-6 and abs(south.gap - 0.5) < 1e-6
    calls = {c["y_mm"] > 0: c for c in result.to_json()["close_calls"]}
    assert calls[True]["hidden_mm"] > 5.0 and calls[False]["hidden_mm"] == 0.0


def _spread(colour: tuple[float, float, float], n: int, seed: int) -> list[tuple[float, float, float]]:
    """``n`` discs of one colour as a photo shows them: lightness and hue vary with the light."""
    rng = np.random.default_rng(seed)
    return [(colour[0] + float(dl), colour[1] + float(da), colour[2] + float(db))
            for dl, da, db in zip(rng.uniform(-6, 6, n), rng.uniform(-2, 2, n), rng.uniform(-3, 3, n), strict=True)]


def _places(n: int, radius: float, turn: float) -> list[tuple[float, float]]:
    a = turn + np.arange(n) * 2 * np.pi / n
    return [(float(radius * np.cos(t)), float(radius * np.sin(t))) for t in a]


def test_more_sides_than_colours_leaves_the_extra_side_empty() -> None:
    """``--sides 3`` on a photo of two colours split one side's discs between two teams
    (sam_board3: the dark side's 35 scored 30 and 5). The colours the discs show are the teams;
    the third has no disc, no colour, and a note says so."""
    board = CrokinoleBoard()
    rows = [(x, y, c, ON_SURFACE) for (x, y), c in zip(_places(6, 150.0, 0.0), _spread(LIGHT, 6, 1), strict=True)]  # six 10s
    rows += [(x, y, c, ON_SURFACE) for (x, y), c in zip(_places(6, 60.0, 0.3), _spread(DARK, 6, 2), strict=True)]  # six 15s
    two = score_detections(_calib(board), _dets(rows), sides=2)
    assert [two.team_points(t) for t in range(2)] == [60, 90]
    three = score_detections(_calib(board), _dets(rows), sides=3)
    assert [three.team_points(t) for t in range(3)] == [60, 90, 0]
    out = three.to_json()
    assert out["teams"][2] == {"color": "#000000", "seen": False, "points": 0, "discs": 0, "twenties": 0}
    assert out["teams"][0]["color"] == two.team_colors[0] and out["teams"][1]["color"] == two.team_colors[1]
    assert any("only 2 colours" in n for n in three.notes)
    assert draw_overlay(np.zeros((800, 800, 3), np.uint8), three).any()


def test_three_colours_are_three_sides() -> None:
    board = CrokinoleBoard()
    red = (45.0, 50.0, 30.0)
    rows = [(x, y, c, ON_SURFACE) for (x, y), c in zip(_places(4, 150.0, 0.0), _spread(LIGHT, 4, 1), strict=True)]  # 10s
    rows += [(x, y, c, ON_SURFACE) for (x, y), c in zip(_places(4, 60.0, 0.3), _spread(DARK, 4, 2), strict=True)]  # 15s
    rows += [(x, y, c, ON_SURFACE) for (x, y), c in zip(_places(4, 250.0, 0.5), _spread(red, 4, 3), strict=True)]  # 5s
    three = score_detections(_calib(board), _dets(rows), sides=3)
    assert sorted(three.team_points(t) for t in range(3)) == [20, 40, 60]
    assert None not in three.team_colors and not three.notes


def test_one_disc_is_one_team_and_the_other_has_no_colour() -> None:
    """A one-disc photo (broadcast still 1mWNx3LLiTk) listed both teams in that disc's colour."""
    result = score_detections(_calib(CrokinoleBoard()), _dets([(0.0, -150.0, DARK, ON_SURFACE)]))
    assert [result.team_points(t) for t in range(2)] == [10, 0]
    out = result.to_json()
    assert [t["seen"] for t in out["teams"]] == [True, False]
    assert out["teams"][0]["color"] == result.team_colors[0] and out["teams"][1]["color"] == "#000000"
    assert all(re.fullmatch(r"#[0-9a-f]{6}", t["color"]) for t in out["teams"])  # SPEC: "#rrggbb"
    assert any("teams are a guess" in n for n in result.notes)
