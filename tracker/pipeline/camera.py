"""The pipeline's camera: fitting the board from the first frames, and watching for bumps.

Split out of ``pipeline.py`` (behaviour unchanged): the functions take the :class:`Pipeline`
whose state they read and set (its calibration buffer, drift monitor and bump state), so the
per-frame code there stays about frames, detections and the referee.

* ``try_calibrate``: the board is fitted on the median of the buffered first frames (hands move,
  the board does not), or on the last of them; the detector's empty-board model starts from
  that frame.
* ``refuse_other_game``: when the first frames' fit fails and the other game's board fits them,
  the review stops there ("it looks like a korona board: try --game korona"). It used to slide
  the fit through every frame of the video (minutes on a long match) before it refused; a view
  that shows no board at first (the camera being set up) fits neither game and is still waited for.
* ``check_drift``: every ``drift_every`` seconds between shots (``drift_in_shot`` during one),
  at once when most of the picture changed, and on the first frame of every motion episode,
  the board is checked; once it moved, tracking holds still and the board is fitted again on
  that very frame, then every 5th frame on the median of the recent ones, giving up after 5 s. (crokinole_4p_part: seen
  through the old fit, a bump makes the resting discs jump, which opens an episode; the check
  used to wait for that episode to end, and the fit was tried only on frame indices divisible
  by 5, ``_bump_tries`` never being set. On that hard 480x270 video half the frames fail the
  board fit, so the board was found again 1.2 s after the bump, after south's next disc had
  been put down and flicked unseen: the shot was lost and every later one misnamed.) An
  episode that starts with the bump is the bump's own: it is not judged (``close_shot``) but
  dropped with the refit.
* ``settle_refit``: a bump takes a few frames, and the board is fitted again on the frame it is
  noticed, which may be before the camera stops: c2e_9601 was bumped over frames 410-414, fitted
  again on frame 413, and the view's last frame of motion left every disc 2-3 mm off for the rest
  of the match (the drift check's threshold is 3 mm, its resolution a pixel). So the board is
  fitted once more ``SETTLE_REFIT_S`` after a bump's fit, between shots, on the median of the
  frames since, and that fit is taken when it moves the board by ``SETTLE_REFIT_MM`` or more. Its
  ``calibrated`` event says ``"settled": true``: the view did not begin there (``missed.py``).
  A fresh fit is not always the steadier one: c2h_9956's bump fit was within 0.14 mm, and the fit
  at rest came out turned 2.5 degrees (8.4 mm mean over the surface; the crokinole board's rotation
  is weakly held) and was taken, every later disc off (p95 7.4 mm). So the bump's fit is also
  carried onto the view at rest by registering the two pictures (``calibration.register``: the
  board did not change, only the camera), and the fit at rest is taken only when it lies within
  ``SETTLE_AGREE_MM`` of the carried one; past that the carried fit is. (On the 24 refits after
  bumps in 30 dev matches the two agreed within 2.0 mm but on c2h_9956: 9.5 mm.)
* ``close_shot``: when the bump is noticed during a shot whose motion has already ended (every
  disc at rest, in the hole or off, the segmenter only waiting out its ``settle`` time), the
  shot is judged at once from what was seen before the camera moved. A broadcast cuts to
  another camera as soon as the discs stop (triple.mp4: the cut came 3 frames after the last
  disc went off, 0.03 s before the shot would have closed), and dropping that episode unjudged
  with the refit lost the whole shot. While anything still moves, the episode is dropped as
  before: where it comes to rest was not seen through the old fit.
* ``seat_side_hint``: SPEC section 1 puts ``south`` at the bottom of the picture unless the user
  says otherwise, so the seats are never guessed from where shots start. But with 2 players
  sitting left and right of the picture (ricochet.mp4), every shot comes from the east or west
  quadrant, where no seat is, and the seats given are arbitrary: the review says so once, naming
  the ``--south`` options, when a shot starts clearly (within 30 degrees) on the left-right axis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tracker.calibration import DriftMonitor
from tracker.calibration.io import median_frame
from tracker.calibration.register import register_view
from tracker.errors import CalibrationError, TrackerError

if TYPE_CHECKING:
    from tracker.calibration.datatypes import Calibration
    from tracker.pipeline.pipeline import Pipeline

# After a bump's new fit: how long the camera is given to come to rest before the board is fitted
# once more (s), how long that may wait for a gap between shots (s), and the least move of the
# board (mm, mean over the playing surface) for which the second fit replaces the first.
SETTLE_REFIT_S = 0.5
SETTLE_REFIT_WAIT_S = 10.0
SETTLE_REFIT_MM = 0.5
# The most the fit at rest may stray from the bump's fit carried onto the view at rest by image
# registration (mm, mean over the playing surface) and still be taken; past it the carried fit is.
SETTLE_AGREE_MM = 4.0


def try_calibrate(p: Pipeline) -> bool:
    from tracker.calibration import calibrate_image

    frames = [f for _, _, f in p._buffer]
    median = median_frame(frames[:: max(1, len(frames) // 5)])
    idx, t = p._buffer[0][0], p._buffer[0][1]
    for img in (median, frames[-1]):
        try:
            calib = calibrate_image(img, p.game, board=p.board_hint, south=p.south)
        except TrackerError as e:  # CalibrationError, or InputError for a blank frame
            p.calibration_error = str(e)
            continue
        p._start(calib, t, idx)
        p._reference = img
        set_drift(p, img)
        # The empty-board model starts from the calibration frame (the discs already on it
        # mark where the board is unseen) and then learns from still frames.
        p.detector.set_background(img, p.detector.detect(img))
        return True
    return False


def refuse_other_game(p: Pipeline, frames: list[np.ndarray]) -> None:
    """CalibrationError when no ``p.game`` board was found in the first calibration window but
    the other game's standard board fits its median: the user named the wrong game. Checked
    once, on the first failed window only."""
    if p.other_game_checked:
        return
    p.other_game_checked = True
    from tracker.calibration.api import board_fits

    other = "korona" if p.game == "crokinole" else "crokinole"
    if board_fits(median_frame(frames[:: max(1, len(frames) // 5)]), other):
        why = p.calibration_error or f"no {p.game} board found"
        raise CalibrationError(f"{why}; it looks like a {other} board: try --game {other}")


def set_drift(p: Pipeline, img: np.ndarray) -> None:
    assert p.calib is not None
    try:
        p.drift = DriftMonitor(p.calib, img)
    except Exception:  # a monitor is a nicety; never fail the review for it
        p.drift = None


def close_shot(p: Pipeline, t: float, index: int) -> None:
    """Judge the shot in progress now, when its motion has ended (see the module docstring)."""
    seg = p.segmenter
    if not seg.in_shot or any(tr.state == "moving" for tr in p.tracker.tracks):
        return
    from tracker.pipeline.pipeline import FrameResult

    res = FrameResult(index, t, list(p.tracker.tracks))
    for rec in seg.flush(p.tracker.tracks, t, index):
        p._shot(rec, res)


def seat_side_hint(p: Pipeline, start: tuple[float, float]) -> None:
    """Warn once when a 2-player crokinole shot starts from a side where no seat is (see the
    module docstring)."""
    if p.game != "crokinole" or p.players != 2 or p.south is not None or p._seat_hinted:
        return
    a = float(np.degrees(np.arctan2(start[1], start[0]))) % 180.0  # 0: the east-west axis
    if min(a, 180.0 - a) > 30.0 or p.calib is None:
        return
    p._seat_hinted = True
    centre, at = p.calib.to_image(np.array([[0.0, 0.0], [start[0], start[1]]], float))
    dx, dy = at - centre
    side = ("left" if dx < 0 else "right") if abs(dx) >= abs(dy) else ("top" if dy < 0 else "bottom")
    p.warnings.append(f"a shot came from the {side} of the picture, where no seat is with 2 players (south is the "
                      "seat at the bottom of the picture unless told): if the players sit left and right, pass "
                      "--south left or --south right")


def check_drift(p: Pipeline, frame: np.ndarray, t: float, index: int) -> None:
    """Every ``drift_every`` seconds (between shots) check the board has not moved; once it
    has, hold tracking still and try to fit the board again every few frames."""
    if p.drift is None:
        return
    if not p._bumped and p._settle_at is not None:
        p._recent = (p._recent + [frame])[-9:]
        if t >= p._settle_at and not p.segmenter.in_shot:
            p._settle_at = None
            settle_refit(p, frame, t, index)
            return
        if t - p._settle_at > SETTLE_REFIT_WAIT_S:
            p._settle_at = None
    if not p._bumped:
        cut = p.gate.changed > 0.4  # most of the picture changed at once: look now
        # the first frame of a motion episode: look now too (a bump reads as discs moving)
        started = p.segmenter.in_shot and not p._drift_episode
        p._drift_episode = p.segmenter.in_shot
        # during an episode too, more often: a bump while a hand sets a striker down reads as
        # every resting disc jumping, and once that episode closes they are judged gone
        # (held-out k4h_9306 at 19.7 s: ten discs called pocketed before the check came)
        every = p.drift_in_shot if p.segmenter.in_shot else p.drift_every
        if not cut and not started and t - p._last_drift_t < every:
            return
        p._last_drift_t = t
        if not p.drift.check(frame).bumped:
            return
        if not started:  # (an episode that starts with the bump is the bump's: not judged)
            close_shot(p, t, index)
        p._bumped = True
        p._bump_t = t
        p._bump_tries = index  # the first fit is tried on this very frame, then every 5th
        p._recent = []
        p.warnings.append(f"camera moved at t = {t:.2f} s")
    p._recent = (p._recent + [frame])[-9:]
    if (index - p._bump_tries) % 5:
        return
    fit = fit_again(p, frame)
    if fit is None:
        if t - p._bump_t > 5.0:  # give up: carry on with the old fit rather than stop
            p._bumped = False
            p._last_drift_t = t
            p.warnings.append(f"board not found again after the camera moved; kept the old fit from t = {t:.2f} s")
        return
    calib, img = fit
    k = board_turn(p, calib, img)
    if k:
        calib = turned(calib, k)
        p.warnings.append(f"t = {t:.2f} s: the new view shows the board turned {90 * k} degrees; "
                          "the seats follow the discs at rest, not the picture")
    restart(p, calib, frame, img, t, index)
    p._bumped = False
    p._settle_at = t + SETTLE_REFIT_S
    p._recent = []
    p.warnings.append(f"board fitted again at t = {t:.2f} s")


def settle_refit(p: Pipeline, frame: np.ndarray, t: float, index: int) -> None:
    """Fit the board once more after a bump's fit, now the camera has come to rest (see the
    module docstring); keep the fit in use unless the new one moves the board by
    ``SETTLE_REFIT_MM`` or more."""
    assert p.calib is not None
    fit = fit_again(p, frame)
    p._recent = []
    if fit is None:
        return
    calib, img = fit
    k, moved = nearest_turn(p.calib, calib)
    if moved < SETTLE_REFIT_MM:
        return
    calib = turned(calib, k) if k else calib
    carried = register_view(p.calib, p._fit_frame, img) if p._fit_frame is not None else None
    if carried is not None:
        apart = nearest_turn(carried, calib)[1]
        if apart > SETTLE_AGREE_MM:  # the fresh fit, not the view, moved (c2h_9956: turned 2.5 degrees)
            p.warnings.append(f"t = {t:.2f} s: the fit at rest strays {apart:.1f} mm from the bump's fit carried "
                              "onto the view at rest; the carried fit is taken")
            calib = carried
            moved = nearest_turn(p.calib, calib)[1]
            if moved < SETTLE_REFIT_MM:
                return
    restart(p, calib, frame, img, t, index, settled=True)  # the same view, at rest
    p.warnings.append(f"board fitted again at t = {t:.2f} s, the camera at rest ({moved:.1f} mm from the last fit)")


def fit_again(p: Pipeline, frame: np.ndarray) -> tuple[Calibration, np.ndarray] | None:
    """The board fitted again on the median of the recent frames (it drops moving hands), else
    on ``frame``: the fit and the image it was made on, or None where neither shows it."""
    from tracker.calibration import calibrate_image

    for img in (median_frame(p._recent), frame):
        try:
            return calibrate_image(img, p.game, board=p.board_hint, south=p.south), img
        except TrackerError:
            continue
    return None


def restart(p: Pipeline, calib: Calibration, frame: np.ndarray, img: np.ndarray, t: float, index: int,
            **extra: Any) -> None:
    """Go on with a new fit of the board (``calib``, made on ``img``) from ``frame``: a new
    ``calibrated`` event (with ``extra``), the drift check's reference and the 20-hole's colour
    taken again."""
    p._start(calib, t, index, **extra)
    p._fit_frame = img
    set_drift(p, frame)
    if hasattr(p, "detector"):  # (tests may stand in for the fit and run no detector)
        p.detector.relearn_hole(img)


def nearest_turn(old: Calibration, new: Calibration) -> tuple[int, float]:
    """The quarter turn (0-3) of ``new``'s board frame nearest ``old``'s, and how far apart they
    then put the board: the mean distance, over the playing surface, between where the two fits
    put the same pixel (board mm)."""
    from tracker.boards import KoronaBoard
    from tracker.calibration.geometry import reprojection_error_mm

    b = old.board
    extent = b.half if isinstance(b, KoronaBoard) else b.surface_radius
    moves = [reprojection_error_mm(np.asarray(turned(new, k).homography, float),
                                   np.asarray(old.homography, float), extent, n=15)[0] for k in range(4)]
    k = int(np.argmin(moves))
    return k, float(moves[k])


def board_turn(p: Pipeline, calib: Calibration, image: np.ndarray) -> int:
    """Quarter turns (0-3, counter-clockwise) that carry the new fit's board frame onto the old
    one: a crokinole board looks the same turned by a quarter, so a fit from a camera on another
    side (a broadcast cutting to its second camera) names the seats by the new picture's bottom
    edge and every disc at rest lands elsewhere (triple.mp4: the cut after the shot turned the
    board 90 degrees; the two black discs left became new discs). The turn that puts the most
    resting discs on a disc found in the new view wins; the fit is kept as it is unless a turn
    matches more of them than none does, and at least half of them."""
    if p.game != "crokinole":
        return 0
    from tracker.detect.detector import DiscDetector

    rest = np.array([tr.position() for tr in p.tracker.tracks if tr.state == "rest"], float).reshape(-1, 2)
    if len(rest) < 2:
        return 0
    try:
        found = DiscDetector(calib, p.game).detect(image).xy
    except TrackerError:  # a look at the new view is a nicety: never fail the refit for it
        return 0
    return best_turn(rest, found, calib.board.disc_radius)


def best_turn(rest: np.ndarray, found: np.ndarray, radius: float) -> int:
    """Quarter turns of ``found`` (board mm) that put the most of ``rest`` within a radius of a
    found disc; 0 unless a turn beats no turn and matches at least half of ``rest``."""
    if not len(found) or not len(rest):
        return 0
    counts = []
    for k in range(4):
        c, s = np.cos(k * np.pi / 2), np.sin(k * np.pi / 2)
        q = found @ np.array([[c, s], [-s, c]])  # each row turned by k quarters
        d = np.hypot(rest[:, None, 0] - q[None, :, 0], rest[:, None, 1] - q[None, :, 1])
        counts.append(int((d.min(axis=1) < radius).sum()))
    k = int(np.argmax(counts))
    return k if counts[k] > counts[0] and 2 * counts[k] >= len(rest) else 0


def turned(calib: Calibration, k: int) -> Calibration:
    """``calib`` with its board frame turned ``k`` quarters counter-clockwise (image -> board mm
    followed by the turn)."""
    from dataclasses import replace

    c, s = np.cos(k * np.pi / 2), np.sin(k * np.pi / 2)
    R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    return replace(calib, homography=R @ np.asarray(calib.homography, float))
