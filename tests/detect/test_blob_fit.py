"""A disc of the board's own colour at rest, placed by the picture of its change on the empty board
(``blob_fit.py``, ``DetectorSettings.blob_regions`` with ``rest_blobs``), on rendered still frames.

Seed 9921's look and camera as its match renders them (c4h_9921: blue discs on the blue board,
never found at rest): its lighter side's discs are the board's blue, the darker side's are red. A
blue disc at rest shows no outline the edge fits pass; against the empty board it is a
blob of its darker face and its shadow, whose centroid lies 8-10 mm off it. The red discs found at
rest teach the detector what a disc's shadow looks like there.
"""

from __future__ import annotations

import functools

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.background import BackgroundModel
from tracker.detect.blob_fit import (
    CAST_MIN,
    SHADOW_REACH_MM,
    BlobFit,
    shadow_template,
    signed_difference,
    template_fit,
)
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.detect.detector import DiscDetector
from tracker.detect.settings import DetectorSettings
from tracker.detect.view_colours import lab_of
from tracker.render.renderer import Renderer
from tracker.render.scene import DiscSprite, SceneFrame
from tracker.render.still import truth_calibration
from tracker.sim.match import MatchConfig, _sample_view

from .settled import nearest, settled

BOARD = CrokinoleBoard()
SIZE = (1280, 720)  # (the dev matches' size: at 640x360 the blob is 2.4 mm view pixels, the fit 4 mm off)
SEED = 9921
BLUE, RED = 0, 1  # the look's sides: the board's colour, and the other
TARGET = (60.0, -150.0)
TEACHERS = ((-120.0, -60.0), (150.0, -60.0), (-40.0, 200.0))
WITHIN_MM = 3.0
STILL_CALLS = 8


@functools.lru_cache(maxsize=4)
def _frame(target: bool, teachers: bool) -> tuple[np.ndarray, Calibration]:
    cfg = MatchConfig(game="crokinole", players=4, seed=SEED, preset="hard", size=SIZE)
    look, cam = _sample_view(cfg, np.random.default_rng([SEED, 1]))
    sprites: tuple[DiscSprite, ...] = ()
    if target:
        sprites += (DiscSprite("s1", *TARGET, BOARD.disc_radius, BOARD.disc_thickness, BLUE, angle=1.0),)
    if teachers:
        sprites += tuple(DiscSprite(f"w{i}", x, y, BOARD.disc_radius, BOARD.disc_thickness, RED, angle=2.0 + i)
                         for i, (x, y) in enumerate(TEACHERS))
    img = Renderer(BOARD, look, SIZE, SEED).render([SceneFrame(t=0.0, discs=sprites)], cam)
    return img, truth_calibration(BOARD, cam, SIZE)


@functools.lru_cache(maxsize=4)
def _at_rest(settings: DetectorSettings) -> Detections:
    empty, calib = _frame(False, False)
    img, _ = _frame(True, True)
    return settled(calib, empty, img, settings, STILL_CALLS)[1]


def test_a_disc_of_the_boards_colour_is_found_at_rest_by_its_region() -> None:
    dets = _at_rest(DetectorSettings(blob_regions=True))
    err, i = nearest(dets, TARGET)
    assert err < WITHIN_MM, f"found {dets.xy.round(1).tolist()}, true {TARGET}"
    assert dets.where[i] == ON_SURFACE
    # nothing else is made up
    assert len(dets) == len(_at_rest(DetectorSettings())) + 1, f"found {dets.xy.round(1).tolist()}"


def test_without_the_region_fit_it_is_missed() -> None:
    """(Why: the edge refit of its blob turns it down, with the blob finder on too.)"""
    for settings in (DetectorSettings(), DetectorSettings(rest_blobs=True)):
        err, _ = nearest(_at_rest(settings), TARGET)
        assert err > 10.0


def _region_fit(model_frame: tuple[bool, bool], frame: tuple[bool, bool]) -> BlobFit | None:
    """The region fit from where the blue disc's blob centroid lies (8-10 mm off it), the empty
    board's picture taken from ``model_frame``, on ``frame`` (each: target, teachers)."""
    model, calib = _frame(*model_frame)
    img, _ = _frame(*frame)
    det = DiscDetector(calib, "crokinole")
    det.set_background(model)
    x = signed_difference(det.background, BackgroundModel.prepare(lab_of(det.rectify(img))))
    half = int(np.ceil((BOARD.disc_radius * 1.3 + SHADOW_REACH_MM) / det.view.mm_per_px))
    template = shadow_template(det, x, det.background.known, np.array(TEACHERS), BOARD.disc_radius, half)
    assert template is not None
    return template_fit(det, x, det.background.known, np.array(TARGET) + [-7.0, 5.0], BOARD.disc_radius, template)


def test_the_region_fit_places_board_coloured_discs_to_a_millimetre_or_two() -> None:
    """With the shadow learned from the red discs, the fit lands within 2 mm of the true
    contact point, and is kept."""
    fit = _region_fit((False, False), (True, True))
    assert fit is not None
    assert float(np.hypot(*(fit.centre - TARGET))) < 2.0, fit.centre
    assert fit.ok(16.0)
    assert fit.cast > CAST_MIN


def test_the_board_a_disc_left_is_no_disc() -> None:
    """The empty board's picture learned with the blue disc on it (a disc missed at rest is
    absorbed), the disc then gone: its old place differs from the picture by a disc-shaped blob,
    brighter where its shadow was. Turned down (``BlobFit.cast``)."""
    fit = _region_fit((True, False), (False, True))
    assert fit is not None
    assert fit.cast < 0.0
    assert not fit.ok(16.0)
