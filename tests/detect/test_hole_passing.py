"""A disc sliding past the 20-hole, over part of it, is no disc down in the hole (rendered frames).

c2h_9932 at 10.6 s: north's black disc n2 slid past the hole, its centre 22 mm from the hole's,
its edge and its blur over part of the hole, at about 420 mm/s. For three frames the empty hole
was fitted as a disc and its face (the median colour inside the fit) was tinted far enough from
the empty hole's colour to pass for a disc sunk in it; the tracker took n2 for down in the hole,
gave its later place to s2 (an identity switch) and missed s2 going off the board. A disc down in
the hole fills it: the hole's middle changes from the empty hole's picture on every side
(``twenty_hole.hole_fill``), which a disc passing over its edge does not do.

The frames are rendered with the match's own look and camera (``new_match`` with its seed and
preset: a blue board under glare, a dark red hole, red and black discs); the sliding disc is the
average of three instants 3.5 mm apart (``tracker.sim.output.subframes``: the shutter open half a
frame). The detector is given the empty board first; the sliding disc's frame is its next call,
a pass over where the picture changed, as in the review.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import IN_HOLE, Detections
from tracker.detect.detector import DiscDetector
from tracker.render.renderer import Renderer
from tracker.render.scene import DiscSprite, SceneFrame
from tracker.render.still import truth_calibration
from tracker.sim.match import MatchConfig, new_match

BOARD = CrokinoleBoard()
SIZE = (1280, 720)
SEED = 9932  # c2h_9932
BLACK, RED = 1, 0  # the look's sides


@functools.lru_cache(maxsize=1)
def _scene() -> tuple[Renderer, object, Calibration]:
    m = new_match(MatchConfig(game="crokinole", players=2, seed=SEED, preset="hard", size=SIZE))
    cam = m.timeline.cameras[0][1]
    return Renderer(BOARD, m.look, SIZE, SEED), cam, truth_calibration(BOARD, cam, SIZE)


def _render(instants: list[tuple[DiscSprite, ...]]) -> np.ndarray:
    renderer, cam, _ = _scene()
    img: np.ndarray = renderer.render([SceneFrame(t=0.0, discs=s) for s in instants], cam)  # type: ignore[arg-type]
    return img


def _detect(instants: list[tuple[DiscSprite, ...]]) -> Detections:
    empty = _render([()])
    det = DiscDetector(_scene()[2], "crokinole")
    det.set_background(empty, det.detect(empty))
    return det.detect(_render(instants))


def _sliding(side: int, d: float, angle: float, along: float) -> list[tuple[DiscSprite, ...]]:
    """A disc sliding along the line ``d`` mm from the hole's centre (its normal at ``angle``
    degrees), ``along`` mm past the line's nearest point, over a 7 mm exposure."""
    a = np.radians(angle)
    u = np.array([np.cos(a), np.sin(a)])
    c = d * np.array([-u[1], u[0]]) + along * u
    return [(DiscSprite("n2", float(p[0]), float(p[1]), BOARD.disc_radius, BOARD.disc_thickness, side, angle=1.0),)
            for p in (c + s * u for s in (-3.5, 0.0, 3.5))]


@pytest.mark.parametrize(("d", "angle", "along"), [(20.0, 90.0, -5.0), (20.0, 200.0, -5.0), (20.0, 200.0, 5.0),
                                                   (23.0, 200.0, -5.0), (23.0, 200.0, 0.0), (23.0, 200.0, 5.0)])
def test_a_disc_sliding_past_over_the_hole_edge_is_not_in_the_hole(d: float, angle: float, along: float) -> None:
    dets = _detect(_sliding(BLACK, d, angle, along))
    assert not np.any(dets.where == IN_HOLE), f"found {dets.xy.round(1).tolist()} where {dets.where.tolist()}"


@pytest.mark.parametrize("side", [RED, BLACK])
def test_a_disc_down_in_the_hole_is_in_the_hole(side: int) -> None:
    sunk = DiscSprite("n2", 0.0, 0.0, BOARD.disc_radius, BOARD.disc_thickness, side, state="hole",
                      z=-(BOARD.disc_thickness + 1.0))
    dets = _detect([(sunk,)])
    near = np.hypot(*dets.xy.T) < BOARD.hole_radius if len(dets) else np.zeros(0, bool)
    assert np.any(near & (dets.where == IN_HOLE)), f"found {dets.xy.round(1).tolist()} where {dets.where.tolist()}"
