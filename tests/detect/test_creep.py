"""A disc creeping to a stop is refitted where it stops (``reuse.crept``, ``reuse.held_reference``):
drawn frames (``drawing.py``) with the true place known in each."""

from __future__ import annotations

import numpy as np
import pytest

from tests.detect.drawing import LIGHT, DrawnDisc, render
from tracker.detect import chamfer
from tracker.detect.detector import DetectorSettings, DiscDetector

SIZE = (800, 600)


def _last_error(creep_pixels: int, color: tuple[int, int, int]) -> float:
    """A disc found at rest, then moved 0.5 mm a frame for eight frames (a last slow creep: far
    less than the 2 mm view pixel each frame), then still: the error of the last frame's find."""
    xs = [0.0] + [0.5 * (i + 1) for i in range(8)] + [4.0] * 3
    still = DrawnDisc(-150.0, 100.0, LIGHT)
    det = DiscDetector(render([still, DrawnDisc(xs[0], -120.0, color)], SIZE, tilt_deg=20.0, seed=5).calib,
                       "crokinole", settings=DetectorSettings(bevel=0.0, creep_pixels=creep_pixels))
    dets = None
    for x in xs:
        shot = render([still, DrawnDisc(x, -120.0, color)], SIZE, tilt_deg=20.0, seed=5)
        dets = det.detect(shot.image)
    assert dets is not None
    return float(np.hypot(dets.xy[:, 0] - xs[-1], dets.xy[:, 1] + 120.0).min())


@pytest.mark.parametrize("color", [(95, 140, 185), (80, 110, 150)], ids=["wood", "dark-wood"])
def test_a_disc_creeping_to_a_stop_is_found_where_it_stopped(color: tuple[int, int, int],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Wooden discs on the wooden board: each frame's step changes the view too little for the
    opened change mask, so without the creep test the fit of a frame before the stop is kept.
    With crokinole's default region model (``chamfer.REGION_MODEL``) the kept fit is refitted by
    the model on every call and lands where the disc stopped either way, so the creep test is
    judged on the edge fits' centres alone."""
    assert _last_error(6, color) < 1.1  # the defaults
    monkeypatch.setattr(chamfer, "REGION_MODEL", False)
    on = _last_error(6, color)
    assert on < 1.1
    assert _last_error(0, color) > on + 0.5
