"""Streaks of fast discs against the learned empty board: found where they are, with their
direction, length and kind; hands, discs at rest and blobs that do not move are not streaks.

Frames are drawn top-down at a known scale (image px = board mm / MM_PER_PX), motion blur as the
renderer makes it: the average of the disc drawn at evenly spaced points of its travel."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.detect.detector import DiscDetector
from tracker.detect.streaks import changed_box, find_streaks, streak_ends

MM_PER_PX = 2.5
SIZE = 360  # image side, px: 900 mm of board
WOOD = (120, 170, 215)
LIGHT_WOOD = (170, 205, 225)
DARK = (40, 45, 60)
CREAM = (205, 232, 245)


def calib_for(board: CrokinoleBoard | KoronaBoard) -> Calibration:
    c = SIZE / 2
    # image px -> board mm (y up)
    H = np.array([[MM_PER_PX, 0, -c * MM_PER_PX], [0, -MM_PER_PX, c * MM_PER_PX], [0, 0, 1.0]])
    return Calibration(homography=H, image_size=(SIZE, SIZE), rms_mm=0.0, board=board)


def px(x: float, y: float) -> tuple[float, float]:
    return SIZE / 2 + x / MM_PER_PX, SIZE / 2 - y / MM_PER_PX


def empty_board(wood: tuple[int, int, int] = WOOD, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.full((SIZE, SIZE, 3), wood, np.float32)
    yy = np.arange(SIZE, dtype=np.float32)[:, None]
    xx = np.arange(SIZE, dtype=np.float32)[None, :]
    img += (6 * np.sin(yy / 4.0 + 2 * np.sin(xx / 60.0)))[..., None]
    img += rng.normal(0, 1.5, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def disc(img: np.ndarray, x: float, y: float, r: float, colour: tuple[int, int, int]) -> None:
    u, v = px(x, y)
    cv2.circle(img, (int(round(u * 16)), int(round(v * 16))), int(round(r / MM_PER_PX * 16)), colour, -1,
               cv2.LINE_AA, shift=4)


def streak(img: np.ndarray, x: float, y: float, blur: tuple[float, float], r: float,
           colour: tuple[int, int, int]) -> np.ndarray:
    acc = np.zeros(img.shape, np.float32)
    n = 16
    for i in range(n):
        f = i / (n - 1) - 0.5
        layer = img.copy()
        disc(layer, x + f * blur[0], y + f * blur[1], r, colour)
        acc += layer
    return (acc / n).astype(np.uint8)


def hand(img: np.ndarray, tip: tuple[float, float], towards: tuple[float, float], width: float = 70.0,
         length: float = 600.0) -> None:
    """A flat arm (or fingers) from ``tip``, ``length`` mm long (by default out past the edge)."""
    a = np.array(tip, float)
    b = a + length * np.array(towards, float) / np.hypot(*towards)
    cv2.line(img, tuple(int(v) for v in px(*a)), tuple(int(v) for v in px(*b)), (120, 150, 200),
             int(width / MM_PER_PX))


def streaks_of(d: Detections) -> Detections:
    return d[np.hypot(*d.streak.T) > 0]


def test_dark_streak_found_with_its_centre_direction_and_length() -> None:
    cal = calib_for(CrokinoleBoard())
    r = cal.board.disc_radius
    bg = empty_board()
    det = DiscDetector(cal, "crokinole", background=bg)
    frame = bg.copy()
    disc(frame, -150.0, -60.0, r, DARK)  # at rest
    frame = streak(frame, 90.0, 40.0, (80.0, 50.0), r, DARK)
    hand(frame, (-60.0, -300.0), (0.0, -1.0))
    got = det.detect(frame)
    s = streaks_of(got)
    assert len(s) == 1
    assert np.hypot(*(s.xy[0] - [90.0, 40.0])) < 5.0
    v = s.streak[0]
    cos = abs(v @ np.array([80.0, 50.0])) / (np.linalg.norm(v) * np.hypot(80.0, 50.0))
    assert cos > np.cos(np.radians(8))
    assert 0.7 * np.hypot(80, 50) < np.linalg.norm(v) < 1.3 * np.hypot(80, 50)
    a, b = streak_ends(s)
    ends = sorted([tuple(np.round(a[0])), tuple(np.round(b[0]))])
    assert np.hypot(ends[0][0] - 50.0, ends[0][1] - 15.0) < 12.0  # (90, 40) -+ (40, 25)
    assert np.hypot(ends[1][0] - 130.0, ends[1][1] - 65.0) < 12.0
    assert s.kind[0] == DISC
    assert s.color[0, 0] < 40.0  # un-mixed from the board: a dark disc's lightness
    # the resting disc is a plain detection, the hand is nothing
    sharp = got[np.hypot(*got.streak.T) == 0]
    assert len(sharp) == 1 and np.hypot(*(sharp.xy[0] - [-150.0, -60.0])) < 2.0


def test_faint_light_streak_on_light_wood_is_found() -> None:
    cal = calib_for(CrokinoleBoard())
    r = cal.board.disc_radius
    bg = empty_board(LIGHT_WOOD, seed=3)
    det = DiscDetector(cal, "crokinole", background=bg)
    frame = streak(bg, 0.0, -150.0, (0.0, 60.0), r, CREAM)
    s = streaks_of(det.detect(frame))
    assert len(s) == 1
    assert np.hypot(*(s.xy[0] - [0.0, -150.0])) < 6.0
    assert abs(s.streak[0, 0]) < 0.25 * abs(s.streak[0, 1])  # along y


def test_the_model_learns_the_board_under_discs_that_were_there_at_the_start() -> None:
    """Started from a frame with a disc on it, the model knows the board there only once a still
    frame showed it; then a streak crossing that place is found."""
    cal = calib_for(CrokinoleBoard())
    r = cal.board.disc_radius
    bg = empty_board(seed=5)
    start = bg.copy()
    disc(start, 100.0, 0.0, r, DARK)
    det = DiscDetector(cal, "crokinole")
    det.set_background(start, det.detect(start))
    m = det.background
    u, v = np.round(det.view.to_px(np.array([[100.0, 0.0]]))[0]).astype(int)
    assert not m.known[v, u]
    # the disc is taken away; the detector sees the empty board twice (the second call is still)
    det.detect(bg)
    det.detect(bg)
    assert m.known[v, u] and m.updates >= 1
    frame = streak(bg, 100.0, 0.0, (70.0, 0.0), r, DARK)
    s = streaks_of(det.detect(frame))
    assert len(s) == 1 and np.hypot(*(s.xy[0] - [100.0, 0.0])) < 5.0


def test_fingers_reaching_in_a_thin_cue_and_a_faint_shadow_are_not_streaks() -> None:
    cal = calib_for(CrokinoleBoard())
    bg = empty_board(seed=7)
    det = DiscDetector(cal, "crokinole", background=bg)
    frame = bg.copy()
    # two fingers, about a disc wide, reaching in over the edge of the board toward the corner
    hand(frame, (150.0, 120.0), (1.0, 1.0), width=40.0)
    cv2.line(frame, tuple(int(v) for v in px(-200, 50)), tuple(int(v) for v in px(-60, 50)), (60, 90, 140),
             max(1, int(6 / MM_PER_PX)))  # a thin stick, far narrower than a disc
    # a soft shadow the shape of a streak, a few grey levels deep
    shade = np.zeros(frame.shape[:2], np.uint8)
    cv2.line(shade, tuple(int(v) for v in px(-100, -150)), tuple(int(v) for v in px(0, -150)), 255, int(32 / MM_PER_PX))
    frame = np.where(shade[..., None] > 0, np.clip(frame.astype(int) - 7, 0, 255), frame).astype(np.uint8)
    assert len(streaks_of(det.detect(frame))) == 0
    # the same fingers well inside the board, cut off from the edge, would look like one
    inside = bg.copy()
    hand(inside, (-100.0, -100.0), (-1.0, 0.0), width=40.0, length=70.0)
    assert len(streaks_of(DiscDetector(cal, "crokinole", background=bg).detect(inside))) == 1


def test_only_blobs_that_moved_are_streaks() -> None:
    """Two touching dark discs the detector missed are a disc-wide capsule too; they are reported
    only where the view changed since the previous call."""
    cal = calib_for(CrokinoleBoard())
    r = cal.board.disc_radius
    bg = empty_board(seed=11)
    det = DiscDetector(cal, "crokinole", background=bg)
    frame = bg.copy()
    disc(frame, 200.0, -100.0, r, DARK)
    disc(frame, 200.0 + 2 * r, -100.0, r, DARK)
    view = det.rectify(frame)
    nothing = np.zeros(det._valid.shape, bool)
    around = nothing.copy()  # changes all round the pair (its box holds them), none on them
    (u0, v0), (u1, v1) = np.round(det.view.to_px(np.array([[200.0 - 3 * r, -100.0 + 3 * r],
                                                             [200.0 + 5 * r, -100.0 - 3 * r]]))).astype(int)
    cv2.rectangle(around.view(np.uint8), (int(u0), int(v0)), (int(u1), int(v1)), 1, 1)
    assert len(find_streaks(det, view, Detections.empty(), around)) == 0
    on_them = around.copy()
    on_them[(v0 + v1) // 2 - 3 : (v0 + v1) // 2 + 3, u0 : u1] = True
    assert len(find_streaks(det, view, Detections.empty(), on_them)) == 1
    det.background.previous_streaks = []  # (seen just now, it would count as lingering)
    assert len(find_streaks(det, view, Detections.empty(), None)) == 1  # full pass: looked at
    assert changed_box(nothing, (345, 345), 3) is None


def test_the_blur_beside_a_slow_sharp_disc_is_not_a_second_disc() -> None:
    cal = calib_for(CrokinoleBoard())
    r = cal.board.disc_radius
    bg = empty_board(seed=13)
    det = DiscDetector(cal, "crokinole", background=bg)
    det.background.previous_xy = np.array([[-90.0, 80.0]])  # where it was a frame ago
    frame = streak(bg, 0.0, 80.0, (60.0, 0.0), r, DARK)
    sharp = Detections(xy=np.array([[-25.0, 80.0]]), radius=np.array([r]))  # the ring filter's fit
    got = find_streaks(det, det.rectify(frame), sharp, None)
    assert len(streaks_of(got)) == 0
    # the same blur beside a disc that has not moved (at rest) would be a disc of its own
    det.background.previous_xy = np.array([[-8.0, 80.0]])
    frame2 = streak(bg, 60.0, 80.0, (70.0, 0.0), r, DARK)
    disc(frame2, -8.0, 80.0, r, DARK)
    resting = Detections(xy=np.array([[-8.0, 80.0]]), radius=np.array([r]))
    got2 = find_streaks(det, det.rectify(frame2), resting, None)
    assert len(streaks_of(got2)) == 1


def test_korona_striker_streak_has_the_striker_kind_and_a_pawn_streak_the_disc_kind() -> None:
    board = KoronaBoard()
    cal = calib_for(board)
    bg = empty_board(LIGHT_WOOD, seed=17)
    det = DiscDetector(cal, "korona", background=bg)
    frame = streak(bg, -150.0, 0.0, (0.0, 110.0), board.striker_radius, (40, 70, 110))
    frame = streak(frame, 180.0, -100.0, (70.0, 0.0), board.disc_radius, DARK)
    s = streaks_of(det.detect(frame))
    assert len(s) == 2
    i = int(np.argmin(s.xy[:, 0]))
    assert s.kind[i] == STRIKER and np.hypot(*(s.xy[i] - [-150.0, 0.0])) < 6.0
    assert s.kind[1 - i] == DISC and np.hypot(*(s.xy[1 - i] - [180.0, -100.0])) < 6.0
    assert s.radius[i] == board.striker_radius and s.radius[1 - i] == board.disc_radius


def test_a_streak_that_stays_put_is_a_cue_not_a_disc_in_flight() -> None:
    """A disc blurred by b during the exposure travels at least b between frames: a disc-wide
    capsule seen again where it was (a stick being aimed) is not reported again; the next streak
    of a real flight, further on, is."""
    cal = calib_for(KoronaBoard())
    bg = empty_board(LIGHT_WOOD, seed=19)
    det = DiscDetector(cal, "korona", background=bg)
    r = cal.board.disc_radius
    stick = streak(bg, 100.0, -200.0, (0.0, 90.0), r, (50, 80, 120))
    assert len(streaks_of(find_streaks(det, det.rectify(stick), Detections.empty(), None))) == 1
    nudged = streak(bg, 101.0, -195.0, (0.0, 90.0), r, (50, 80, 120))
    assert len(streaks_of(find_streaks(det, det.rectify(nudged), Detections.empty(), None))) == 0
    flight = streak(bg, 101.0, -20.0, (0.0, 90.0), r, (50, 80, 120))
    assert len(streaks_of(find_streaks(det, det.rectify(flight), Detections.empty(), None))) == 1


def test_without_a_background_frame_the_model_starts_at_the_first_still_call() -> None:
    """After a camera bump the pipeline makes a new detector with no empty-board frame: the model
    starts from the first call on which nothing changed, with the discs found then marked unseen,
    and streaks are found from then on."""
    cal = calib_for(CrokinoleBoard())
    r = cal.board.disc_radius
    bg = empty_board(seed=23)
    resting = bg.copy()
    disc(resting, -120.0, 40.0, r, DARK)
    det = DiscDetector(cal, "crokinole")
    det.detect(resting)
    det.detect(resting)
    assert not det.background.ready  # a detector on its own learns nothing unasked
    det = DiscDetector(cal, "crokinole")
    det.background.auto_start = True  # as the video pipeline's
    det.detect(resting)
    assert not det.background.ready
    det.detect(resting)  # nothing changed: a still call
    assert det.background.ready
    u, v = np.round(det.view.to_px(np.array([[-120.0, 40.0]]))[0]).astype(int)
    assert not det.background.known[v, u]
    frame = streak(resting, 80.0, -60.0, (-60.0, 60.0), r, DARK)
    s = streaks_of(det.detect(frame))
    assert len(s) == 1 and np.hypot(*(s.xy[0] - [80.0, -60.0])) < 5.0


def test_no_streaks_when_the_camera_moved() -> None:
    """A bumped camera shifts the whole view: board lines against the old model are elongated
    blobs everywhere; nothing is reported until the model lines up again."""
    cal = calib_for(CrokinoleBoard())
    r = cal.board.disc_radius
    bg = empty_board(seed=29)
    cv2.circle(bg, (SIZE // 2, SIZE // 2), int(200 / MM_PER_PX), (25, 25, 25), 2)  # a board line
    det = DiscDetector(cal, "crokinole", background=bg)
    shifted = np.roll(bg, (6, 9), axis=(0, 1))
    frame = streak(shifted, 80.0, -60.0, (-60.0, 60.0), r, DARK)
    everywhere = det._valid.copy()
    assert len(find_streaks(det, det.rectify(frame), Detections.empty(), everywhere)) == 0
    # the same streak on the unmoved board, with only its own pixels changed, is found
    still_cam = streak(bg, 80.0, -60.0, (-60.0, 60.0), r, DARK)
    view = det.rectify(still_cam)
    own = np.abs(view.astype(int) - det.rectify(bg).astype(int)).sum(axis=2) > 30
    assert len(find_streaks(det, view, Detections.empty(), own)) == 1


def test_an_oblique_camera_widens_a_streak_by_the_top_face_shift() -> None:
    # triple.mp4's black shot disc leaving the board at its far side: 51 mm across its blur at
    # 2.23 mm per view pixel, where the camera sees a disc's top face 14.5 mm from its base
    from tracker.detect.streaks import _capsule

    mpp, r = 2.23, 15.9
    width_px, length_px = 56.0 / mpp - 1.5, 115.0 / mpp - 1.5  # measured between percentiles: ~52 x ~105
    ys, xs = np.mgrid[0:60, 0:80]
    u, v = xs - 40.0, ys - 30.0
    half_core = max(length_px - width_px, 0.0) / 2
    inside = np.hypot(np.maximum(np.abs(u) - half_core, 0.0), v) <= width_px / 2
    py, px = np.nonzero(inside)
    assert _capsule(py, px, mpp, r, r) is None  # too wide for a disc seen from straight above
    found = _capsule(py, px, mpp, r, r, tilt=14.5)
    assert found is not None
    (cu, cv), axis, width, length = found
    assert 50.5 < width < 56.0 and abs(length - 105.0) < 8.0, (width, length)
    assert abs(abs(float(axis[0])) - 1.0) < 1e-6  # along x
    assert _capsule(py, px, mpp, r, r, tilt=0.5) is None  # a near-overhead camera: still refused


def test_blob_pixels_are_each_components_pixels_in_raster_order() -> None:
    """``_blob_pixels`` reads each large component in its own bounding box (speed): the same
    pixels, in the same order, as the whole labelling's ``np.nonzero`` grouped by label."""
    from tracker.detect.streaks import _blob_pixels

    rng = np.random.default_rng(3)
    for _ in range(40):
        noise = rng.random((int(rng.integers(8, 90)), int(rng.integers(8, 90)))).astype(np.float32)
        m = (cv2.GaussianBlur(noise, (0, 0), 2.0) > 0.5).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        big = np.nonzero(stats[1:, cv2.CC_STAT_AREA] >= 6)[0] + 1
        got = _blob_pixels(labels, stats, big)
        assert len(got) == len(big)
        for i, (py, px) in zip(big, got, strict=True):
            ys, xs = np.nonzero(labels == i)
            assert np.array_equal(py, ys) and np.array_equal(px, xs)
