"""DiscDetector on drawn frames with exact ground truth (see tests/detect/drawing.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.detect.drawing import DARK, LIGHT, DrawnDisc, DrawnHand, Shot, render
from tracker.detect import chamfer
from tracker.detect.datatypes import IN_DITCH, IN_HOLE, ON_SURFACE, Detections
from tracker.detect.detector import DetectorSettings, DiscDetector
from tracker.detect.refine import Fit
from tracker.errors import InputError

SIZE = (800, 600)


# The discs ``drawing.py`` draws have square edges unless given a ``bevel``: the detector is told so.
SQUARE = DetectorSettings(bevel=0.0)


def _match(dets: Detections, truth: list[DrawnDisc], tol: float = 5.0) -> tuple[np.ndarray, int]:
    """Per true disc, the error of the nearest detection (inf when none within tol); and the
    number of detections matched to no disc."""
    errs = np.full(len(truth), np.inf)
    used = np.zeros(len(dets), bool)
    for i, d in enumerate(truth):
        if len(dets) == 0:
            break
        e = np.hypot(dets.xy[:, 0] - d.x, dets.xy[:, 1] - d.y)
        e[used] = np.inf
        j = int(np.argmin(e))
        if e[j] <= tol:
            errs[i] = e[j]
            used[j] = True
    return errs, int((~used).sum())


SCENE = [
    DrawnDisc(0.0, -150.0, LIGHT), DrawnDisc(200.0, 100.0, DARK), DrawnDisc(-120.0, 230.0, LIGHT),
    DrawnDisc(280.0, -40.0, DARK), DrawnDisc(-100.0, -100.0, DARK), DrawnDisc(60.0, 60.0, LIGHT),
    DrawnDisc(-250.0, -150.0, LIGHT), DrawnDisc(150.0, -230.0, DARK), DrawnDisc(-40.0, 290.0, DARK),
]


@pytest.fixture(scope="module", params=[0.0, 40.0], ids=["top-down", "oblique-40"])
def scene(request: pytest.FixtureRequest) -> tuple[Shot, Detections]:
    shot = render(SCENE, SIZE, tilt_deg=request.param, seed=3)
    return shot, DiscDetector(shot.calib, "crokinole", settings=SQUARE).detect(shot.image)


def test_every_disc_found_and_nothing_else(scene: tuple[Shot, Detections]) -> None:
    shot, dets = scene
    errs, extra = _match(dets, shot.discs)
    assert np.all(np.isfinite(errs)), f"missed discs: {[(d.x, d.y) for d, e in zip(shot.discs, errs, strict=True) if not np.isfinite(e)]}"
    assert extra == 0, f"false detections at {dets.xy.round(1).tolist()}"


def test_centres_are_submillimetre_where_the_disc_touches(scene: tuple[Shot, Detections]) -> None:
    shot, dets = scene
    errs, _ = _match(dets, shot.discs)
    assert np.median(errs) <= 0.7
    assert errs.max() <= 1.5


def test_oblique_view_without_height_correction_would_be_off() -> None:
    """The correction matters: at 50 degrees the top face sits several mm from the contact point,
    and the detector still reports the contact point."""
    d = DrawnDisc(0.0, 250.0, DARK)
    shot = render([d], SIZE, tilt_deg=50.0, seed=4)
    dets = DiscDetector(shot.calib, "crokinole", settings=SQUARE).detect(shot.image)
    assert len(dets) == 1
    err = np.hypot(dets.xy[0, 0] - d.x, dets.xy[0, 1] - d.y)
    assert err < 1.0
    from tracker.detect.geometry import camera_pose

    s, _ = camera_pose(shot.calib).top_shift(np.array([[d.x, d.y]]), d.height)
    assert np.linalg.norm(s) > 4.0  # the uncorrected top face would be this far off


def test_touching_discs_are_separated() -> None:
    r = 15.875
    cluster = [DrawnDisc(0.0, -120.0, LIGHT), DrawnDisc(2 * r, -120.0, DARK),
               DrawnDisc(r, -120.0 + np.sqrt(3) * r, LIGHT),
               DrawnDisc(-150.0, 100.0, DARK), DrawnDisc(-150.0 + 2 * r, 100.0, DARK)]
    shot = render(cluster, SIZE, tilt_deg=30.0, seed=5)
    dets = DiscDetector(shot.calib, "crokinole", settings=SQUARE).detect(shot.image)
    errs, extra = _match(dets, cluster)
    assert np.all(errs < 1.5), errs
    assert extra == 0


def test_hands_are_not_discs() -> None:
    discs = [DrawnDisc(-60.0, -200.0, LIGHT), DrawnDisc(150.0, 150.0, DARK)]
    hands = [DrawnHand(100.0, -240.0, -1.2), DrawnHand(-200.0, 120.0, 2.6, color=(60, 80, 120)),
             DrawnHand(40.0, 230.0, 1.6, color=(150, 190, 230))]
    shot = render(discs, SIZE, tilt_deg=30.0, seed=6, hands=hands)
    dets = DiscDetector(shot.calib, "crokinole", settings=SQUARE).detect(shot.image)
    errs, extra = _match(dets, discs)
    assert np.all(np.isfinite(errs))
    assert extra == 0, f"hand taken for a disc at {dets.xy.round(1).tolist()}"


def test_low_contrast_wood_on_wood() -> None:
    wood = (120, 170, 215)
    discs = [DrawnDisc(-60.0, 140.0, (135, 185, 228)), DrawnDisc(120.0, -60.0, (95, 140, 190))]
    shot = render(discs, SIZE, tilt_deg=20.0, seed=7, wood=wood)
    dets = DiscDetector(shot.calib, "crokinole", settings=SQUARE).detect(shot.image)
    errs, extra = _match(dets, discs)
    assert np.all(errs < 1.5), errs
    assert extra == 0


def test_where_hole_ditch_and_empty_hole() -> None:
    discs = [DrawnDisc(0.0, 0.0, LIGHT), DrawnDisc(-352.0, 40.0, DARK), DrawnDisc(100.0, 0.0, DARK)]
    shot = render(discs, SIZE, tilt_deg=0.0, seed=8)
    dets = DiscDetector(shot.calib, "crokinole", settings=SQUARE).detect(shot.image)
    errs, extra = _match(dets, discs)
    assert np.all(np.isfinite(errs)) and extra == 0
    where = {tuple(np.round(p, -1)): w for p, w in zip(dets.xy, dets.where, strict=True)}
    by = {round(d.x, -1): w for (x, _), w in where.items() for d in discs if abs(d.x - x) < 10}
    assert by[0.0] == IN_HOLE and by[-350.0] == IN_DITCH and by[100.0] == ON_SURFACE
    # Without the disc, the 20-hole itself (a dark circle a little larger than a disc) is no disc.
    empty = render(discs[1:], SIZE, tilt_deg=0.0, seed=8)
    d2 = DiscDetector(empty.calib, "crokinole").detect(empty.image)
    assert not np.any(np.hypot(d2.xy[:, 0], d2.xy[:, 1]) < 10.0)


def test_motion_blur_streak_found_against_background() -> None:
    blur = (70.0, 30.0)
    discs = [DrawnDisc(-100.0, -100.0, DARK), DrawnDisc(120.0, 60.0, DARK, blur=blur)]
    shot = render(discs, SIZE, tilt_deg=30.0, seed=9, hands=[DrawnHand(100.0, -250.0, -1.2)])
    background = render([], SIZE, tilt_deg=30.0, seed=9, empty=True)
    det = DiscDetector(shot.calib, "crokinole", background=background.image)
    dets = det.detect(shot.image)
    moving = np.linalg.norm(dets.streak, axis=1) > 0
    assert moving.sum() == 1
    i = int(np.nonzero(moving)[0][0])
    assert np.hypot(*(dets.xy[i] - [120.0, 60.0])) < 8.0
    v = dets.streak[i]
    cos = abs(v @ np.array(blur)) / (np.linalg.norm(v) * np.linalg.norm(blur))
    assert cos > np.cos(np.radians(12))
    assert 0.6 * np.linalg.norm(blur) < np.linalg.norm(v) < 1.4 * np.linalg.norm(blur)
    # Its colour, un-mixed from the board, is a dark disc's (the board is light wood).
    assert dets.color[i, 0] < 40.0
    # The resting disc is still a plain detection.
    assert np.any(~moving & (np.hypot(dets.xy[:, 0] + 100, dets.xy[:, 1] + 100) < 1.5))


def test_wrong_frame_size_is_an_input_error() -> None:
    shot = render([], (320, 240), seed=1)
    det = DiscDetector(shot.calib, "crokinole")
    with pytest.raises(InputError, match="calibration is for 320x240"):
        det.detect(np.zeros((100, 100, 3), np.uint8))
    with pytest.raises(InputError, match="game"):
        DiscDetector(shot.calib, "korona")


def test_successive_frames_reuse_still_discs_and_follow_a_moved_one() -> None:
    still = [DrawnDisc(-100.0, -100.0, DARK), DrawnDisc(150.0, 60.0, LIGHT)]
    a = render([*still, DrawnDisc(0.0, 200.0, DARK)], SIZE, tilt_deg=25.0, seed=13)
    b = render([*still, DrawnDisc(40.0, -220.0, DARK)], SIZE, tilt_deg=25.0, seed=13)
    det = DiscDetector(a.calib, "crokinole")
    first = det.detect(a.image)
    again = det.detect(a.image)
    assert np.array_equal(first.xy, again.xy)
    moved = det.detect(b.image)
    errs, extra = _match(moved, b.discs)
    assert np.all(errs < 1.5) and extra == 0
    # The still discs were kept as they were, not refitted.
    for d in still:
        i = int(np.argmin(np.hypot(first.xy[:, 0] - d.x, first.xy[:, 1] - d.y)))
        assert np.any(np.all(moved.xy == first.xy[i], axis=1))
    det.reset()
    fresh = det.detect(b.image)
    assert len(fresh) == len(moved)


def test_a_neighbour_moving_beside_a_still_disc_does_not_refit_it() -> None:
    """Only changed pixels on a disc's own silhouette force a refit: a disc sliding past 13 mm
    away (well inside the disc-wide search window around the change) leaves it as it was."""
    still = DrawnDisc(0.0, -150.0, LIGHT)
    a = render([still, DrawnDisc(45.0, -150.0, DARK)], SIZE, tilt_deg=25.0, seed=17)
    b = render([still, DrawnDisc(-45.0, -150.0, DARK)], SIZE, tilt_deg=25.0, seed=17)
    det = DiscDetector(a.calib, "crokinole")
    first = det.detect(a.image)
    calls: list[np.ndarray] = []
    refine = det.refiner.refine

    def counted(image: np.ndarray, guess: np.ndarray, radius: float, **kw: Any) -> Fit:
        calls.append(guess)
        return refine(image, guess, radius, **kw)

    det.refiner.refine = counted  # type: ignore[method-assign,assignment]
    second = det.detect(b.image)
    errs, extra = _match(second, b.discs)
    assert np.all(errs < 1.0) and extra == 0
    i = int(np.argmin(np.hypot(*(first.xy - [still.x, still.y]).T)))
    assert np.any(np.all(second.xy == first.xy[i], axis=1))  # kept bit for bit
    assert len(calls) == 1  # only the moved disc was refitted


@pytest.mark.parametrize("in_fit", [True, False], ids=["in-fit", "shifted"])
@pytest.mark.parametrize("color", [DARK, LIGHT], ids=["dark", "light"])
def test_chamfered_top_edge_at_an_oblique_view(color: tuple[int, int, int], in_fit: bool) -> None:
    """A disc with a 1.9 mm chamfer seen 40 degrees off vertical, on the far side of the board:
    its outline there is the chamfer's lower edge, which shows nearer the camera than a square
    disc's top rim. Told the chamfer, the detector puts the centre within 0.4 mm, whether it
    models the chamfer in the fit (``tracker photo``) or moves the square-edged fit's centre
    (video); a square-disc model pulls it toward the camera."""
    d = DrawnDisc(0.0, 200.0, color, bevel=1.9)
    shot = render([d, DrawnDisc(-150.0, -60.0, color, bevel=1.9)], SIZE, tilt_deg=40.0, seed=21)
    got = {}
    for bevel in (0.0, 1.9):
        st = DetectorSettings(bevel=bevel, bevel_in_fit=in_fit)
        dets = DiscDetector(shot.calib, "crokinole", settings=st).detect(shot.image)
        errs, extra = _match(dets, shot.discs)
        assert np.all(np.isfinite(errs)) and extra == 0
        got[bevel] = dets.xy[int(np.argmin(np.hypot(*(dets.xy - [d.x, d.y]).T)))]
    assert np.hypot(*(got[1.9] - [d.x, d.y])) < 0.4
    assert got[0.0][1] < d.y - 0.5  # square model: pulled south, toward the camera


@pytest.mark.parametrize("model", [False, True], ids=["edge-refit", "region-model"])
def test_chamfer_refit_moves_positions_only(model: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The video correction leaves every decision to the square-edged fit: the same discs, in
    the same order, with the same radii and confidences, each moved away from the camera's foot
    by a fraction of a millimetre; and the detector's own memory (reused on the next call) keeps
    the square-edged centres, so a second call on the same frame returns the same corrected
    positions, not corrected twice. Both with the chamfered edge refit alone and with the region
    model (crokinole's default, ``chamfer.REGION_MODEL``), which on these drawn discs (not the
    renderer's) is held to 0.85 mm: its chamfer-shading term (``silhouette``, the cosine round the
    disc, which takes the renderer's light discs' pull towards the lamp from +0.58 to +0.11 mm)
    has no lamp to model on these flat drawings and costs the light one 0.7 -> 0.8 mm."""
    monkeypatch.setattr(chamfer, "REGION_MODEL", {"crokinole": model})
    discs = [DrawnDisc(0.0, 200.0, DARK, bevel=1.9), DrawnDisc(-150.0, -60.0, LIGHT, bevel=1.9),
             DrawnDisc(120.0, 40.0, DARK, bevel=1.9)]
    shot = render(discs, SIZE, tilt_deg=40.0, seed=22)
    square = DiscDetector(shot.calib, "crokinole", settings=DetectorSettings(bevel=0.0)).detect(shot.image)
    det = DiscDetector(shot.calib, "crokinole")  # crokinole's own chamfer, 1.9 mm
    got = det.detect(shot.image)
    assert len(square) == len(discs) and len(got) == len(square)
    assert np.array_equal(got.radius, square.radius) and np.array_equal(got.confidence, square.confidence)
    foot = det.pose.centre[:2]
    moved = np.hypot(*(got.xy - foot).T) - np.hypot(*(square.xy - foot).T)
    assert np.all(moved > 0.1) and np.all(moved < 2.0)  # away from the camera
    errs, _ = _match(got, shot.discs)
    errs_square, _ = _match(square, shot.discs)
    assert np.max(errs) < (0.85 if model else 0.5) and np.max(errs) < np.max(errs_square)
    again = det.detect(shot.image)
    assert np.array_equal(again.xy, got.xy)


