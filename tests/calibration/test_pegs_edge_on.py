"""Boards seen nearly edge on (a camera low over the table, ~77 degrees from vertical): the
painted rings are no ellipse the board search accepts and are found from the pegs
(``calibration.crokinole_pegs``). Rendered with the project's renderer (true camera known)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration import calibrate_image
from tracker.calibration.crokinole_pegs import match_pegs
from tracker.calibration.crokinole_seed import REF_MM
from tracker.calibration.geometry import apply_h
from tracker.errors import CalibrationError

SIZE = (1280, 720)


def _edge_on(tilt: float, seed: int, **look_changes: float):  # type: ignore[no-untyped-def]
    """(image, camera) of a rendered board from ``tilt`` degrees, filling 55% of the frame."""
    from tracker.render import Renderer, SceneFrame, sample_look
    from tracker.render.sampling import board_outline, fit_focal
    from tracker.render.scene import Camera

    board = CrokinoleBoard()
    look = sample_look("easy", np.random.default_rng(seed), "crokinole")
    look = dataclasses.replace(look, **look_changes)
    cam = Camera(height=1500.0, tilt=tilt, azimuth=0.0, roll=0.0, target=(0.0, 0.0))
    cam = dataclasses.replace(cam, focal=fit_focal(cam, SIZE, board_outline(board), 0.55))
    return Renderer(board, look, SIZE, seed).render([SceneFrame(t=0.0)], cam), cam


def _circle(r: float, n: int = 180) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return r * np.stack([np.cos(a), np.sin(a)], axis=1)


@pytest.mark.parametrize("seed", [4, 7])
def test_edge_on_board_calibrates_from_its_pegs(seed: int) -> None:
    """77 degrees from vertical: refused before the pegs were used ("rings not followed"); now
    the rings drawn by the fit lie on the true rings to about a pixel, the hole to a fraction."""
    from tracker.render import project

    img, cam = _edge_on(77.0, seed)
    calib = calibrate_image(img, "crokinole")
    hole = calib.to_image(np.zeros((1, 2)))[0]
    true_hole = project(cam, SIZE, np.zeros((1, 3)))[0]
    assert np.linalg.norm(hole - true_hole) < 1.0
    b = calib.board
    assert isinstance(b, CrokinoleBoard)
    painted = CrokinoleBoard()  # the renderer paints the model's rings
    for r, r_true in ((b.shooting_line_radius, painted.shooting_line_radius),
                      (b.ten_line_radius, painted.ten_line_radius),
                      (b.fifteen_line_radius, painted.fifteen_line_radius)):
        # each fitted ring against the painted one, rotation free: each fitted point's
        # distance to the nearest point of the painted ring's image
        fitted = calib.to_image(_circle(r))
        true = project(cam, SIZE, np.concatenate([_circle(r_true, 1440), np.zeros((1440, 1))], axis=1))
        d = np.min(np.linalg.norm(fitted[:, None, :] - true[None, :, :], axis=2), axis=1)
        assert np.percentile(d, 90) < 1.5, (r_true, np.percentile(d, 90))
    assert 0.655 < b.ten_line_radius / b.shooting_line_radius < 0.68  # painted at 0.667


def test_edge_on_board_without_painted_rings_is_refused() -> None:
    """The pegs are found, but no rings are painted for the fit to follow: refused, never a
    fit drawn from the pegs alone."""
    img, _cam = _edge_on(77.0, 4, line_width=0.0)
    with pytest.raises(CalibrationError):
        calibrate_image(img, "crokinole")


def test_pegs_matched_to_the_board_model_give_the_homography() -> None:
    """Peg bases seen under a strong perspective, two pegs hidden and four blobs that are not
    pegs: the homography from the matched pegs puts the board centre and the shooting line
    where the true one does (up to the board's symmetry)."""
    board = CrokinoleBoard()
    # board mm -> px: 75 degrees from vertical, with perspective
    G = np.array([[0.9, 0.05, 640.0], [0.0, -0.22, 400.0], [0.0, -2.5e-4, 1.0]])
    unit = REF_MM / board.shooting_line_radius
    pegs = apply_h(G, np.array(board.peg_positions()) * unit)
    rng = np.random.default_rng(3)
    seen = np.delete(pegs, [2, 3], axis=0) + rng.normal(0, 0.3, (6, 2))
    clutter = np.array([[560.0, 420.0], [700.0, 385.0], [610.0, 445.0], [690.0, 430.0]])
    P = np.concatenate([clutter[:2], seen, clutter[2:]])
    m = match_pegs(P, board, tol_px=1.5)
    assert m is not None
    Gm, n = m
    assert n == 6
    c = apply_h(Gm, np.zeros((1, 2)))[0]
    assert np.linalg.norm(c - apply_h(G, np.zeros((1, 2)))[0]) < 1.0
    # where the ring fit starts from: the 15 circle (the pegs' own) within 6 mm (a pixel is
    # 4.5 mm across the board here, two neighbouring pegs are missing), the
    # shooting line, three times as far out, within the quick fit's first search (20 mm)
    for r, tol in ((board.fifteen_line_radius * unit, 6.0), (REF_MM, 20.0)):
        back = apply_h(np.linalg.inv(G), apply_h(Gm, _circle(r)))
        assert np.max(np.abs(np.linalg.norm(back, axis=1) - r)) < tol, r


def test_blobs_not_spaced_as_pegs_are_not_matched() -> None:
    """Eight blobs on an ellipse but bunched (gaps of 30 and 60 degrees, no multiple of the
    pegs' 45): no board from them."""
    board = CrokinoleBoard()
    G = np.array([[0.9, 0.0, 640.0], [0.0, -0.22, 400.0], [0.0, 0.0, 1.0]])
    ang = np.radians([0, 30, 60, 120, 180, 210, 240, 300])
    P = apply_h(G, 101.6 * np.stack([np.cos(ang), np.sin(ang)], axis=1))
    assert match_pegs(P, board, tol_px=1.5) is None
