"""Korona strikers at rest under a hard look (low lamp, noisy picture), on and beside the striking
lines: found as strikers, where they lie.

The look and the camera are those the renderer drew for the held-out match k4h_9506 (its
``hard`` preset: sensor noise 7.9 grey levels, JPEG quality 40, a lamp 57 degrees up casting
strong shadows, 1.6-1.9 mm a pixel at the strikers), where for the first 23 s the resting strikers
went unseen: a ray across a striker's outline meets its groove, top rim, side wall, shadow and the
striking line within the fit's first windows, and the circle fitted through that mix settled
millimetres off, its outline open. Frames come from the project's renderer with the true
calibration (its own tests cover it).
"""

from __future__ import annotations

import numpy as np
import pytest

from tracker.boards import KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import STRIKER
from tracker.detect.detector import DetectorSettings, DiscDetector

render = pytest.importorskip("tracker.render")

SIZE = (1280, 720)
# Just below the north striking line (k4h_9506 at 5 s), on the south one (its strikers waiting to
# be shot), on the west one, and beside the north one farther along.
STRIKERS = [(-8.0, 277.0), (-25.0, -320.0), (225.0, -320.0), (175.0, 300.0), (-320.0, -100.0)]


def _hard_frame(seed: int, strikers: list[tuple[float, float]] = STRIKERS,
                scale: float = 1.0) -> tuple[np.ndarray, Calibration]:
    """The hard look's frame with strikers at ``strikers``, drawn ``scale`` times the board
    model's size."""
    board = KoronaBoard()
    look = render.Look(surface="natural", line_color=(20, 20, 20), line_width=2.9, outer_shape="square",
                       disc_colors=((140, 195, 230), (40, 70, 112)), striker_color=(60, 90, 140),
                       light_gradient=0.42, glare=0.28, vignette=0.19, exposure_drift=0.07, noise_sigma=7.9,
                       jpeg_quality=40, shadow_strength=0.54, rail="natural", light_azimuth=292.0,
                       light_elevation=56.7, gloss=0.34, blur_sigma=0.77, sharpen=0.08,
                       white_balance=(0.87, 1.01, 1.13))
    cam = render.Camera(height=1725.3, tilt=19.66, azimuth=13.66, roll=9.3, focal=1081.9, k1=-0.2945,
                        k2=0.0375, target=(-41.6, 36.0))
    sprites = [render.DiscSprite(id=f"S{i}", x=x, y=y, radius=scale * board.striker_radius,
                                 thickness=board.disc_thickness,
                                 side=0, kind="striker") for i, (x, y) in enumerate(strikers)]
    sprites.append(render.DiscSprite(id="d0", x=-150.0, y=100.0, radius=board.disc_radius,
                                     thickness=board.disc_thickness, side=1))
    img = render.Renderer(board, look, SIZE, seed=seed).render([render.SceneFrame(t=0.0, discs=tuple(sprites))], cam)
    K, dist = render.intrinsics(cam, SIZE)
    calib = Calibration(homography=render.true_homography(cam, SIZE), image_size=SIZE, rms_mm=0.0,
                        board=board, camera_matrix=K, dist_coeffs=dist)
    return img, calib


def _strikers_found(settings: DetectorSettings, scale: float = 1.0) -> int:
    """Of the five strikers on each of three hard renders (seeds 1-3, drawn ``scale`` times the
    model's size), how many are found as strikers within 2 mm; asserts that no striker is
    reported where none lies."""
    found = 0
    for seed in (1, 2, 3):
        img, calib = _hard_frame(seed, scale=scale)
        dets = DiscDetector(calib, "korona", settings=settings).detect(img)
        xy = dets.xy[dets.kind == STRIKER]
        for x, y in STRIKERS:
            e = np.hypot(*(xy - [x, y]).T) if len(xy) else np.array([np.inf])
            found += int(e.min() < 2.0)
        for p in xy:  # nothing reported as a striker where none lies
            assert min(np.hypot(p[0] - x, p[1] - y) for x, y in STRIKERS) < 10.0, p
    return found


def test_resting_strikers_on_the_striking_lines_under_a_hard_look_are_found() -> None:
    """Five strikers on three renders (their noise, grain and tints differ): most are found as
    strikers within 2 mm, and no striker is reported anywhere else. With the striker's outline
    chosen as a whole (``DetectorSettings.striker_consensus``, ``strikers.fit_options``) 9 of
    the 15 are found so; without it 3 (one more 2.0 mm off). The misses: the two on the south
    striking line, nearest the camera, where the lamp's shadow falls beyond the striker's far rim
    and merges with it: fitted 2.4-3.4 mm towards the shadow, or with a radius past the
    tolerance (``verify.accept``)."""
    assert _strikers_found(DetectorSettings(striker_consensus=True)) >= 8


