"""The incremental ring search runs on one box per separate part of the changed region
(``boxes.py``): the response inside every box is the whole view's, and the boxes stay small
where one bounding box would cover most of the view."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.boxes import area, merge_overlapping, parts, region_boxes
from tracker.detect.candidates import box_responses, ring_response
from tracker.detect.detector import DiscDetector
from tracker.detect.view_colours import lab_of

SIZE = 480


def detector_and_view() -> tuple[DiscDetector, np.ndarray]:
    board = CrokinoleBoard()
    mpp = 2 * (board.ditch_outer_radius + 10.0) / SIZE
    c = SIZE / 2
    H = np.array([[mpp, 0, -c * mpp], [0, -mpp, c * mpp], [0, 0, 1.0]])
    det = DiscDetector(Calibration(homography=H, image_size=(SIZE, SIZE), rms_mm=0.0, board=board), "crokinole")
    rng = np.random.default_rng(0)
    v = det.view
    view = np.full((v.height, v.width, 3), (120, 170, 215), np.float32)
    view += rng.normal(0.0, 3.0, view.shape)
    r = board.disc_radius / v.mm_per_px
    for u, w, colour in [(40, 60, (40, 45, 60)), (v.width - 50, v.height - 45, (205, 232, 245)),
                         (v.width // 2, v.height // 2, (30, 30, 160))]:
        cv2.circle(view, (u, w), int(round(r)), colour, -1)
    return det, np.clip(view, 0, 255).astype(np.uint8)


def test_each_part_of_the_region_gets_its_own_box_and_its_response_is_the_whole_views() -> None:
    det, view = detector_and_view()
    h, w = view.shape[:2]
    region = np.zeros((h, w), bool)
    region[45:80, 25:60] = True  # a disc moved at one corner ...
    region[h - 65:h - 25, w - 70:w - 30] = True  # ... a hand at the other
    valid = det._valid & region
    margin = det._filters[0].half + 2
    boxes = region_boxes(valid, margin)
    assert len(boxes) == 2
    ys, xs = np.nonzero(valid)
    one = (min(ys.min() - margin, 0), max(ys.max() + 1 + margin, h), max(xs.min() - margin, 0),
           min(xs.max() + 1 + margin, w))
    assert area(boxes) < 0.4 * (one[1] - one[0]) * (one[3] - one[2])  # one box: most of the view
    for y0, y1, x0, x1 in boxes:  # each covers its part with the filter's reach around it
        part = valid[max(y0 - 1, 0):y1 + 1, max(x0 - 1, 0):x1 + 1]
        assert part.any()
    score, coher = box_responses(det, view, None, 0, boxes)
    whole = ring_response(lab_of(view), det._filters[0])
    # every searched pixel
    assert np.allclose(score[valid], whole.score[valid], atol=1e-4)
    edges = valid & (np.abs(whole.score) > 0.05)  # (the coherence of no edge at all is noise)
    assert edges.sum() > 100 and np.allclose(coher[edges], whole.coherence[edges], atol=1e-3)


def test_overlapping_boxes_are_merged_until_none_overlap() -> None:
    boxes = merge_overlapping([(0, 10, 0, 10), (5, 15, 5, 15), (12, 20, 12, 40), (100, 110, 100, 110)])
    assert boxes == [(0, 20, 0, 40), (100, 110, 100, 110)]


def test_the_parts_of_a_region_are_found_once_for_every_kind_searched_in_it(monkeypatch) -> None:
    from tracker.detect import candidates

    det, view = detector_and_view()
    h, w = view.shape[:2]
    region = np.zeros((h, w), bool)
    region[45:80, 25:60] = True
    region[h // 2 - 20:h // 2 + 20, w // 2 - 20:w // 2 + 20] = True  # the middle disc's place
    found = []
    orig = candidates.parts
    monkeypatch.setattr(candidates, "parts", lambda valid: found.append(1) or orig(valid))
    first = candidates.search(det, view, 0, det.board.disc_radius, region)
    again = candidates.search(det, view, 0, det.board.disc_radius, region)
    assert len(found) == 1  # (the same region: its parts from the first search)
    assert len(first[0]) >= 1 and np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])
    candidates.search(det, view, 0, det.board.disc_radius, region.copy())  # another call's region
    assert len(found) == 2


def test_the_whole_views_blur_is_made_once_a_call_and_is_the_edge_fields() -> None:
    from tracker.detect.background import BackgroundModel
    from tracker.detect.candidates import edge_field

    det, view = detector_and_view()
    lab = det.colours.lab(view)
    blurred = det.colours.blurred(view)
    assert det.colours.blurred(view) is blurred and det.colours.is_whole(view, lab)
    assert np.array_equal(blurred, BackgroundModel.prepare(lab))
    for a, b in zip(edge_field(lab, blurred=blurred), edge_field(lab), strict=True):
        assert np.array_equal(a, b)
    other = view.copy()  # the next call's view: made afresh
    assert det.colours.blurred(other) is not blurred and not det.colours.is_whole(other, lab)


def test_a_region_of_half_the_view_or_more_is_searched_whole_without_looking_for_its_parts(monkeypatch) -> None:
    from tracker.detect import candidates

    det, view = detector_and_view()
    h, w = view.shape[:2]
    found = []
    orig = candidates.parts
    monkeypatch.setattr(candidates, "parts", lambda valid: found.append(1) or orig(valid))
    whole = candidates.search(det, view, 0, det.board.disc_radius, None)
    det._region_parts = None
    everywhere = candidates.search(det, view, 0, det.board.disc_radius, np.ones((h, w), bool))
    assert found == []  # (its boxes would cover half the view or more: the whole view is searched)
    assert len(whole[0]) >= 1 and np.array_equal(whole[0], everywhere[0]) and np.array_equal(whole[1], everywhere[1])
    near_middle = lambda xy: np.hypot(xy[:, 0], xy[:, 1]) < 10.0  # noqa: E731 (the middle disc, at the board's centre)
    assert near_middle(whole[0]).sum() == 1
    # most of the view, but not the middle disc's place: searched whole, its peak left out
    region = np.ones((h, w), bool)
    region[h // 2 - 20:h // 2 + 20, w // 2 - 20:w // 2 + 20] = False
    most = candidates.search(det, view, 0, det.board.disc_radius, region)
    assert found == [] and not near_middle(most[0]).any()
    # a small region: its parts are looked for, and its box searched alone
    middle = candidates.search(det, view, 0, det.board.disc_radius, ~region)
    assert found == [1] and near_middle(middle[0]).sum() == 1


def test_ring_response_is_the_plain_sum_of_its_sectors() -> None:
    """``ring_response`` works in buffers made once per call: the same numbers as the plain
    expressions, bit for bit (score: the weakest sector's response; coherence: the weakest
    sector's response over its total edge)."""
    import scipy.fft as sfft

    from tracker.detect.candidates import field_spectra
    from tracker.detect.ring_filter import N_SECTORS

    det, view = detector_and_view()
    filt = det._filters[0]
    lab = lab_of(view)
    C, S, M = field_spectra(lab, filt.fft_shape)
    h, w = filt.shape
    score = coh = None
    for k in range(N_SECTORS):
        def inv(x: np.ndarray) -> np.ndarray:
            return sfft.irfft2(x, s=filt.fft_shape, workers=1)[filt.half:filt.half + h, filt.half:filt.half + w]
        r = inv(C * filt.cos_k[k] + S * filt.sin_k[k])
        q = r / np.maximum(inv(M * filt.mag_k[k]), 1e-3)
        score = r if score is None else np.minimum(score, r)
        coh = q if coh is None else np.minimum(coh, q)
    got = ring_response(lab, filt)
    assert np.array_equal(got.score, score) and np.array_equal(got.coherence, coh)


def _parts_of_the_whole_mask(valid: np.ndarray) -> np.ndarray:
    """``parts`` as it was: OpenCV's labelling over the whole mask."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(valid.view(np.uint8), connectivity=8)
    return np.asarray(stats[1:n])


def test_the_parts_are_labelled_within_their_bounding_box_the_same_parts_in_the_same_order() -> None:
    rng = np.random.default_rng(5)
    for trial in range(300):
        h, w = rng.integers(20, 140, 2)
        valid = np.zeros((h, w), bool)
        for _ in range(rng.integers(0, 7)):  # blobs and specks anywhere, odd corners included
            y, x = rng.integers(0, h), rng.integers(0, w)
            valid[y : y + rng.integers(1, 30), x : x + rng.integers(1, 30)] = True
        if trial % 3 == 0:
            valid &= rng.random((h, w)) < 0.7  # ragged parts, touching diagonally
        got, want = parts(valid), _parts_of_the_whole_mask(valid)
        assert got.shape == want.shape and np.array_equal(got, want)
    assert parts(np.zeros((30, 40), bool)).shape == (0, 5)