def test_disc_sunk_in_the_hole_told_from_the_empty_hole_by_the_background() -> None:
    """In a rendered fixture at 640x360 a disc in the 20-hole has the hole's outline; the empty
    hole of the background frame tells them apart."""
    import json
    from pathlib import Path

    import cv2

    root = Path(__file__).resolve().parents[2] / "fixtures" / "videos" / "crokinole_twenty"
    if not (root / "frames.jsonl").exists():
        pytest.skip("fixture crokinole_twenty not present")
    render = pytest.importorskip("tracker.render")
    from tracker.boards import CrokinoleBoard
    from tracker.calibration.datatypes import Calibration

    frames = [json.loads(line) for line in (root / "frames.jsonl").open()]
    holed = [i for i, f in enumerate(frames) if any(d["state"] == "hole" for d in f["discs"])]
    if not holed:
        pytest.skip("no frame with a disc in the hole")
    cap = cv2.VideoCapture(str(root / "video.mp4"))
    images = []
    while True:
        ok, img = cap.read()
        if not ok:
            break
        images.append(img)
    i = holed[len(holed) // 2]
    h, w = images[0].shape[:2]
    cam = render.Camera(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in frames[i]["camera"].items()})
    K, dist = render.intrinsics(cam, (w, h))
    calib = Calibration(homography=np.array(frames[i]["homography"]), image_size=(w, h), rms_mm=0.0,
                        board=CrokinoleBoard(), camera_matrix=K, dist_coeffs=dist)
    assert not frames[0]["discs"]
    det = DiscDetector(calib, "crokinole", background=images[0])
    assert len(det.detect(images[0])) == 0  # the empty hole is no disc
    det.reset()
    dets = det.detect(images[i])
    assert len(dets) == 1 and dets.where[0] == IN_HOLE
    assert np.hypot(*dets.xy[0]) < 5.0


