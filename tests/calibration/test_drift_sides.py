"""The drift check's side figure (``drift.py``): a side's median signed shift is a camera bump
only when most of the side's profiles moved its way. Korona discs at rest in a row against a rim
shift the rim's profiles under them (the disc's edge passes for the rim's); with a little over
half of a side covered, the side's median read a shift and the check called a bump (k4h_9606 at
12.7 s). Here a rendered korona board, half and a bit of its east side's profiles displaced
where they lie (as by discs), and the whole view moved (a real knock)."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from tracker.boards import KoronaBoard
from tracker.calibration import Calibration, DriftMonitor, calibrate_image
from tracker.render.renderer import Renderer
from tracker.render.sampling import sample_camera, sample_look
from tracker.render.scene import SceneFrame

BOARD = KoronaBoard()
SIZE = (640, 360)


@functools.cache
def view_and_calib() -> tuple[np.ndarray, Calibration]:
    rng = np.random.default_rng(11)
    look = sample_look("easy", rng, "korona")
    cam = sample_camera("easy", rng, SIZE, "korona")
    img = Renderer(BOARD, look, SIZE, 11).render([SceneFrame(t=0.0)], cam)
    return img, calibrate_image(img, "korona")


def displaced(img: np.ndarray, mon: DriftMonitor, which: np.ndarray, px: float) -> np.ndarray:
    """``img`` with the patch around each chosen profile moved ``px`` along its normal."""
    out = img.copy()
    half = mon.half_len + mon.search_px + 2
    for (x, y), (nx, ny) in zip(mon.points_px[which], mon.normals_px[which], strict=True):
        M = np.float32([[1, 0, nx * px], [0, 1, ny * px]])
        moved = cv2.warpAffine(img, M, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE)
        x0, x1 = int(x) - half, int(x) + half + 1
        y0, y1 = int(y) - half, int(y) + half + 1
        out[max(y0, 0):y1, max(x0, 0):x1] = moved[max(y0, 0):y1, max(x0, 0):x1]
    return out


def test_a_row_over_part_of_a_side_is_no_bump_but_a_knock_is() -> None:
    img, calib = view_and_calib()
    mon = DriftMonitor(calib, img)
    assert not mon.check(img).bumped
    east = np.flatnonzero(mon.sides == 0)
    assert len(east) >= 8
    # the patches around a run of the side's profiles, 55% of them (a row of discs along the rim)
    run = east[np.argsort(mon.points_px[east, 1])][: int(np.ceil(0.55 * len(east)))]
    which = np.zeros(len(mon.sides), bool)
    which[run] = True
    rep = mon.check(displaced(img, mon, which, 4.0))
    assert rep.misalignment_mm < 3.0  # the other sides did not move
    assert not rep.bumped, rep
    # the whole view moved 4 px: every line of a side moves with it
    M = np.float32([[1, 0, 4], [0, 1, 0]])
    knocked = mon.check(cv2.warpAffine(img, M, SIZE, borderMode=cv2.BORDER_REPLICATE))
    assert knocked.bumped and knocked.side_mm > 3.0, knocked
