from __future__ import annotations

import math

import numpy as np
import pytest

from tests.calibration.conftest import crokinole_view
from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration import calibrate_markers, calibrate_points, parse_points
from tracker.calibration.geometry import apply_h, reprojection_error_mm
from tracker.calibration.synthetic import camera_homography, draw_crokinole_topdown, synthetic_view
from tracker.errors import CalibrationError, InputError


def test_points_recover_homography() -> None:
    G = camera_homography((640, 480), 35, 20)
    mm = np.array([[0, 0], [300, 0], [0, 300], [-300, 0], [0, -300], [200, 200]], float)
    px = apply_h(G, mm) + np.random.default_rng(0).normal(0, 0.1, (6, 2))
    calib = calibrate_points(px, mm, (640, 480), "crokinole")
    mean, worst = reprojection_error_mm(calib.homography, np.linalg.inv(G), 330.2)
    assert mean < 0.5 and worst < 1.5
    assert len(calib.residuals_mm) == 6 and calib.rms_mm < 0.5
    assert calib.method == "points"


def test_parse_points_named_features() -> None:
    b = CrokinoleBoard()
    px, mm = parse_points("10,20=centre; 30,40=peg1; 50,60=shoot_s; 70,80=12.5,-3", b)
    assert px.tolist() == [[10, 20], [30, 40], [50, 60], [70, 80]]
    assert mm[0].tolist() == [0, 0]
    assert mm[1] == pytest.approx([101.6 * math.cos(math.radians(22.5)), 101.6 * math.sin(math.radians(22.5))])
    assert mm[2] == pytest.approx([0, -304.8], abs=1e-9)
    assert mm[3].tolist() == [12.5, -3]
    k = KoronaBoard()
    _, mm = parse_points("1,1=corner_ne;2,2=pocket_sw;3,3=mark_w;4,4=center", k)
    assert mm[0].tolist() == [k.half, k.half]
    assert mm[1].tolist() == list(k.pocket_centres()["sw"])
    assert mm[2] == pytest.approx([-k.half, 0.0])


@pytest.mark.parametrize("text,msg", [
    ("1,2=0,0;3,4=1,1;5,6=2,2", "at least 4"),
    ("1,2=nowhere;3,4=1,1;5,6=2,2;7,8=3,3", "unknown board feature"),
    ("a,b=0,0;3,4=1,1;5,6=2,2;7,8=3,3", "not an image point"),
    ("1,2;3,4=1,1;5,6=2,2;7,8=3,3", "should look like"),
])
def test_parse_points_errors(text: str, msg: str) -> None:
    with pytest.raises(InputError, match=msg):
        parse_points(text, CrokinoleBoard())


def test_collinear_points_refused() -> None:
    px = np.array([[0, 0], [1, 1], [2, 2], [3, 3]], float)
    mm = np.array([[0, 0], [10, 0], [0, 10], [10, 10]], float)
    with pytest.raises(CalibrationError, match="collinear"):
        calibrate_points(px, mm, (100, 100))


def _marker_scene() -> tuple[np.ndarray, np.ndarray, dict]:
    import cv2

    board = CrokinoleBoard()
    top, M = draw_crokinole_topdown(board, 1.0)
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    markers = {}
    Minv = np.linalg.inv(M)
    for mid, (cx, cy) in {3: (-330.0, 330.0), 7: (330.0, -330.0), 9: (330.0, 330.0), 12: (-330.0, -330.0)}.items():
        tag = cv2.aruco.generateImageMarker(d, mid, 60)  # 60 px = 60 mm, white quiet zone around
        u, v = np.round(apply_h(M, np.array([[cx, cy]]))[0]).astype(int)
        top[v - 40:v + 40, u - 40:u + 40] = 255
        top[v - 30:v + 30, u - 30:u + 30] = cv2.cvtColor(tag, cv2.COLOR_GRAY2BGR)
        # outer corners of the tag's pixels (pixel centres are at integers)
        px = np.array([[u - 30.5, v - 30.5], [u + 29.5, v - 30.5], [u + 29.5, v + 29.5], [u - 30.5, v + 29.5]])
        markers[str(mid)] = apply_h(Minv, px).tolist()
    G = camera_homography((800, 600), 25, 10, distance_mm=1500, focal_px=700)
    img = synthetic_view(top, M, G, (800, 600))
    return img, np.linalg.inv(G), {"dictionary": "DICT_4X4_50", "markers": markers}


def test_markers_fallback() -> None:
    img, H_true, mmap = _marker_scene()
    calib = calibrate_markers(img, mmap, "crokinole")
    assert set(calib.residuals_mm) == {"marker3", "marker7", "marker9", "marker12"}
    mean, worst = reprojection_error_mm(calib.homography, H_true, 330.2)
    assert mean < 1.0 and worst < 2.0, (mean, worst)
    assert calib.method == "markers"


def test_markers_absent_refused() -> None:
    img, _, _ = _marker_scene()
    with pytest.raises(CalibrationError, match="no board markers"):
        calibrate_markers(img, {"dictionary": "DICT_4X4_50", "markers": {"42": [[0, 0], [1, 0], [1, 1], [0, 1]]}})


def test_markers_map_errors(tmp_path) -> None:
    from tracker.calibration.markers import load_marker_map

    p = tmp_path / "m.json"
    p.write_text('{"markers": {"1": [[0, 0]]}}')
    with pytest.raises(InputError, match="4 \\[x, y\\] corners"):
        load_marker_map(p)
    with pytest.raises(InputError, match="does not exist"):
        load_marker_map(tmp_path / "none.json")


def test_crokinole_view_fixture_is_consistent() -> None:
    # the fixture's truth maps the drawn hole to the board centre
    img, H_true = crokinole_view(20, 0)
    c = apply_h(np.linalg.inv(H_true), np.array([[0.0, 0.0]]))[0].astype(int)
    assert img[c[1], c[0]].mean() < 60  # the hole is dark
