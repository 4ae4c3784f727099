"""A board cut by the image edge is refused with a sentence naming the edge; a faint shooting
line under a light ramp is told from the playing surface's edge by the edge outside it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.calibration.conftest import SIZE
from tracker.boards import CrokinoleBoard
from tracker.calibration import calibrate_image
from tracker.calibration.crokinole_measure import line_or_edge
from tracker.calibration.framing import outside
from tracker.calibration.synthetic import camera_homography, draw_crokinole_topdown, synthetic_view
from tracker.cli import main
from tracker.errors import CalibrationError

FOCAL = 0.7 * SIZE[0] * 1400 / 1000
SHOOTING = CrokinoleBoard().shooting_line_radius

def _view(target: tuple[float, float], tilt: float = 0.0) -> np.ndarray:
    G = camera_homography(SIZE, tilt, 0, distance_mm=1400, focal_px=FOCAL, target=target)
    top, M = draw_crokinole_topdown(CrokinoleBoard(), 1.0)
    return synthetic_view(top, M, G, SIZE, noise=2.0, seed=1)

def test_outside_fraction_and_side() -> None:
    G = camera_homography(SIZE, 0, 0, distance_mm=1400, focal_px=FOCAL)
    assert outside(G, SIZE, None, SHOOTING) == (0.0, "")
    # the centre on the image's left border: the left half of every circle is outside
    Gl = np.array([[1.0, 0, -320.0], [0, 1, 0], [0, 0, 1]]) @ G
    frac, side = outside(Gl, SIZE, None, SHOOTING)
    assert side == "left" and frac == pytest.approx(0.5, abs=0.02)
    Gb = np.array([[1.0, 0, 0], [0, 1, 240.0], [0, 0, 1]]) @ G
    assert outside(Gb, SIZE, None, SHOOTING)[1] == "bottom"

def test_board_cut_by_image_edge_names_the_edge(tmp_path: Path, capsys) -> None:
    """`tracker calibrate` on a board whose centre is 150 px from the left border (a third of
    the shooting line cut): exit 2, one line naming the edge, nothing written."""
    import cv2

    src = tmp_path / "cut.png"
    cv2.imwrite(str(src), _view((550.0, 0.0)))
    out = tmp_path / "out" / "calib.json"
    out.parent.mkdir()
    rc = main(["calibrate", str(src), "--game", "crokinole", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.count("\n") == 1 and "runs off the image at the left edge" in err, err
    assert list(out.parent.iterdir()) == []


def test_board_just_inside_the_picture_still_calibrates() -> None:
    # shifted so the rim is cut but the shooting line shows whole
    img = _view((300.0, 0.0))
    calib = calibrate_image(img, "crokinole")
    assert calib.rms_mm < 1.0

def _faint_ramp(board: CrokinoleBoard) -> tuple[np.ndarray, np.ndarray]:
    """A top-down view: lines 4 grey levels deep under a light that brightens outwards by 0.2%
    per mm (the QN0uEWqa-X4 broadcast), with a dark ditch outside the surface."""
    px = 1.0
    top, M = draw_crokinole_topdown(board, px, surface=(170, 190, 205), line=(166, 186, 201),
                                    ditch=(50, 50, 60))
    n = top.shape[0]
    yy, xx = np.mgrid[0:n, 0:n]
    r = np.hypot(xx - n / 2, yy - n / 2) / px
    gain = np.clip(1.0 + 0.002 * (r - board.shooting_line_radius), 0.5, 1.3)
    inside = r <= board.surface_radius
    top = top.astype(np.float64)
    top[inside] *= gain[inside][:, None]
    top = np.clip(top, 0, 255).astype(np.uint8)
    G = camera_homography(SIZE, 0, 0, distance_mm=1400, focal_px=FOCAL)
    return synthetic_view(top, M, G, SIZE, noise=0.5, seed=3), G

def test_faint_line_under_a_light_ramp_is_a_line_and_the_edge_is_not() -> None:
    board = CrokinoleBoard()
    img, G = _faint_ramp(board)
    # the plain line test would call this line an edge: its step is large for its depth ...
    assert line_or_edge(img, G) > 0.6
    # ... and the surface edge taken for the shooting line is still refused
    f = board.surface_radius / board.shooting_line_radius
    with pytest.raises(CalibrationError, match="edge"):
        line_or_edge(img, G @ np.diag([f, f, 1.0]))