def test_weak_outline_and_weak_face_together_are_not_a_disc() -> None:
    """A patch of board framed by painted lines, a passing disc's blur or neighbours' shadows
    closes a disc-sized outline barely (a third open, or its worst quarter half open) and differs
    from the board barely (step ~7-11): one weak cue is allowed, both together are not. The three
    measured ghosts of crokinole_2p_round (one kept for good by reuse, two found by the full pass
    once the board settled) are turned down; a disc with a clear outline or a clear face is not."""
    det = DiscDetector(render([], (320, 320), empty=True).calib, "crokinole")

    def fit(coverage: float, quarter: float, face: tuple[float, float, float]) -> Fit:
        return Fit(centre=np.array([213.0, -189.0]), radius=17.7, coverage=coverage, quarter_coverage=quarter,
                   residual=1.1, contrast=5.0, mm_per_px=4.0, color=np.array(face),
                   surround=np.array([165.4, 137.3, 165.1]))

    ghost_face = (169.5, 135.4, 167.9)  # step 6.9 from the surround
    line_face = (173.0, 139.5, 169.5)  # step ~11
    assert not det._accept_colors(fit(0.69, 0.25, ghost_face))  # shot 20's ghost
    assert not det._accept_colors(fit(0.67, 0.42, ghost_face))  # beside s1 at rest
    assert not det._accept_colors(fit(0.62, 0.50, line_face))  # a quadrant line meeting the 5 ring
    assert det._accept_colors(fit(0.95, 0.8, ghost_face))  # a disc with a clear outline
    assert det._accept_colors(fit(0.69, 0.25, (200.0, 130.0, 150.0)))  # a disc with a clear face