def test_resting_strikers_larger_than_the_board_model_are_found() -> None:
    """A real striker need not be the board model's size (50 mm): strikers drawn 10% larger (and
    the renderer draws them larger still, ``sprites.TRUE_SIZE``: fitted 30-30.4 mm against 25)
    are found as strikers where they lie, as the model-sized ones are, and nowhere else. Before,
    none of the 15 was found: the fit held the model's radius through its first two iterations,
    the outline lay outside the second's windows and the fit was given up (``strikers.
    CONSENSUS_AT``), and a fit that went on was turned down as too large (``verify.
    STRIKER_LARGER``). With ``DetectorSettings.striker_any_size`` (off by default: the reviews
    do not gain yet) 9 within 2 mm, the misses on the south line as in the test above."""
    assert _strikers_found(DetectorSettings(striker_any_size=True), scale=1.1) >= 8


def test_a_striker_fit_may_be_larger_than_the_model_not_much_smaller() -> None:
    """The radius test (``verify.accept``) with ``DetectorSettings.striker_any_size``: a korona
    striker's fit may be up to ``STRIKER_LARGER`` of the model's radius larger, but no more than
    ``radius_tolerance`` smaller (a ring round a disc with its shading is 20-22 mm); a disc's
    stays symmetric, and without the setting a striker's too."""
    from tracker.detect.refine import Fit
    from tracker.detect.verify import STRIKER_LARGER

    _, calib = _hard_frame(1, strikers=[])
    det = DiscDetector(calib, "korona", settings=DetectorSettings(striker_any_size=True))
    rs, rd = det.board.striker_radius, det.board.disc_radius

    def fit(r: float) -> Fit:
        return Fit(centre=np.array([0.0, 150.0]), radius=r, coverage=0.9, quarter_coverage=0.8, residual=0.5,
                   contrast=10.0, mm_per_px=1.6, color=None)

    assert det._accept(fit(1.18 * rs), rs)
    assert not det._accept(fit((1.0 + STRIKER_LARGER + 0.02) * rs), rs)
    assert not det._accept(fit(0.82 * rs), rs)
    assert not det._accept(fit(1.18 * rd), rd)
    assert not DiscDetector(calib, "korona")._accept(fit(1.18 * rs), rs)


def test_no_striker_rests_centred_over_a_pocket_mouth() -> None:
    """Seen at a slant, a pocket's dark inside shows beside its mouth, about a striker's size: fitted
    as one outline it passed for a striker 16-17 mm from the north-west pocket's centre (k4h_9506,
    k4h_9306), just past the half of the mouth's radius that a disc is looked for up to. A
    striker centred over the mouth has fallen in (``KoronaBoard.pocket_of``); a disc there is still
    looked for (at the mouth's edge it may be on its way in), and a striker just beyond it rests."""
    _, calib = _hard_frame(1)
    det = DiscDetector(calib, "korona")
    b = det.board
    c = np.array(b.pocket_centres()["nw"])
    inward = np.array([1.0, -1.0]) / np.sqrt(2.0)  # from the pocket's centre towards the board's
    over = c + 20.0 * inward
    assert not det.place_ok(over, b.striker_radius, 1.6)
    assert det.place_ok(over, b.disc_radius, 1.6)
    assert det.place_ok(c + (b.pocket_radius + 2.0) * inward, b.striker_radius, 1.6)


def _came_to_rest(on: bool) -> list[float]:
    """The errors (mm) of the strikers found on the last of three calls: drawn 4 mm short of
    where they stop, then where they stop, twice (``settle_strikers`` ``on`` or off)."""
    errors = []
    for seed in (1, 2):
        before, _ = _hard_frame(seed, [(x, y + 4.0) for x, y in STRIKERS])
        after, calib = _hard_frame(seed, STRIKERS)
        det = DiscDetector(calib, "korona", settings=DetectorSettings(settle_strikers=on))
        det.detect(before)
        det.detect(after)
        xy = det.detect(after)
        xy = xy.xy[xy.kind == STRIKER]
        for x, y in STRIKERS:
            e = float(np.hypot(*(xy - [x, y]).T).min()) if len(xy) else np.inf
            if e < 15.0:
                errors.append(e)
    return errors


def test_a_striker_that_came_to_rest_is_reported_where_it_rests() -> None:
    """A striker fitted while it crept (its last frames before it stops) and then kept unchanged
    is fitted once more now that it rests, its outline chosen as a whole (``strikers.settle``,
    ``DetectorSettings.settle_strikers``).
    Before, the plain fit of its last moving frame stood for as long as it rested
    (korona_2p_game: strikers fed to the tracking at rest 3.7/7.0 mm off, median/p95), as it
    still does with the setting off (its default: the reviews' events lose with it). Here the
    strikers are drawn 4 mm short of where they stop, then where they stop on two frames: on the
    second (nothing changed) each striker found is within 1.5 mm of where it lies. (Without the
    refit: 1.17 and 2.79 mm; with it 0.75 and 1.05: the others are not found while they move
    under this look, ``test_resting_strikers_on_the_striking_lines_under_a_hard_look_are_found``.)"""
    errors = _came_to_rest(True)
    assert len(errors) >= 2, errors
    assert max(errors) < 1.5, errors
    assert max(_came_to_rest(False)) > 2.0  # without it, the creep's fit stands
