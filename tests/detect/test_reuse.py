"""``untouched``: a disc's fit is reused only when nothing changed on its own silhouette."""

from __future__ import annotations

import numpy as np

from tracker.detect.datatypes import Detections
from tracker.detect.geometry import BoardView, CameraPose
from tracker.detect.reuse import untouched

VIEW = BoardView.around(400.0, 2.0)
TOP_DOWN = CameraPose(centre=np.array([0.0, 0.0, 1300.0]), focal_px=1000.0, focal_solved=False)


def _mask_at(points_mm: list[tuple[float, float]]) -> np.ndarray:
    m = np.zeros((VIEW.height, VIEW.width), bool)
    for u, v in np.round(VIEW.to_px(np.array(points_mm, float))).astype(int):
        m[v, u] = True
    return m


def test_change_on_the_rim_refits_change_a_disc_away_does_not() -> None:
    dets = Detections(xy=np.array([[100.0, 50.0], [-200.0, -120.0]]), radius=np.full(2, 15.875))
    # The first disc's rim (16 mm out) changed; 30 mm from the second's centre something moved.
    moved = _mask_at([(116.0, 50.0), (-170.0, -120.0)])
    assert untouched(dets, moved, VIEW, TOP_DOWN, 9.5).tolist() == [False, True]
    assert untouched(dets, np.zeros_like(moved), VIEW, TOP_DOWN, 9.5).tolist() == [True, True]


def test_an_oblique_camera_widens_the_silhouette_away_from_it() -> None:
    """Seen from the south at 40 degrees the top face shows some 10 mm north of a disc at y = 250:
    a change there is on the disc."""
    oblique = CameraPose(centre=np.array([0.0, -900.0, 1070.0]), focal_px=1000.0, focal_solved=True)
    dets = Detections(xy=np.array([[0.0, 250.0]]), radius=np.array([15.875]))
    moved = _mask_at([(0.0, 250.0 + 15.875 + 8.0)])  # on the top face, off the bottom circle
    assert untouched(dets, moved, VIEW, TOP_DOWN, 9.5).tolist() == [True]
    assert untouched(dets, moved, VIEW, oblique, 9.5).tolist() == [False]


def test_a_disc_at_the_view_edge_is_judged_on_its_part_inside_the_view() -> None:
    """A disc against the rim reaches past the view: a change away from it leaves it as it was (it
    was refitted on every call before, and a korona row was lost that way: issue #5), a change
    on its inner rim does not; a disc centred outside the view is always refitted."""
    dets = Detections(xy=np.array([[398.0, 0.0]]), radius=np.array([15.875]))
    assert untouched(dets, _mask_at([(0.0, 0.0)]), VIEW, TOP_DOWN, 9.5).tolist() == [True]
    assert untouched(dets, _mask_at([(383.0, 0.0)]), VIEW, TOP_DOWN, 9.5).tolist() == [False]
    outside = Detections(xy=np.array([[420.0, 0.0]]), radius=np.array([15.875]))
    assert untouched(outside, _mask_at([(0.0, 0.0)]), VIEW, TOP_DOWN, 9.5).tolist() == [False]


def test_the_window_look_first_agrees_with_the_silhouettes() -> None:
    """``untouched`` draws a silhouette only where its window holds a change; its answers are
    those of the silhouettes themselves, for discs inside, across and outside the view's edge."""
    from tracker.detect.reuse import silhouettes

    rng = np.random.default_rng(2)
    oblique = CameraPose(centre=np.array([0.0, -900.0, 1000.0]), focal_px=1000.0, focal_solved=False)
    for pose in (TOP_DOWN, oblique):
        for _ in range(20):
            dets = Detections(xy=rng.uniform(-420.0, 420.0, (12, 2)), radius=np.full(12, 15.875))
            moved = np.zeros((VIEW.height, VIEW.width), bool)
            for _ in range(3):
                y, x = rng.integers(0, VIEW.height), rng.integers(0, VIEW.width)
                moved[y : y + rng.integers(1, 40), x : x + rng.integers(1, 40)] = True
            want = [inside and not np.any(moved[v0 : v0 + m.shape[0], u0 : u0 + m.shape[1]] & m)
                    for u0, v0, m, inside in silhouettes(dets, VIEW, pose, 9.5, moved.shape)]
            assert untouched(dets, moved, VIEW, pose, 9.5).tolist() == want
