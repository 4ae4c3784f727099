"""Where a shot reports a crokinole disc lost at rest that no edge fit takes (``pipeline.rest_model``):
the region model's place, fitted from the tracker's forecast. Rendered still frames of known places
(``render.still.still_frame``, 640x360, the renderer's true calibration); the detector's acceptance
is turned off for every fit, as a camouflaged disc's outline is turned down (c2h_9932's brown
discs on the blue board: coverage 0.2-0.4 from the true centre), so the edge refit
(``rest_unseen``) finds nothing."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.detect.detector import DiscDetector
from tracker.pipeline import rest_model
from tracker.track.datatypes import Track

from .lost_at_rest import BOARD, R, reported, still

pytest.importorskip("tracker.render")

# alone in the open; beside another disc
PLACES = ((-150.0, 150.0), (60.0, -110.0), (60.0 + 2 * R + 3.0, -110.0))


def _reported(seed: int, lost: int, off: tuple[float, float]) -> tuple[float, float]:
    """The lost disc's error (mm) at its forecast and as the shot reports it, no edge fit taken."""
    return reported(PLACES, seed, lost, off, camouflage=True)


@pytest.mark.parametrize("seed", [710, 711])
def test_a_lost_disc_no_edge_fit_takes_is_placed_by_its_picture(seed: int) -> None:
    """Forecast 6 mm off (c2h_9932's n2 was 8.6 mm off, its coast past a turn): within 1.5 mm."""
    before, after = _reported(seed, 0, (5.0, -3.5))
    assert before > 6.0 and after < 1.5, (before, after)


def test_a_lost_disc_beside_another_is_not_pushed_into_it() -> None:
    before, after = _reported(712, 2, (4.0, 3.0))
    assert before > 4.9 and after < 1.5, (before, after)


def test_a_bare_board_leaves_the_forecast() -> None:
    """The disc is 40 mm from its forecast (out of reach): the model settles on the bare board
    somewhere near the forecast all the same; no face shows there, so the forecast stands."""
    before, after = _reported(710, 0, (25.0, -31.0))
    assert after == pytest.approx(before, abs=0.01)


def test_off_leaves_the_forecast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rest_model, "ON", False)
    before, after = _reported(710, 0, (5.0, -3.5))
    assert after == pytest.approx(before, abs=0.01)


def test_a_place_past_the_surface_edge_is_put_on_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model put c4h_9951's w2 (0.03 mm inside the edge) 0.4 mm past it: off the board, its
    removal for stopping outside the shooting line lost. The tracker holds it on the surface."""
    from tracker.detect.silhouette import ModelFit
    from tracker.pipeline import rest_unseen

    img, calib = still(PLACES, 710)
    det = DiscDetector(calib, "crokinole")
    edge = BOARD.surface_radius
    past = np.array([edge + 0.4, 0.0])
    model = rest_unseen.chamfer_correction(det).model
    assert model is not None
    monkeypatch.setattr(model, "fit", lambda *a, **k: ModelFit(past.copy(), np.zeros(2), 1.0, 100, 0.4))
    monkeypatch.setattr(rest_model, "face_step", lambda *a: 30.0)  # (a disc's face there)
    tr = Track(id=0, kind=0, radius=R, xy=np.array([edge - 3.0, 0.0]), anchor=np.array([edge - 3.0, 0.0]),
               anchor_n=1, occluded=True)
    got = rest_model.place(det, img, [tr], tr, (edge - 3.0, 0.0))
    assert got is not None and float(np.hypot(*got)) <= edge and BOARD.on_surface(*got)
